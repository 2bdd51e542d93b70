"""The backend contract, kept by the serial backend: real firmware logic on a simulated board,
behind a pseudo-terminal, read through the whole link (framing, handshake, sequence numbers)."""

from __future__ import annotations

from backend_contract import BackendContract

from hardware.backend import Backend
from hardware.backends import open_backend
from hardware.config import HardwareConfig
from hardware.simulation import SimulatedBoard


class TestSerialBackendOverPty(BackendContract):
    def make_backend(self, board: SimulatedBoard, config: HardwareConfig) -> Backend:
        return open_backend("serial", config, board=board)
