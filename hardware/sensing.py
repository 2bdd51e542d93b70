"""The pure sensing logic shared by every backend: debounce, throw settling, phantom squares.

This one file runs unchanged on the Raspberry Pi (CPython) and on the board-scanning
microcontroller (MicroPython), so a square or a throw is recognised by the same rules whichever
backend reads the pins. It therefore keeps to the subset both interpreters share: no imports at
all, no dataclasses, enums or abc, no typing at run time (annotations are strings), no walrus in
comprehensions and no ``=`` in f-strings. Times are integer milliseconds (``now_ms``) from the
caller's clock; nothing here reads a clock, sleeps or starts a thread.

The API, all plain values in and out:

``KeyDebouncer(n_keys, threshold=3, initial=None)``
    An integrating debouncer for ``n_keys`` switches. ``update(now_ms, closed)`` takes one sample
    (a sequence of 0/1 per key, 1 = closed) and returns the list of ``(index, state)`` changes
    that sample completed. Each key has a counter that moves one step toward the raw reading per
    sample and flips the debounced state only at 0 or ``threshold``, so a bouncing contact is
    ignored until it has read the same way for ``threshold`` samples more often than not.
    ``states`` is the current debounced list; ``settled`` is True once every key has been
    sampled ``threshold`` times (the first snapshot is trustworthy then).

``ThrowDetector(n_sticks=4, settle_ms=400, max_motion_ms=5000, min_changes=2)``
    Watches the faces of the throwing sticks. ``update(now_ms, faces)`` (one 0/1 per stick,
    1 = light face up, ``None`` for a reading that makes no sense) returns ``None`` or one of::

        ("throw", faces_tuple)          sticks moved, then were still for settle_ms
        ("fault", code, message)        code: stick-unsettled, throw-without-motion, sensor-range
        ("cleared", code)               the fault went away; the sticks are at rest again

    Motion means face changes. A throw needs at least ``min_changes`` of them: a single flip
    is a stick turned by hand or a glitch, reported as ``throw-without-motion``. Sticks still
    changing ``max_motion_ms`` after the motion began give ``stick-unsettled`` once, and no
    throw for that motion. ``resting`` is the faces at rest (``None`` until first seen).

``phantom_keys(closed, changed=None)``
    In a key matrix without a diode per switch, three closed corners of a rectangle make the
    fourth read closed too. ``closed`` is a collection of ``(row, column)`` keys read closed.
    With ``changed`` (the keys that changed in one scan), the result is the set of changed keys
    that complete a rectangle together with another changed key: the signature of a phantom,
    because one real piece cannot close two keys at once. Without ``changed``, it is every key
    that is a corner of a fully closed rectangle (keys that *might* be phantoms).

``PhantomWatch()``
    Keeps track of a matrix between scans. ``update(before, after)`` returns ``None``,
    ``("fault", keys_tuple)`` when a phantom pattern appears (or is revealed by a lift that
    opens two corners at once), or ``("cleared", ())`` once the suspect keys no longer form a
    fully closed rectangle. The first scan is the baseline: compare later scans with it, never
    the first one with an empty board (four real pieces may well close a rectangle).

``LightThreshold(threshold, hysteresis=0, low_limit=None, high_limit=None, light_is_high=True)``
    Turns an analogue light reading into a face with hysteresis: ``classify(value)`` returns 1,
    0, or ``None`` when the value is outside ``[low_limit, high_limit]`` (an unplugged or
    shorted sensor). Inside ``threshold +/- hysteresis`` the previous face is kept.

``calibrate_threshold(light_values, dark_values)``
    Returns ``(threshold, hysteresis, light_is_high)`` separating two sets of readings taken
    with the light and with the dark face up; raises ``ValueError`` when they overlap.
"""

THROW = "throw"
FAULT = "fault"
CLEARED = "cleared"

