import random
from fractions import Fraction

import pytest

from companion.bots import UnplayableRuleset, get_bot, play_game
from companion.bots.game import continuation_throw, draw_throw
from companion.rules import RULESETS, Chance, Effect, Player, Position, Transition, get_ruleset
from companion.rules.rulesets.playpalace import PlayPalace

FAMILIES = [name for name in RULESETS if not name.startswith("kendall-")]


class FixedBits(random.Random):
    """A generator whose next 53-bit draw is chosen by the test."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def getrandbits(self, k: int) -> int:
        return self.value


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        (Fraction(0), 1),
        (Fraction(4, 16) - Fraction(1, 1 << 53), 1),
        (Fraction(4, 16), 2),
        (Fraction(10, 16), 3),
        (Fraction(14, 16), 4),
        (Fraction(15, 16), 5),
        (Fraction((1 << 53) - 1, 1 << 53), 5),
    ],
)
def test_draw_throw_follows_the_exact_stick_odds(point: Fraction, expected: int) -> None:
    rules = get_ruleset("playpalace")
    bits = int(point * (1 << 53))
    assert draw_throw(rules, rules.start(), FixedBits(bits)) == expected


@pytest.mark.parametrize("name", FAMILIES)
def test_random_games_end_with_a_winner_and_only_legal_moves(name: str) -> None:
    rules = get_ruleset(name)
    for seed in range(3):
        bots = {side: get_bot("random", rules, rng=random.Random(seed)) for side in Player}
        record = play_game(rules, bots, random.Random(seed))
        assert record.winner is not None
        outcome = rules.outcome(record.final)
        assert outcome is not None and outcome.winner is record.winner
        position = rules.start()
        for ply in record.plies:
            if ply.throw is None:
                assert ply.transition in rules.decisions(position)
                position = ply.transition.after
                continue
            found, passed = rules.after_throw(position, ply.throw)
            if ply.transition is None:
                assert found == []
                position = passed
            else:
                assert ply.transition in found
                position = ply.transition.after
        assert position == record.final


def test_a_game_replays_exactly_from_its_seeds() -> None:
    rules = get_ruleset("d5")

    def play() -> tuple[object, ...]:
        bots = {side: get_bot("simple", rules, rng=random.Random(5)) for side in Player}
        return play_game(rules, bots, random.Random(11)).plies

    assert play() == play()


def test_game_record_counts() -> None:
    rules = get_ruleset("playpalace")
    bots = {side: get_bot("random", rules, rng=random.Random(2)) for side in Player}
    record = play_game(rules, bots, random.Random(2))
    assert record.moves + sum(1 for p in record.plies if p.transition is None) == len(record.plies)
    assert record.throws == len(record.plies)  # playpalace has no decisions
    assert 1 < record.turns <= record.throws
    assert record.effects().get(record.plies[-1].transition.effects.WIN, 0) == 1


def test_unfinished_games_stop_at_the_ply_limit() -> None:
    rules = get_ruleset("playpalace")
    bots = {side: get_bot("random", rules, rng=random.Random(1)) for side in Player}
    record = play_game(rules, bots, random.Random(1), max_plies=10)
    assert record.winner is None
    assert len(record.plies) == 10


class _SplitThrow(PlayPalace):
    """A test ruleset: after a 2 the mover plays a 1 on at once, without throwing."""

    name = "split-test"
    extra_keys = {"rest": "the part of the throw still to play"}

    def needs_throw(self, position: Position) -> bool:
        return position.extra("rest") is None and super().needs_throw(position)

    def throws(self, position: Position | None = None) -> tuple[Chance, ...]:
        if position is not None and position.extra("rest") is not None:
            return (Chance(int(position.extra("rest") or 0), Fraction(1)),)
        return super().throws(position)

    def transitions(self, position: Position, throw: int) -> list[Transition]:
        rest = position.extra("rest")
        found = super().transitions(position.with_extra("rest", None), throw)
        if throw == 2 and rest is None:
            found = [
                t._replace(after=t.after._replace(side=position.side).with_extra("rest", "1"))
                for t in found
                if not t.effects & Effect.WIN
            ]
        return found

    def pass_turn(self, position: Position, throw: int) -> Position:
        return super().pass_turn(position, throw).with_extra("rest", None)


def test_a_turn_goes_on_without_a_throw_while_the_ruleset_says_so() -> None:
    rules = _SplitThrow()
    position = rules.start().with_extra("rest", "1")
    assert continuation_throw(rules, position) == 1
    bots = {side: get_bot("simple", rules, rng=random.Random(3)) for side in Player}
    record = play_game(rules, bots, random.Random(3), max_plies=400)
    continued = [
        (before, after)
        for before, after in zip(record.plies, record.plies[1:], strict=False)
        if before.throw == 2 and before.transition is not None and after.side is before.side
    ]
    assert continued
    assert all(after.throw == 1 for _, after in continued)
    assert record.winner is not None


def test_a_ruleset_that_hides_the_continuing_throw_is_reported() -> None:
    class Broken(PlayPalace):
        name = "broken-test"

        def needs_throw(self, position: Position) -> bool:
            return False

    rules = Broken()
    with pytest.raises(UnplayableRuleset, match="exactly the one"):
        continuation_throw(rules, rules.start())
    with pytest.raises(RuntimeError):
        bots = {side: get_bot("random", rules, rng=random.Random(0)) for side in Player}
        play_game(rules, bots, random.Random(0))
