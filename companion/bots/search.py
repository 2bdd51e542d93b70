"""Expectimax over the exact throw odds: the look-ahead of the strong bot, hints and W.

Values are White's chance to win (0..1). A *turn node* is a position whose side is about to
throw (or to decide instead, or to play on a split throw); its value is the average over the
throws the ruleset lists, weighted by their exact probabilities, of the best move for that throw
(the highest value for W, the lowest for B), or of the pass when there is none. Depth counts
throws; at depth 0 the static estimate of `companion.bots.evaluate` is used.

The search stops when its budget runs out: a number of nodes (positions generated), or a
deadline on an injected clock. Iterative deepening keeps the answer of the deepest search that
finished; depth 0 always finishes, so a move is always found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.bots.evaluate import Evaluator
from companion.bots.game import continuation_throw
from companion.rules import Player, Position, Ruleset, Transition

__all__ = ["Expectimax", "Ranked", "SearchLimits"]

_CHECK_EVERY = 64  # positions generated between two looks at the clock
_T = TypeVar("_T")


class _OutOfBudget(Exception):
    """Raised inside the search when the budget is spent; never leaves this module."""


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """How much a search may do: a time budget on ``clock`` and/or a node budget, and a depth."""

    budget_ms: float | None = 100.0
    max_nodes: int | None = None
    max_depth: int = 4
    clock: Callable[[], float] | None = None


@dataclass(frozen=True, slots=True)
class Ranked:
    """The moves for one throw with White's chance after each, best for the mover first."""

    moves: tuple[tuple[Transition, float], ...]
    depth: int  # the depth of the deepest search that finished
    nodes: int

    @property
    def best(self) -> Transition:
        return self.moves[0][0]


@dataclass(frozen=True, slots=True)
class _Ranking(Generic[_T]):
    moves: tuple[tuple[_T, float], ...]
    depth: int
    nodes: int


class Expectimax:
    """A chance-node search of one ruleset with one evaluator (positions cached per search)."""

    def __init__(self, rules: Ruleset, evaluator: Evaluator) -> None:
        self.rules = rules
        self.evaluator = evaluator
        self.nodes = 0
        self._deadline: float | None = None
        self._max_nodes: int | None = None
        self._clock: Callable[[], float] | None = None
        self._armed = False
        self._next_check = 0
        self._cache: dict[tuple[Position, int], float] = {}

    # -- public -------------------------------------------------------------------------------
    def value(self, position: Position, depth: int) -> float:
        """White's chance from ``position`` (a turn node) looking ``depth`` throws ahead."""
        self._arm(None)
        return self._turn(position, depth)

    def rank(self, position: Position, throw: int, limits: SearchLimits) -> Ranked:
        """The legal moves for ``throw``, best for the side to move first."""
        options = self.rules.transitions(position, throw)
        ranking = self._deepen(position.side, options, lambda t, d: self._turn(t.after, d), limits)
        return Ranked(ranking.moves, ranking.depth, ranking.nodes)

    def rank_decisions(
        self, position: Position, limits: SearchLimits
    ) -> tuple[tuple[Transition | None, float], ...]:
        """Throwing (None) and each decision of ``position``, best for the side to move first."""
        options: list[Transition | None] = [None, *self.rules.decisions(position)]

        def score(option: Transition | None, depth: int) -> float:
            if option is None:
                return self._throws(position, depth + 1)
            return self._turn(option.after, depth)

        return self._deepen(position.side, options, score, limits).moves

    # -- search -------------------------------------------------------------------------------
    def _deepen(
        self,
        side: Player,
        options: Sequence[_T],
        score: Callable[[_T, int], float],
        limits: SearchLimits,
    ) -> _Ranking[_T]:
        self._arm(limits)
        best: list[tuple[_T, float]] = []
        finished = -1
        for depth in range(limits.max_depth + 1):
            if depth > 0:
                self._armed = True  # depth 0 runs unchecked so that a move is always found
                if self._out():
                    break
            try:
                values = [(option, score(option, depth)) for option in options]
            except _OutOfBudget:
                break
            best, finished = values, depth
            if len(options) <= 1:
                break
        ordered = sorted(best, key=lambda pair: pair[1], reverse=side is Player.W)
        return _Ranking(tuple(ordered), finished, self.nodes)

    def _arm(self, limits: SearchLimits | None) -> None:
        self.nodes = 0
        self._next_check = 0
        self._armed = False
        self._clock = limits.clock if limits else None
        self._max_nodes = limits.max_nodes if limits else None
        self._deadline = None
        if limits and limits.clock and limits.budget_ms is not None:
            self._deadline = limits.clock() + limits.budget_ms / 1000.0
        self._cache.clear()  # a new question: values from an earlier search may be shallower

    def _out(self) -> bool:
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            return True
        return (
            self._deadline is not None
            and self._clock is not None
            and self._clock() >= self._deadline
        )

    def _tick(self, count: int) -> None:
        self.nodes += count
        if self._armed and self.nodes >= self._next_check:
            self._next_check = self.nodes + _CHECK_EVERY
            if self._out():
                raise _OutOfBudget

    def _turn(self, position: Position, depth: int) -> float:
        if depth <= 0 or self.rules.outcome(position) is not None:
            return self.evaluator.static(position)
        key = (position, depth)
        found = self._cache.get(key)
        if found is not None:
            return found
        value = self._throws(position, depth)
        white = position.side is Player.W
        if self.rules.needs_throw(position):
            for decision in self.rules.decisions(position):
                v = self._turn(decision.after, depth - 1)
                value = max(value, v) if white else min(value, v)
        self._cache[key] = value
        return value

    def _throws(self, position: Position, depth: int) -> float:
        if not self.rules.needs_throw(position):
            return self._after(position, continuation_throw(self.rules, position), depth)
        return sum(
            float(c.probability) * self._after(position, c.value, depth)
            for c in self.rules.throws(position)
        )

    def _after(self, position: Position, throw: int, depth: int) -> float:
        found, passed = self.rules.after_throw(position, throw)
        self._tick(1 + len(found))
        if not found:
            return self._turn(passed, depth - 1)
        values = [self._turn(t.after, depth - 1) for t in found]
        return max(values) if position.side is Player.W else min(values)
