"""The Raspberry Pi side: gpiozero devices for the square matrix, the sticks and the button.

Every device takes ``pin_factory=`` (gpiozero's injection): the real pin library on a Pi, a
mock factory wired to a simulated board everywhere else (:mod:`hardware.mock_pins`). The
matrix is scanned by polling, never with per-pin edge callbacks, and gpiozero's
``bounce_time`` is not used: debouncing is :mod:`hardware.sensing`'s job, the same on every
backend.
"""

from __future__ import annotations

import importlib
import time
import warnings
from collections.abc import Callable
from typing import Any

from gpiozero import MCP3008, Device, GPIODevice, InputDevice
from gpiozero.exc import GPIOZeroError, PinFactoryFallback
from gpiozero.pins import Factory

from hardware import sensing
from hardware.config import HardwareConfig, MatrixConfig, StickConfig
from hardware.errors import BackendUnavailable
from hardware.scanning import Faces, Key, ScanningBackend
from hardware.simulation import Clock, SimulatedBoard

__all__ = ["MatrixScanner", "OpenDrainRow", "PinBackend", "StickSensors", "make_pin_factory"]

PIN_FACTORY_CLASSES = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "pigpio": "gpiozero.pins.pigpio:PiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
    "mock": "gpiozero.pins.mock:MockFactory",
}


def make_pin_factory(name: str) -> Factory | None:
    """The gpiozero pin factory called ``name`` ("" lets gpiozero choose: returns None)."""
    if not name:
        return None
    module_name, _, class_name = PIN_FACTORY_CLASSES[name].partition(":")
    try:
        factory_class = getattr(importlib.import_module(module_name), class_name)
        return factory_class()
    except (ImportError, OSError, GPIOZeroError, RuntimeError) as exc:
        raise BackendUnavailable(
            f"the {name!r} pin library cannot be used here ({exc}); on a Raspberry Pi install "
            'it or set pin_factory = "" in [hardware]; elsewhere use the simulated board'
        ) from None


class OpenDrainRow(GPIODevice):  # type: ignore[misc]
    """A matrix row line: driven low while its row is scanned, released otherwise.

    A released row floats, as an open-drain output would, so two row pins can never fight
    through a pair of closed switches (which a push-pull high row would do on a board missing
    its diodes).
    """

    def __init__(self, pin: int, *, pin_factory: Factory | None = None) -> None:
        super().__init__(pin, pin_factory=pin_factory)
        try:
            self.release()
        except BaseException:
            self.close()
            raise

    def drive_low(self) -> None:
        self.pin.function = "output"
        self.pin.state = False

    def release(self) -> None:
        self.pin.function = "input"
        if not self.pin.info.pull:  # pins with a fixed pull-up on the board keep it
            self.pin.pull = "floating"


