"""Self-play: the turn flow of any ruleset, driven by bots, with the throws drawn at the edge.

A turn is: the side to move may make a decision instead of throwing (``rules.decisions``); else a
throw is drawn with the ruleset's exact odds (``rules.throws``) and ``rules.after_throw`` gives the
legal moves, or the position after a pass. While ``rules.needs_throw`` is False the same side
plays on without throwing (the rest of a split throw): ``rules.pending_throw`` says with what
(or, failing that, the one throw listed by ``rules.throws(position)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from companion.bots.errors import UnplayableRuleset
from companion.rules import Effect, Player, Position, Ruleset, Transition

__all__ = [
    "Bot",
    "GameRecord",
    "Ply",
    "continuation_throw",
    "draw_throw",
    "play_game",
]

MAX_PLIES = 4000  # a game still running after this many throws is recorded as unfinished


class Bot(Protocol):
    """A computer opponent: picks a move for a throw, and says whether to decide instead."""

    level: str

    def choose(self, position: Position, throw: int) -> Transition:
        """The move to play with ``throw``; `NoChoice` if there is no legal move."""
        ...

    def decide(self, position: Position) -> Transition | None:
        """A decision to make instead of throwing (see ``rules.decisions``), or None to throw."""
        ...


def draw_throw(rules: Ruleset, position: Position, rng: random.Random) -> int:
    """A throw drawn with the exact odds the ruleset lists for ``position``."""
    chances = rules.throws(position)
    point = Fraction(rng.getrandbits(53), 1 << 53)
    total = Fraction(0)
    for chance in chances:
        total += chance.probability
        if point < total:
            return chance.value
    return chances[-1].value


def continuation_throw(rules: Ruleset, position: Position) -> int:
    """The throw a side plays on with when ``rules.needs_throw`` is False."""
    pending = rules.pending_throw(position)
    if pending is not None:
        return pending
    chances = rules.throws(position)
    if len(chances) != 1:
        raise UnplayableRuleset(
            f"{rules.name} says the turn goes on without a throw in {position.notation()},"
            f" but gives no pending throw and lists {len(chances)} possible throws; it must list"
            " exactly the one that continues the turn"
        )
    return chances[0].value


@dataclass(frozen=True, slots=True)
class Ply:
    """One step of a game: a throw and what came of it, or a decision (throw None)."""

    side: Player
    throw: int | None
    transition: Transition | None  # None: no legal move, the turn passed
    options: int = 0  # how many moves (or, for a decision, choices) the bot had
    seconds: float = 0.0  # time the bot took to choose (measured only with a clock)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished self-play game."""

    ruleset: str
    first: Player
    winner: Player | None  # None: unfinished after MAX_PLIES throws
    final: Position
    plies: tuple[Ply, ...] = field(repr=False)

    @property
    def throws(self) -> int:
        return sum(1 for p in self.plies if p.throw is not None)

    @property
    def moves(self) -> int:
        return sum(1 for p in self.plies if p.transition is not None)

    @property
    def turns(self) -> int:
        """Changes of the side to move, plus one: how many turns were played."""
        count, last = 0, None
        for p in self.plies:
            if p.side is not last:
                count, last = count + 1, p.side
        return count

    def effects(self) -> dict[Effect, int]:
        counts: dict[Effect, int] = {}
        for p in self.plies:
            if p.transition is not None:
                for effect in p.transition.effects:
                    counts[effect] = counts.get(effect, 0) + 1
        return counts


def play_game(
    rules: Ruleset,
    bots: Mapping[Player, Bot],
    rng: random.Random,
    *,
    clock: Callable[[], float] | None = None,
    start: Position | None = None,
    max_plies: int = MAX_PLIES,
) -> GameRecord:
    """Play one game between ``bots`` (one per side) with throws drawn from ``rng``.

    With a ``clock``, each ply records how long the bot took to choose. Bots see positions and
    throws only, never the generator that draws the throws.
    """
    position = start if start is not None else rules.start()
    first = position.side
    plies: list[Ply] = []
    while rules.outcome(position) is None and len(plies) < max_plies:
        side = position.side
        bot = bots[side]
        if rules.needs_throw(position):
            choices = rules.decisions(position)
            if choices:
                began = clock() if clock else 0.0
                decision = bot.decide(position)
                took = clock() - began if clock else 0.0
                if decision is not None:
                    plies.append(Ply(side, None, decision, len(choices) + 1, took))
                    position = decision.after
                    continue
            throw = draw_throw(rules, position, rng)
        else:
            throw = continuation_throw(rules, position)
        found, passed = rules.after_throw(position, throw)
        if not found:
            plies.append(Ply(side, throw, None))
            position = passed
            continue
        began = clock() if clock else 0.0
        chosen = bot.choose(position, throw)
        took = clock() - began if clock else 0.0
        plies.append(Ply(side, throw, chosen, len(found), took))
        position = chosen.after
    outcome = rules.outcome(position)
    return GameRecord(
        rules.name, first, outcome.winner if outcome else None, position, tuple(plies)
    )
