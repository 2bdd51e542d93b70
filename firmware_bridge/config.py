"""The ``[serial]`` table of the companion's TOML configuration, and finding the board's port."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from firmware_bridge.errors import BoardNotFound, ConfigError

__all__ = ["PICO_MICROPYTHON_PID", "RASPBERRY_PI_VID", "SerialConfig", "find_board_port"]

# What a Raspberry Pi Pico running MicroPython enumerates as over USB.
RASPBERRY_PI_VID = 0x2E8A
PICO_MICROPYTHON_PID = 0x0005


@dataclass(frozen=True, slots=True)
class SerialConfig:
    """How to reach the board: a port URL, or the USB ids to look for, and the retry pace.

    ``port`` is anything ``serial.serial_for_url`` opens (``/dev/ttyACM0``, ``loop://``,
    ``socket://host:port``); when it is None the first USB port with ``vid``/``pid`` is used.
    After a failure the link waits ``backoff_initial`` seconds, doubling up to ``backoff_max``.
    ``silence`` is how long the board may stay quiet before it is asked for a snapshot, and then
    given up on (it sends one every two seconds on its own).
    """

    port: str | None = None
    baud: int = 115200
    vid: int = RASPBERRY_PI_VID
    pid: int = PICO_MICROPYTHON_PID
    backoff_initial: float = 0.5
    backoff_max: float = 10.0
    silence: float = 6.0

    def __post_init__(self) -> None:
        if self.port is not None and not self.port.strip():
            raise ConfigError("serial port is empty: give a device path or leave it out")
        if not 300 <= self.baud <= 4_000_000:
            raise ConfigError(f"serial baud {self.baud} is not a rate between 300 and 4000000")
        for name in ("vid", "pid"):
            value = getattr(self, name)
            if not 0 <= value <= 0xFFFF:
                raise ConfigError(f"serial {name} {value} is not a USB id (0..0xFFFF)")
        if not 0 < self.backoff_initial <= self.backoff_max:
            raise ConfigError(
                "serial backoff_initial must be above 0 and at most backoff_max "
                f"(got {self.backoff_initial} and {self.backoff_max})"
            )
        if self.silence <= 0:
            raise ConfigError(
                f"serial silence must be a positive number of seconds, not {self.silence}"
            )

    @classmethod
    def from_table(
        cls, table: Mapping[str, Any] | None, *, port: str | None = None
    ) -> SerialConfig:
        """Read the ``[serial]`` TOML table (ids as numbers or hex strings); ``port`` overrides it.

        ConfigError names the key that is wrong and what it should be.
        """
        known = {field.name: field for field in fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in (table or {}).items():
            if key not in known:
                raise ConfigError(f"[serial] has no setting {key!r}; known: {', '.join(known)}")
            values[key] = _coerce(key, raw)
        config = cls(**values)
        if port:
            config = replace(config, port=port)
        return config


def _coerce(key: str, raw: Any) -> Any:
    if key == "port":
        if not isinstance(raw, str):
            raise ConfigError(f'[serial] port must be text such as "/dev/ttyACM0", not {raw!r}')
        return raw
    if key in ("vid", "pid"):
        if isinstance(raw, str):
            try:
                return int(raw, 16)
            except ValueError:
                raise ConfigError(
                    f'[serial] {key} {raw!r} is not a hex USB id like "2E8A"'
                ) from None
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        raise ConfigError(f"[serial] {key} must be a number or hex text, not {raw!r}")
    if key == "baud":
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        raise ConfigError(f"[serial] baud must be a whole number such as 115200, not {raw!r}")
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return float(raw)
    raise ConfigError(f"[serial] {key} must be a number of seconds, not {raw!r}")


def find_board_port(
    vid: int,
    pid: int,
    *,
    list_ports: Callable[[], Sequence[Any]] | None = None,
) -> str:
    """The device path of the first USB serial port with these ids; BoardNotFound if none."""
    if list_ports is None:
        from serial.tools.list_ports import comports

        list_ports = comports
    ports = sorted(list_ports(), key=lambda info: str(info.device))
    for info in ports:
        if info.vid == vid and info.pid == pid:
            return str(info.device)
    present = ", ".join(
        f"{info.device} ({info.vid:04X}:{info.pid:04X})"
        if info.vid is not None
        else str(info.device)
        for info in ports
    )
    raise BoardNotFound(
        f"no USB serial device {vid:04X}:{pid:04X} is connected (present: {present or 'none'}); "
        "plug the board in, or give its port as --hardware serial:PORT"
    )
