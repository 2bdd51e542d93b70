"""The firmware's own tests: plain functions with ``assert``, run by CPython and MicroPython.

``tests/test_firmware_micropython.py`` runs every ``test_*`` function here under both
interpreters, so anything the firmware relies on is proven on the interpreter the board runs.
Run them on a board too: ``mpremote run firmware_tests.py`` after copying the modules.
"""

try:
    from firmware_bridge.firmware import board_config, device, framing, pico, scanner, simpins, wire
except ImportError:  # side by side on MicroPython
    import board_config  # type: ignore[no-redef, import-not-found]
    import device  # type: ignore[no-redef, import-not-found]
    import framing  # type: ignore[no-redef, import-not-found]
    import pico  # type: ignore[no-redef, import-not-found]
    import scanner  # type: ignore[no-redef, import-not-found]
    import simpins  # type: ignore[no-redef, import-not-found]
    import wire  # type: ignore[no-redef, import-not-found]


def _raises(reason: str, function: object, *args: object) -> None:
    try:
        function(*args)  # type: ignore[operator]
    except framing.FrameError as error:
        assert error.reason == reason, "expected %s, got %s: %s" % (reason, error.reason, error)
        return
    raise AssertionError("expected FrameError(%s)" % reason)


# -- framing ---------------------------------------------------------------------------------


def test_crc16_ccitt_false_check_value() -> None:
    assert framing.crc16(b"123456789") == 0x29B1
    assert framing.crc16(b"") == 0xFFFF


def test_encode_worked_example() -> None:
    frame = framing.Frame(7, "SQ", (("n", "12"), ("on", "1")))
    assert framing.encode(frame) == b"7 SQ n=12 on=1*3E8C\n"


def test_decode_round_trip() -> None:
    frame = framing.Frame(65535, "HELLO", (("v", "1"), ("fw", "1.0.0")))
    line = framing.encode(frame)
    assert framing.decode_line(line[:-1]) == frame
    assert framing.next_seq(65535) == 0


def test_decode_refuses_bad_crc_and_non_canonical_text() -> None:
    good = framing.encode(framing.Frame(3, "SYNC"))[:-1]
    _raises("crc", framing.decode_line, good[:-1] + (b"0" if good[-1:] != b"0" else b"1"))
    _raises("malformed", framing.decode_line, good.lower())
    _raises("malformed", framing.decode_line, b"3 SYNC")
    body = b"03 SYNC"
    _raises("malformed", framing.decode_line, body + b"*" + ("%04X" % framing.crc16(body)).encode())
    body = b"3 SQ n=1 n=2"
    _raises("malformed", framing.decode_line, body + b"*" + ("%04X" % framing.crc16(body)).encode())
    body = b"3  SYNC"
    _raises("malformed", framing.decode_line, body + b"*" + ("%04X" % framing.crc16(body)).encode())
    _raises("binary", framing.decode_line, b"3 SYNC\x00*0000")


def test_encode_refuses_what_cannot_travel() -> None:
    _raises("malformed", framing.encode, framing.Frame(70000, "SYNC"))
    _raises("malformed", framing.encode, framing.Frame(1, "sync"))
    _raises("malformed", framing.encode, framing.Frame(1, "SQ", (("n", "a b"),)))
    _raises("malformed", framing.encode, framing.Frame(1, "SQ", (("n", "1*"),)))
    _raises("overlong", framing.encode, framing.Frame(1, "SQ", (("n", "x" * 300),)))


def test_framer_joins_pieces_and_drops_damage() -> None:
    framer = framing.Framer()
    one = framing.encode(framing.Frame(1, "SQ", (("n", "3"), ("on", "1"))))
    two = framing.encode(framing.Frame(2, "ROLL"))
    damaged = bytearray(one)
    damaged[5] ^= 0x01
    stream = b"garbage\n" + bytes(damaged) + one[:4]
    assert framer.feed(stream) == []
    assert framer.feed(one[4:] + two.replace(b"\n", b"\r\n")) == [
        framing.decode_line(one[:-1]),
        framing.decode_line(two[:-1]),
    ]
    assert framer.dropped["malformed"] == 1
    assert framer.dropped["crc"] == 1
    assert framer.accepted == 2


def test_framer_skips_an_overlong_line_and_recovers() -> None:
    framer = framing.Framer()
    assert framer.feed(b"x" * 500) == []
    assert framer.feed(b"y" * 500 + b"\n" + framing.encode(framing.Frame(9, "ROLL"))) == [
        framing.Frame(9, "ROLL")
    ]
    assert framer.dropped["overlong"] == 1


def test_framer_reset_discards_a_partial_line() -> None:
    framer = framing.Framer()
    line = framing.encode(framing.Frame(4, "ROLL"))
    framer.feed(line[:6])
    framer.reset()
    assert framer.feed(line) == [framing.Frame(4, "ROLL")]


# -- wire ------------------------------------------------------------------------------------


