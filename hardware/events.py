"""The events every hardware backend produces: the one vocabulary between sensors and the game.

Backends (gpiozero pins, the serial firmware bridge, simulation) never touch the game. Their
callbacks and reader threads only put these small immutable values on a queue; the game loop is
the single consumer. ``at`` is the backend's monotonic clock reading, in seconds, when the event
was recognised (an injected clock in tests).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BoardSnapshot",
    "HardwareEvent",
    "HardwareFault",
    "SquareChanged",
    "SquarePressed",
    "ThrowRequested",
    "ThrowSettled",
]


@dataclass(frozen=True, slots=True)
class ThrowSettled:
    """The sticks were seen moving and have been still for the settle time.

    ``faces`` has one entry per stick, 1 for the light (marked, flat) face up, 0 for the dark one.
    The ruleset turns faces into a throw value (four sticks with no light face count 5).
    """

    faces: tuple[int, ...]
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class ThrowRequested:
    """Somebody pressed the electronic-throw button: the game rolls with the ruleset's odds."""

    at: float = 0.0


@dataclass(frozen=True, slots=True)
class SquareChanged:
    """A presence square (reed switch, Hall sensor) changed after debouncing."""

    square: int
    occupied: bool
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class SquarePressed:
    """A push-button square was pressed (reported once per press, after debouncing)."""

    square: int
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class BoardSnapshot:
    """The whole debounced board at once: sent at start-up and after a resynchronisation."""

    occupied: frozenset[int]
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class HardwareFault:
    """Something the sensors report cannot be trusted; ``code`` is stable, ``message`` is prose.

    Codes in use: ``phantom-squares`` (a matrix without diodes), ``stick-unsettled``,
    ``throw-without-motion``, ``sensor-range``, ``scan-failed`` (the pin library raised an
    error while scanning), ``link-lost``, ``link-corrupt``, ``protocol-version``. ``cleared``
    is True when a previously reported fault went away.
    """

    code: str
    message: str
    squares: tuple[int, ...] = ()
    cleared: bool = False
    at: float = 0.0


HardwareEvent = (
    ThrowSettled | ThrowRequested | SquareChanged | SquarePressed | BoardSnapshot | HardwareFault
)
