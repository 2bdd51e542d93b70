"""What can go wrong on the companion's end of the serial link.

Every class is also a built-in exception, so callers that know nothing of the bridge still catch
it sensibly (a missing board is a ``LookupError``, a silent one a ``TimeoutError``). The shared
framer runs on MicroPython too and has its own :class:`~firmware_bridge.firmware.framing.FrameError`
(a ``ValueError``); the link counts those and never raises them.
"""

from __future__ import annotations

__all__ = [
    "BoardNotFound",
    "BridgeError",
    "BridgeTimeout",
    "ConfigError",
    "LinkLost",
    "ProtocolVersionError",
]


class BridgeError(Exception):
    """Base of every error raised by the serial firmware bridge."""


class ConfigError(BridgeError, ValueError):
    """The ``[serial]`` configuration or a ``serial:PORT`` spec cannot be used as written."""


class BoardNotFound(BridgeError, LookupError):
    """No port was given and no USB device with the configured vendor and product id is present."""


class BridgeTimeout(BridgeError, TimeoutError):
    """The board did not answer in time (no HELLO after connecting, or silence on the line)."""


class LinkLost(BridgeError, ConnectionError):
    """The port went away or failed while in use (a pulled cable, a reset board)."""


class ProtocolVersionError(BridgeError, ConnectionError):
    """The board's firmware speaks a protocol version this companion does not."""

    def __init__(self, device_version: str, host_version: int) -> None:
        super().__init__(
            f"the board's firmware speaks protocol version {device_version}, this companion "
            f"speaks version {host_version}: flash the firmware shipped with this companion "
            "(see firmware_bridge/README.md)"
        )
        self.device_version = device_version
        self.host_version = host_version
