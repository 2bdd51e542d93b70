"""The serial backend: a reader thread that keeps a board connected and turns frames into events.

It opens the port by URL (``serial.serial_for_url``), or finds the board by its USB ids, runs a
:class:`~firmware_bridge.session.BridgeSession` over it, and when the cable is pulled or the
line goes silent it reports ``link-lost``, waits with a doubling back-off, reconnects, and
resynchronises from the board's snapshot. The thread only ever puts events on the queue.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from firmware_bridge.config import SerialConfig, find_board_port
from firmware_bridge.errors import BoardNotFound, BridgeTimeout, ProtocolVersionError
from firmware_bridge.session import FAULT_MESSAGES, ONE_SHOT_FAULTS, BridgeSession
from hardware.backend import EventQueue
from hardware.events import HardwareEvent, HardwareFault
from hardware.simulation import SimulatedBoard

__all__ = ["SerialBackend"]

Clock = Callable[[], float]
PortOpener = Callable[..., Any]
READ_TIMEOUT = 0.05
WRITE_TIMEOUT = 1.0


class SerialBackend:
    """The board behind a microcontroller on USB serial, as a hardware backend.

    ``opener`` and ``find_port`` are injection points for tests (they default to
    ``serial.serial_for_url`` and a USB id search). ``status()`` reports the link's health:
    connected or not, the board's HELLO, dropped lines by reason, sequence gaps, reconnects.
    """

    name = "serial"
    board: SimulatedBoard | None = None  # the simulated board behind a fake device, if any

    def __init__(
        self,
        config: SerialConfig | None = None,
        *,
        clock: Clock = time.monotonic,
        opener: PortOpener = serial.serial_for_url,
        find_port: Callable[[int, int], str] = find_board_port,
    ) -> None:
        self.config = config or SerialConfig()
        self._clock = clock
        self._opener = opener
        self._find_port = find_port
        self._session = BridgeSession(clock, silence=self.config.silence)
        self._events: EventQueue | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._port_name: str | None = None
        self._connects = 0
        self._losses = 0
        self._last_error = ""
        self._lost_reported = False
        self._version_reported = False
        self._faults: dict[str, HardwareFault] = {}

    # -- Backend ------------------------------------------------------------------------------

    def start(self, events: EventQueue) -> None:
        """Begin connecting in the background; events (and faults) go to ``events``."""
        if self._thread is not None:
            raise RuntimeError("this serial backend is already started; stop it first")
        self._events = events
        self._stopping.clear()
        with self._lock:
            self._faults.clear()
        self._lost_reported = self._version_reported = False
        self._thread = threading.Thread(target=self._run, name="serial-bridge", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the reader thread and close the port; safe to call twice."""
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5.0)

    def occupied(self) -> frozenset[int]:
        return self._session.occupied()

    def status(self) -> dict[str, Any]:
        """The self-test's view (the keys every backend reports) plus the link's health."""
        with self._lock:
            device = self._session.device
            snap = self._session.last_snapshot
            faces = list(self._session.faces())
            thread = self._thread
            return {
                "backend": self.name,
                "running": thread is not None and thread.is_alive(),
                "squares": device.input if device else None,
                "closed": sorted(self._session.occupied()),
                "sticks": faces,
                "resting": faces or None,
                "moving": bool(snap and snap.moving),
                "throw_button": bool(snap and snap.button),
                "scans": snap.cycles if snap and snap.cycles is not None else 0,
                "scan_hz": float(snap.scan_hz) if snap and snap.scan_hz is not None else 0.0,
                "faults": [
                    {"code": f.code, "message": f.message, "squares": list(f.squares)}
                    for f in self._faults.values()
                ],
                "port": self._port_name or self.config.port,
                "connected": self._ready.is_set(),
                "device": device.as_status() if device else None,
                "connects": self._connects,
                "link_losses": self._losses,
                "last_error": self._last_error,
                **self._session.counters(),
            }

    def wait_ready(self, timeout: float) -> bool:
        """Block until the board has said HELLO and sent its snapshot; False on timeout."""
        return self._ready.wait(timeout)

    # -- the reader thread --------------------------------------------------------------------

    def _put(self, event: HardwareEvent) -> None:
        assert self._events is not None
        if isinstance(event, HardwareFault):
            with self._lock:
                if event.cleared:
                    self._faults.pop(event.code, None)
                elif event.code not in ONE_SHOT_FAULTS:
                    self._faults[event.code] = event
        self._events.put(event)

    def _run(self) -> None:
        backoff = self.config.backoff_initial
        while not self._stopping.is_set():
            try:
                port = self._open()
            except (BoardNotFound, serial.SerialException, OSError, ValueError) as error:
                self._link_down(f"cannot open the board's port: {error}")
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, self.config.backoff_max)
                continue
            try:
                if self._converse(port):
                    backoff = self.config.backoff_initial
            except ProtocolVersionError as error:
                self._version_mismatch(error)
                backoff = self.config.backoff_max
            except (serial.SerialException, OSError, BridgeTimeout) as error:
                self._link_down(str(error) or type(error).__name__)
            finally:
                self._ready.clear()
                _close_quietly(port)
            if not self._stopping.is_set():
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, self.config.backoff_max)

    def _open(self) -> Any:
        url = self.config.port
        if url is None:
            url = self._find_port(self.config.vid, self.config.pid)
        with self._lock:
            self._port_name = url
        # Exclusive: a second program on the same port (another companion, a terminal) would
        # steal half the lines. A write that stalls for a second means the link is gone.
        return self._opener(
            url,
            baudrate=self.config.baud,
            timeout=READ_TIMEOUT,
            write_timeout=WRITE_TIMEOUT,
            exclusive=True,
        )

    def _converse(self, port: Any) -> bool:
        """Talk to the board until told to stop (True) or the link fails (raises)."""
        session = self._session
        with self._lock:
            session.begin()
        port.reset_input_buffer()
        was_ready = False
        while not self._stopping.is_set():
            outgoing = session.outgoing()
            if outgoing:
                port.write(outgoing)
            data = port.read(max(1, port.in_waiting))
            with self._lock:
                events = session.receive(data) if data else []
                session.poll()
            for event in events:
                self._put(event)
            if session.ready and not was_ready:
                was_ready = True
                self._connected()
        return was_ready

    def _connected(self) -> None:
        with self._lock:
            self._connects += 1
            self._last_error = ""
        self._ready.set()
        for code, reported in (
            ("link-lost", self._lost_reported),
            ("protocol-version", self._version_reported),
        ):
            if reported:
                message = "the board is connected again"
                self._put(HardwareFault(code, message, cleared=True, at=self._clock()))
        self._lost_reported = False
        self._version_reported = False

    def _link_down(self, reason: str) -> None:
        with self._lock:
            self._last_error = reason
            if self._ready.is_set() or not self._lost_reported:
                self._losses += 1
        if not self._lost_reported:
            self._lost_reported = True
            message = f"{FAULT_MESSAGES['link-lost']} ({reason})"
            self._put(HardwareFault("link-lost", message, at=self._clock()))

    def _version_mismatch(self, error: ProtocolVersionError) -> None:
        with self._lock:
            self._last_error = str(error)
        if not self._version_reported:
            self._version_reported = True
            self._put(HardwareFault("protocol-version", str(error), at=self._clock()))


def _close_quietly(port: Any) -> None:
    # A port whose device vanished may refuse to close cleanly; it is gone either way.
    with contextlib.suppress(serial.SerialException, OSError):
        port.close()
