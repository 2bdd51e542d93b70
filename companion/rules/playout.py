"""Playing whole games with an injected source of randomness: for tests, benchmarks, statistics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import NamedTuple, Protocol, TypeVar

from companion.rules.base import Outcome, Ruleset, Transition
from companion.rules.position import Position

__all__ = ["Playout", "Random", "random_playout", "throw_sampler"]

T = TypeVar("T")


class Random(Protocol):
    """What the engine needs of a random source (`random.Random` has it)."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T]) -> T: ...


class Playout(NamedTuple):
    outcome: Outcome | None  # None if the ply limit was reached first
    plies: int  # decision points played: throws, moves, passes and decisions
    final: Position


def throw_sampler(rules: Ruleset, rng: Random) -> Callable[[], int]:
    """A function drawing throws with the ruleset's exact odds from ``rng``."""
    chances = rules.throws()
    values = [c.value for c in chances]
    bounds = list(accumulate(float(c.probability) for c in chances))

    def draw() -> int:
        x = rng.random()
        for value, bound in zip(values, bounds, strict=True):
            if x < bound:
                return value
        return values[-1]

    return draw


def random_playout(
    rules: Ruleset,
    rng: Random,
    start: Position | None = None,
    max_plies: int = 20_000,
    observe: Callable[[Position, int | None, Transition | None, Position], None] | None = None,
) -> Playout:
    """Play a game of uniformly random legal choices; ``observe(before, throw, t, after)`` sees
    every step (``t`` is None for a pass)."""
    position = rules.start() if start is None else start
    draw = throw_sampler(rules, rng)
    plies = 0
    while plies < max_plies:
        if rules.outcome(position) is not None:
            break
        plies += 1
        if rules.needs_throw(position):
            choices = rules.decisions(position)
            if choices and rng.random() < 0.5:
                t = rng.choice(choices)
                if observe:
                    observe(position, None, t, t.after)
                position = t.after
                continue
            throw: int | None = draw()
        else:
            throw = rules.pending_throw(position)
        assert throw is not None
        found, passed = rules.after_throw(position, throw)
        if found:
            t = rng.choice(found)
            if observe:
                observe(position, throw, t, t.after)
            position = t.after
        else:
            if observe:
                observe(position, throw, None, passed)
            position = passed
    return Playout(rules.outcome(position), plies, position)
