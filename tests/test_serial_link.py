"""The serial backend against the fake device over a pty: every fault the real link meets."""

from __future__ import annotations

import queue
import socket
import threading
from collections.abc import Iterator

import pytest
import serial

from firmware_bridge.config import SerialConfig
from firmware_bridge.errors import BoardNotFound
from firmware_bridge.fake_device import FakeDevice
from firmware_bridge.link import SerialBackend
from hardware.backend import Backend, EventQueue
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)

WAIT = 10.0  # generous: only ever reached when something is broken


class World:
    """What the simulated board's switches and sticks show right now."""

    def __init__(self) -> None:
        self.squares: set[int] = {1, 3}
        self.faces = [0, 0, 0, 0]
        self.roll = False


def fast_config(port: str | None) -> SerialConfig:
    return SerialConfig(port=port, backoff_initial=0.02, backoff_max=0.1, silence=0.5)


def next_event(events: EventQueue, kind: type, **match: object) -> HardwareEvent:
    """The next event of ``kind`` whose attributes match; others before it are skipped."""
    while True:
        event = events.get(timeout=WAIT)
        if isinstance(event, kind) and all(getattr(event, k) == v for k, v in match.items()):
            return event


@pytest.fixture
def world() -> World:
    return World()


@pytest.fixture
def device(world: World) -> Iterator[FakeDevice]:
    fake = FakeDevice(
        lambda: set(world.squares),
        lambda: list(world.faces),
        settle_ms=40,
        snapshot_ms=300,
        roll_button=lambda: world.roll,
    )
    with fake:
        yield fake


@pytest.fixture
def events() -> EventQueue:
    return queue.Queue()


@pytest.fixture
def backend(device: FakeDevice, events: EventQueue) -> Iterator[SerialBackend]:
    link = SerialBackend(fast_config(device.port))
    link.start(events)
    yield link
    link.stop()


def test_it_is_a_backend(backend: SerialBackend) -> None:
    assert isinstance(backend, Backend)
    assert backend.name == "serial"


def test_handshake_snapshot_and_events(
    backend: SerialBackend, events: EventQueue, world: World
) -> None:
    assert next_event(events, BoardSnapshot).occupied == frozenset({1, 3})  # type: ignore[union-attr]
    assert backend.wait_ready(WAIT)
    world.squares.add(12)
    next_event(events, SquareChanged, square=12, occupied=True)
    world.squares.discard(1)
    next_event(events, SquareChanged, square=1, occupied=False)
    assert backend.occupied() == frozenset({3, 12})
    world.faces = [1, 0, 1, 1]
    assert next_event(events, ThrowSettled).faces == (1, 0, 1, 1)  # type: ignore[union-attr]
    world.roll = True
    next_event(events, ThrowRequested)
    status = backend.status()
    assert status["connected"] is True and status["running"] is True
    assert status["device"]["protocol"] == 1
    assert status["dropped"] == 0
    assert status["closed"] == [3, 12] and status["squares"] == "presence"


def test_status_carries_the_boards_scan_rate(backend: SerialBackend, events: EventQueue) -> None:
    next_event(events, BoardSnapshot)
    status = backend.status()  # the snapshot's figures are in before its event is out
    assert status["scan_hz"] > 0 and status["scans"] >= 3
    assert status["sticks"] == [0, 0, 0, 0] and status["moving"] is False


def test_pulled_cable_reconnects_and_resynchronises(
    backend: SerialBackend, device: FakeDevice, events: EventQueue, world: World
) -> None:
    next_event(events, BoardSnapshot)
    device.unplug()
    lost = next_event(events, HardwareFault, code="link-lost", cleared=False)
    assert "cable" in lost.message  # type: ignore[union-attr]
    assert [fault["code"] for fault in backend.status()["faults"]] == ["link-lost"]
    world.squares = {5, 7}  # moved while the cable was out: only a snapshot can tell
    device.plug()
    assert next_event(events, BoardSnapshot).occupied == frozenset({5, 7})  # type: ignore[union-attr]
    next_event(events, HardwareFault, code="link-lost", cleared=True)
    assert backend.occupied() == frozenset({5, 7})
    assert backend.status()["faults"] == []
    world.squares.add(9)
    next_event(events, SquareChanged, square=9, occupied=True)
    status = backend.status()
    assert status["link_losses"] == 1 and status["connects"] == 2