def test_square_masks_and_faces() -> None:
    assert wire.squares_to_hex([1, 3, 30]) == "20000005"
    assert wire.hex_to_squares("20000005", 30) == [1, 3, 30]
    assert wire.squares_to_hex([]) == "0"
    assert wire.faces_to_text((1, 0, 1, 1)) == "1011"
    assert wire.text_to_faces("1011", 4) == (1, 0, 1, 1)
    assert wire.list_to_squares(wire.squares_to_list([12, 3]), 30) == (3, 12)
    for bad in ("40000000", "x", "20000005a"):
        try:
            wire.hex_to_squares(bad, 30)
        except ValueError:
            continue
        raise AssertionError("accepted mask %r" % bad)


# -- scanner ---------------------------------------------------------------------------------


def test_default_square_map_follows_the_track() -> None:
    squares = scanner.default_square_map(3, 10)
    assert squares[0] == 1 and squares[9] == 10
    assert squares[10] == 20 and squares[19] == 11
    assert squares[20] == 21 and squares[29] == 30
    assert sorted(squares) == list(range(1, 31))


def test_scan_with_diodes_shows_exactly_the_closed_switches() -> None:
    closed = {(0, 0), (0, 2), (1, 0)}
    matrix = simpins.SimulatedMatrix(2, 3, lambda: closed, diodes=True)
    scan = scanner.MatrixScanner(matrix.row_pins, matrix.col_pins).scan()
    assert scan == [1, 0, 1, 1, 0, 0]


def test_scan_without_diodes_shows_a_phantom() -> None:
    closed = {(0, 0), (0, 2), (1, 0)}
    matrix = simpins.SimulatedMatrix(2, 3, lambda: closed, diodes=False)
    scan = scanner.MatrixScanner(matrix.row_pins, matrix.col_pins).scan()
    assert scan == [1, 0, 1, 1, 0, 1]  # (1, 2) reads closed through the other three


def test_scan_with_pull_ups() -> None:
    closed = {(1, 1)}
    matrix = simpins.SimulatedMatrix(2, 2, lambda: closed, active=0)
    assert scanner.MatrixScanner(matrix.row_pins, matrix.col_pins, active=0).scan() == [0, 0, 0, 1]


# -- device ----------------------------------------------------------------------------------


class _Bench:
    """A firmware on simulated pins, with a companion-side framer reading what it sends."""

    def __init__(self, diodes: bool = True, input_kind: str = "presence") -> None:
        self.squares: set[int] = set()
        self.faces = [0, 0, 0, 0]
        self.button_level = 1
        square_map = scanner.default_square_map(3, 10)
        self.keys = simpins.squares_to_keys(square_map, 10)
        matrix = simpins.SimulatedMatrix(3, 10, self._closed, diodes=diodes)
        sticks = simpins.SimulatedSticks(4, lambda: self.faces)
        self.out = framing.Framer()
        self.frames: list[framing.Frame] = []
        self.firmware = device.Firmware(
            scanner.MatrixScanner(matrix.row_pins, matrix.col_pins),
            scanner.DigitalSticks(sticks.pins),
            self._write,
            square_map=square_map,
            input_kind=input_kind,
            diodes=diodes,
            button=simpins.InputPin(lambda: self.button_level),
            settle_ms=100,
        )
        self.now = 0

    def _closed(self) -> "list[tuple[int, int]]":
        return [self.keys[square] for square in self.squares]

    def _write(self, data: bytes) -> None:
        self.frames.extend(self.out.feed(data))

    def run(self, ms: int, step: int = 5) -> "list[framing.Frame]":
        start = len(self.frames)
        end = self.now + ms
        while self.now < end:
            self.now += step
            self.firmware.step(self.now)
        return self.frames[start:]


def _kinds(frames: "list[framing.Frame]") -> "list[str]":
    return [frame.kind for frame in frames]


def test_device_introduces_itself_once_settled() -> None:
    bench = _Bench()
    bench.squares = {1, 3, 20}
    assert bench.run(10) == []
    frames = bench.run(10)
    assert _kinds(frames) == ["HELLO", "SNAP"]
    hello, snap = frames
    assert hello.get("v") == "1" and hello.get("squares") == "30" and hello.get("sticks") == "4"
    assert snap.get("occ") == wire.squares_to_hex([1, 3, 20])
    assert [frame.seq for frame in frames] == [0, 1]


def test_device_reports_debounced_squares_and_ignores_a_bounce() -> None:
    bench = _Bench()
    bench.run(20)
    bench.squares = {12}
    bench.firmware.step(bench.now + 1)
    bench.squares = set()
    bench.now += 1
    assert bench.run(30) == []  # one closed sample is a bounce, not a piece
    bench.squares = {12}
    frames = bench.run(30)
    assert _kinds(frames) == ["SQ"]
    assert frames[0].fields == (("n", "12"), ("on", "1"))
    bench.squares = set()
    assert bench.run(30)[0].fields == (("n", "12"), ("on", "0"))


