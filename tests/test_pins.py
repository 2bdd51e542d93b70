"""The gpiozero scanner and stick readers on mock pins, driven by a manual clock."""

from __future__ import annotations

import queue

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.backends import open_backend
from hardware.config import HardwareConfig, default_config_text, parse_config
from hardware.errors import BackendUnavailable, HardwareError
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)
from hardware.mock_pins import RowPin, simulated_pin_factory
from hardware.pins import MatrixScanner, PinBackend, StickSensors, make_pin_factory
from hardware.simulation import ManualClock, SimulatedBoard

DEFAULT = default_config_text()
STEP = 0.005  # one scan at 200 Hz


def config_with(*replacements: tuple[str, str]) -> HardwareConfig:
    text = DEFAULT
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    return parse_config(text)


ANALOG_STICKS = (
    (
        'kind = "tilt"\npin = 17\nlight_level = "low"',
        'kind = "analog"\nchannel = 0\nthreshold = 0.5\nhysteresis = 0.1',
    ),
    ('kind = "tilt"\npin = 27\nlight_level = "low"', 'kind = "analog"\nchannel = 1'),
    ('kind = "tilt"\npin = 22\nlight_level = "low"', 'kind = "analog"\nchannel = 2'),
    ('kind = "tilt"\npin = 4\nlight_level = "low"', 'kind = "analog"\nchannel = 3'),
)


class Rig:
    """A backend on mock pins, its simulated board and manual clock, scanned by hand."""

    def __init__(
        self,
        config: HardwareConfig | None = None,
        *,
        diodes: bool = True,
        squares: frozenset[int] = frozenset(),
    ) -> None:
        self.clock = ManualClock(100.0)
        self.board = SimulatedBoard(self.clock, diodes=diodes)
        self.board.arrange(squares)
        self.config = config if config is not None else parse_config(DEFAULT)
        backend = open_backend("sim", self.config, board=self.board)
        assert isinstance(backend, PinBackend)
        self.backend = backend
        self.queue: queue.Queue[HardwareEvent] = queue.Queue()
        self.backend.start(self.queue, thread=False)
        self.snapshot = self.queue.get_nowait()

    def run(self, seconds: float) -> list[HardwareEvent]:
        events = []
        for _ in range(round(seconds / STEP)):
            self.clock.advance(STEP)
            events.extend(self.backend.poll())
        return events


def test_snapshot_on_start() -> None:
    rig = Rig(squares={1, 11, 25})
    assert rig.snapshot == BoardSnapshot(frozenset({1, 11, 25}), at=100.0)
    assert rig.backend.board is rig.board


def test_the_scanner_reads_exactly_the_closed_switches() -> None:
    config = parse_config(DEFAULT)
    board = SimulatedBoard(ManualClock())
    board.arrange({1, 11, 20, 30})
    scanner = MatrixScanner(config.matrix, simulated_pin_factory(board, config))
    try:
        assert scanner.read() == {(0, 0), (1, 9), (1, 0), (2, 9)}
    finally:
        scanner.close()


def test_without_diodes_three_corners_make_a_fourth() -> None:
    config = parse_config(DEFAULT)
    board = SimulatedBoard(ManualClock(), diodes=False)
    board.arrange({1, 10, 21})  # (0,0), (0,9), (2,0): square 30 at (2,9) is the fourth corner
    scanner = MatrixScanner(config.matrix, simulated_pin_factory(board, config))
    try:
        assert scanner.read() == {(0, 0), (0, 9), (2, 0), (2, 9)}
    finally:
        scanner.close()


def test_a_placed_piece_is_reported_once_after_debouncing() -> None:
    rig = Rig()
    rig.board.place(14, bounce=True)
    events = rig.run(0.2)
    assert [(e.square, e.occupied) for e in events if isinstance(e, SquareChanged)] == [(14, True)]
    assert len(events) == 1
    assert rig.backend.occupied() == {14}


@pytest.mark.parametrize("offset_ms", [0, 1, 2, 3, 4])
def test_bounce_at_any_phase_of_the_scan_gives_one_change(offset_ms: int) -> None:
    rig = Rig(squares={5})
    rig.clock.advance(offset_ms / 1000)
    rig.board.lift(5, bounce=True)
    rig.board.place(6, bounce=True)
    events = rig.run(0.1)
    assert sorted((e.square, e.occupied) for e in events) == [(5, False), (6, True)]  # type: ignore[union-attr]


