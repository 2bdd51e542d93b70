"""Helpers for the tests: how a person carries out a move on a presence board, as script lines."""

from __future__ import annotations

from companion.rules import HAND, OFF, Effect, Position, Transition
from companion.tracker import landing, occupancy


def hands(before: Position, t: Transition) -> list[str]:
    """Script lines for making ``t`` by hand: lift, place, with the landing square first
    (the House of Waters, rebirth) when the move sends the piece on."""
    start, end = t.move
    lines = [f"lift {start}"] if start != HAND else []
    if end == OFF:
        return lines
    if before.board[end - 1] != ".":
        lines.append(f"lift {end}")
    land = landing(before, t)
    if land is not None:
        lines += [f"place {end}", "wait 0.5", f"lift {end}"]
    now = occupancy(before) - {start, end} if before.board[end - 1] != "." else None
    target = occupancy(t.after)
    current = (occupancy(before) - {start}) - ({end} if now is not None else set())
    if land is not None:
        current = current - {end}
    for square in sorted(target - current):
        lines.append(f"place {square}")
    for square in sorted(current - target):
        lines.append(f"lift {square}")
    return lines


def settle(t: Transition) -> str:
    """The wait after a move: a borne-off piece needs the longer pause."""
    return "wait 3" if t.effects & Effect.BEAR_OFF else "wait 0.5"
