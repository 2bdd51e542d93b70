"""Reading the board's inputs through pins: the square matrix, the sticks, the throw button.

Pins are passed in: anything with MicroPython's ``Pin.value()`` / ``Pin.value(x)`` interface, so
the same code reads ``machine.Pin`` objects on the microcontroller and simulated pins in tests.
MicroPython-compatible subset (see :mod:`framing`).
"""

try:
    from typing import Any
except ImportError:  # MicroPython has no typing module; annotations are not evaluated there
    pass


def default_square_map(rows: int, cols: int) -> list[int]:
    """Square numbers for key ``r * cols + c`` of a matrix wired along the board's rows.

    Row wires follow the board's rows and column wires its columns, counted from the left as the
    players see it; Senet's track runs along the top row, back along the middle row and on along
    the bottom row, so the middle row is numbered right to left.
    """
    squares = []
    for row in range(rows):
        for col in range(cols):
            if row % 2:
                squares.append(row * cols + cols - col)
            else:
                squares.append(row * cols + col + 1)
    return squares


class MatrixScanner:
    """A row-by-row scan of a switch matrix: drive one row, read every column, move on.

    ``active`` is the level a driven row is set to and a closed switch reads as on a column
    (1 with pull-down column inputs, 0 with pull-ups). With a diode in series with every switch,
    a scan shows exactly the closed switches; without diodes three closed corners of a
    rectangle make the fourth read closed too (see ``sensing.PhantomWatch``).
    """

    def __init__(self, row_pins: "list[Any]", col_pins: "list[Any]", active: int = 1) -> None:
        if not row_pins or not col_pins:
            raise ValueError("a matrix needs at least one row pin and one column pin")
        self.row_pins = row_pins
        self.col_pins = col_pins
        self.active = 1 if active else 0
        self.idle = 1 - self.active
        for pin in row_pins:
            pin.value(self.idle)

    @property
    def size(self) -> int:
        return len(self.row_pins) * len(self.col_pins)

    def scan(self) -> list[int]:
        """One reading of every switch, 1 for closed, in key order ``r * cols + c``."""
        closed = []
        active = self.active
        for row_pin in self.row_pins:
            row_pin.value(active)
            for col_pin in self.col_pins:
                closed.append(1 if col_pin.value() == active else 0)
            row_pin.value(self.idle)
        return closed


class DigitalSticks:
    """Four (or any number of) throwing-stick sensors with a digital output each.

    ``light_level`` is the pin level that means the light face is up (a tilt switch or a light
    sensor module with a comparator, set so).
    """

    def __init__(self, pins: "list[Any]", light_level: int = 1) -> None:
        self.pins = pins
        self.light_level = 1 if light_level else 0

    def read(self) -> "list[int | None]":
        """One face per stick: 1 for the light face up, 0 for the dark face."""
        level = self.light_level
        return [1 if pin.value() == level else 0 for pin in self.pins]
