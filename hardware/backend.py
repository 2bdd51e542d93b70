"""The small interface every hardware backend implements: pins, serial bridge, simulation."""

from __future__ import annotations

import queue
from typing import Any, Protocol, runtime_checkable

from hardware.events import HardwareEvent

__all__ = ["Backend", "EventQueue"]

EventQueue = queue.Queue[HardwareEvent]


@runtime_checkable
class Backend(Protocol):
    """A source of hardware events.

    ``start`` begins scanning and returns at once; every recognised change is put on ``events``
    (the backend's threads never do anything else with the game). ``stop`` ends scanning and joins
    the backend's threads; it is safe to call twice. ``occupied`` is the current debounced set of
    occupied squares (1..30), and ``status`` a JSON-able dict for the self-test and the page.
    """

    name: str

    def start(self, events: EventQueue) -> None: ...

    def stop(self) -> None: ...

    def occupied(self) -> frozenset[int]: ...

    def status(self) -> dict[str, Any]: ...
