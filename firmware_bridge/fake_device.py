"""A board on the far end of a pseudo-terminal, run by the real firmware logic.

:class:`FakeDevice` is what the companion talks to when there is no microcontroller: the
firmware's own :class:`~firmware_bridge.firmware.device.Firmware` scans simulated pins wired to a
simulated board and writes real protocol lines into a pty, so the serial backend runs exactly
the code it runs against a Pico. It can also misbehave on purpose, for tests: pull the cable and
put it back, corrupt, truncate or drop lines, or speak another protocol version.

``port`` is a stable path (a symlink to the current pty, as ``/dev/serial/by-id/`` is in
life) that disappears while the cable is out and comes back when it is put in again.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable, Sequence

from firmware_bridge.firmware import framing, scanner, simpins
from firmware_bridge.firmware.device import Firmware

__all__ = ["FakeDevice"]

TICK = 0.002


class FakeDevice:
    """A simulated board behind a pty, speaking the protocol through the real firmware.

    ``squares()`` gives the squares whose switches are closed right now (a piece on them or
    a finger on the button) and ``faces()`` one 0/1 per stick; both are read on every scan, from
    the device's thread. ``clock`` (seconds) gives the firmware its milliseconds.
    """

    def __init__(
        self,
        squares: Callable[[], Iterable[int]],
        faces: Callable[[], Sequence[int]],
        *,
        rows: int = 3,
        cols: int = 10,
        square_map: list[int] | None = None,
        sticks: int = 4,
        diodes: bool = True,
        input_kind: str = "presence",
        debounce: int = 3,
        settle_ms: int = 400,
        max_motion_ms: int = 5000,
        min_changes: int = 2,
        snapshot_ms: int = 2000,
        roll_button: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._squares = squares
        self._faces = faces
        self._rows, self._cols, self._sticks = rows, cols, sticks
        self._diodes = diodes
        self._input_kind = input_kind
        self._debounce = debounce
        self._settle_ms = settle_ms
        self._max_motion_ms = max_motion_ms
        self._min_changes = min_changes
        self._snapshot_ms = snapshot_ms
        self._roll_button = roll_button
        self._clock = clock
        self._square_map = square_map or scanner.default_square_map(rows, cols)
        if len(self._square_map) != rows * cols:
            raise ValueError(f"square_map has {len(self._square_map)} entries for {rows}x{cols}")
        self._keys = simpins.squares_to_keys(self._square_map, cols)
        self._dir = tempfile.mkdtemp(prefix="senet-fake-board-")
        self.port = os.path.join(self._dir, "ttySENET")
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._firmware: Firmware | None = None
        self._mangle: list[str] = []
        self._version: int | None = None
        self._hung = False
        self._host_frames = framing.Framer()
        self.received: list[framing.Frame] = []
        self.boots = 0
        self.received_event = threading.Condition()

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> FakeDevice:
        """Plug the board in and start scanning; returns itself (for ``with``)."""
        if self._thread is not None:
            raise RuntimeError("the fake device is already running")
        self.plug()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="fake-board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop scanning, pull the cable, and remove the port; safe to call twice."""
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5.0)
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> FakeDevice:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- faults -------------------------------------------------------------------------------

    def unplug(self) -> None:
        """Pull the cable: the pty closes under the companion and the port path vanishes."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            self._firmware = None  # no power without USB: the board restarts when plugged in
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)

    def plug(self) -> None:
        """Put the cable (back) in: a fresh pty at the same path and a freshly booted firmware."""
        os.makedirs(self._dir, exist_ok=True)
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        with self._lock:
            self._master, self._slave = master, slave
            self._firmware = self._boot()
            self._host_frames.reset()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)
            os.symlink(os.ttyname(slave), self.port)

    def mangle_next(self, how: str, count: int = 1) -> None:
        """Damage the next ``count`` lines the board sends.

        ``flip`` changes one bit in the middle (the CRC catches it), ``truncate`` cuts the line
        short but keeps its newline, ``drop`` swallows it whole (a sequence gap).
        """
        if how not in ("flip", "truncate", "drop"):
            raise ValueError(f"unknown damage {how!r}: use flip, truncate or drop")
        with self._lock:
            self._mangle.extend([how] * count)

    def speak_version(self, version: int | None) -> None:
        """Announce another protocol version in HELLO from now on (None: the real one)."""
        with self._lock:
            self._version = version

    def hang(self, hung: bool = True) -> None:
        """Stop (or resume) answering with the port still open, as a crashed firmware would."""
        with self._lock:
            self._hung = hung

    def inject(self, data: bytes) -> None:
        """Write raw bytes to the companion, as line noise would."""
        with self._lock:
            self._write_raw(data)

    def wait_for_request(self, kind: str, timeout: float) -> bool:
        """Wait until the companion has sent a frame of type ``kind``; False on timeout."""
        with self.received_event:
            return self.received_event.wait_for(
                lambda: any(frame.kind == kind for frame in self.received), timeout
            )

    # -- the board ----------------------------------------------------------------------------

    def _boot(self) -> Firmware:
        self.boots += 1
        matrix = simpins.SimulatedMatrix(
            self._rows, self._cols, self._closed_keys, diodes=self._diodes
        )
        sticks = simpins.SimulatedSticks(self._sticks, self._faces)
        button = None
        if self._roll_button is not None:
            pressed = self._roll_button
            button = simpins.InputPin(lambda: 0 if pressed() else 1)
        return Firmware(
            scanner.MatrixScanner(matrix.row_pins, matrix.col_pins),
            scanner.DigitalSticks(sticks.pins),
            self._send,
            square_map=self._square_map,
            input_kind=self._input_kind,
            diodes=self._diodes,
            button=button,
            debounce=self._debounce,
            settle_ms=self._settle_ms,
            max_motion_ms=self._max_motion_ms,
            min_changes=self._min_changes,
            snapshot_ms=self._snapshot_ms,
        )

    def _closed_keys(self) -> list[tuple[int, int]]:
        return [self._keys[square] for square in self._squares() if square in self._keys]

    def _send(self, line: bytes) -> None:
        # Called by the firmware, with the lock held by _run.
        if self._version is not None and line.split(b" ", 2)[1:2] == [b"HELLO"]:
            frame = framing.decode_line(line[:-1])
            fields = tuple((k, str(self._version) if k == "v" else v) for k, v in frame.fields)
            line = framing.encode(framing.Frame(frame.seq, frame.kind, fields))
        if self._mangle:
            how = self._mangle.pop(0)
            if how == "drop":
                return
            if how == "flip":
                damaged = bytearray(line)
                damaged[len(line) // 2] ^= 0x04
                line = bytes(damaged)
            else:
                line = line[: len(line) // 2] + b"\n"
        self._write_raw(line)

    def _write_raw(self, data: bytes) -> None:
        if self._master is None:
            return
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._master, data)  # a full buffer loses the line, like a stalled USB link

    def _run(self) -> None:
        while not self._stopping.is_set():
            with self._lock:
                master = None if self._hung else self._master
            if master is None:
                self._stopping.wait(TICK)
                continue
            try:
                readable, _, _ = select.select([master], [], [], TICK)
            except (OSError, ValueError):
                continue  # the pty was closed under us by unplug()
            with self._lock:
                if self._master != master or self._firmware is None:
                    continue
                if readable:
                    self._take_input(master)
                self._firmware.step(int(self._clock() * 1000))

    def _take_input(self, master: int) -> None:
        try:
            data = os.read(master, 4096)
        except (BlockingIOError, OSError):
            return
        assert self._firmware is not None
        self._firmware.receive(data)
        frames = self._host_frames.feed(data)
        if frames:
            with self.received_event:
                self.received.extend(frames)
                self.received_event.notify_all()
