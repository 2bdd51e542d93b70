import random

import pytest

from companion.bots.evaluate import Evaluator, win_chance
from companion.bots.search import Expectimax, SearchLimits
from companion.rules import Player, Position, Ruleset, get_ruleset


class Flat(Evaluator):
    """Every unfinished position is worth one half: the search's arithmetic shows plainly."""

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules, (0.0,) * 7)


def test_one_throw_ahead_is_the_exact_average_over_the_stick_odds() -> None:
    rules = get_ruleset("playpalace")
    # W's last piece waits on 30 for a 1 (4 chances in 16); anything else passes.
    position = Position.parse(".B.B.B.B.B...................W W 4 0")
    search = Expectimax(rules, Flat(rules))
    assert search.value(position, 1) == pytest.approx(4 / 16 * 1.0 + 12 / 16 * 0.5)


def test_b_minimises_white_s_chance() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.W.W......................B B 0 4")
    search = Expectimax(rules, Flat(rules))
    assert search.value(position, 1) == pytest.approx(4 / 16 * 0.0 + 12 / 16 * 0.5)


def test_finished_games_are_certain() -> None:
    rules = get_ruleset("d5")
    won = Position.parse(".B.B.B.B.B.................... B 5 0")
    assert win_chance(rules, won) == 1.0
    lost = Position.parse("W.W.W.W.W..................... W 0 5")
    assert win_chance(rules, lost) == 0.0


def test_ranking_puts_the_mover_s_best_first() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.W..B......BB..W.....W.B..B W 0 0")
    ranked = Expectimax(rules, Evaluator(rules)).rank(position, 3, SearchLimits(None, None, 1))
    values = [v for _, v in ranked.moves]
    assert values == sorted(values, reverse=True)
    assert {t for t, _ in ranked.moves} == set(rules.transitions(position, 3))
    black = position._replace(side=Player.B)
    ranked = Expectimax(rules, Evaluator(rules)).rank(black, 3, SearchLimits(None, None, 1))
    values = [v for _, v in ranked.moves]
    assert values == sorted(values)


def test_deeper_search_sees_the_same_position_the_same_way_each_time() -> None:
    rules = get_ruleset("isac")
    position = rules.start()
    a = Expectimax(rules, Evaluator(rules)).value(position, 2)
    b = Expectimax(rules, Evaluator(rules)).value(position, 2)
    assert a == b
    assert 0.0 < a < 1.0


def test_decisions_are_weighed_against_throwing() -> None:
    rules = get_ruleset("isac")
    # W's piece sits in the water; everything else is far from home.
    position = Position.parse("W.W.W.....W.........BBBBB.W... W 0 0")
    ranked = Expectimax(rules, Evaluator(rules)).rank_decisions(
        position, SearchLimits(None, None, 1)
    )
    assert {option for option, _ in ranked} == {None, *rules.decisions(position)}
    assert all(0.0 <= v <= 1.0 for _, v in ranked)


@pytest.mark.parametrize("name", ["playpalace", "basic", "isac", "d5"])
def test_win_chance_favours_the_side_far_ahead(name: str) -> None:
    rules = get_ruleset(name)
    ahead = Position.parse("B.B.B.B.B........W.W.W.W.W.... B 0 0")
    if name == "isac":
        ahead = ahead.with_extra("opening", None)
    assert win_chance(rules, rules.validate(ahead)) > 0.7
    assert win_chance(rules, rules.validate(ahead._replace(side=Player.W))) > 0.7


def test_win_chance_at_the_start_is_close_to_even() -> None:
    for name in ("playpalace", "basic", "d5"):
        rules = get_ruleset(name)
        assert 0.3 < win_chance(rules, rules.start()) < 0.7


def test_random_positions_stay_within_bounds() -> None:
    rules = get_ruleset("basic")
    rng = random.Random(3)
    for _ in range(20):
        cells = ["."] * 30
        squares = rng.sample(range(30), 10)
        for i, square in enumerate(squares):
            cells[square] = "W" if i < 5 else "B"
        position = Position("".join(cells), rng.choice([Player.W, Player.B]))
        assert 0.0 <= win_chance(rules, position) <= 1.0
