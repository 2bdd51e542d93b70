"""The protocol's message types and value encodings, shared by the firmware and the companion.

Same MicroPython-compatible subset as :mod:`framing`. ``docs/protocol.md`` describes each type.
"""

# Device to companion.
HELLO = "HELLO"  # v fw squares rows cols sticks input diodes
SNAP = "SNAP"  # occ sticks moving faults
SQUARE = "SQ"  # n on
PRESS = "PRESS"  # n
THROW = "THROW"  # faces
ROLL = "ROLL"  # (the electronic-throw button)
FAULT = "FAULT"  # code on sq
# Companion to device (HELLO is also sent this way, asking the device to introduce itself).
SYNC = "SYNC"  # send a snapshot now

INPUT_PRESENCE = "presence"
INPUT_BUTTONS = "buttons"


def squares_to_hex(squares: "set[int] | frozenset[int] | list[int] | tuple[int, ...]") -> str:
    """A set of square numbers (1-based) as a hex bitmask: bit n-1 stands for square n."""
    mask = 0
    for square in squares:
        mask |= 1 << (int(square) - 1)
    return "%X" % mask


def hex_to_squares(text: str, count: int) -> list[int]:
    """The squares of a hex bitmask, ascending; ValueError if malformed or beyond ``count``."""
    if not text or len(text) > 16:
        raise ValueError("square mask %r is not 1-16 hex digits" % (text,))
    for char in text:
        if not ("0" <= char <= "9" or "A" <= char <= "F"):
            raise ValueError("square mask %r is not upper-case hex" % (text,))
    mask = int(text, 16)
    if mask >> count:
        raise ValueError("square mask %s names a square beyond %d" % (text, count))
    return [bit + 1 for bit in range(count) if mask >> bit & 1]


def faces_to_text(faces: "tuple[int, ...] | list[int]") -> str:
    """Stick faces as digits, one per stick: ``1`` for the light face up, ``0`` for the dark."""
    return "".join("1" if face else "0" for face in faces)


def text_to_faces(text: str, sticks: int) -> tuple[int, ...]:
    """The faces written by :func:`faces_to_text`; ValueError unless exactly ``sticks`` digits."""
    if len(text) != sticks:
        raise ValueError("faces %r should have %d digits" % (text, sticks))
    faces = []
    for char in text:
        if char not in "01":
            raise ValueError("faces %r may only hold 0 and 1" % (text,))
        faces.append(1 if char == "1" else 0)
    return tuple(faces)


def squares_to_list(squares: "set[int] | frozenset[int] | list[int] | tuple[int, ...]") -> str:
    """Squares as a comma list (``3,5,12``), or ``-`` for none: used by FAULT frames."""
    text = ",".join(str(square) for square in sorted(squares))
    return text or "-"


def list_to_squares(text: str, count: int) -> tuple[int, ...]:
    """The squares of :func:`squares_to_list`; ValueError if malformed or out of range."""
    if text == "-":
        return ()
    squares = []
    for part in text.split(","):
        if not part.isdigit() or not 1 <= int(part) <= count:
            raise ValueError("square %r in %r is not 1..%d" % (part, text, count))
        squares.append(int(part))
    return tuple(squares)