def test_device_reports_a_settled_throw() -> None:
    bench = _Bench()
    bench.run(20)
    for faces in ([1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]):
        bench.faces = faces
        bench.run(20)
    frames = [frame for frame in bench.run(200) if frame.kind != "SNAP"]
    assert _kinds(frames) == ["THROW"]
    assert frames[0].get("faces") == "1011"


def test_device_answers_sync_and_hello() -> None:
    bench = _Bench()
    bench.run(20)
    bench.firmware.receive(framing.encode(framing.Frame(0, "SYNC")))
    assert _kinds(bench.run(5)) == ["SNAP"]
    bench.firmware.receive(framing.encode(framing.Frame(1, "HELLO", (("v", "1"),))))
    bench.firmware.receive(b"1 GARBAGE*0000\n" + framing.encode(framing.Frame(2, "NEWTHING")))
    frames = bench.run(5)
    assert _kinds(frames) == ["HELLO", "SNAP"]
    assert bench.firmware.framer.dropped["crc"] == 1


def test_device_sends_periodic_snapshots_in_sequence() -> None:
    bench = _Bench()
    frames = bench.run(4100)
    assert _kinds(frames) == ["HELLO", "SNAP", "SNAP", "SNAP"]
    assert [frame.seq for frame in frames] == [0, 1, 2, 3]
    assert frames[2].get("hz") == "200"  # one cycle every 5 ms
    assert frames[3].get("cycles") == "803" and frames[3].get("btn") == "0"


def test_device_without_diodes_reports_phantom_squares() -> None:
    bench = _Bench(diodes=False)
    bench.run(20)
    bench.squares = {1, 3}  # keys (0, 0) and (0, 2)
    bench.run(30)
    bench.squares = {1, 3, 20}  # (1, 0) closes three corners: (1, 2), square 18, appears too
    frames = bench.run(30)
    faults = [frame for frame in frames if frame.kind == "FAULT"]
    assert faults and faults[0].get("code") == "phantom-squares" and faults[0].get("on") == "1"
    assert "18" in (faults[0].get("sq") or "").split(",")
    bench.squares = {1}
    frames = bench.run(30)
    assert [frame.get("on") for frame in frames if frame.kind == "FAULT"] == ["0"]


def test_device_with_push_buttons_reports_presses_and_the_throw_button() -> None:
    bench = _Bench(input_kind="buttons")
    bench.run(20)
    bench.squares = {7}
    bench.button_level = 0
    frames = bench.run(30)
    assert sorted(_kinds(frames)) == ["PRESS", "ROLL"]
    bench.squares = set()
    bench.button_level = 1
    assert bench.run(30) == []
    assert bench.firmware.occupied() == []


# -- pico ------------------------------------------------------------------------------------


class _Pin:
    """Enough of ``machine.Pin`` to wire the firmware: remembers how each pin was set up."""

    OUT = 1
    IN = 0
    PULL_UP = 2
    PULL_DOWN = 3

    def __init__(self, number: int, mode: int, pull: "int | None" = None) -> None:
        self.number = number
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == _Pin.PULL_UP else 0

    def value(self, level: "int | None" = None) -> int:
        if level is not None:
            self.level = level
        return self.level


def test_pico_wiring_follows_the_config() -> None:
    # The shipped wiring file, as copied to the board.
    written: list[bytes] = []
    firmware = pico.build(_Pin, board_config, written.append)
    rows = firmware.scanner.row_pins
    cols = firmware.scanner.col_pins
    assert [pin.number for pin in rows] == [2, 3, 4] and rows[0].mode == _Pin.OUT
    assert cols[0].pull == _Pin.PULL_DOWN and len(cols) == 10
    assert firmware.square_map[10] == 20
    assert firmware.button is not None and firmware.button.number == 19


def test_pico_loop_counts_time_across_the_tick_wrap() -> None:
    period = 1 << 30  # MicroPython's ticks_ms wraps here on the Pico
    ticks = [period - 7]
    written: list[bytes] = []
    requests = [framing.encode(framing.Frame(0, "SYNC"))]

    def ticks_ms() -> int:
        ticks[0] = (ticks[0] + 5) % period
        return ticks[0]

    def ticks_diff(new: int, old: int) -> int:
        return ((new - old + period // 2) % period) - period // 2

    def read_ready() -> bytes:
        return requests.pop() if requests else b""

    firmware = pico.build(_Pin, board_config, written.append)
    reached = pico.serve(firmware, read_ready, ticks_ms, ticks_diff, lambda ms: None, 5, 10)
    assert reached == 50
    kinds = [framing.decode_line(line[:-1]).kind for line in written]
    assert kinds == ["HELLO", "SNAP"]


def run_all() -> int:
    """Run every test here, print ``PASS name`` or ``FAIL name: error`` each; return failures."""
    failures = 0
    names = sorted(name for name in globals() if name.startswith("test_"))
    for name in names:
        try:
            globals()[name]()
            print("PASS " + name)
        except Exception as error:
            failures += 1
            print("FAIL %s: %s: %s" % (name, type(error).__name__, error))
    return failures


if __name__ == "__main__":
    run_all()
