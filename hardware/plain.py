"""The plain simulation backend: the simulated board read directly, without any pins.

It shares the scan loop, debouncing and throw settling of every local backend
(:mod:`hardware.scanning`) but asks :class:`~hardware.simulation.SimulatedBoard` what each
switch and stick shows instead of going through gpiozero's mock pins. It is the quickest way
to run the companion without hardware, and a second witness for the backend contract suite.
Wiring faults (a matrix without diodes) do not exist here: there is no wiring.
"""

from __future__ import annotations

import time

from hardware.config import HardwareConfig
from hardware.scanning import Faces, Key, ScanningBackend
from hardware.simulation import Clock, SimulatedBoard

__all__ = ["PlainBackend"]


class PlainBackend(ScanningBackend):
    """A backend over a :class:`SimulatedBoard`'s switches and sticks."""

    name = "plain"

    def __init__(
        self, config: HardwareConfig, board: SimulatedBoard, *, clock: Clock = time.monotonic
    ) -> None:
        super().__init__(config, clock=clock, board=board)
        self.simulated = board
        self._key_of = config.matrix.keys

    def _open(self) -> None:
        pass

    def _close(self) -> None:
        pass

    def _read_keys(self) -> set[Key]:
        return {self._key_of[s] for s in self.simulated.closed_squares(self.clock())}

    def _read_sticks(self) -> Faces:
        faces = self.simulated.stick_faces(self.clock())
        return tuple(
            face if stick.kind != "analog" or self.simulated.stick_connected(i) else None
            for i, (face, stick) in enumerate(zip(faces, self.config.sticks, strict=True))
        )

    def _read_throw_button(self) -> bool:
        return self.config.throw.button is not None and self.simulated.throw_button_closed(
            self.clock()
        )

    def stick_readings(self) -> list[float | int | None]:
        """Analogue sticks read their simulated light sensor; the others their face."""
        now = self.clock()
        faces = self.simulated.stick_faces(now)
        return [
            self.simulated.stick_reading(i, now) if stick.kind == "analog" else faces[i]
            for i, stick in enumerate(self.config.sticks)
        ]