STICK_UNSETTLED = "stick-unsettled"
THROW_WITHOUT_MOTION = "throw-without-motion"
SENSOR_RANGE = "sensor-range"
PHANTOM_SQUARES = "phantom-squares"

DEFAULT_DEBOUNCE_THRESHOLD = 3
DEFAULT_SETTLE_MS = 400
DEFAULT_MAX_MOTION_MS = 5000
DEFAULT_MIN_CHANGES = 2


class KeyDebouncer:
    """An integrating debouncer for a fixed number of switches, one sample at a time."""

    def __init__(
        self,
        n_keys: "int",
        threshold: "int" = DEFAULT_DEBOUNCE_THRESHOLD,
        initial: "list[int] | tuple[int, ...] | None" = None,
    ) -> "None":
        if n_keys < 1:
            raise ValueError("a debouncer needs at least one key, got " + str(n_keys))
        if threshold < 1:
            raise ValueError(
                "the debounce threshold must be 1 or more samples, got " + str(threshold)
            )
        self.n_keys = n_keys
        self.threshold = threshold
        if initial is None:
            initial = [0] * n_keys
        if len(initial) != n_keys:
            raise ValueError("initial states: expected " + str(n_keys) + " values")
        self.states = [1 if s else 0 for s in initial]
        self._counts = [threshold if s else 0 for s in self.states]
        self._samples = 0
        self.last_ms = None  # type: int | None

    @property
    def settled(self) -> "bool":
        """True once enough samples were taken for every key to have reached its state."""
        return self._samples >= self.threshold

    def update(
        self, now_ms: "int", closed: "list[int] | tuple[int, ...]"
    ) -> "list[tuple[int, int]]":
        """Take one sample (0/1 per key); return the ``(index, state)`` changes it completes."""
        if len(closed) != self.n_keys:
            raise ValueError(
                "sample has " + str(len(closed)) + " keys, the debouncer has " + str(self.n_keys)
            )
        self.last_ms = now_ms
        self._samples += 1
        changes = []
        counts = self._counts
        states = self.states
        top = self.threshold
        for i in range(self.n_keys):
            count = counts[i]
            if closed[i]:
                if count < top:
                    count += 1
                    counts[i] = count
                    if count == top and not states[i]:
                        states[i] = 1
                        changes.append((i, 1))
            elif count > 0:
                count -= 1
                counts[i] = count
                if count == 0 and states[i]:
                    states[i] = 0
                    changes.append((i, 0))
        return changes

    def closed_keys(self) -> "list[int]":
        """The indices of the keys currently debounced closed, in order."""
        return [i for i in range(self.n_keys) if self.states[i]]


