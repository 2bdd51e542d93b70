"""The companion's protocol object, fed plain bytes and driven by an injected clock."""

from __future__ import annotations

import pytest

from firmware_bridge.errors import BridgeError, BridgeTimeout, ProtocolVersionError
from firmware_bridge.firmware.framing import Frame, Framer, encode
from firmware_bridge.session import BridgeSession
from hardware.events import (
    BoardSnapshot,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)

HELLO = (("v", "1"), ("fw", "1.0.0"), ("squares", "30"), ("rows", "3"), ("cols", "10"))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Board:
    """The device's end, written by hand: numbered frames as bytes."""

    def __init__(self) -> None:
        self.seq = 0

    def line(self, kind: str, *fields: tuple[str, str]) -> bytes:
        data = encode(Frame(self.seq, kind, fields))
        self.seq = (self.seq + 1) % 65536
        return data


def sent(session: BridgeSession) -> list[str]:
    return [frame.kind for frame in Framer().feed(session.outgoing())]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def session(clock: Clock) -> BridgeSession:
    return BridgeSession(clock, silence=5.0)


def connect(session: BridgeSession, board: Board, occ: str = "5") -> list[object]:
    session.begin()
    assert sent(session) == ["HELLO"]
    return list(session.receive(board.line("HELLO", *HELLO) + board.line("SNAP", ("occ", occ))))


