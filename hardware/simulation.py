"""The physical board in software: pieces, push buttons, throwing sticks and the throw button.

:class:`SimulatedBoard` is the world, not a backend: it knows which switches are closed and
which face each stick shows *at a given moment* of its clock, including the bounce of a contact
and the tumbling of a throw. Backends read it through gpiozero mock pins
(:mod:`hardware.mock_pins`) or directly (the plain simulation backend), so the same scanner,
debouncer and throw detector run in simulation as on a Raspberry Pi.

Everything is a function of the clock, so nothing here starts a thread: a test drives a
:class:`ManualClock` and reads, the live simulator uses the monotonic clock. All methods are
safe to call from any thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["Clock", "ManualClock", "SimulatedBoard"]

Clock = Callable[[], float]
"""A monotonic clock in seconds: ``time.monotonic`` in life, a :class:`ManualClock` in tests."""

SQUARES = range(1, 31)
LIGHT_READING = 0.80
DARK_READING = 0.20


class ManualClock:
    """A clock that moves only when told to: ``advance(seconds)`` or ``set(seconds)``."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, seconds: float) -> None:
        with self._lock:
            if seconds < self._now:
                raise ValueError("a clock cannot go backwards")
            self._now = seconds


@dataclass(frozen=True, slots=True)
class _Bounce:
    """A contact chattering from ``start`` for ``length`` seconds before it rests."""

    start: float
    length: float

    def active(self, now: float) -> bool:
        return self.start <= now < self.start + self.length

    def chatter(self, now: float) -> bool:
        # A fixed irregular pattern, 1 ms per step: deterministic, yet no sample rate aliases it.
        step = int((now - self.start) * 1000)
        return bool((step * 2654435761 >> 7) & 1)


@dataclass(frozen=True, slots=True)
class _Tumble:
    """Sticks in the air from ``start`` until ``end``, then at rest on ``faces``."""

    start: float
    end: float
    before: tuple[int, ...]
    faces: tuple[int, ...]
    sticks: frozenset[int]

    def face(self, stick: int, now: float) -> int:
        if now >= self.end:
            return self.faces[stick]
        if stick not in self.sticks or now < self.start:
            return self.before[stick]
        # Each stick turns over at its own pace, so the sensors see real motion.
        period = 0.023 + 0.009 * stick
        turns = int((now - self.start) / period) + 1
        return (self.before[stick] + turns) % 2