def test_phantom_square_is_reported_as_a_wiring_fault_and_cleared() -> None:
    rig = Rig(diodes=False, squares={1, 10})
    rig.board.place(21)
    events = rig.run(0.1)
    changed = [(e.square, e.occupied) for e in events if isinstance(e, SquareChanged)]
    assert sorted(changed) == [(21, True), (30, True)]
    faults = [e for e in events if isinstance(e, HardwareFault)]
    assert [(f.code, f.squares, f.cleared) for f in faults] == [
        ("phantom-squares", (21, 30), False)
    ]
    assert "diode" in faults[0].message
    assert rig.backend.status()["faults"][0]["code"] == "phantom-squares"
    rig.board.lift(10)
    events = rig.run(0.1)
    assert sorted((e.square, e.occupied) for e in events if isinstance(e, SquareChanged)) == [
        (10, False),
        (30, False),
    ]
    cleared = [e for e in events if isinstance(e, HardwareFault)]
    assert [(f.code, f.cleared) for f in cleared] == [("phantom-squares", True)]
    assert rig.backend.status()["faults"] == []


def test_with_diodes_the_same_pieces_are_no_fault() -> None:
    rig = Rig(diodes=True, squares={1, 10})
    rig.board.place(21)
    events = rig.run(0.1)
    assert [(e.square, e.occupied) for e in events] == [(21, True)]  # type: ignore[union-attr]


def test_push_button_squares_are_pressed_once() -> None:
    rig = Rig(config_with(('squares = "presence"', 'squares = "buttons"')))
    assert rig.snapshot == BoardSnapshot(frozenset(), at=100.0)
    rig.board.press(17)
    events = rig.run(0.4)
    assert [type(e) for e in events] == [SquarePressed]
    assert events[0].square == 17  # type: ignore[union-attr]
    assert rig.backend.occupied() == frozenset()


def test_a_throw_of_tilt_sticks_settles_once() -> None:
    rig = Rig()
    rig.board.throw((1, 0, 1, 1))
    events = rig.run(1.0)
    assert [e.faces for e in events if isinstance(e, ThrowSettled)] == [(1, 0, 1, 1)]
    assert len(events) == 1
    settled = events[0]
    # The sticks rest after the 300 ms tumble, and count as settled 400 ms later.
    assert 100.0 + 0.3 + 0.4 <= settled.at <= 100.0 + 0.3 + 0.4 + 2 * STEP


def test_digital_light_modules_with_light_high() -> None:
    config = config_with(
        (
            'kind = "tilt"\npin = 17\nlight_level = "low"',
            'kind = "light"\npin = 17\nlight_level = "high"',
        ),
    )
    rig = Rig(config)
    rig.board.throw((1, 1, 0, 0))
    events = rig.run(1.0)
    assert [e.faces for e in events if isinstance(e, ThrowSettled)] == [(1, 1, 0, 0)]


def test_a_stick_turned_by_hand_is_a_fault_not_a_throw() -> None:
    rig = Rig()
    rig.board.turn_stick(0)
    events = rig.run(1.0)
    assert [(type(e), getattr(e, "code", None)) for e in events] == [
        (HardwareFault, "throw-without-motion")
    ]
    assert rig.backend.status()["faults"] == []  # a one-off, nothing stays wrong


def test_a_stick_on_its_edge_is_a_fault_until_it_rests() -> None:
    rig = Rig()
    rig.board.wobble_stick(2, 6000)
    events = rig.run(7.0)
    faults = [(e.code, e.cleared) for e in events if isinstance(e, HardwareFault)]
    assert faults == [("stick-unsettled", False), ("stick-unsettled", True)]
    assert not [e for e in events if isinstance(e, ThrowSettled)]


def test_the_throw_button() -> None:
    rig = Rig()
    rig.board.press_throw_button()
    events = rig.run(0.5)
    assert [type(e) for e in events] == [ThrowRequested]


