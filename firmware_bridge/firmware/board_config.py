"""How this board is wired: edit these numbers to match yours, then copy the file to the board.

GPIO numbers are the Pico's ``GPn`` numbers (not physical pin numbers). The defaults are the
wiring in ``firmware_bridge/README.md``.
"""

# The square matrix: one output per row wire, one input per column wire.
ROW_PINS = (2, 3, 4)
COL_PINS = (5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
# 1: rows are driven high and columns have pull-downs; 0: rows driven low, columns pulled up.
ACTIVE_LEVEL = 1
# True when every switch has its own diode (recommended); False reports phantom squares.
DIODES = True
# "presence" for reed switches or Hall sensors, "buttons" for push buttons on the squares.
INPUT = "presence"
# Square number of matrix key row * len(COL_PINS) + column; None follows the board's rows
# (top row 1..10 left to right, middle row 11..20 right to left, bottom row 21..30).
SQUARE_MAP = None

# The four throwing sticks: one digital input each (tilt switch, or light sensor module).
STICK_PINS = (15, 16, 17, 18)
# The input level that means "light face up".
STICK_LIGHT_LEVEL = 1
# The optional electronic-throw button, wired to ground (None when there is none).
ROLL_BUTTON_PIN = 19

# Timing, in milliseconds.
SCAN_MS = 5
DEBOUNCE_SAMPLES = 3
SETTLE_MS = 400
SNAPSHOT_MS = 2000
