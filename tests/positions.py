"""Building positions for tests by naming the squares of each side's pieces."""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules import Player, Position, Ruleset


def pos(
    w: Iterable[int],
    b: Iterable[int],
    side: str = "W",
    off: tuple[int, int] = (0, 0),
    extra: str = "",
) -> Position:
    cells = ["."] * 30
    for square in w:
        cells[square - 1] = "W"
    for square in b:
        assert cells[square - 1] == ".", f"square {square} given twice"
        cells[square - 1] = "B"
    text = f"{''.join(cells)} {side} {off[0]} {off[1]}" + (f" {extra}" if extra else "")
    return Position.parse(text)


def moves(rules: Ruleset, position: Position, throw: int) -> dict[str, Position]:
    """The legal moves for ``throw`` as {notation: position after}."""
    rules.validate(position)
    return {t.move.notation(): t.after for t in rules.transitions(position, throw)}


def squares(position: Position) -> tuple[list[int], list[int]]:
    """(W squares, B squares) of a position."""
    return position.squares_of(Player.W), position.squares_of(Player.B)
