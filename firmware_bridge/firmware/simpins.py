"""Simulated pins with MicroPython's ``Pin.value()`` interface, wired like a real board.

The firmware's tests and the fake device (a simulated board behind a pseudo-terminal) read
these instead of ``machine.Pin``, so the firmware runs the same code path as on the board.
Not flashed to the microcontroller. MicroPython-compatible subset (see :mod:`framing`).
"""

try:
    from typing import Any, Callable
except ImportError:  # MicroPython: annotations are not evaluated there
    pass


class OutputPin:
    """A pin the firmware drives; remembers its level."""

    def __init__(self, level: int = 0) -> None:
        self.level = level

    def value(self, level: "int | None" = None) -> int:
        if level is not None:
            self.level = 1 if level else 0
        return self.level


class InputPin:
    """A pin the firmware reads; its level comes from a function of the simulated world."""

    def __init__(self, read: "Callable[[], int]") -> None:
        self._read = read

    def value(self, level: "int | None" = None) -> int:
        return self._read()


class SimulatedMatrix:
    """Switches at ``(row, column)`` crossings, closed when ``closed_keys()`` names them.

    With ``diodes`` a driven row only reaches the columns of its own closed switches. Without
    them current also flows backwards through closed switches, so a column reads closed when any
    path of closed switches joins it to the driven row: the phantom squares of a cheap matrix.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        closed_keys: "Callable[[], Any]",
        diodes: bool = True,
        active: int = 1,
    ) -> None:
        self.rows = rows
        self.cols = cols
        self.diodes = diodes
        self.active = active
        self._closed_keys = closed_keys
        self.row_pins = [OutputPin(1 - active) for _ in range(rows)]
        self.col_pins = [InputPin(self._reader(col)) for col in range(cols)]

    def _reader(self, col: int) -> "Callable[[], int]":
        return lambda: self._read(col)

    def _read(self, col: int) -> int:
        closed = set(self._closed_keys())
        driven = [row for row in range(self.rows) if self.row_pins[row].level == self.active]
        hit = False
        if self.diodes:
            for row in driven:
                if (row, col) in closed:
                    hit = True
        else:
            hit = col in self._columns_reached(driven, closed)
        return self.active if hit else 1 - self.active

    def _columns_reached(self, rows: "list[int]", closed: "set[tuple[int, int]]") -> "set[int]":
        seen_rows = set(rows)
        seen_cols: set[int] = set()
        frontier = list(rows)
        while frontier:
            row = frontier.pop()
            for r, c in closed:
                if r == row and c not in seen_cols:
                    seen_cols.add(c)
                    for r2, c2 in closed:
                        if c2 == c and r2 not in seen_rows:
                            seen_rows.add(r2)
                            frontier.append(r2)
        return seen_cols


def squares_to_keys(square_map: "list[int]", cols: int) -> "dict[int, tuple[int, int]]":
    """Where each square's switch sits in the matrix: ``{square: (row, column)}``."""
    keys = {}
    for key in range(len(square_map)):
        if square_map[key]:
            keys[square_map[key]] = (key // cols, key % cols)
    return keys


class SimulatedSticks:
    """Stick sensors whose faces come from ``faces()`` (one 0/1 per stick)."""

    def __init__(self, count: int, faces: "Callable[[], Any]", light_level: int = 1) -> None:
        self.light_level = light_level
        self._faces = faces
        self.pins = [InputPin(self._reader(i)) for i in range(count)]

    def _reader(self, index: int) -> "Callable[[], int]":
        return lambda: self.light_level if self._faces()[index] else 1 - self.light_level