def test_corrupted_and_truncated_lines_are_dropped_and_counted(
    backend: SerialBackend, device: FakeDevice, events: EventQueue, world: World
) -> None:
    next_event(events, BoardSnapshot)
    device.mangle_next("flip")
    device.mangle_next("truncate")
    world.squares.add(14)  # its SQ line is damaged on the way
    next_event(events, HardwareFault, code="link-corrupt")
    # The lost change arrives through the resynchronising snapshot, never from damaged bytes.
    snapshot = next_event(events, BoardSnapshot)
    assert 14 in snapshot.occupied  # type: ignore[union-attr]
    status = backend.status()
    assert status["dropped"] >= 1
    assert set(status["dropped_by_reason"]) <= {"crc", "malformed"}


def test_line_noise_is_dropped(
    backend: SerialBackend, device: FakeDevice, events: EventQueue
) -> None:
    next_event(events, BoardSnapshot)
    device.inject(b"\x00\xff\x13 7 SQ n=4 on=1*0000\n")
    next_event(events, HardwareFault, code="link-corrupt")
    assert 4 not in backend.occupied()


def test_a_sequence_gap_asks_for_a_snapshot(
    backend: SerialBackend, device: FakeDevice, events: EventQueue, world: World
) -> None:
    next_event(events, BoardSnapshot)
    assert backend.wait_ready(WAIT)
    device.mangle_next("drop")
    world.squares.add(22)
    assert next_event(events, BoardSnapshot).occupied == frozenset({1, 3, 22})  # type: ignore[union-attr]
    assert backend.status()["sequence_gaps"] >= 1


def test_the_gap_request_reaches_the_board(
    backend: SerialBackend, device: FakeDevice, events: EventQueue, world: World
) -> None:
    next_event(events, BoardSnapshot)
    device.mangle_next("drop")
    world.squares.add(22)
    world.squares.add(23)  # the next change is the first intact frame after the gap
    assert device.wait_for_request("SYNC", WAIT)


def test_a_silent_board_is_given_up_and_reconnected(
    backend: SerialBackend, device: FakeDevice, events: EventQueue
) -> None:
    next_event(events, BoardSnapshot)
    device.hang()
    lost = next_event(events, HardwareFault, code="link-lost", cleared=False)
    assert "sent nothing" in lost.message  # type: ignore[union-attr]
    device.hang(False)
    next_event(events, HardwareFault, code="link-lost", cleared=True)


def test_another_protocol_version_is_reported_clearly(
    device: FakeDevice, events: EventQueue
) -> None:
    device.speak_version(2)
    device.unplug()
    device.plug()
    link = SerialBackend(fast_config(device.port))
    link.start(events)
    try:
        fault = next_event(events, HardwareFault, code="protocol-version")
        assert "version 2" in fault.message and "flash" in fault.message  # type: ignore[union-attr]
        assert not link.wait_ready(0.2)
        assert "version 2" in link.status()["last_error"]
        device.speak_version(None)  # the firmware is updated and the board plugged in again
        device.unplug()
        device.plug()
        next_event(events, BoardSnapshot)
    finally:
        link.stop()


def test_the_board_is_found_by_its_usb_ids(device: FakeDevice, events: EventQueue) -> None:
    asked: list[tuple[int, int]] = []
    present = [False]

    def find(vid: int, pid: int) -> str:
        asked.append((vid, pid))
        if not present[0]:
            raise BoardNotFound("no USB serial device 2E8A:0005 is connected")
        return device.port

    link = SerialBackend(fast_config(None), find_port=find)
    link.start(events)
    try:
        fault = next_event(events, HardwareFault, code="link-lost")
        assert "2E8A:0005" in fault.message  # type: ignore[union-attr]
        present[0] = True
        next_event(events, BoardSnapshot)
        assert asked[0] == (0x2E8A, 0x0005)
        assert link.status()["port"] == device.port
    finally:
        link.stop()


