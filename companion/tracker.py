"""Following the pieces on a presence board: which legal move was made, or what is wrong.

A presence board senses only *which* squares hold a piece, never whose piece, and pieces are
lifted, slid and put down by hand. The tracker is pure: the game loop hands it the position,
the legal moves of the throw and what the sensors said when (`Watch`), and `judge` answers with a
`Verdict`. It recognises a move only when the board has been still for the settle time and
matches the position after exactly one legal move (so a piece slid across other squares never
counts), takes a swap from the lifts it saw, accepts a piece put first on the square it landed
on (the House of Waters, a rebirth square) and waits a pause before taking a lifted piece as
borne off. Anything else, once it has stood still a little longer, is a `Mismatch` with the
steps that bring the board back to the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.rules import HAND, OFF, Effect, Move, Player, Position, Refusal, Ruleset, Transition

__all__ = [
    "Ambiguous",
    "Matches",
    "Mismatch",
    "Pending",
    "Recognised",
    "Settling",
    "TrackerSettings",
    "Verdict",
    "Watch",
    "board_fix",
    "judge",
    "landing",
    "occupancy",
    "refusal",
]


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    """How long the board must stand still, in seconds of the injected clock."""

    settle: float = 0.4  # before a still board is read at all
    bear_off_pause: float = 2.5  # before a lifted piece counts as borne off
    mistake_delay: float = 2.0  # before a board that matches nothing is called a mistake


@dataclass(frozen=True, slots=True)
class Watch:
    """What the sensors reported since the turn step began: the occupied squares now, when
    they last changed, and every square that changed at some point (``touched``)."""

    sensed: frozenset[int]
    changed_at: float = 0.0
    touched: frozenset[int] = frozenset()

    def see(self, sensed: frozenset[int], now: float) -> Watch:
        if sensed == self.sensed:
            return self
        return Watch(sensed, now, self.touched | (sensed ^ self.sensed))

    def fresh(self, now: float) -> Watch:
        """The same board, with the history forgotten (a new turn step begins)."""
        return Watch(self.sensed, now, frozenset())


@dataclass(frozen=True, slots=True)
class Settling:
    """The board moved too recently to be read."""


@dataclass(frozen=True, slots=True)
class Matches:
    """The board is as the game expects; nothing was moved (or a move was taken back)."""


@dataclass(frozen=True, slots=True)
class Recognised:
    """The board shows ``transition`` (perhaps with a piece still on its landing square)."""

    transition: Transition


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """The board fits several legal moves: a person must say which one was made."""

    transitions: tuple[Transition, ...]


@dataclass(frozen=True, slots=True)
class Pending:
    """The board fits a move that needs a longer pause (bearing off), or is mid-move."""

    transition: Transition | None = None


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The board fits no legal move: announcement ``key`` with ``params`` says what to do."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    extra: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()


Verdict = Settling | Matches | Recognised | Ambiguous | Pending | Mismatch


def occupancy(position: Position) -> frozenset[int]:
    """The squares a presence board should sense for ``position``."""
    return frozenset(i + 1 for i, ch in enumerate(position.board) if ch != ".")


def landing(position: Position, t: Transition) -> frozenset[int] | None:
    """The board with the moving piece still on the square it landed on, when the move then
    sends it elsewhere (the House of Waters, rebirth); None for every other move."""
    start, end = t.move
    if start == HAND or end == OFF or position.board[end - 1] != ".":
        return None
    board = (occupancy(position) - {start}) | {end}
    return board if board != occupancy(t.after) else None


def refusal(rules: Ruleset, position: Position, throw: int | None, move: Move) -> Refusal:
    """Why ``move`` is not allowed, as a refusal code (the engine's `why_not`, as data)."""
    if rules.outcome(position) is not None:
        return Refusal("game-over")
    if move.start != HAND and position.at(move.start) is not position.side:
        return Refusal("no-piece", (move.start,))
    if throw is None:
        return Refusal("locked", (move.start,))
    for t in rules.transitions(position, throw):
        if t.move.start == move.start:
            return Refusal("elsewhere", (move.start, t.move.end))
    return rules.refusals(position, throw).get(move.start) or Refusal("locked", (move.start,))


def judge(
    watch: Watch,
    now: float,
    position: Position,
    candidates: Sequence[Transition],
    *,
    rules: Ruleset,
    throw: int | None,
    settings: TrackerSettings = TrackerSettings(),
    ignored: frozenset[int] = frozenset(),
    force: bool = False,
) -> Verdict:
    """Read the board of ``watch`` against ``position`` and the legal ``candidates``.

    ``force`` reads the board as it is, without waiting for it to settle (the turn is ending:
    the next throw came). ``ignored`` squares have faulty sensors and are left out.
    """
    still = now - watch.changed_at
    if not force and still < settings.settle:
        return Settling()
    sensed = watch.sensed - ignored
    expected = occupancy(position) - ignored
    if sensed == expected:
        return _unchanged(watch, expected, candidates, ignored)
    matches = [t for t in candidates if sensed in _shapes(position, t, ignored)]
    if matches:
        if not force and still < settings.bear_off_pause:
            waiting = [t for t in matches if t.effects & Effect.BEAR_OFF]
            if len(waiting) == len(matches):
                return Pending(waiting[0])
        if len(matches) == 1:
            return Recognised(matches[0])
        return Ambiguous(tuple(matches))
    if not force and still < settings.mistake_delay:
        return Pending()
    return mismatch(rules, position, throw, candidates, sensed, expected)


def _shapes(position: Position, t: Transition, ignored: frozenset[int]) -> list[frozenset[int]]:
    shapes = [occupancy(t.after) - ignored]
    land = landing(position, t)
    if land is not None:
        shapes.append(land - ignored)
    return shapes


def _unchanged(
    watch: Watch,
    expected: frozenset[int],
    candidates: Sequence[Transition],
    ignored: frozenset[int],
) -> Verdict:
    if not watch.touched or not candidates:
        return Matches()
    swaps = [
        t
        for t in candidates
        if t.effects & Effect.SWAP and {t.move.start, t.move.end} <= watch.touched
    ]
    if len(swaps) == 1:
        return Recognised(swaps[0])
    if swaps:
        return Ambiguous(tuple(swaps))
    # Pieces were touched and the board is as before. If every legal move leaves the board
    # looking like this, a move was made that the sensors could not tell apart.
    same = [t for t in candidates if occupancy(t.after) - ignored == expected]
    if same and len(same) == len(candidates) and watch.touched & _squares(same):
        return Recognised(same[0]) if len(same) == 1 else Ambiguous(tuple(same))
    return Matches()


def _squares(transitions: Sequence[Transition]) -> frozenset[int]:
    return frozenset(s for t in transitions for s in t.move if 1 <= s <= 30)


def mismatch(
    rules: Ruleset,
    position: Position,
    throw: int | None,
    candidates: Sequence[Transition],
    sensed: frozenset[int],
    expected: frozenset[int],
) -> Mismatch:
    """The words for a board that fits no legal move, and the steps back to ``position``."""
    missing = tuple(sorted(expected - sensed))
    extra = tuple(sorted(sensed - expected))
    fix = board_fix(position, sensed, expected)
    mover = position.side
    if len(missing) == 1 and position.at(missing[0]) is mover and candidates:
        start = missing[0]
        own = [t for t in candidates if t.move.start == start]
        if not extra and own:
            end = own[0].move.end
            steps = [_step("fix-move", **{"from": start, "to": end})]
            return Mismatch("mistake-finish-move", {"fix": steps}, extra, missing)
        if len(extra) <= 1:
            to = extra[0] if extra else OFF
            why = refusal(rules, position, throw, Move(start, to))
            params = {"from": start, "to": to, "reason": why.code, "squares": list(why.squares)}
            if not extra:
                fix = [_step("fix-put-back", square=start)]
                return Mismatch("mistake-lifted", {**params, "fix": fix}, extra, missing)
            return Mismatch("mistake-move", {**params, "fix": fix}, extra, missing)
    if throw is None and rules.outcome(position) is None:
        return Mismatch("mistake-not-yet", {"fix": fix}, extra, missing)
    return Mismatch("mistake-board", {"fix": fix}, extra, missing)


def board_fix(
    position: Position, sensed: frozenset[int], expected: frozenset[int]
) -> list[dict[str, Any]]:
    """The physical steps, square by square, that make ``sensed`` match ``expected``."""
    missing = sorted(expected - sensed)
    extra = sorted(sensed - expected)
    if len(missing) == 1 and len(extra) == 1:
        return [_step("fix-move", **{"from": extra[0], "to": missing[0]})]
    steps = []
    for square in missing:
        owner = position.at(square)
        side = owner.value if owner else Player.W.value
        steps.append(_step("fix-place-side", square=square, side=side))
    steps.extend(_step("fix-remove", square=square) for square in extra)
    return steps


def _step(key: str, **params: Any) -> dict[str, Any]:
    return {"key": key, "params": params}