def test_handshake_then_snapshot(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    assert not session.ready
    events = connect(session, board)
    assert events == [BoardSnapshot(frozenset({1, 3}), at=clock.now)]
    assert session.ready
    assert session.device is not None and session.device.squares == 30
    assert session.occupied() == frozenset({1, 3})


def test_frames_before_hello_are_ignored(session: BridgeSession) -> None:
    board = Board()
    session.begin()
    assert session.receive(board.line("SQ", ("n", "4"), ("on", "1"))) == []
    assert session.occupied() == frozenset()


def test_events_become_hardware_events(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    connect(session, board)
    data = (
        board.line("SQ", ("n", "12"), ("on", "1"))
        + board.line("SQ", ("n", "1"), ("on", "0"))
        + board.line("PRESS", ("n", "9"))
        + board.line("THROW", ("faces", "1011"))
        + board.line("ROLL")
        + board.line("FAULT", ("code", "phantom-squares"), ("on", "1"), ("sq", "3,18"))
    )
    events = session.receive(data)
    at = clock.now
    assert events[:5] == [
        SquareChanged(12, True, at=at),
        SquareChanged(1, False, at=at),
        SquarePressed(9, at=at),
        ThrowSettled((1, 0, 1, 1), at=at),
        ThrowRequested(at=at),
    ]
    fault = events[5]
    assert isinstance(fault, HardwareFault)
    assert (fault.code, fault.squares, fault.cleared) == ("phantom-squares", (3, 18), False)
    assert session.occupied() == frozenset({3, 12})


def test_unknown_types_and_keys_are_ignored(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    connect(session, board)
    data = board.line("GLOW", ("hue", "red")) + board.line(
        "SQ", ("n", "7"), ("on", "1"), ("force", "3")
    )
    assert session.receive(data) == [SquareChanged(7, True, at=clock.now)]
    assert session.counters()["ignored_types"] == 1
    assert session.counters()["sequence_gaps"] == 0


def test_corrupted_lines_are_dropped_counted_and_never_acted_on(
    session: BridgeSession, clock: Clock
) -> None:
    board = Board()
    connect(session, board)
    good = bytearray(board.line("SQ", ("n", "20"), ("on", "1")))
    good[-9] ^= 0x01  # one bit changed on the way
    truncated = board.line("SQ", ("n", "21"), ("on", "1"))[:8] + b"\n"
    events = session.receive(bytes(good) + truncated + b"\xff\xfe garbage\n")
    assert [type(event) for event in events] == [HardwareFault]
    assert isinstance(events[0], HardwareFault) and events[0].code == "link-corrupt"
    assert session.occupied() == frozenset({1, 3})
    counters = session.counters()
    assert counters["dropped"] == 3
    # The next intact frame shows the gap: the session asks for a snapshot.
    session.receive(board.line("SQ", ("n", "22"), ("on", "1")))
    assert sent(session) == ["SYNC"]
    assert session.counters()["sequence_gaps"] == 1
    # Reports of corruption are rate-limited; the count goes on.
    assert session.receive(b"noise\n") == []
    clock.now += 11
    assert [e.code for e in session.receive(b"noise\n") if isinstance(e, HardwareFault)] == [
        "link-corrupt"
    ]


def test_a_sequence_gap_asks_for_a_snapshot_which_resynchronises(
    session: BridgeSession, clock: Clock
) -> None:
    board = Board()
    connect(session, board)
    board.line("SQ", ("n", "4"), ("on", "1"))  # lost on the way
    events = session.receive(board.line("SQ", ("n", "6"), ("on", "1")))
    assert events == [SquareChanged(6, True, at=clock.now)]
    assert sent(session) == ["SYNC"]
    assert not session.ready
    events = session.receive(board.line("SNAP", ("occ", wire_mask({1, 3, 4, 6}))))
    assert events == [BoardSnapshot(frozenset({1, 3, 4, 6}), at=clock.now)]
    assert session.ready


def test_a_gap_before_a_snapshot_needs_no_request(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    connect(session, board)
    board.line("SQ", ("n", "4"), ("on", "1"))  # lost
    events = session.receive(board.line("SNAP", ("occ", wire_mask({1, 3, 4}))))
    assert events == [BoardSnapshot(frozenset({1, 3, 4}), at=clock.now)]
    assert sent(session) == []


def test_a_periodic_snapshot_that_agrees_is_silent(session: BridgeSession) -> None:
    board = Board()
    connect(session, board)
    assert session.receive(board.line("SNAP", ("occ", "5"))) == []


def test_snapshot_faults_are_reported_and_cleared(session: BridgeSession) -> None:
    board = Board()
    connect(session, board)
    events = session.receive(board.line("SNAP", ("occ", "5"), ("faults", "stick-unsettled")))
    assert [(e.code, e.cleared) for e in events if isinstance(e, HardwareFault)] == [
        ("stick-unsettled", False)
    ]
    events = session.receive(board.line("SNAP", ("occ", "5"), ("faults", "-")))
    assert [(e.code, e.cleared) for e in events if isinstance(e, HardwareFault)] == [
        ("stick-unsettled", True)
    ]


def test_a_board_restart_is_a_new_handshake(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    connect(session, board)
    rebooted = Board()
    events = session.receive(rebooted.line("HELLO", *HELLO) + rebooted.line("SNAP", ("occ", "1")))
    assert events == [BoardSnapshot(frozenset({1}), at=clock.now)]
    assert session.counters()["sequence_gaps"] == 0


def test_another_protocol_version_is_a_clear_error(session: BridgeSession) -> None:
    session.begin()
    with pytest.raises(ProtocolVersionError) as caught:
        session.receive(Board().line("HELLO", ("v", "2"), ("squares", "64")))
    assert isinstance(caught.value, BridgeError) and isinstance(caught.value, ConnectionError)
    assert "version 2" in str(caught.value) and "flash" in str(caught.value)


def test_intact_frames_with_impossible_values_are_not_acted_on(session: BridgeSession) -> None:
    board = Board()
    connect(session, board)
    data = (
        board.line("SQ", ("n", "31"), ("on", "1"))
        + board.line("SQ", ("n", "3"), ("on", "yes"))
        + board.line("THROW", ("faces", "10"))
        + board.line("SNAP", ("occ", "FFFFFFFF"))
    )
    assert session.receive(data) == []
    assert session.counters()["invalid_fields"] == 4
    assert session.occupied() == frozenset({1, 3})


def test_silence_asks_once_then_gives_up(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    connect(session, board)
    clock.now += 4.9
    session.poll()
    assert sent(session) == []
    clock.now += 0.2
    session.poll()
    assert sent(session) == ["SYNC"]
    clock.now += 4.0
    session.poll()
    clock.now += 1.1
    with pytest.raises(BridgeTimeout, match="sent nothing"):
        session.poll()


def test_an_answer_ends_the_silence(session: BridgeSession, clock: Clock) -> None:
    board = Board()
    connect(session, board)
    clock.now += 5.5
    session.poll()
    session.receive(board.line("SNAP", ("occ", "5")))
    clock.now += 4.9
    session.poll()  # no timeout: the board answered


def test_a_board_that_never_says_hello_is_asked_again(session: BridgeSession, clock: Clock) -> None:
    session.begin()
    session.outgoing()
    clock.now += 5.0
    session.poll()
    data = session.outgoing()
    assert data.startswith(b"\x04\n")  # restarts a board sitting at the MicroPython prompt
    assert [frame.kind for frame in Framer().feed(data)] == ["HELLO"]
    clock.now += 5.0
    with pytest.raises(BridgeTimeout):
        session.poll()


def wire_mask(squares: set[int]) -> str:
    return f"{sum(1 << (square - 1) for square in squares):X}"
