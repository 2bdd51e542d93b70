"""The scan loop every local backend shares: read, debounce, recognise, put events on a queue.

A backend subclass only says how to read the raw world (closed matrix keys, stick faces, the
throw button). This class owns the rest, built on :mod:`hardware.sensing`: the integrating
debounce of every key, phantom-square detection, throw settling, the start-up snapshot, the
scan thread and the self-test status. The thread does nothing but read and put events on the
game's queue.

``poll()`` runs one scan at the clock's current time and returns its events, so tests drive a
backend deterministically with a manual clock and no thread (``start(events, thread=False)``).
"""

from __future__ import annotations

import collections
import threading
import time
from abc import ABC, abstractmethod
from typing import Any

from hardware import sensing
from hardware.backend import EventQueue
from hardware.config import HardwareConfig
from hardware.errors import HardwareError
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)
from hardware.simulation import Clock, SimulatedBoard

__all__ = ["SCAN_FAILED", "ScanningBackend"]

SCAN_FAILED = "scan-failed"
Key = tuple[int, int]
Faces = tuple[int | None, ...]

PHANTOM_MESSAGE = (
    "squares {squares} closed together in one scan, as phantom squares do: the square matrix "
    "seems to lack a diode on each switch (see the wiring guide); their readings cannot be "
    "trusted until those pieces are moved"
)