class SimulatedBoard:
    """A Senet board with its sticks, as the sensors would see it at any moment.

    ``diodes=False`` models a matrix wired without a diode per switch: the mock pins then show
    the phantom squares that real wiring would. ``tumble_ms`` is how long thrown sticks take to
    come to rest; ``press_ms`` how long a square or the throw button is held by :meth:`press`.
    """

    def __init__(
        self,
        clock: Clock = time.monotonic,
        *,
        diodes: bool = True,
        tumble_ms: int = 300,
        press_ms: int = 150,
        bounce_ms: int = 8,
        sticks: tuple[int, ...] = (0, 0, 0, 0),
    ) -> None:
        self.clock = clock
        self.diodes = diodes
        self.tumble_s = tumble_ms / 1000
        self.press_s = press_ms / 1000
        self.bounce_s = bounce_ms / 1000
        self._lock = threading.Lock()
        self._pieces: set[int] = set()
        self._held: dict[int, float] = {}  # square -> released at
        self._bounces: dict[int, _Bounce] = {}
        self._button_until = float("-inf")
        self._tumble = _Tumble(float("-inf"), float("-inf"), sticks, _faces(sticks), frozenset())
        self._unplugged: set[int] = set()

    # --- what a player does ------------------------------------------------------------------

    def place(self, square: int, *, bounce: bool = True) -> None:
        """Put a piece on a square (its switch closes, bouncing briefly unless told not to)."""
        square = _square(square)
        with self._lock:
            if square in self._pieces:
                return
            self._pieces.add(square)
            self._start_bounce(square, bounce)

    def lift(self, square: int, *, bounce: bool = True) -> None:
        """Take the piece off a square."""
        square = _square(square)
        with self._lock:
            if square not in self._pieces:
                return
            self._pieces.discard(square)
            self._start_bounce(square, bounce)

    def move(self, from_square: int, to_square: int) -> None:
        """Lift a piece and put it down elsewhere."""
        self.lift(from_square)
        self.place(to_square)

    def arrange(self, squares: Iterable[int]) -> None:
        """Set the whole board at once, without bounce (setting up before the backend starts).

        On a running backend every switch changes in the same instant, which no hand can do:
        pieces that close two corners of a rectangle at once may be reported as phantom
        squares. Play with :meth:`place` and :meth:`lift`.
        """
        wanted = {_square(s) for s in squares}
        with self._lock:
            self._pieces = wanted
            self._bounces.clear()
            self._held.clear()

    def press(self, square: int) -> None:
        """Press and release a push-button square (held for ``press_ms``)."""
        square = _square(square)
        with self._lock:
            self._held[square] = self.clock() + self.press_s
            self._start_bounce(square, True)

    def press_throw_button(self) -> None:
        """Press and release the electronic-throw button."""
        with self._lock:
            self._button_until = self.clock() + self.press_s

    def throw(self, faces: Iterable[int], *, tumble_ms: int | None = None) -> None:
        """Throw the sticks: they tumble for ``tumble_ms`` and come to rest on ``faces``."""
        rest = _faces(faces)
        length = self.tumble_s if tumble_ms is None else tumble_ms / 1000
        with self._lock:
            now = self.clock()
            before = self._faces_at(now)
            self._tumble = _Tumble(now, now + length, before, rest, frozenset(range(4)))

    def turn_stick(self, stick: int) -> None:
        """Turn one stick over by hand, without throwing (the sensors see one change)."""
        stick = _stick(stick)
        with self._lock:
            now = self.clock()
            faces = list(self._faces_at(now))
            faces[stick] = 1 - faces[stick]
            self._tumble = _Tumble(now, now, tuple(faces), tuple(faces), frozenset())

    def wobble_stick(self, stick: int, ms: int) -> None:
        """Leave one stick rocking on its edge for ``ms`` milliseconds, then at rest as it was."""
        stick = _stick(stick)
        with self._lock:
            now = self.clock()
            before = self._faces_at(now)
            self._tumble = _Tumble(now, now + ms / 1000, before, before, frozenset({stick}))

    def unplug_stick(self, stick: int, unplugged: bool = True) -> None:
        """Disconnect (or reconnect) a stick's analogue sensor: it reads full scale."""
        stick = _stick(stick)
        with self._lock:
            if unplugged:
                self._unplugged.add(stick)
            else:
                self._unplugged.discard(stick)

    # --- what the sensors see ----------------------------------------------------------------

    @property
    def occupied(self) -> frozenset[int]:
        """The squares with a piece on them."""
        with self._lock:
            return frozenset(self._pieces)

    @property
    def sticks(self) -> tuple[int, ...]:
        """The faces the sticks show, or will show once at rest (1 = light face up)."""
        with self._lock:
            return self._tumble.faces

    def closed_squares(self, now: float | None = None) -> frozenset[int]:
        """The squares whose switch is closed at ``now``: pieces, held buttons, bounce."""
        with self._lock:
            if now is None:
                now = self.clock()
            closed = set(self._pieces)
            for square, until in list(self._held.items()):
                if now < until:
                    closed.add(square)
                elif now < until + self.bounce_s:
                    # The contact bounces on release too.
                    if _Bounce(until, self.bounce_s).chatter(now):
                        closed.add(square)
                else:
                    del self._held[square]
            for square, bounce in list(self._bounces.items()):
                if bounce.active(now):
                    if bounce.chatter(now):
                        closed.add(square)
                    else:
                        closed.discard(square)
                elif now >= bounce.start + bounce.length:
                    del self._bounces[square]
            return frozenset(closed)

    def stick_faces(self, now: float | None = None) -> tuple[int, ...]:
        """The face each stick shows at ``now`` (mid-air sticks included)."""
        with self._lock:
            return self._faces_at(self.clock() if now is None else now)

    def stick_reading(self, stick: int, now: float | None = None) -> float:
        """What an analogue light sensor under ``stick`` reads, 0..1 of full scale."""
        with self._lock:
            if stick in self._unplugged:
                return 1.0
            face = self._faces_at(self.clock() if now is None else now)[stick]
        return LIGHT_READING if face else DARK_READING

    def stick_connected(self, stick: int) -> bool:
        with self._lock:
            return stick not in self._unplugged

    def throw_button_closed(self, now: float | None = None) -> bool:
        with self._lock:
            return (self.clock() if now is None else now) < self._button_until

    # --- internals ---------------------------------------------------------------------------

    def _start_bounce(self, square: int, bounce: bool) -> None:
        if bounce and self.bounce_s > 0:
            self._bounces[square] = _Bounce(self.clock(), self.bounce_s)
        else:
            self._bounces.pop(square, None)

    def _faces_at(self, now: float) -> tuple[int, ...]:
        t = self._tumble
        return tuple(t.face(i, now) for i in range(4))

    def __repr__(self) -> str:
        board = "".join("o" if s in self._pieces else "." for s in SQUARES)
        sticks = "".join(str(f) for f in self._tumble.faces)
        return f"<SimulatedBoard {board} sticks={sticks} diodes={self.diodes}>"


def _square(square: int) -> int:
    if isinstance(square, bool) or not isinstance(square, int) or square not in SQUARES:
        raise ValueError(f"there is no square {square!r} on a Senet board: squares are 1 to 30")
    return square


def _stick(stick: int) -> int:
    if isinstance(stick, bool) or not isinstance(stick, int) or not 0 <= stick < 4:
        raise ValueError(f"there is no stick {stick!r}: sticks are numbered 0 to 3")
    return stick


def _faces(faces: Iterable[int]) -> tuple[int, ...]:
    result = tuple(faces)
    if len(result) != 4 or any(f not in (0, 1) for f in result):
        raise ValueError(
            f"sticks come to rest on four faces of 0 or 1 (1 = light face up), got {result!r}"
        )
    return tuple(int(f) for f in result)
