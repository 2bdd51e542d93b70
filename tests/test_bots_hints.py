import json

import pytest

from companion.bots.hints import hint
from companion.rules import NotationError, Player, Position, get_ruleset

POSITION = Position.parse("W.W.W..B......BB..W.....W.B..B W 0 0")


def test_hint_ranks_every_legal_move_best_first() -> None:
    rules = get_ruleset("playpalace")
    advice = hint(rules, POSITION, 3)
    assert {m.transition for m in advice.moves} == set(rules.transitions(POSITION, 3))
    chances = [m.chance_w for m in advice.moves]
    assert chances == sorted(chances, reverse=True)  # W to move: W's chance, highest first
    assert advice.best == advice.moves[0].transition
    assert advice.chance_w == chances[0]
    assert advice.chance(Player.W) + advice.chance(Player.B) == pytest.approx(1.0)


def test_hint_for_dark_ranks_by_dark_s_chance() -> None:
    rules = get_ruleset("playpalace")
    black = POSITION._replace(side=Player.B)
    advice = hint(rules, black, 2)
    chances = [m.chance_w for m in advice.moves]
    assert chances == sorted(chances)


def test_hint_is_the_same_every_time() -> None:
    rules = get_ruleset("basic")
    assert hint(rules, POSITION._replace(side=Player.B), 4) == hint(
        rules, POSITION._replace(side=Player.B), 4
    )


def test_hint_without_a_legal_move_gives_the_chances_after_the_pass() -> None:
    rules = get_ruleset("playpalace")
    stuck = Position.parse("..........................BWWW B 2 4")
    advice = hint(rules, stuck, 2)
    assert advice.best is None and advice.moves == ()
    assert 0.0 <= advice.chance_w <= 1.0
    assert advice.to_json()["best"] is None


def test_hint_is_json_for_the_page() -> None:
    rules = get_ruleset("d5")
    data = hint(rules, POSITION, 5).to_json()
    text = json.dumps(data)
    assert json.loads(text)["chances"]["W"] + json.loads(text)["chances"]["B"] == pytest.approx(1)
    assert data["best"] == data["moves"][0]["move"]


def test_a_throw_the_ruleset_cannot_make_is_refused() -> None:
    rules = get_ruleset("playpalace")
    with pytest.raises(NotationError, match="throw"):
        hint(rules, POSITION, 6)
