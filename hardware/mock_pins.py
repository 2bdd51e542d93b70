"""gpiozero mock pins wired to a :class:`~hardware.simulation.SimulatedBoard`.

:func:`simulated_pin_factory` returns a gpiozero ``MockFactory`` whose pins behave like the
wiring described in ``hardware/README.md``: a column input reads low when a closed switch
connects it to the row being driven low (through a diode, or, on a board without diodes,
through any chain of closed switches, which is what makes phantom squares); a stick input
follows its stick; the throw-button input reads low while the button is held; and an MCP3008
on the SPI pins answers with the analogue stick readings, bit by bit. The scanner and stick
readers above cannot tell these pins from real ones.
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero import Device, InputDevice, OutputDevice
from gpiozero.pins import SPI
from gpiozero.pins.mock import (
    MockFactory,
    MockPin,
    MockSPIClockPin,
    MockSPIDevice,
    MockSPIInterfaceShared,
    MockSPISelectPin,
)
from gpiozero.pins.spi import SPISoftwareBus

from hardware.config import HardwareConfig
from hardware.simulation import SimulatedBoard

__all__ = ["SimulatedMcp3008", "SimulatedPinFactory", "simulated_pin_factory"]


class _QuietPin(MockPin):  # type: ignore[misc]
    """A mock pin that keeps no history: a scan toggles rows hundreds of times a second."""

    _state: Any

    def _change_state(self, value: Any) -> bool:
        if self._state != value:
            self._state = value
            return True
        return False


class RowPin(_QuietPin):
    """A matrix row output."""


class _QuietClockPin(_QuietPin, MockSPIClockPin):  # type: ignore[misc]
    """The SPI clock, without history."""


class _QuietSelectPin(_QuietPin, MockSPISelectPin):  # type: ignore[misc]
    """The SPI chip select, without history."""


class _Matrix:
    """The electrical side of the square matrix, shared by every column pin."""

    def __init__(self, rows: list[RowPin], board: SimulatedBoard, config: HardwareConfig):
        self.board = board
        self.rows = rows
        self.keys = config.matrix.keys  # square -> (row, column)
        self._lock = threading.Lock()
        self._cache_time = float("nan")
        self._cache_rows: tuple[int, ...] = ()
        self._cache: frozenset[int] = frozenset()

    def low_columns(self) -> frozenset[int]:
        """The columns pulled low right now, given which rows are driven low."""
        now = self.board.clock()
        driven = tuple(
            r for r, pin in enumerate(self.rows) if pin.function == "output" and not pin.state
        )
        with self._lock:
            if now == self._cache_time and driven == self._cache_rows:
                return self._cache
        closed = [self.keys[s] for s in self.board.closed_squares(now) if s in self.keys]
        low = _columns_reached(driven, closed, self.board.diodes)
        with self._lock:
            self._cache_time, self._cache_rows, self._cache = now, driven, low
        return low


def _columns_reached(
    driven: tuple[int, ...], closed: list[tuple[int, int]], diodes: bool
) -> frozenset[int]:
    if not driven:
        return frozenset()
    if diodes:
        return frozenset(c for r, c in closed if r in driven)
    # Without diodes, current flows both ways through every closed switch: a column is low
    # when any chain of closed switches joins it to a driven row.
    rows_reached = set(driven)
    columns_reached: set[int] = set()
    grown = True
    while grown:
        grown = False
        for r, c in closed:
            if r in rows_reached and c not in columns_reached:
                columns_reached.add(c)
                grown = True
            elif c in columns_reached and r not in rows_reached:
                rows_reached.add(r)
                grown = True
    return frozenset(columns_reached)


class ColumnPin(_QuietPin):
    """A matrix column input: low when the driven row reaches it through a closed switch."""

    def __init__(self, factory: MockFactory, info: Any, matrix: _Matrix, column: int) -> None:
        super().__init__(factory, info)
        self.matrix = matrix
        self.column = column

    def _get_state(self) -> bool:
        if self._function != "input":
            return bool(self._state)
        return self.column not in self.matrix.low_columns()


class StickPin(_QuietPin):
    """A stick sensor input: the level that means the stick's current face."""

    def __init__(
        self, factory: MockFactory, info: Any, board: SimulatedBoard, stick: int, light_high: bool
    ) -> None:
        super().__init__(factory, info)
        self.board = board
        self.stick = stick
        self.light_high = light_high

    def _get_state(self) -> bool:
        if self._function != "input":
            return bool(self._state)
        face = self.board.stick_faces()[self.stick]
        return self.light_high if face else not self.light_high


class ThrowButtonPin(_QuietPin):
    """The throw push button to ground: low while held."""

    def __init__(self, factory: MockFactory, info: Any, board: SimulatedBoard) -> None:
        super().__init__(factory, info)
        self.board = board

    def _get_state(self) -> bool:
        if self._function != "input":
            return bool(self._state)
        return not self.board.throw_button_closed()


