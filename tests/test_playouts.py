"""Seeded random games for every ruleset, checking invariants at every step."""

import random

import pytest

from companion.rules import RULESETS, Effect, Position, Transition, get_ruleset
from companion.rules.playout import random_playout

GAMES = 60


@pytest.mark.parametrize("name", list(RULESETS))
def test_random_games_keep_the_invariants(name: str) -> None:
    rules = get_ruleset(name)
    steps = 0

    def check(before: Position, throw: int | None, t: Transition | None, after: Position) -> None:
        nonlocal steps
        steps += 1
        # Every position is well-formed, round-trips, and accounts for every piece.
        assert Position.parse(after.notation()) == after
        rules.validate(after)
        for side in before.side, before.side.other:
            assert after.board.count(side.value) + after.off(side) + rules.in_hand(after, side) == (
                rules.pieces
            )
        if t is None:
            return
        moves = [
            m.move for m in (rules.transitions(before, throw) if throw else rules.decisions(before))
        ]
        assert len(moves) == len(set(moves)), "a move is listed twice"
        if rules.outcome(after) is not None:
            assert t.effects & Effect.WIN
            return
        same = after.side is before.side
        keeps = bool(t.effects & (Effect.BONUS | Effect.CONTINUE))
        assert same is keeps, f"{before!r} {throw} {t.move}: side after is {after.side}"

    rng = random.Random(f"playouts-{name}")
    lengths = []
    for _ in range(GAMES):
        result = random_playout(rules, rng, observe=check)
        assert result.outcome is not None, f"game did not end: {result.final!r}"
        lengths.append(result.plies)
    assert steps == sum(lengths)  # every throw, move, pass and decision was checked
    assert min(lengths) > 10


def test_playouts_are_reproducible() -> None:
    rules = get_ruleset("playpalace")
    a = random_playout(rules, random.Random(7))
    b = random_playout(rules, random.Random(7))
    assert a == b
