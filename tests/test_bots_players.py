import random
from collections.abc import Iterator

import pytest

from companion.bots import LEVELS, NoChoice, StrongBot, UnknownBot, get_bot, play_game
from companion.rules import RULESETS, Player, Position, Ruleset, get_ruleset

FAMILIES = [name for name in RULESETS if not name.startswith("kendall-")]


def positions(rules: Ruleset, seed: int, count: int) -> Iterator[tuple[Position, int]]:
    """Positions and throws with at least one legal move, from a seeded random playout."""
    rng = random.Random(seed)
    bots = {side: get_bot("random", rules, rng=rng) for side in Player}
    record = play_game(rules, bots, rng)
    position = rules.start()
    found = 0
    for ply in record.plies:
        if ply.transition is not None and ply.throw is not None:
            yield position, ply.throw
            found += 1
            if found == count:
                return
        position = ply.transition.after if ply.transition else position
        if ply.transition is None:
            position = rules.after_throw(position, ply.throw or 0)[1]


class StepClock:
    """A clock that advances by ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_plays_legal_moves_in_every_ruleset(name: str, level: str) -> None:
    rules = get_ruleset(name)
    bot = get_bot(level, rules, rng=random.Random(1), budget_ms=None, max_nodes=300)
    for position, throw in positions(rules, 4, 12):
        chosen = bot.choose(position, throw)
        assert chosen in rules.transitions(position, throw)


def test_unknown_level_is_a_lookup_error_naming_the_choices() -> None:
    with pytest.raises(UnknownBot, match="random, simple, strong"):
        get_bot("grandmaster", "playpalace")
    with pytest.raises(LookupError):
        get_bot("grandmaster", "playpalace")


def test_a_bot_asked_to_move_without_a_legal_move_says_so() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("..........................BWWW B 2 4")
    assert rules.transitions(position, 2) == []
    for level in LEVELS:
        with pytest.raises(NoChoice, match="turn passes"):
            get_bot(level, rules, budget_ms=None, max_nodes=100).choose(position, 2)


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_good_bots_stay_out_of_the_water(level: str) -> None:
    rules = get_ruleset("playpalace")
    # 26-27 falls back to 15; 20-21 is a plain step forward.
    position = Position.parse("B.B.W.W.W..........W.....W..BB W 0 0")
    assert {t.move.notation() for t in rules.transitions(position, 1)} >= {"26-27", "20-21"}
    bot = get_bot(level, rules, rng=random.Random(0), budget_ms=None, max_nodes=3000)
    assert bot.choose(position, 1).move.notation() != "26-27"


def test_strong_bot_is_deterministic_under_a_node_budget() -> None:
    rules = get_ruleset("basic")
    cases = list(positions(rules, 9, 8))

    def choices() -> list[str]:
        bot = get_bot("strong", rules, budget_ms=None, max_nodes=500)
        return [bot.choose(p, t).move.notation() for p, t in cases]

    assert choices() == choices()


def test_strong_bot_stops_when_the_injected_clock_runs_out() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.W..B......BB..W.....W.B..B W 0 0")
    slow = StepClock(0.010)  # every read of the clock costs 10 ms: the budget is gone at once
    bot = get_bot("strong", rules, budget_ms=20, clock=slow, max_depth=4)
    assert isinstance(bot, StrongBot)
    chosen = bot.choose(position, 3)
    assert chosen in rules.transitions(position, 3)
    assert bot.last is not None and bot.last.depth < 4
    roomy = StepClock(1e-9)
    deep = get_bot("strong", rules, budget_ms=1000, clock=roomy, max_depth=2)
    assert isinstance(deep, StrongBot)
    deep.choose(position, 3)
    assert deep.last is not None and deep.last.depth == 2


def test_node_budget_limits_the_search() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.W..B......BB..W.....W.B..B W 0 0")
    bot = get_bot("strong", rules, budget_ms=None, max_nodes=50, max_depth=4)
    assert isinstance(bot, StrongBot)
    bot.choose(position, 3)
    assert bot.last is not None
    assert bot.last.depth < 4
    assert bot.last.nodes <= 50 + 64 + 10


def test_isac_decision_to_leave_the_water_is_offered_to_every_bot() -> None:
    rules = get_ruleset("isac")
    position = Position.parse("W.W.W.....W.........BBBBB.W... W 0 0")
    decisions = rules.decisions(position)
    assert len(decisions) == 1
    for level in LEVELS:
        bot = get_bot(level, rules, rng=random.Random(2), budget_ms=None, max_nodes=2000)
        assert bot.decide(position) in (None, decisions[0])
    # Without a piece in the water there is nothing to decide.
    quiet = Position.parse("W.W.W.....W..W......BBBBB..... W 0 0")
    for level in LEVELS:
        bot = get_bot(level, rules, rng=random.Random(2), budget_ms=None, max_nodes=100)
        assert bot.decide(quiet) is None


def test_strong_beats_random_in_a_short_match() -> None:
    rules = get_ruleset("playpalace")
    wins = 0
    for seed in range(6):
        strong = get_bot("strong", rules, budget_ms=None, max_depth=1)
        weak = get_bot("random", rules, rng=random.Random(seed))
        bots = (
            {Player.W: strong, Player.B: weak} if seed % 2 else {Player.B: strong, Player.W: weak}
        )
        record = play_game(rules, bots, random.Random(seed))
        wins += bots[record.winner] is strong
    assert wins >= 5