class ThrowDetector:
    """Recognises one settled throw of the sticks from a stream of face samples."""

    def __init__(
        self,
        n_sticks: "int" = 4,
        settle_ms: "int" = DEFAULT_SETTLE_MS,
        max_motion_ms: "int" = DEFAULT_MAX_MOTION_MS,
        min_changes: "int" = DEFAULT_MIN_CHANGES,
    ) -> "None":
        if n_sticks < 1:
            raise ValueError("a throw needs at least one stick, got " + str(n_sticks))
        if settle_ms < 1:
            raise ValueError("settle_ms must be positive, got " + str(settle_ms))
        if max_motion_ms <= settle_ms:
            raise ValueError("max_motion_ms must be longer than settle_ms")
        if min_changes < 1:
            raise ValueError("min_changes must be 1 or more, got " + str(min_changes))
        self.n_sticks = n_sticks
        self.settle_ms = settle_ms
        self.max_motion_ms = max_motion_ms
        self.min_changes = min_changes
        self.resting = None  # type: tuple[int, ...] | None
        self._last = None  # type: tuple[int, ...] | None
        self._last_change_ms = 0
        self._motion_start_ms = 0
        self._changes = 0
        self._moving = False
        self._fault = None  # type: str | None

    @property
    def moving(self) -> "bool":
        """True while the sticks have changed and not yet been still for settle_ms."""
        return self._moving

    @property
    def fault(self) -> "str | None":
        """The code of the fault in force, or None."""
        return self._fault

    def update(
        self, now_ms: "int", faces: "list[int | None] | tuple[int | None, ...]"
    ) -> "tuple[str, tuple[int, ...]] | tuple[str, str, str] | tuple[str, str] | None":
        """Take one sample of the faces; return None, a throw, a fault or a cleared fault."""
        if len(faces) != self.n_sticks:
            raise ValueError(
                "sample has " + str(len(faces)) + " sticks, expected " + str(self.n_sticks)
            )
        bad = [i for i in range(self.n_sticks) if faces[i] != 0 and faces[i] != 1]
        if bad:
            self._moving = False
            self._last = None
            if self._fault == SENSOR_RANGE:
                return None
            self._fault = SENSOR_RANGE
            names = ", ".join([str(i + 1) for i in bad])
            return (
                FAULT,
                SENSOR_RANGE,
                "stick sensor "
                + names
                + " reads a value no stick can give: check its wiring and calibration",
            )
        sample = tuple([1 if f else 0 for f in faces])
        if self._last is None:
            # First valid sample, or first after a sensor fault: the sticks count as at rest.
            self._last = sample
            self._last_change_ms = now_ms
            if self._fault == SENSOR_RANGE:
                self._fault = None
                self.resting = sample
                return (CLEARED, SENSOR_RANGE)
            self.resting = sample
            return None
        if sample != self._last:
            if not self._moving:
                self._moving = True
                self._motion_start_ms = now_ms
                self._changes = 0
            for i in range(self.n_sticks):
                if sample[i] != self._last[i]:
                    self._changes += 1
            self._last = sample
            self._last_change_ms = now_ms
        if not self._moving:
            return None
        if now_ms - self._last_change_ms >= self.settle_ms:
            self._moving = False
            self.resting = sample
            if self._fault == STICK_UNSETTLED:
                self._fault = None
                return (CLEARED, STICK_UNSETTLED)
            if self._changes < self.min_changes:
                return (
                    FAULT,
                    THROW_WITHOUT_MOTION,
                    "the sticks changed without tumbling: throw them again",
                )
            return (THROW, sample)
        if self._fault != STICK_UNSETTLED and now_ms - self._motion_start_ms > self.max_motion_ms:
            self._fault = STICK_UNSETTLED
            return (
                FAULT,
                STICK_UNSETTLED,
                "the sticks have not come to rest after "
                + str(self.max_motion_ms)
                + " ms: a stick may be on its edge or its sensor flickers",
            )
        return None


def _corners_closed(
    closed: "set[tuple[int, int]]", r1: "int", c1: "int", r2: "int", c2: "int"
) -> "bool":
    return (r1, c2) in closed and (r2, c1) in closed and (r2, c2) in closed


def phantom_keys(
    closed: "set[tuple[int, int]] | frozenset[tuple[int, int]] | list[tuple[int, int]]",
    changed: "set[tuple[int, int]] | frozenset[tuple[int, int]] | None" = None,
) -> "set[tuple[int, int]]":
    """The keys that complete a fully closed rectangle (see the module docstring)."""
    closed = set(closed)
    result = set()
    if changed is None:
        keys = sorted(closed)
        for a in keys:
            for b in keys:
                if b[0] > a[0] and b[1] != a[1] and _corners_closed(closed, a[0], a[1], b[0], b[1]):
                    result.add(a)
                    result.add(b)
                    result.add((a[0], b[1]))
                    result.add((b[0], a[1]))
        return result
    changed = set(changed) & closed
    for a in changed:
        for b in changed:
            if a == b:
                continue
            if a[0] == b[0]:
                # Same row: look for another row closing both columns.
                for key in closed:
                    if key[0] != a[0] and key[1] == a[1] and (key[0], b[1]) in closed:
                        result.add(a)
                        result.add(b)
            elif a[1] == b[1]:
                for key in closed:
                    if key[1] != a[1] and key[0] == a[0] and (b[0], key[1]) in closed:
                        result.add(a)
                        result.add(b)
            elif (a[0], b[1]) in closed and (b[0], a[1]) in closed:
                result.add(a)
                result.add(b)
    return result