class MatrixScanner:
    """Rows driven low one at a time (open drain), columns as inputs with pull-ups."""

    def __init__(self, matrix: MatrixConfig, pin_factory: Factory | None) -> None:
        self.rows: list[OpenDrainRow] = []
        self.columns: list[InputDevice] = []
        try:
            for gpio in matrix.rows:
                self.rows.append(OpenDrainRow(gpio, pin_factory=pin_factory))
            for gpio in matrix.columns:
                self.columns.append(InputDevice(gpio, pull_up=True, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise

    def read(self) -> set[Key]:
        """One pass over the matrix: the (row, column) keys that read closed."""
        closed = set()
        for r, row in enumerate(self.rows):
            row.drive_low()
            try:
                for c, column in enumerate(self.columns):
                    if column.is_active:  # pulled low by a closed switch
                        closed.add((r, c))
            finally:
                row.release()
        return closed

    def close(self) -> None:
        for device in [*self.rows, *self.columns]:
            device.close()
        self.rows, self.columns = [], []


class StickSensors:
    """The four stick sensors: tilt switches, digital light modules or MCP3008 channels."""

    def __init__(
        self,
        config: HardwareConfig,
        pin_factory: Factory | None,
    ) -> None:
        self._devices: list[Device] = []
        self._readers: list[Callable[[], tuple[int | None, float | int]]] = []
        try:
            for stick in config.sticks:
                self._readers.append(self._reader(stick, config, pin_factory))
        except BaseException:
            self.close()
            raise

    def _reader(
        self, stick: StickConfig, config: HardwareConfig, pin_factory: Factory | None
    ) -> Callable[[], tuple[int | None, float | int]]:
        light_high = stick.light_level == "high"
        if stick.kind == "analog":
            assert config.mcp3008 is not None and stick.channel is not None
            mcp = config.mcp3008
            adc = MCP3008(
                channel=stick.channel,
                clock_pin=mcp.clock,
                mosi_pin=mcp.mosi,
                miso_pin=mcp.miso,
                select_pin=mcp.select,
                pin_factory=pin_factory,
            )
            self._devices.append(adc)
            low, high = mcp.valid_range
            threshold = sensing.LightThreshold(
                stick.threshold, stick.hysteresis, low, high, light_is_high=light_high
            )

            def read_analog() -> tuple[int | None, float | int]:
                value = float(adc.value)
                return threshold.classify(value), value

            return read_analog
        assert stick.pin is not None
        # A tilt switch closes to ground (pull-up); a light module drives the line itself.
        device = InputDevice(
            stick.pin,
            pull_up=True if stick.kind == "tilt" else None,
            active_state=None if stick.kind == "tilt" else True,
            pin_factory=pin_factory,
        )
        self._devices.append(device)
        if stick.kind == "tilt":

            def read_tilt() -> tuple[int | None, float | int]:
                level = 0 if device.is_active else 1
                return (1 if bool(level) == light_high else 0), level

            return read_tilt

        def read_light() -> tuple[int | None, float | int]:
            level = 1 if device.is_active else 0
            return (1 if bool(level) == light_high else 0), level

        return read_light

    def read(self) -> Faces:
        return tuple(reader()[0] for reader in self._readers)

    def raw(self) -> list[float | int]:
        """The pin level (0/1) or analogue reading (0..1) of each stick."""
        return [reader()[1] for reader in self._readers]

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices, self._readers = [], []


class PinBackend(ScanningBackend):
    """The square matrix, sticks and throw button read through gpiozero pins."""

    def __init__(
        self,
        config: HardwareConfig,
        *,
        pin_factory: Factory | None = None,
        clock: Clock = time.monotonic,
        board: SimulatedBoard | None = None,
        name: str = "gpio",
    ) -> None:
        super().__init__(config, clock=clock, board=board)
        self.name = name
        self.pin_factory = pin_factory
        self._matrix: MatrixScanner | None = None
        self._sticks: StickSensors | None = None
        self._button_device: InputDevice | None = None

    def _open(self) -> None:
        with warnings.catch_warnings(record=True) as fallbacks:
            # gpiozero warns for each pin library it tries; the reasons go into our message.
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                self._matrix = MatrixScanner(self.config.matrix, self.pin_factory)
                self._sticks = StickSensors(self.config, self.pin_factory)
                if self.config.throw.button is not None:
                    self._button_device = InputDevice(
                        self.config.throw.button, pull_up=True, pin_factory=self.pin_factory
                    )
            except GPIOZeroError as exc:
                self._close()
                tried = "; ".join(str(w.message) for w in fallbacks)
                raise BackendUnavailable(
                    f"the GPIO pins cannot be opened ({exc}"
                    + (f" {tried}" if tried else "")
                    + "): is this a Raspberry Pi with the pins free and its pin library "
                    "installed? Elsewhere use the simulated board (--hardware sim)"
                ) from None
            except BaseException:
                self._close()
                raise

    def _close(self) -> None:
        for part in (self._matrix, self._sticks, self._button_device):
            if part is not None:
                part.close()
        self._matrix = self._sticks = self._button_device = None

    def _read_keys(self) -> set[Key]:
        assert self._matrix is not None
        return self._matrix.read()

    def _read_sticks(self) -> Faces:
        assert self._sticks is not None
        return self._sticks.read()

    def _read_throw_button(self) -> bool:
        return self._button_device is not None and bool(self._button_device.is_active)

    def stick_readings(self) -> list[float | int | None]:
        with self._lock:
            if self._sticks is None:
                return []
            return list(self._sticks.raw())

    def describe(self) -> dict[str, Any]:
        return {"pin_factory": type(self.pin_factory).__name__ if self.pin_factory else "default"}
