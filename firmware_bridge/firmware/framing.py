"""The line framing both ends of the USB link share: ``<seq> <TYPE> <key=value>...*<crc>``.

This module runs unchanged on the companion (CPython) and on the microcontroller (MicroPython),
so it keeps to the subset both understand: no ``typing`` or ``__future__`` imports, no
dataclasses, no multiple inheritance of exceptions, and no reliance on dict order (fields are a
tuple of pairs). Annotations use built-in types only; MicroPython ignores them.

The framer is pure: :meth:`Framer.feed` takes whatever bytes arrived and returns the frames that
were complete and intact; everything else is dropped and counted, never guessed at.
``docs/protocol.md`` is the specification; this module is its reference implementation.
"""

PROTOCOL_VERSION = 1
SEQ_MODULO = 65536
MAX_LINE = 240
MAX_KIND = 12
MAX_FIELDS = 16

# Reasons a line is dropped; the keys of Framer.dropped.
DROP_REASONS = ("crc", "malformed", "overlong", "binary")


class FrameError(ValueError):
    """A line or a frame that breaks the framing rules; ``reason`` is one of DROP_REASONS."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def _is_kind(text: str) -> bool:
    if not 0 < len(text) <= MAX_KIND or not ("A" <= text[0] <= "Z"):
        return False
    for char in text:
        if not ("A" <= char <= "Z" or "0" <= char <= "9" or char == "_"):
            return False
    return True


def _is_key(text: str) -> bool:
    if not 0 < len(text) <= 16 or not ("a" <= text[0] <= "z"):
        return False
    for char in text:
        if not ("a" <= char <= "z" or "0" <= char <= "9" or char == "_"):
            return False
    return True


def _is_value(text: str) -> bool:
    if not text:
        return False
    for char in text:
        if not ("!" <= char <= "~") or char == "*":
            return False
    return True


class Frame:
    """One intact message: its sequence number, its type and its ``key=value`` fields.

    Treat it as immutable. ``fields`` is a tuple of ``(key, value)`` string pairs in the order
    they travel; :meth:`get` looks one up. Equal frames encode to identical bytes.
    """

    __slots__ = ("fields", "kind", "seq")

    def __init__(self, seq: int, kind: str, fields: tuple[tuple[str, str], ...] = ()) -> None:
        self.seq = seq
        self.kind = kind
        self.fields = tuple(fields)

    def get(self, key: str, default: str | None = None) -> str | None:
        """The value of ``key``, or ``default`` when the frame does not carry it."""
        for name, value in self.fields:
            if name == key:
                return value
        return default

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        return self.seq == other.seq and self.kind == other.kind and self.fields == other.fields

    def __hash__(self) -> int:
        return hash((self.seq, self.kind, self.fields))

    def __repr__(self) -> str:
        return "Frame(%r)" % body_text(self)


def body_text(frame: Frame) -> str:
    """The part of the line the CRC covers: ``<seq> <TYPE> <key=value>...``."""
    parts = [str(frame.seq), frame.kind]
    for key, value in frame.fields:
        parts.append(key + "=" + value)
    return " ".join(parts)


def encode(frame: Frame) -> bytes:
    """The frame as one line on the wire, newline included; FrameError if it breaks the rules."""
    if not 0 <= frame.seq < SEQ_MODULO:
        raise FrameError("malformed", "sequence number %r is outside 0..65535" % (frame.seq,))
    if not _is_kind(frame.kind):
        raise FrameError("malformed", "frame type %r is not 1-12 of A-Z, 0-9, _" % (frame.kind,))
    if len(frame.fields) > MAX_FIELDS:
        raise FrameError("malformed", "a frame carries at most %d fields" % MAX_FIELDS)
    seen = []
    for key, value in frame.fields:
        if not _is_key(key) or key in seen:
            raise FrameError("malformed", "field name %r is invalid or repeated" % (key,))
        if not _is_value(value):
            raise FrameError(
                "malformed", "value %r of %s has a space, '*' or no text" % (value, key)
            )
        seen.append(key)
    body = body_text(frame).encode()
    line = body + b"*" + ("%04X" % crc16(body)).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise FrameError(
            "overlong", "the frame needs %d bytes, more than %d" % (len(line), MAX_LINE)
        )
    return line


def _hex4(text: bytes) -> int:
    if len(text) != 4:
        return -1
    value = 0
    for byte in text:
        if 48 <= byte <= 57:
            digit = byte - 48
        elif 65 <= byte <= 70:
            digit = byte - 55
        else:
            return -1
        value = value * 16 + digit
    return value


def decode_line(line: bytes) -> Frame:
    """Check and parse one line (without its newline); FrameError says why it was refused.

    Only the canonical form is accepted, so a frame that passes re-encodes to the same bytes.
    """
    if len(line) + 1 > MAX_LINE:
        raise FrameError("overlong", "line of %d bytes is longer than %d" % (len(line), MAX_LINE))
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise FrameError("binary", "line has a byte outside printable ASCII: %d" % byte)
    star = line.rfind(b"*")
    if star < 0:
        raise FrameError("malformed", "line has no '*<crc>' at its end")
    body = bytes(line[:star])
    expected = _hex4(bytes(line[star + 1 :]))
    if expected < 0:
        raise FrameError("malformed", "CRC after '*' is not four upper-case hex digits")
    actual = crc16(body)
    if actual != expected:
        raise FrameError("crc", "CRC %04X does not match the line's %04X" % (actual, expected))
    tokens = body.decode().split(" ")
    if len(tokens) < 2:
        raise FrameError("malformed", "line needs at least a sequence number and a type")
    seq_text = tokens[0]
    if not seq_text.isdigit() or (len(seq_text) > 1 and seq_text[0] == "0"):
        raise FrameError("malformed", "sequence number %r is not a plain decimal" % seq_text)
    seq = int(seq_text)
    kind = tokens[1]
    pairs = []
    for token in tokens[2:]:
        key, sep, value = token.partition("=")
        if not sep:
            raise FrameError("malformed", "field %r is not key=value" % token)
        pairs.append((key, value))
    frame = Frame(seq, kind, tuple(pairs))
    encode(frame)  # applies every remaining rule (ranges, names, duplicates)
    return frame


class Framer:
    """Turns a byte stream into intact frames; keeps at most one partial line between calls.

    ``dropped`` counts refused lines by reason. A partial line left when the link breaks is
    discarded with :meth:`reset`, so it can never join the first line of the next connection.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipping = False
        self.accepted = 0
        self.dropped: dict[str, int] = {}
        for reason in DROP_REASONS:
            self.dropped[reason] = 0
        self.last_error = ""

    def reset(self) -> None:
        """Forget any partial line (call it whenever the link was interrupted)."""
        self._buffer = bytearray()
        self._skipping = False

    def dropped_total(self) -> int:
        """How many lines were refused since the framer was made."""
        total = 0
        for reason in DROP_REASONS:
            total += self.dropped[reason]
        return total

    def feed(self, data: bytes) -> list[Frame]:
        """Add received bytes; return the frames they completed, in order."""
        frames: list[Frame] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            self._take(bytes(data[start:end]), frames, True)
            start = end + 1
        if start < len(data):
            self._take(bytes(data[start:]), frames, False)
        return frames

    def _take(self, piece: bytes, frames: list[Frame], complete: bool) -> None:
        if not self._skipping:
            self._buffer.extend(piece)
            if len(self._buffer) >= MAX_LINE:
                self._refuse(FrameError("overlong", "line longer than %d bytes" % MAX_LINE))
                self._buffer = bytearray()
                self._skipping = True
        if not complete:
            return
        if self._skipping:
            self._skipping = False
            return
        line = bytes(self._buffer)
        self._buffer = bytearray()
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            return  # blank lines are keep-alives, not errors
        try:
            frames.append(decode_line(line))
            self.accepted += 1
        except FrameError as error:
            self._refuse(error)

    def _refuse(self, error: FrameError) -> None:
        self.dropped[error.reason] = self.dropped.get(error.reason, 0) + 1
        self.last_error = str(error)


def next_seq(seq: int) -> int:
    """The sequence number after ``seq`` (they wrap from 65535 to 0)."""
    return (seq + 1) % SEQ_MODULO


def make_frame(seq: int, kind: str, fields: tuple[tuple[str, str], ...] = ()) -> Frame:
    """A frame, checked at once: FrameError names the first rule it breaks."""
    frame = Frame(seq, kind, fields)
    encode(frame)
    return frame