class ScanningBackend(ABC):
    """A backend that scans sensors itself at ``config.matrix.scan_hz``."""

    name: str = "scan"

    def __init__(
        self,
        config: HardwareConfig,
        *,
        clock: Clock = time.monotonic,
        board: SimulatedBoard | None = None,
    ) -> None:
        self.config = config
        self.clock = clock
        self.board = board
        m = config.matrix
        self._keys: list[Key] = [(r, c) for r in range(len(m.rows)) for c in range(len(m.columns))]
        self._square_of: dict[Key, int] = {k: m.square_at(*k) for k in self._keys}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._events: EventQueue | None = None
        self._opened = False
        self._reset_sensing()

    # --- what a subclass provides ------------------------------------------------------------

    @abstractmethod
    def _open(self) -> None:
        """Claim the pins or other resources."""

    @abstractmethod
    def _close(self) -> None:
        """Release what ``_open`` claimed; called once per successful ``_open``."""

    @abstractmethod
    def _read_keys(self) -> set[Key]:
        """The matrix keys that read closed right now (raw, not debounced)."""

    @abstractmethod
    def _read_sticks(self) -> Faces:
        """One face per stick (1 = light up), None for a reading that makes no sense."""

    @abstractmethod
    def _read_throw_button(self) -> bool:
        """True while the throw button is held (False when there is none)."""

    def stick_readings(self) -> list[float | int | None]:
        """The raw stick readings (levels, or analogue fractions) for the self-test."""
        return list(self._read_sticks())

    # --- the Backend interface ---------------------------------------------------------------

    def start(self, events: EventQueue, *, thread: bool = True) -> None:
        """Open the sensors, put a :class:`BoardSnapshot` on ``events``, then scan.

        With ``thread=False`` nothing runs by itself: call :meth:`poll` to scan once.
        """
        with self._lock:
            if self._opened:
                raise HardwareError(f"the {self.name} backend is already started: stop it first")
            self._reset_sensing()
            self._open()
            self._opened = True
            self._events = events
            self._stopping.clear()
        try:
            self._prime()
        except BaseException:
            self.stop()
            raise
        if thread:
            self._thread = threading.Thread(
                target=self._run, name=f"senet-{self.name}-scan", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop scanning, join the scan thread and release the pins; safe to call twice."""
        self._stopping.set()
        worker = self._thread
        if worker is not None and worker is not threading.current_thread():
            worker.join(timeout=5)
        self._thread = None
        with self._lock:
            if self._opened:
                self._opened = False
                self._close()

    def occupied(self) -> frozenset[int]:
        """The debounced occupied squares (always empty on a push-button board)."""
        with self._lock:
            if self.config.squares == "buttons":
                return frozenset()
            return frozenset(self._closed_squares())

    def status(self) -> dict[str, Any]:
        """Everything the self-test and the page show, as JSON-able values."""
        with self._lock:
            times = list(self._scan_times)
            rate = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else 0.0
            if len(times) > 1 and times[-1] == times[0]:
                rate = 0.0
            return {
                "backend": self.name,
                "running": self._thread is not None and self._thread.is_alive(),
                "squares": self.config.squares,
                "closed": sorted(self._closed_squares()),
                "sticks": list(self._last_faces),
                "resting": None if self._detector.resting is None else list(self._detector.resting),
                "moving": self._detector.moving,
                "throw_button": bool(self._button_debouncer.states[0]),
                "scans": self._scans,
                "scan_hz": round(rate, 1),
                "faults": [
                    {"code": f.code, "message": f.message, "squares": list(f.squares)}
                    for f in self._faults.values()
                ],
            }

    # --- scanning ----------------------------------------------------------------------------

    def poll(self) -> list[HardwareEvent]:
        """Scan once at the clock's time; put the events on the queue and return them."""
        with self._lock:
            if not self._opened:
                raise HardwareError(f"the {self.name} backend is not started")
            events = self._scan_once()
            if self._events is not None:
                for event in events:
                    self._events.put(event)
            return events

    def _reset_sensing(self) -> None:
        m = self.config.matrix
        t = self.config.throw
        self._debouncer = sensing.KeyDebouncer(len(self._keys), m.debounce_samples)
        self._button_debouncer = sensing.KeyDebouncer(1, m.debounce_samples)
        self._detector = sensing.ThrowDetector(
            len(self.config.sticks), t.settle_ms, t.max_motion_ms, t.min_changes
        )
        self._phantoms = sensing.PhantomWatch()
        self._faults: dict[str, HardwareFault] = {}
        self._last_faces: Faces = ()
        self._scan_times: collections.deque[float] = collections.deque(maxlen=100)
        self._scans = 0
        self._failing = False

    def _prime(self) -> None:
        """Scan until every key has settled, then report the board as one snapshot."""
        with self._lock:
            now = self.clock()
            for _ in range(self.config.matrix.debounce_samples):
                self._sample_keys(int(now * 1000))
            faces = self._read_sticks()
            self._last_faces = faces
            result = self._detector.update(int(now * 1000), faces)
            squares = frozenset() if self.config.squares == "buttons" else self._closed_squares()
            snapshot = BoardSnapshot(occupied=frozenset(squares), at=now)
            if self._events is not None:
                self._events.put(snapshot)
                if result is not None:
                    self._events.put(self._throw_event(result, now))

    def _sample_keys(self, now_ms: int) -> list[tuple[int, int]]:
        closed = self._read_keys()
        return self._debouncer.update(now_ms, [1 if k in closed else 0 for k in self._keys])

    def _closed_keys(self) -> set[Key]:
        return {self._keys[i] for i in self._debouncer.closed_keys()}

    def _closed_squares(self) -> set[int]:
        return {sq for k in self._closed_keys() if (sq := self._square_of[k])}

    def _scan_once(self) -> list[HardwareEvent]:
        now = self.clock()
        now_ms = int(now * 1000)
        events: list[HardwareEvent] = []
        before = self._closed_keys()
        try:
            changes = self._sample_keys(now_ms)
            faces = self._read_sticks()
            pressed = self._button_debouncer.update(now_ms, [1 if self._read_throw_button() else 0])
        except Exception as exc:  # a pin library error must not kill the scan thread
            if not self._failing:
                self._failing = True
                events.append(self._fault(SCAN_FAILED, f"reading the sensors failed: {exc}", now))
            return events
        if self._failing:
            self._failing = False
            events.append(self._clear(SCAN_FAILED, now))
        self._scans += 1
        self._scan_times.append(now)
        for index, state in changes:
            square = self._square_of[self._keys[index]]
            if not square:
                continue
            if self.config.squares == "buttons":
                if state:
                    events.append(SquarePressed(square=square, at=now))
            else:
                events.append(SquareChanged(square=square, occupied=bool(state), at=now))
        if changes:
            events.extend(self._check_phantoms(before, self._closed_keys(), now))
        self._last_faces = faces
        result = self._detector.update(now_ms, faces)
        if result is not None:
            events.append(self._throw_event(result, now))
        if pressed and pressed[0][1]:
            events.append(ThrowRequested(at=now))
        return events

    def _check_phantoms(self, before: set[Key], after: set[Key], now: float) -> list[HardwareFault]:
        result = self._phantoms.update(before, after)
        if result is None:
            return []
        if result[0] == sensing.CLEARED:
            return [self._clear(sensing.PHANTOM_SQUARES, now)]
        squares = tuple(sorted(sq for k in result[1] if (sq := self._square_of[k])))
        shown = ", ".join(str(s) for s in squares) or "(unused matrix positions)"
        message = PHANTOM_MESSAGE.format(squares=shown)
        return [self._fault(sensing.PHANTOM_SQUARES, message, now, squares)]

    def _throw_event(self, result: tuple[Any, ...], now: float) -> HardwareEvent:
        if result[0] == sensing.THROW:
            return ThrowSettled(faces=tuple(result[1]), at=now)
        if result[0] == sensing.FAULT:
            return self._fault(result[1], result[2], now)
        return self._clear(result[1], now)

    def _fault(
        self, code: str, message: str, now: float, squares: tuple[int, ...] = ()
    ) -> HardwareFault:
        fault = HardwareFault(code=code, message=message, squares=squares, at=now)
        # A throw without motion is a one-off; the others stay until cleared.
        if code != sensing.THROW_WITHOUT_MOTION:
            self._faults[code] = fault
        return fault

    def _clear(self, code: str, now: float) -> HardwareFault:
        old = self._faults.pop(code, None)
        message = "cleared" if old is None else f"cleared: {old.message}"
        squares = () if old is None else old.squares
        return HardwareFault(code=code, message=message, squares=squares, cleared=True, at=now)

    def _run(self) -> None:
        period = 1.0 / self.config.matrix.scan_hz
        due = time.monotonic()
        while not self._stopping.is_set():
            try:
                self.poll()
            except HardwareError:
                return  # stopped under our feet
            due += period
            delay = due - time.monotonic()
            if delay < 0:
                due = time.monotonic()  # fell behind: do not try to catch up in a burst
                delay = 0
            self._stopping.wait(delay)

    def __enter__(self) -> ScanningBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
