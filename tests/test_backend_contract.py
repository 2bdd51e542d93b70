"""The backend contract, kept by the gpiozero backend on mock pins and the plain simulation."""

from __future__ import annotations

from backend_contract import BackendContract

from hardware.backend import Backend
from hardware.backends import open_backend
from hardware.config import HardwareConfig
from hardware.simulation import SimulatedBoard


class TestPinBackendOnMockPins(BackendContract):
    def make_backend(self, board: SimulatedBoard, config: HardwareConfig) -> Backend:
        return open_backend("sim", config, board=board)


class TestPlainSimulationBackend(BackendContract):
    def make_backend(self, board: SimulatedBoard, config: HardwareConfig) -> Backend:
        return open_backend("plain", config, board=board)