def test_analog_sticks_through_the_mcp3008() -> None:
    rig = Rig(config_with(*ANALOG_STICKS))
    assert rig.backend.stick_readings() == pytest.approx([0.2, 0.2, 0.2, 0.2], abs=0.002)
    rig.board.throw((0, 1, 1, 0))
    events = rig.run(1.0)
    assert [e.faces for e in events if isinstance(e, ThrowSettled)] == [(0, 1, 1, 0)]
    assert rig.backend.stick_readings() == pytest.approx([0.2, 0.8, 0.8, 0.2], abs=0.002)


def test_an_unplugged_analog_sensor_is_a_sensor_fault() -> None:
    rig = Rig(config_with(*ANALOG_STICKS))
    rig.board.unplug_stick(3)
    events = rig.run(0.05)
    faults = [e for e in events if isinstance(e, HardwareFault)]
    assert [(f.code, f.cleared) for f in faults] == [("sensor-range", False)]
    assert "stick sensor 4" in faults[0].message
    assert rig.backend.status()["sticks"][3] is None
    rig.board.unplug_stick(3, unplugged=False)
    events = rig.run(0.05)
    assert [(e.code, e.cleared) for e in events if isinstance(e, HardwareFault)] == [
        ("sensor-range", True)
    ]


def test_a_failing_pin_read_is_a_fault_and_the_scan_goes_on() -> None:
    rig = Rig()
    real_read = rig.backend._read_keys
    failing = True

    def flaky() -> set[tuple[int, int]]:
        if failing:
            raise OSError("GPIO chip went away")
        return real_read()

    rig.backend._read_keys = flaky  # type: ignore[method-assign]
    events = rig.run(0.05)
    assert [(e.code, e.cleared) for e in events] == [("scan-failed", False)]  # type: ignore[union-attr]
    assert "GPIO chip went away" in events[0].message  # type: ignore[union-attr]
    failing = False
    events = rig.run(0.05)
    assert [(e.code, e.cleared) for e in events] == [("scan-failed", True)]  # type: ignore[union-attr]


def test_start_twice_and_poll_when_stopped_are_errors() -> None:
    rig = Rig()
    with pytest.raises(HardwareError, match="already started"):
        rig.backend.start(rig.queue)
    rig.backend.stop()
    with pytest.raises(HardwareError, match="not started"):
        rig.backend.poll()


def test_pins_are_released_on_stop_and_can_be_claimed_again() -> None:
    rig = Rig()
    rig.backend.stop()
    assert rig.backend.pin_factory is not None
    config = rig.config
    sticks = StickSensors(config, rig.backend.pin_factory)
    sticks.close()


def test_row_pins_keep_no_history_over_a_long_run() -> None:
    rig = Rig()
    rig.run(1.0)
    factory = rig.backend.pin_factory
    assert factory is not None
    rows = [p for p in factory.pins.values() if isinstance(p, RowPin)]
    assert len(rows) == 3
    assert all(len(p.states) == 1 for p in rows)


def test_a_pin_library_that_is_not_installed() -> None:
    with pytest.raises(BackendUnavailable, match="'pigpio' pin library cannot be used here"):
        make_pin_factory("pigpio")
    assert make_pin_factory("") is None


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 30), st.integers(6, 40), st.booleans()),
        min_size=1,
        max_size=25,
    )
)
def test_any_sequence_of_moves_is_reported_exactly(steps: list[tuple[int, int, bool]]) -> None:
    """Whatever pieces go on and off, with bounce and at any pace, the events add up.

    Steps are at least one scan apart: two pieces put down in the very same scan that close
    a rectangle with others look exactly like phantom squares, and are reported as such.
    """
    rig = Rig(squares={1, 2, 3})
    tracked = set(rig.snapshot.occupied)  # type: ignore[union-attr]
    events: list[HardwareEvent] = []
    for square, pause_ms, bounce in steps:
        if square in rig.board.occupied:
            rig.board.lift(square, bounce=bounce)
        else:
            rig.board.place(square, bounce=bounce)
        events.extend(rig.run(pause_ms / 1000))
    events.extend(rig.run(0.1))
    for event in events:
        assert isinstance(event, SquareChanged), event
        assert (event.square in tracked) != event.occupied, f"{event} repeats the known state"
        if event.occupied:
            tracked.add(event.square)
        else:
            tracked.discard(event.square)
    assert tracked == rig.board.occupied == rig.backend.occupied()