def test_push_button_squares(events: EventQueue, world: World) -> None:
    with FakeDevice(lambda: set(world.squares), lambda: world.faces, input_kind="buttons") as dev:
        link = SerialBackend(fast_config(dev.port))
        link.start(events)
        try:
            assert next_event(events, BoardSnapshot).occupied == frozenset()  # type: ignore[union-attr]
            world.squares = {17}
            next_event(events, SquarePressed, square=17)
            assert link.status()["device"]["input"] == "buttons"
        finally:
            link.stop()


def test_a_matrix_without_diodes_reports_phantoms(events: EventQueue, world: World) -> None:
    world.squares = {1, 3}
    with FakeDevice(lambda: set(world.squares), lambda: world.faces, diodes=False) as dev:
        link = SerialBackend(fast_config(dev.port))
        link.start(events)
        try:
            next_event(events, BoardSnapshot)
            world.squares = {1, 3, 20}
            fault = next_event(events, HardwareFault, code="phantom-squares", cleared=False)
            assert 18 in fault.squares  # type: ignore[union-attr]
        finally:
            link.stop()


def test_ports_are_opened_by_url(events: EventQueue) -> None:
    opened: list[str] = []

    def opener(url: str, **settings: object) -> serial.SerialBase:
        opened.append(url)
        return serial.serial_for_url(url, **settings)

    link = SerialBackend(fast_config("loop://"), opener=opener)
    link.start(events)
    try:
        # A loopback hears its own HELLO: an intact frame, but not a board.
        next_event(events, HardwareFault, code="link-lost")
        assert opened[0] == "loop://"
        assert link.status()["frames"] >= 1
    finally:
        link.stop()


def test_a_port_in_use_is_not_shared(
    backend: SerialBackend, device: FakeDevice, events: EventQueue
) -> None:
    next_event(events, BoardSnapshot)
    others: EventQueue = queue.Queue()
    intruder = SerialBackend(fast_config(device.port))
    intruder.start(others)
    try:
        fault = next_event(others, HardwareFault, code="link-lost")
        assert "lock" in fault.message  # type: ignore[union-attr]
    finally:
        intruder.stop()
    assert backend.status()["connected"] is True


def _relay(server: socket.socket, port: str, stop: threading.Event) -> None:
    """A network serial server on loopback: one client, bytes both ways, until told to stop."""
    connection, _ = server.accept()
    connection.settimeout(0.02)
    with connection, serial.Serial(port, timeout=0.02) as tty:
        while not stop.is_set():
            data = tty.read(4096)
            if data:
                connection.sendall(data)
            try:
                incoming = connection.recv(4096)
            except TimeoutError:
                continue
            if not incoming:
                return
            tty.write(incoming)


def test_a_board_behind_a_network_serial_server(
    device: FakeDevice, events: EventQueue, world: World
) -> None:
    stop = threading.Event()
    with socket.create_server(("127.0.0.1", 0)) as server:
        relay = threading.Thread(target=_relay, args=(server, device.port, stop), daemon=True)
        relay.start()
        link = SerialBackend(fast_config(f"socket://127.0.0.1:{server.getsockname()[1]}"))
        link.start(events)
        try:
            assert next_event(events, BoardSnapshot).occupied == {1, 3}  # type: ignore[union-attr]
            world.squares.add(30)
            next_event(events, SquareChanged, square=30, occupied=True)
        finally:
            link.stop()
            stop.set()
            relay.join(timeout=WAIT)


def test_stop_is_prompt_and_idempotent(device: FakeDevice, events: EventQueue) -> None:
    link = SerialBackend(fast_config(device.port))
    link.start(events)
    next_event(events, BoardSnapshot)
    link.stop()
    link.stop()
    with pytest.raises(RuntimeError):
        link.start(events)
        link.start(events)
    link.stop()
