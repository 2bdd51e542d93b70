"""The three bots: ``random``, ``simple`` (one look at each move) and ``strong`` (expectimax).

Every bot works on any ruleset through the engine's generic API. Randomness (tie-breaks, the
random bot) comes from an injected `random.Random`; the strong bot's time budget runs on an
injected clock, so that a test can fix the work by a node budget instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.bots.errors import NoChoice, UnknownBot
from companion.bots.evaluate import Evaluator, heuristic
from companion.bots.game import Bot
from companion.bots.search import Expectimax, Ranked, SearchLimits
from companion.rules import Player, Position, Ruleset, Transition, get_ruleset

__all__ = ["LEVELS", "RandomBot", "SimpleBot", "StrongBot", "get_bot"]

LEVELS = ("random", "simple", "strong")
DEFAULT_BUDGET_MS = 100.0  # leaves room under 200 ms for a busy machine


def _moves(rules: Ruleset, position: Position, throw: int) -> list[Transition]:
    found = rules.transitions(position, throw)
    if not found:
        raise NoChoice(
            f"no legal move for a throw of {throw} in {position.notation()}: the turn passes"
            " (rules.after_throw gives the position after the pass)"
        )
    return found


@dataclass
class RandomBot:
    """Picks uniformly among the legal moves (and among throwing or each decision)."""

    rules: Ruleset
    rng: random.Random = field(default_factory=random.Random)
    level: str = "random"

    def choose(self, position: Position, throw: int) -> Transition:
        return self.rng.choice(_moves(self.rules, position, throw))

    def decide(self, position: Position) -> Transition | None:
        options: list[Transition | None] = [None, *self.rules.decisions(position)]
        return self.rng.choice(options)


@dataclass
class SimpleBot:
    """Looks once at each move and plays the one whose result `heuristic` likes best
    (the seed 000 "simple" bot: a heuristic evaluation, ties broken at random)."""

    rules: Ruleset
    rng: random.Random = field(default_factory=random.Random)
    level: str = "simple"

    def choose(self, position: Position, throw: int) -> Transition:
        found = _moves(self.rules, position, throw)
        if len(found) == 1:
            return found[0]
        return self._best(found, position.side)

    def decide(self, position: Position) -> Transition | None:
        decisions = self.rules.decisions(position)
        if not decisions:
            return None
        me = position.side
        throwing = 0.0
        for chance in self.rules.throws(position):
            found, passed = self.rules.after_throw(position, chance.value)
            results = [t.after for t in found] or [passed]
            best = max(heuristic(self.rules, p, me) for p in results)
            throwing += float(chance.probability) * best
        choice = self._best(decisions, me)
        return choice if heuristic(self.rules, choice.after, me) > throwing else None

    def _best(self, options: list[Transition], player: Player) -> Transition:
        scored = [(heuristic(self.rules, t.after, player), t) for t in options]
        top = max(score for score, _ in scored)
        return self.rng.choice([t for score, t in scored if score == top])


@dataclass
class StrongBot:
    """Expectimax over the exact throw odds with the fitted evaluation, within a budget."""

    rules: Ruleset
    limits: SearchLimits = field(default_factory=SearchLimits)
    level: str = "strong"
    last: Ranked | None = field(default=None, repr=False)  # the last search, for inspection

    def __post_init__(self) -> None:
        self._search = Expectimax(self.rules, Evaluator(self.rules))

    def choose(self, position: Position, throw: int) -> Transition:
        found = _moves(self.rules, position, throw)
        if len(found) == 1:
            return found[0]
        self.last = self._search.rank(position, throw, self.limits)
        return self.last.best

    def decide(self, position: Position) -> Transition | None:
        if not self.rules.decisions(position):
            return None
        return self._search.rank_decisions(position, self.limits)[0][0]


def get_bot(
    level: str,
    ruleset: Ruleset | str,
    *,
    rng: random.Random | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    clock: Callable[[], float] | None = None,
    max_nodes: int | None = None,
    max_depth: int = 4,
) -> Bot:
    """A bot of ``level`` (``random``, ``simple`` or ``strong``) for ``ruleset``.

    ``rng`` breaks ties and drives the random bot (a fresh unseeded one if left out). The strong
    bot thinks for at most ``budget_ms`` on ``clock`` (``time.perf_counter`` if left out) and/or
    ``max_nodes`` search nodes, and at most ``max_depth`` throws ahead; ``budget_ms=None`` leaves
    only the node budget and the depth, which makes its play independent of the machine.
    """
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    rng = rng if rng is not None else random.Random()
    if level == "random":
        return RandomBot(rules, rng)
    if level == "simple":
        return SimpleBot(rules, rng)
    if level == "strong":
        if budget_ms is not None and clock is None:
            clock = time.perf_counter
        return StrongBot(rules, SearchLimits(budget_ms, max_nodes, max_depth, clock))
    raise UnknownBot(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