class SimulatedMcp3008(MockSPIDevice):  # type: ignore[misc]
    """The slave side of an MCP3008 whose channels read the simulated sticks' light sensors.

    After the start bit and four configuration bits (single-ended, channel), the chip answers
    with a null bit and ten data bits, most significant first, as in its data sheet.
    """

    def __init__(
        self,
        board: SimulatedBoard,
        channels: dict[int, int],
        pins: tuple[int, int, int, int],
        factory: MockFactory,
    ) -> None:
        clock, mosi, miso, select = (f"GPIO{p}" for p in pins)
        super().__init__(clock, mosi, miso, select, pin_factory=factory)
        self.board = board
        self.channels = channels  # channel -> stick
        self._answered = False

    def on_start(self) -> None:
        super().on_start()
        self._answered = False

    def on_bit(self) -> None:
        if self._answered or 1 not in self.rx_buf:
            return
        start = self.rx_buf.index(1)
        config = self.rx_buf[start + 1 : start + 5]
        if len(config) < 4:
            return
        single, channel = config[0], config[1] << 2 | config[2] << 1 | config[3]
        value = 0
        if single and channel in self.channels:
            reading = self.board.stick_reading(self.channels[channel])
            value = max(0, min(1023, round(reading * 1023)))
        # One clock to sample, then the null bit, then ten data bits.
        self.tx_word(value, 12)
        self._answered = True


class _FactoryBus(SPISoftwareBus):  # type: ignore[misc]
    """gpiozero's bit-banged SPI bus, bound to its own pin factory.

    gpiozero 2.0's bus does not hand its pin factory on to ``Device``, which then looks for a
    default pin library (there is none off a Raspberry Pi) and shares one bus between every
    factory. This one uses the factory it is given and is shared only within it.
    """

    def __init__(self, clock_pin: Any, mosi_pin: Any, miso_pin: Any, *, pin_factory: Any) -> None:
        self.lock = None
        self.clock = self.mosi = self.miso = None
        Device.__init__(self, pin_factory=pin_factory)
        self.lock = threading.RLock()
        try:
            self.clock = OutputDevice(clock_pin, active_high=True, pin_factory=pin_factory)
            self.mosi = OutputDevice(mosi_pin, pin_factory=pin_factory)
            self.miso = InputDevice(miso_pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def _shared_key(
        cls, clock_pin: Any, mosi_pin: Any, miso_pin: Any, *, pin_factory: Any = None
    ) -> tuple[Any, ...]:
        return (id(pin_factory), clock_pin, mosi_pin, miso_pin)


class _FactorySpi(MockSPIInterfaceShared):  # type: ignore[misc]
    """A software SPI interface on :class:`_FactoryBus`."""

    def __init__(
        self, clock_pin: Any, mosi_pin: Any, miso_pin: Any, select_pin: Any, *, pin_factory: Any
    ) -> None:
        self._bus = None
        self._select = None
        SPI.__init__(self, pin_factory=pin_factory)
        try:
            self._clock_phase = False
            self._lsb_first = False
            self._bits_per_word = 8
            self._bus = _FactoryBus(clock_pin, mosi_pin, miso_pin, pin_factory=pin_factory)
            self._select = OutputDevice(select_pin, active_high=False, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def _shared_key(
        cls, clock_pin: Any, mosi_pin: Any, miso_pin: Any, select_pin: Any, pin_factory: Any
    ) -> tuple[Any, ...]:
        return (id(pin_factory), clock_pin, select_pin)


class SimulatedPinFactory(MockFactory):  # type: ignore[misc]
    """A MockFactory whose SPI devices talk to the simulated MCP3008 on its own pins."""

    def __init__(self) -> None:
        super().__init__()
        self.adc: SimulatedMcp3008 | None = None

    def _get_spi_class(self, shared: bool, hardware: bool) -> type:
        return _FactorySpi


def simulated_pin_factory(board: SimulatedBoard, config: HardwareConfig) -> SimulatedPinFactory:
    """A MockFactory whose pins are wired to ``board`` as ``config`` describes."""
    factory = SimulatedPinFactory()
    rows = [factory.pin(f"GPIO{gpio}", pin_class=RowPin) for gpio in config.matrix.rows]
    matrix = _Matrix(rows, board, config)
    for c, gpio in enumerate(config.matrix.columns):
        factory.pin(f"GPIO{gpio}", pin_class=ColumnPin, matrix=matrix, column=c)
    for i, stick in enumerate(config.sticks):
        if stick.pin is not None:
            factory.pin(
                f"GPIO{stick.pin}",
                pin_class=StickPin,
                board=board,
                stick=i,
                light_high=stick.light_level == "high",
            )
    if config.throw.button is not None:
        factory.pin(f"GPIO{config.throw.button}", pin_class=ThrowButtonPin, board=board)
    if config.mcp3008 is not None and config.has_analog_sticks:
        channels = {s.channel: i for i, s in enumerate(config.sticks) if s.channel is not None}
        clock, mosi, miso, select = config.mcp3008.pins
        factory.pin(f"GPIO{clock}", pin_class=_QuietClockPin)
        factory.pin(f"GPIO{select}", pin_class=_QuietSelectPin)
        factory.pin(f"GPIO{mosi}", pin_class=_QuietPin)
        factory.pin(f"GPIO{miso}", pin_class=_QuietPin)
        factory.adc = SimulatedMcp3008(board, channels, config.mcp3008.pins, factory)
    return factory
