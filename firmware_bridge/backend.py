"""The ``serial`` hardware backend as :func:`hardware.backends.open_backend` opens it.

``--hardware serial`` finds the board by its USB ids, ``--hardware serial:PORT`` opens ``PORT``
(a device path or any ``serial_for_url`` URL such as ``socket://pico.local:7000``), and
``--hardware serial:sim`` runs the firmware on a simulated board behind a pseudo-terminal, the
whole link included. The ``[serial]`` table of the configuration file sets the rest.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any

from firmware_bridge.config import SerialConfig
from firmware_bridge.errors import ConfigError
from firmware_bridge.fake_device import FakeDevice
from firmware_bridge.link import Clock, SerialBackend
from hardware.backend import Backend, EventQueue
from hardware.config import DEFAULT_CONFIG_NAME, HardwareConfig
from hardware.errors import BackendUnavailable
from hardware.simulation import SimulatedBoard

__all__ = ["SimulatedSerialBackend", "open_serial_backend", "serial_table"]

SIMULATED = "sim"


def serial_table(config: HardwareConfig) -> dict[str, Any]:
    """The ``[serial]`` table of the file ``config`` was read from (empty for the default)."""
    if not config.source or config.source == DEFAULT_CONFIG_NAME:
        return {}
    path = Path(config.source)
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: the [serial] table cannot be read: {error}") from None
    table = data.get("serial", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [serial] must be a table of settings")
    return table


def open_serial_backend(
    argument: str, config: HardwareConfig, board: SimulatedBoard | None, clock: Clock
) -> Backend:
    """``open_backend``'s factory for ``serial``, ``serial:PORT`` and ``serial:sim``."""
    try:
        if board is not None or argument == SIMULATED:
            if argument not in ("", SIMULATED):
                raise BackendUnavailable(
                    f"a simulated board is reached through its own pseudo-terminal: use "
                    f"'serial' or 'serial:sim', not 'serial:{argument}'"
                )
            board = board if board is not None else SimulatedBoard(clock)
            settings = SerialConfig.from_table(serial_table(config))
            return SimulatedSerialBackend(settings, config, board, clock=clock)
        settings = SerialConfig.from_table(serial_table(config), port=argument or None)
    except ConfigError as error:
        raise BackendUnavailable(f"the serial backend cannot start: {error}") from error
    return SerialBackend(settings, clock=clock)


class SimulatedSerialBackend(SerialBackend):
    """The serial backend talking to the firmware on a simulated board, through a real pty.

    ``board`` is the :class:`SimulatedBoard` that players (or tests) move pieces on; the fake
    device is wired as the ``[hardware]`` configuration says (matrix layout, settle times, the
    throw button), so the simulated link behaves as the real board would.
    """

    def __init__(
        self,
        settings: SerialConfig,
        hardware: HardwareConfig,
        board: SimulatedBoard,
        *,
        clock: Clock = time.monotonic,
    ) -> None:
        self.board = board
        matrix = hardware.matrix
        button = hardware.throw.button is not None
        self.device = FakeDevice(
            lambda: board.closed_squares(),
            lambda: board.stick_faces(),
            rows=len(matrix.rows),
            cols=len(matrix.columns),
            square_map=[square for line in matrix.layout for square in line],
            diodes=board.diodes,
            input_kind=hardware.squares,
            debounce=matrix.debounce_samples,
            settle_ms=hardware.throw.settle_ms,
            max_motion_ms=hardware.throw.max_motion_ms,
            min_changes=hardware.throw.min_changes,
            roll_button=(lambda: board.throw_button_closed()) if button else None,
            clock=board.clock,
        )
        super().__init__(
            SerialConfig(
                port=self.device.port,
                baud=settings.baud,
                backoff_initial=settings.backoff_initial,
                backoff_max=settings.backoff_max,
                silence=settings.silence,
            ),
            clock=clock,
        )

    def start(self, events: EventQueue) -> None:
        self.device.start()
        super().start(events)

    def stop(self) -> None:
        super().stop()
        self.device.stop()

    def status(self) -> dict[str, Any]:
        return {**super().status(), "simulated": True}
