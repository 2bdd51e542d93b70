"""A plain-text picture of a position, laid out as the board is (the track runs in an S)."""

from __future__ import annotations

from companion.rules.position import Position

__all__ = ["diagram"]

_ROWS = (range(1, 11), range(20, 10, -1), range(21, 31))


def diagram(position: Position, marks: dict[int, str] | None = None) -> str:
    """Three rows of ten squares; each shows its number and the piece on it.

    ``marks`` puts a one-character note beside chosen squares (``*`` for a legal start, say).
    """
    marks = marks or {}
    lines = []
    for row in _ROWS:
        cells = []
        for square in row:
            piece = position.board[square - 1]
            cells.append(f"{square:>2}{piece}{marks.get(square, ' ')}")
        lines.append(" ".join(cells).rstrip())
    lines.append(
        f"to throw: {position.side.value}   borne off: W {position.off_w}, B {position.off_b}"
        + ("   " + " ".join(f"{k}={v}" for k, v in position.extras) if position.extras else "")
    )
    return "\n".join(lines)
