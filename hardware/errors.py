"""The exceptions of the hardware layer: one tree, each class also a built-in exception."""

from __future__ import annotations

__all__ = [
    "BackendUnavailable",
    "CalibrationError",
    "ConfigError",
    "HardwareError",
]


class HardwareError(Exception):
    """Base of every error the hardware layer raises on purpose."""


class ConfigError(HardwareError, ValueError):
    """The hardware configuration is wrong; the message names the file, the line and the fix."""

    def __init__(self, message: str, *, source: str = "", line: int | None = None) -> None:
        where = source
        if line is not None:
            where = f"{source}, line {line}" if source else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)
        self.source = source
        self.line = line
        self.problem = message


class BackendUnavailable(HardwareError, LookupError):
    """The requested backend does not exist or cannot be opened on this machine."""


class CalibrationError(HardwareError, ValueError):
    """The light sensors could not be calibrated from the readings taken."""
