"""The board's side of the protocol: scan, debounce, recognise throws, report, answer requests.

:class:`Firmware` is plain logic. It is handed a scanner, the sticks, an optional throw button,
a ``write(bytes)`` function and integer-millisecond times, and never touches a clock, a pin
number or the USB port itself (``main.py`` does that on the microcontroller; the fake device
drives it from a simulated board in tests). MicroPython-compatible subset (see :mod:`framing`).
"""

try:
    from typing import Any, Callable

    from firmware_bridge.firmware import framing, wire
    from firmware_bridge.firmware import scanner as scanning
    from hardware import sensing
except ImportError:  # on the microcontroller the modules sit side by side (no typing there)
    import framing  # type: ignore[no-redef, import-not-found]
    import scanner as scanning  # type: ignore[no-redef, import-not-found]
    import sensing  # type: ignore[import-not-found, no-redef, unused-ignore]
    import wire  # type: ignore[no-redef, import-not-found]

FIRMWARE_VERSION = "1.0.0"
SNAPSHOT_MS = 2000


class Firmware:
    """Everything the microcontroller does between reading pins and writing lines.

    Call :meth:`receive` with bytes from the companion and :meth:`step` once per scan cycle
    (every few milliseconds). The board introduces itself (HELLO, then SNAP) once its debouncer
    has settled, again whenever the companion says HELLO, and sends a snapshot every
    ``snapshot_ms`` and on SYNC. ``square_map[k]`` is the square of matrix key ``k`` (0 where
    no switch is fitted). ``settle_ms``, ``max_motion_ms`` and ``min_changes`` tune the throw
    detector as in ``sensing.ThrowDetector``; ``debounce`` is the samples a switch must agree on.
    """

    def __init__(
        self,
        scanner: "scanning.MatrixScanner",
        sticks: "scanning.DigitalSticks",
        write: "Callable[[bytes], Any]",
        square_map: list[int] | None = None,
        input_kind: str = "presence",
        diodes: bool = True,
        button: "Any" = None,
        debounce: int = 3,
        settle_ms: int = sensing.DEFAULT_SETTLE_MS,
        snapshot_ms: int = SNAPSHOT_MS,
        max_motion_ms: int = sensing.DEFAULT_MAX_MOTION_MS,
        min_changes: int = sensing.DEFAULT_MIN_CHANGES,
    ) -> None:
        if input_kind not in (wire.INPUT_PRESENCE, wire.INPUT_BUTTONS):
            raise ValueError("input_kind must be 'presence' or 'buttons', not %r" % (input_kind,))
        self.scanner = scanner
        self.sticks = sticks
        self.button = button
        self._write = write
        size = scanner.size
        self.square_map = square_map or list(range(1, size + 1))
        if len(self.square_map) != size:
            raise ValueError("square_map has %d entries for %d keys" % (len(self.square_map), size))
        self.input_kind = input_kind
        self.diodes = diodes
        self.snapshot_ms = snapshot_ms
        self.keys = sensing.KeyDebouncer(size, debounce)
        self.throws = sensing.ThrowDetector(len(sticks.pins), settle_ms, max_motion_ms, min_changes)
        self.button_keys = sensing.KeyDebouncer(1, debounce) if button is not None else None
        self.phantoms = sensing.PhantomWatch()
        self.framer = framing.Framer()
        self.seq = 0
        self.announced = False
        self._hello_wanted = True
        self._snapshot_wanted = False
        self._last_snapshot_ms = 0
        self.cycles = 0
        self._rate_cycles = 0
        self._rate_from_ms = -1
        self._button_state = 0
        self._closed_keys: set[tuple[int, int]] = set()
        self._phantom_squares: tuple[int, ...] = ()

    # -- output -------------------------------------------------------------------------------

    def send(self, kind: str, fields: tuple[tuple[str, str], ...] = ()) -> None:
        """Frame and write one message, numbering it."""
        self._write(framing.encode(framing.Frame(self.seq, kind, fields)))
        self.seq = framing.next_seq(self.seq)

    def hello(self) -> None:
        cols = len(self.scanner.col_pins)
        rows = len(self.scanner.row_pins)
        self.send(
            wire.HELLO,
            (
                ("v", str(framing.PROTOCOL_VERSION)),
                ("fw", FIRMWARE_VERSION),
                ("squares", str(max(self.square_map))),
                ("rows", str(rows)),
                ("cols", str(cols)),
                ("sticks", str(len(self.sticks.pins))),
                ("input", self.input_kind),
                ("diodes", "1" if self.diodes else "0"),
            ),
        )

    def snapshot(self, now_ms: int) -> None:
        occupied = self.occupied() if self.input_kind == wire.INPUT_PRESENCE else []
        faces = self.throws.resting or tuple([0] * self.throws.n_sticks)
        faults = []
        if self._phantom_squares:
            faults.append(sensing.PHANTOM_SQUARES)
        if self.throws.fault:
            faults.append(self.throws.fault)
        elapsed = now_ms - self._rate_from_ms
        cycles = self.cycles - self._rate_cycles
        rate = cycles * 1000 // elapsed if elapsed > 0 else 0
        self.send(
            wire.SNAP,
            (
                ("occ", wire.squares_to_hex(occupied)),
                ("sticks", wire.faces_to_text(faces)),
                ("moving", "1" if self.throws.moving else "0"),
                ("faults", ",".join(faults) or "-"),
                ("btn", str(self._button_state)),
                ("hz", str(rate)),
                ("cycles", str(self.cycles)),
            ),
        )
        self._rate_cycles = self.cycles
        self._rate_from_ms = now_ms
        self._last_snapshot_ms = now_ms
        self._snapshot_wanted = False

    def occupied(self) -> list[int]:
        """The squares whose switches are debounced closed, ascending."""
        squares = [self.square_map[key] for key in self.keys.closed_keys()]
        return sorted(square for square in squares if square)

    # -- input --------------------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """Handle bytes from the companion: HELLO and SYNC are answered at the next step."""
        for frame in self.framer.feed(data):
            if frame.kind == wire.HELLO:
                self._hello_wanted = True
            elif frame.kind == wire.SYNC:
                self._snapshot_wanted = True
            # Anything else is from a newer companion: ignored, so both sides can grow.

    def step(self, now_ms: int) -> None:
        """One scan cycle: read everything, report what changed, answer what was asked."""
        if self._rate_from_ms < 0:
            self._rate_from_ms = now_ms
        self.cycles += 1
        self._scan_squares(now_ms)
        self._scan_sticks(now_ms)
        self._scan_button(now_ms)
        if not self.keys.settled:
            return  # the first readings are not yet trustworthy: say nothing
        if self._hello_wanted:
            self._hello_wanted = False
            self.announced = True
            self.hello()
            self.snapshot(now_ms)
        elif self._snapshot_wanted or now_ms - self._last_snapshot_ms >= self.snapshot_ms:
            self.snapshot(now_ms)

    def _scan_squares(self, now_ms: int) -> None:
        changes = self.keys.update(now_ms, self.scanner.scan())
        if not changes:
            return
        cols = len(self.scanner.col_pins)
        if not self.diodes:
            before = self._closed_keys
            after = set((key // cols, key % cols) for key in self.keys.closed_keys())
            self._closed_keys = after
            verdict = self.phantoms.update(before, after)
            if verdict is not None:
                self._phantom_report(verdict, cols)
        if not self.announced:
            return
        for key, state in changes:
            if not self.square_map[key]:
                continue  # a matrix position without a square: nothing to report
            square = str(self.square_map[key])
            if self.input_kind == wire.INPUT_BUTTONS:
                if state:
                    self.send(wire.PRESS, (("n", square),))
            else:
                self.send(wire.SQUARE, (("n", square), ("on", "1" if state else "0")))

    def _phantom_report(self, verdict: "tuple[Any, ...]", cols: int) -> None:
        if verdict[0] == sensing.FAULT:
            keys = [self.square_map[r * cols + c] for r, c in verdict[1]]
            squares = tuple(sorted(square for square in keys if square))
            self._phantom_squares = squares
            on = "1"
        else:
            squares = self._phantom_squares
            self._phantom_squares = ()
            on = "0"
        if self.announced:
            fields = (
                ("code", sensing.PHANTOM_SQUARES),
                ("on", on),
                ("sq", wire.squares_to_list(squares)),
            )
            self.send(wire.FAULT, fields)

    def _scan_sticks(self, now_ms: int) -> None:
        verdict = self.throws.update(now_ms, self.sticks.read())
        if verdict is None or not self.announced:
            return
        detail = verdict[1]
        if verdict[0] == sensing.THROW and isinstance(detail, tuple):
            self.send(wire.THROW, (("faces", wire.faces_to_text(detail)),))
        elif verdict[0] == sensing.FAULT:
            self.send(wire.FAULT, (("code", str(detail)), ("on", "1")))
        elif verdict[0] == sensing.CLEARED:
            self.send(wire.FAULT, (("code", str(detail)), ("on", "0")))

    def _scan_button(self, now_ms: int) -> None:
        if self.button_keys is None:
            return
        level = self.button.value()
        pressed = 1 if level == 0 else 0  # wired to ground with the pull-up on
        for _key, state in self.button_keys.update(now_ms, [pressed]):
            self._button_state = state
            if state and self.announced:
                self.send(wire.ROLL)
