"""The shared framer: worked examples, and fuzzing with random and damaged bytes."""

from __future__ import annotations

import binascii
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware.framing import (
    MAX_LINE,
    Frame,
    FrameError,
    Framer,
    crc16,
    decode_line,
    encode,
)

KINDS = st.from_regex(r"[A-Z][A-Z0-9_]{0,11}", fullmatch=True)
KEYS = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
VALUES = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="*"),
    min_size=1,
    max_size=12,
)


@st.composite
def frames(draw: st.DrawFn) -> Frame:
    keys = draw(st.lists(KEYS, max_size=5, unique=True))
    fields = tuple((key, draw(VALUES)) for key in keys)
    return Frame(draw(st.integers(0, 65535)), draw(KINDS), fields)


def test_crc_is_ccitt_false_as_the_standard_library_computes_it() -> None:
    for data in (b"", b"123456789", b"7 SQ n=12 on=1", bytes(range(256))):
        assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_the_worked_example_of_the_protocol_document() -> None:
    assert encode(Frame(7, "SQ", (("n", "12"), ("on", "1")))) == b"7 SQ n=12 on=1*3E8C\n"
    assert decode_line(b"7 SQ n=12 on=1*3E8C").get("n") == "12"


def test_frame_repr_shows_the_line() -> None:
    assert repr(Frame(3, "SYNC")) == "Frame('3 SYNC')"


@given(frames())
def test_every_valid_frame_survives_the_trip(frame: Frame) -> None:
    try:
        line = encode(frame)
    except FrameError as error:
        assert error.reason == "overlong"
        return
    assert Framer().feed(line) == [frame]


@given(st.lists(frames(), min_size=1, max_size=6), st.data())
def test_any_split_of_the_stream_gives_the_same_frames(
    batch: list[Frame], data: st.DataObject
) -> None:
    stream = b"".join(encode(frame) for frame in batch)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    framer = Framer()
    received: list[Frame] = []
    start = 0
    for cut in [*cuts, len(stream)]:
        received += framer.feed(stream[start:cut])
        start = cut
    assert received == batch
    assert framer.dropped_total() == 0


@settings(max_examples=300)
@given(st.binary(max_size=600))
def test_random_bytes_never_crash_and_anything_accepted_is_canonical(noise: bytes) -> None:
    framer = Framer()
    for frame in framer.feed(noise):
        line = encode(frame)
        assert line in noise  # it was really there, byte for byte, CRC and all


@given(frames(), st.integers(min_value=0), st.integers(1, 255))
def test_a_damaged_byte_is_never_accepted(frame: Frame, where: int, xor: int) -> None:
    # CRC-16/CCITT catches every error burst up to 16 bits, so one changed byte always shows.
    line = encode(frame)
    damaged = bytearray(line[:-1])
    index = where % len(damaged)
    damaged[index] ^= xor
    framer = Framer()
    accepted = framer.feed(bytes(damaged) + b"\n")
    assert accepted == []
    assert framer.dropped_total() >= 1


@given(frames(), st.integers(min_value=0), st.integers(1, 0xFFFF))
def test_a_damaged_pair_of_bytes_is_never_accepted(frame: Frame, where: int, xor: int) -> None:
    line = encode(frame)
    damaged = bytearray(line[:-1])
    if len(damaged) < 2:
        return
    index = where % (len(damaged) - 1)
    damaged[index] ^= xor >> 8
    damaged[index + 1] ^= xor & 0xFF
    assert Framer().feed(bytes(damaged) + b"\n") == []


@given(frames(), st.integers(min_value=1))
def test_a_truncated_line_is_never_accepted(frame: Frame, keep: int) -> None:
    line = encode(frame)
    cut = keep % (len(line) - 1)
    framer = Framer()
    assert framer.feed(line[:cut] + b"\n") == []


@given(st.lists(frames(), min_size=2, max_size=5), st.data())
def test_mutated_streams_yield_only_frames_that_were_sent(
    batch: list[Frame], data: st.DataObject
) -> None:
    lines = [encode(frame) for frame in batch]
    stream = bytearray(b"".join(lines))
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "delete", "insert"]))
        index = data.draw(st.integers(0, len(stream) - 1))
        if action == "flip":
            stream[index] ^= 1 << data.draw(st.integers(0, 7))
        elif action == "delete":
            del stream[index]
        else:
            stream.insert(index, data.draw(st.integers(0, 255)))
    sent = set(lines)
    for frame in Framer().feed(bytes(stream)):
        assert encode(frame) in sent


def test_an_overlong_line_is_dropped_without_growing_the_buffer() -> None:
    framer = Framer()
    for _ in range(100):
        assert framer.feed(b"A" * 1000) == []
    assert len(framer._buffer) < MAX_LINE
    assert framer.feed(b"\n" + encode(Frame(1, "ROLL"))) == [Frame(1, "ROLL")]
    assert framer.dropped["overlong"] == 1


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"1 SQ n=3*ZZZZ", "malformed"),
        (b"1 SQ n=3*1d0f", "malformed"),
        (b"1 SQ n=3", "malformed"),
        (b"SQ*%04X" % crc16(b"SQ"), "malformed"),
        (b"1 SQ n=*%04X" % crc16(b"1 SQ n="), "malformed"),
        (b"1 SQ on*%04X" % crc16(b"1 SQ on"), "malformed"),
        (b"1 SQ\t*1234", "binary"),
        (b"1 SQ n=3*0000", "crc"),
    ],
)
def test_refusals_say_why(line: bytes, reason: str) -> None:
    with pytest.raises(FrameError) as caught:
        decode_line(line)
    assert caught.value.reason == reason
    assert isinstance(caught.value, ValueError)


def test_every_frame_shown_in_the_protocol_document_is_valid() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    lines = re.findall(r"(?:board → companion|companion → board)\s+(\S.*)$", text, re.MULTILINE)
    lines += re.findall(r"^\s+(\d+ [A-Z]+.*\*[0-9A-F]{4})$", text, re.MULTILINE)
    assert len(lines) >= 9
    for line in lines:
        frame = decode_line(line.encode())
        assert encode(frame) == line.encode() + b"\n"


def test_the_crc_table_of_the_protocol_document() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    row = re.search(r"^\| CRC after it \|(.*)\|$", text, re.MULTILINE)
    assert row is not None
    shown = [cell.strip() for cell in row.group(1).split("|")]
    body = b"7 SQ n=12 on=1"
    # With no final XOR, the register after each byte is the CRC of the text so far.
    assert shown == [f"{crc16(body[: i + 1]):04X}" for i in range(len(body))]