class PhantomWatch:
    """Reports the phantom pattern of a diode-less matrix once, and when it is gone."""

    def __init__(self) -> "None":
        self.suspects = ()  # type: tuple[tuple[int, int], ...]

    def update(
        self, before: "set[tuple[int, int]]", after: "set[tuple[int, int]]"
    ) -> "tuple[str, tuple[tuple[int, int], ...]] | None":
        """Compare two scans of closed ``(row, column)`` keys; see the module docstring."""
        before = set(before)
        after = set(after)
        changed = before ^ after
        if not changed:
            return None
        # A phantom appears together with the real key that completes a rectangle.
        appeared = phantom_keys(after, changed & after)
        if appeared:
            suspects = tuple(sorted(appeared | set(self.suspects)))
            if suspects != self.suspects:
                self.suspects = suspects
                return (FAULT, suspects)
            return None
        if self.suspects:
            if not set(self.suspects) & phantom_keys(after):
                self.suspects = ()
                return (CLEARED, ())
            return None
        # A phantom that was there from the start shows when the first real key of its
        # rectangle is lifted: two corners open in one scan. It is gone by then, but the
        # wiring is still at fault; the next change clears the report.
        vanished = phantom_keys(before, changed & before)
        if vanished:
            self.suspects = tuple(sorted(vanished))
            return (FAULT, self.suspects)
        return None


class LightThreshold:
    """An analogue light reading turned into a face, with hysteresis and a sanity range."""

    def __init__(
        self,
        threshold: "float",
        hysteresis: "float" = 0,
        low_limit: "float | None" = None,
        high_limit: "float | None" = None,
        light_is_high: "bool" = True,
    ) -> "None":
        if hysteresis < 0:
            raise ValueError("hysteresis cannot be negative, got " + str(hysteresis))
        self.threshold = threshold
        self.hysteresis = hysteresis
        self.low_limit = low_limit
        self.high_limit = high_limit
        self.light_is_high = light_is_high
        self.face = None  # type: int | None

    def classify(self, value: "float") -> "int | None":
        """Return 1 (light face up), 0 (dark face up) or None (a nonsense reading)."""
        if (self.low_limit is not None and value < self.low_limit) or (
            self.high_limit is not None and value > self.high_limit
        ):
            self.face = None
            return None
        if value >= self.threshold + self.hysteresis:
            high = 1
        elif value <= self.threshold - self.hysteresis:
            high = 0
        elif self.face is not None:
            return self.face
        else:
            high = 1 if value >= self.threshold else 0
        self.face = high if self.light_is_high else 1 - high
        return self.face


def calibrate_threshold(
    light_values: "list[float]", dark_values: "list[float]"
) -> "tuple[float, float, bool]":
    """Return ``(threshold, hysteresis, light_is_high)`` between two sets of readings."""
    if not light_values or not dark_values:
        raise ValueError("calibration needs readings with the light face and the dark face up")
    light_low = min(light_values)
    light_high = max(light_values)
    dark_low = min(dark_values)
    dark_high = max(dark_values)
    if light_low > dark_high:
        gap_low = dark_high
        gap_high = light_low
        light_is_high = True
    elif dark_low > light_high:
        gap_low = light_high
        gap_high = dark_low
        light_is_high = False
    else:
        raise ValueError(
            "the light-face and dark-face readings overlap: move the sensor closer to the stick "
            "or shade it from room light, then calibrate again"
        )
    threshold = (gap_low + gap_high) / 2
    # A quarter of the gap either side leaves half of it as margin against drift.
    hysteresis = (gap_high - gap_low) / 4
    return (threshold, hysteresis, light_is_high)
