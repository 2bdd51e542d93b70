"""Opening a hardware backend by name: ``open_backend("sim")``, ``"gpio"``, ``"serial:PORT"``.

A spec is a name, optionally followed by ``:`` and an argument for that backend:

``sim``
    The real gpiozero scanner and stick readers on mock pins driven by a
    :class:`~hardware.simulation.SimulatedBoard` (created if none is given).
``plain``
    The simulated board read directly, without pins.
``gpio``
    The Raspberry Pi's own pins, with the pin library named in the configuration.
``serial`` / ``serial:PORT``
    The board-scanning microcontroller over USB serial, provided by ``firmware_bridge``.

Other packages add backends with :func:`register_backend`. A backend's ``board`` attribute is
the simulated board it reads, or None on real hardware; the simulator page uses it.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from pathlib import Path

from hardware.backend import Backend
from hardware.config import HardwareConfig, load_config
from hardware.errors import BackendUnavailable
from hardware.simulation import Clock, SimulatedBoard

__all__ = ["BACKENDS", "BackendFactory", "open_backend", "register_backend"]

BackendFactory = Callable[[str, HardwareConfig, SimulatedBoard | None, Clock], Backend]
"""``factory(argument, config, board, clock)``: ``argument`` is the text after the colon."""


def _open_sim(
    argument: str, config: HardwareConfig, board: SimulatedBoard | None, clock: Clock
) -> Backend:
    from hardware.mock_pins import simulated_pin_factory
    from hardware.pins import PinBackend

    if argument:
        raise BackendUnavailable(f"the sim backend takes no argument, got {argument!r}")
    board = board if board is not None else SimulatedBoard(clock)
    factory = simulated_pin_factory(board, config)
    return PinBackend(config, pin_factory=factory, clock=clock, board=board, name="sim")


def _open_plain(
    argument: str, config: HardwareConfig, board: SimulatedBoard | None, clock: Clock
) -> Backend:
    from hardware.plain import PlainBackend

    if argument:
        raise BackendUnavailable(f"the plain backend takes no argument, got {argument!r}")
    return PlainBackend(config, board if board is not None else SimulatedBoard(clock), clock=clock)


def _open_gpio(
    argument: str, config: HardwareConfig, board: SimulatedBoard | None, clock: Clock
) -> Backend:
    from hardware.pins import PinBackend, make_pin_factory

    if argument:
        raise BackendUnavailable(f"the gpio backend takes no argument, got {argument!r}")
    if board is not None:
        raise BackendUnavailable(
            "the gpio backend reads real pins: it cannot take a simulated board"
        )
    return PinBackend(config, pin_factory=make_pin_factory(config.pin_factory), clock=clock)


SERIAL_MODULE = "firmware_bridge.backend"
SERIAL_FUNCTION = "open_serial_backend"


def _open_serial(
    argument: str, config: HardwareConfig, board: SimulatedBoard | None, clock: Clock
) -> Backend:
    # The serial bridge lives in another package; it either registers itself or is found here.
    try:
        module = importlib.import_module(SERIAL_MODULE)
        factory: BackendFactory = getattr(module, SERIAL_FUNCTION)
    except (ImportError, AttributeError):
        raise BackendUnavailable(
            f"the serial backend is not installed: it needs {SERIAL_MODULE}.{SERIAL_FUNCTION}"
            "(argument, config, board, clock) from the firmware bridge; until then use "
            "'sim', 'plain' or 'gpio'"
        ) from None
    return factory(argument, config, board, clock)


BACKENDS: dict[str, BackendFactory] = {
    "sim": _open_sim,
    "plain": _open_plain,
    "gpio": _open_gpio,
    "serial": _open_serial,
}


def register_backend(name: str, factory: BackendFactory) -> None:
    """Make ``open_backend(name)`` (and ``name:ARGUMENT``) call ``factory``."""
    if not name or ":" in name:
        raise ValueError(f"a backend name is a plain word, got {name!r}")
    BACKENDS[name] = factory


def open_backend(
    spec: str,
    config: HardwareConfig | str | Path | None = None,
    *,
    board: SimulatedBoard | None = None,
    clock: Clock | None = None,
) -> Backend:
    """Create the backend ``spec`` names; ``start(events)`` it to begin reading.

    ``config`` is a validated configuration, the path of a configuration file, or None for the
    shipped default. ``clock`` defaults to the board's clock, else ``time.monotonic``.
    """
    name, _, argument = spec.strip().partition(":")
    factory = BACKENDS.get(name)
    if factory is None:
        known = ", ".join(sorted(BACKENDS))
        raise BackendUnavailable(f"there is no hardware backend {spec!r}: choose one of {known}")
    if not isinstance(config, HardwareConfig):
        config = load_config(config)
    if clock is None:
        clock = board.clock if board is not None else time.monotonic
    return factory(argument, config, board, clock)
