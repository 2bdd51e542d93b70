"""Players, positions and moves, and their text notation (the project's public contract).

The notation is specified in NOTATION.md: a position is ``<board> <side> <offW> <offB>`` with
optional ``key=value`` fields; a move is ``F-T``, ``F-off`` or a ruleset's own form. ``repr()`` of a
position or a move prints its notation, so a failing test shows text that can be pasted back.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from companion.rules.errors import NotationError

__all__ = ["HAND", "OFF", "SQUARES", "Move", "Player", "Position"]

SQUARES = 30
OFF = 31  # the square number a borne-off piece "reaches"
HAND = 0  # where a piece waiting to enter stands, in rulesets that enter pieces
EMPTY = "."


class Player(enum.StrEnum):
    """A side of the game; its value is the character used on the board string."""

    W = "W"  # starts on the odd squares (light pieces, cones)
    B = "B"  # starts on the even squares (dark pieces, spools)

    @property
    def other(self) -> Player:
        return Player.B if self is Player.W else Player.W


class Position(NamedTuple):
    """A Senet position: whose turn it is, where the pieces stand, and any ruleset turn state.

    ``board`` has 30 characters, ``W``, ``B`` or ``.``, square 1 first. ``extras`` holds the
    ruleset-specific ``key=value`` fields in the order they are written.
    """

    board: str
    side: Player
    off_w: int = 0
    off_b: int = 0
    extras: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read a position from its notation; a `NotationError` names the faulty field."""
        if not isinstance(text, str):
            raise NotationError("position", f"expected text, got {type(text).__name__}")
        fields = text.split(" ")
        if len(fields) < 4 or "" in fields:
            raise NotationError(
                "position",
                f"expected '<board> <side> <offW> <offB>' separated by single spaces, got {text!r}",
            )
        board, side, off_w, off_b = fields[:4]
        if len(board) != SQUARES:
            raise NotationError("board", f"must have exactly 30 squares, has {len(board)}")
        bad = set(board) - {"W", "B", EMPTY}
        if bad:
            raise NotationError(
                "board", f"squares may only be 'W', 'B' or '.', found {''.join(sorted(bad))!r}"
            )
        if side not in ("W", "B"):
            raise NotationError("side", f"must be 'W' or 'B', got {side!r}")
        counts = []
        for name, value in (("offW", off_w), ("offB", off_b)):
            if not value.isdigit() or len(value) > 2:
                raise NotationError(name, f"must be a whole number of pieces, got {value!r}")
            counts.append(int(value))
        extras: list[tuple[str, str]] = []
        for field in fields[4:]:
            key, sep, value = field.partition("=")
            if not sep or not key or not value:
                raise NotationError("extra", f"expected key=value, got {field!r}")
            if any(key == k for k, _ in extras):
                raise NotationError(key, "appears twice")
            extras.append((key, value))
        return cls(board, Player(side), counts[0], counts[1], tuple(extras))

    def notation(self) -> str:
        text = f"{self.board} {self.side.value} {self.off_w} {self.off_b}"
        if self.extras:
            text += " " + " ".join(f"{k}={v}" for k, v in self.extras)
        return text

    def __repr__(self) -> str:
        return f"Position.parse({self.notation()!r})"

    def __str__(self) -> str:
        return self.notation()

    # -- queries ---------------------------------------------------------------------------
    def at(self, square: int) -> Player | None:
        """The player whose piece stands on ``square`` (1..30), or None."""
        ch = self.board[square - 1]
        return None if ch == EMPTY else Player(ch)

    def squares_of(self, player: Player) -> list[int]:
        """The squares of ``player``'s pieces, lowest first."""
        p = player.value
        return [i + 1 for i, ch in enumerate(self.board) if ch == p]

    def off(self, player: Player) -> int:
        return self.off_w if player is Player.W else self.off_b

    def extra(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.extras:
            if k == key:
                return v
        return default

    def with_extra(self, key: str, value: str | None) -> Position:
        """A copy with ``key`` set to ``value`` (or removed when None); keys stay sorted."""
        rest = [(k, v) for k, v in self.extras if k != key]
        if value is not None:
            rest.append((key, value))
            rest.sort()
        return self._replace(extras=tuple(rest))


class Move(NamedTuple):
    """A move of one piece from ``start`` to ``end``; ``end`` is `OFF` for bearing off and
    ``start`` is `HAND` for entering a piece (rulesets that enter pieces)."""

    start: int
    end: int

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise NotationError("move", f"expected text, got {type(text).__name__}")
        start_text, sep, end_text = text.strip().partition("-")
        if not sep:
            raise NotationError("move", f"expected 'F-T' or 'F-off', got {text!r}")
        start = HAND if start_text == "hand" else _square("move", start_text, text)
        end = OFF if end_text == "off" else _square("move", end_text, text)
        if start == end:
            raise NotationError("move", f"start and end are the same square in {text!r}")
        return cls(start, end)

    def notation(self) -> str:
        start = "hand" if self.start == HAND else str(self.start)
        end = "off" if self.end == OFF else str(self.end)
        return f"{start}-{end}"

    def __repr__(self) -> str:
        return f"Move.parse({self.notation()!r})"

    def __str__(self) -> str:
        return self.notation()


def _square(field: str, value: str, text: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= SQUARES:
        raise NotationError(field, f"{value!r} in {text!r} is not a square 1..30")
    return int(value)
