"""The ``[hardware]`` part of the configuration file: pins, matrix geometry, sticks, thresholds.

One TOML file configures the whole companion; this module owns the ``[hardware]`` table and its
sub-tables and ignores every other top-level table (``[web]``, ``[serial]``, ``[game]``...).
Inside its own tables it rejects unknown keys, and every message names the file, the line and
what to change. Calibration writes thresholds back with :func:`write_stick_thresholds`, which
edits the file in place and keeps its comments.

Pins are Broadcom (BCM) GPIO numbers, 2 to 27, as printed on most Raspberry Pi pin-out charts.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from hardware.errors import ConfigError

__all__ = [
    "BOARD_SQUARES",
    "DEFAULT_CONFIG_NAME",
    "HardwareConfig",
    "MatrixConfig",
    "Mcp3008Config",
    "StickConfig",
    "ThrowConfig",
    "default_config_text",
    "load_config",
    "parse_config",
    "write_stick_thresholds",
]

DEFAULT_CONFIG_NAME = "default-config.toml"
BOARD_SQUARES = 30
FIRST_PIN, LAST_PIN = 2, 27
PIN_FACTORIES = ("", "lgpio", "rpigpio", "pigpio", "native", "mock")
SQUARE_KINDS = ("presence", "buttons")
STICK_KINDS = ("tilt", "light", "analog")
LEVELS = ("low", "high")

SquareKind = Literal["presence", "buttons"]
StickKind = Literal["tilt", "light", "analog"]
Level = Literal["low", "high"]
Key = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatrixConfig:
    """The square matrix: rows driven low one at a time, columns read with pull-ups."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    layout: tuple[tuple[int, ...], ...]
    """The board square (1..30) wired at each (row, column), 0 where no switch is fitted."""
    scan_hz: int = 200
    debounce_samples: int = 3

    def square_at(self, row: int, column: int) -> int:
        """The board square at a matrix position, or 0 for an unused position."""
        return self.layout[row][column]

    def key_of(self, square: int) -> Key:
        """The (row, column) matrix position of a board square."""
        for r, line in enumerate(self.layout):
            for c, sq in enumerate(line):
                if sq == square:
                    return (r, c)
        raise KeyError(f"square {square} is not wired in the matrix layout")

    @property
    def keys(self) -> dict[int, Key]:
        """Every board square and its (row, column)."""
        return {sq: (r, c) for r, line in enumerate(self.layout) for c, sq in enumerate(line) if sq}


@dataclass(frozen=True, slots=True)
class StickConfig:
    """One throwing stick's sensor.

    ``tilt``: a tilt switch to ground on ``pin`` (internal pull-up). ``light``: a digital light
    or reflective module driving ``pin``. ``analog``: an analogue light sensor on MCP3008
    ``channel``, turned into a face with ``threshold`` and ``hysteresis`` (0..1 of full scale).
    ``light_level`` is the level that means light face up: for a tilt switch to ground,
    ``low`` means "closed"; for an analogue sensor, ``high`` means a brighter reading.
    """

    kind: StickKind
    pin: int | None = None
    channel: int | None = None
    light_level: Level = "low"
    threshold: float = 0.5
    hysteresis: float = 0.05


@dataclass(frozen=True, slots=True)
class ThrowConfig:
    """When a throw counts as settled, and the optional electronic-throw button."""

    settle_ms: int = 400
    max_motion_ms: int = 5000
    min_changes: int = 2
    button: int | None = None


@dataclass(frozen=True, slots=True)
class Mcp3008Config:
    """The MCP3008 analogue converter for analogue stick sensors, on SPI pins."""

    clock: int = 11
    mosi: int = 10
    miso: int = 9
    select: int = 8
    valid_range: tuple[float, float] = (0.02, 0.98)

    @property
    def pins(self) -> tuple[int, int, int, int]:
        return (self.clock, self.mosi, self.miso, self.select)


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    """Everything the hardware layer needs, validated."""

    matrix: MatrixConfig
    sticks: tuple[StickConfig, ...]
    throw: ThrowConfig = field(default_factory=ThrowConfig)
    mcp3008: Mcp3008Config | None = None
    pin_factory: str = ""
    squares: SquareKind = "presence"
    source: str = ""

    @property
    def has_analog_sticks(self) -> bool:
        return any(s.kind == "analog" for s in self.sticks)


# --- where things are in the file -------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")
_STRINGS = re.compile(r"\"(?:\\.|[^\"\\])*\"|'[^']*'")

PathKey = tuple[str | int, ...]


class _Lines:
    """Line numbers of tables and keys in a TOML text, for error messages."""

    def __init__(self, text: str) -> None:
        self.where: dict[PathKey, int] = {}
        counts: dict[PathKey, int] = {}
        table: PathKey = ()
        depth = 0
        for number, raw in enumerate(text.splitlines(), start=1):
            plain = _STRINGS.sub('""', raw).split("#", 1)[0]
            if depth == 0:
                header = _HEADER.match(raw)
                key = _KEY.match(raw)
                if header:
                    parts: PathKey = tuple(_split_dotted(header.group(2)))
                    if header.group(1) == "[[":
                        index = counts.get(parts, 0)
                        counts[parts] = index + 1
                        parts = (*parts, index)
                    table = parts
                    self.where.setdefault(table, number)
                    continue
                if key:
                    self.where.setdefault((*table, *_split_dotted(key.group(1))), number)
            depth += plain.count("[") + plain.count("{") - plain.count("]") - plain.count("}")
            depth = max(depth, 0)

    def line(self, path: PathKey) -> int | None:
        """The line of a key or table, or of the nearest enclosing table that is written."""
        while path:
            if path in self.where:
                return self.where[path]
            path = path[:-1]
        return None


def _split_dotted(name: str) -> list[str]:
    return [part.strip().strip("\"'") for part in name.split(".")]


# --- reading and validating -------------------------------------------------------------------


class _Checker:
    """Reads typed values out of the parsed tables, raising ConfigError with a line number."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = _Lines(text)
        self.source = source

    def fail(self, path: PathKey, message: str) -> ConfigError:
        return ConfigError(message, source=self.source, line=self.lines.line(path))

    def table(self, data: Mapping[str, Any], path: PathKey, allowed: Sequence[str]) -> None:
        name = ".".join(str(p) for p in path if isinstance(p, str))
        for key in data:
            if key not in allowed:
                raise self.fail(
                    (*path, key),
                    f"unknown key {key!r} in [{name}]: the keys allowed there are "
                    + ", ".join(allowed),
                )

    def integer(
        self, data: Mapping[str, Any], path: PathKey, key: str, default: int, lo: int, hi: int
    ) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail((*path, key), f"{key} must be a whole number, got {value!r}")
        if not lo <= value <= hi:
            raise self.fail((*path, key), f"{key} must be between {lo} and {hi}, got {value}")
        return value

    def number(
        self,
        data: Mapping[str, Any],
        path: PathKey,
        key: str,
        default: float,
        lo: float,
        hi: float,
    ) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail((*path, key), f"{key} must be a number, got {value!r}")
        if not lo <= value <= hi:
            raise self.fail((*path, key), f"{key} must be between {lo} and {hi}, got {value}")
        return float(value)

    def choice(
        self, data: Mapping[str, Any], path: PathKey, key: str, default: str, options: Sequence[str]
    ) -> str:
        value = data.get(key, default)
        if value not in options:
            shown = ", ".join(repr(o) for o in options)
            raise self.fail((*path, key), f"{key} must be one of {shown}, got {value!r}")
        return str(value)

    def pin(self, value: object, path: PathKey, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"{what} must be a BCM GPIO number, got {value!r}")
        if not FIRST_PIN <= value <= LAST_PIN:
            raise self.fail(
                path,
                f"{what}: GPIO {value} does not exist on the Raspberry Pi header; "
                f"use a BCM GPIO number from {FIRST_PIN} to {LAST_PIN}",
            )
        return value

    def pins(self, data: Mapping[str, Any], path: PathKey, key: str) -> tuple[int, ...]:
        value = data.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail((*path, key), f"{key} must be a list of BCM GPIO numbers")
        return tuple(self.pin(v, (*path, key), f"{key}[{i}]") for i, v in enumerate(value))


def parse_config(text: str, source: str = "<configuration>") -> HardwareConfig:
    """Validate a whole configuration text and return its hardware part."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"this is not valid TOML: {exc}", source=source) from None
    check = _Checker(text, source)
    hw = data.get("hardware")
    if not isinstance(hw, dict):
        raise check.fail(
            (), "there is no [hardware] table: copy one from the default configuration"
        )
    root: PathKey = ("hardware",)
    check.table(hw, root, ("pin_factory", "squares", "matrix", "throw", "stick", "mcp3008"))
    pin_factory = check.choice(hw, root, "pin_factory", "", PIN_FACTORIES)
    squares = check.choice(hw, root, "squares", "presence", SQUARE_KINDS)

    matrix = _parse_matrix(check, hw.get("matrix"))
    throw = _parse_throw(check, hw.get("throw", {}))
    sticks = _parse_sticks(check, hw.get("stick"))
    mcp = None
    if "mcp3008" in hw or any(s.kind == "analog" for s in sticks):
        mcp = _parse_mcp3008(check, hw.get("mcp3008", {}))

    config = HardwareConfig(
        matrix=matrix,
        sticks=sticks,
        throw=throw,
        mcp3008=mcp,
        pin_factory=pin_factory,
        squares=squares,  # type: ignore[arg-type]
        source=source,
    )
    _check_pins_used_once(check, config)
    return config


def _parse_matrix(check: _Checker, table: object) -> MatrixConfig:
    path: PathKey = ("hardware", "matrix")
    if not isinstance(table, dict):
        raise check.fail(
            ("hardware",), "[hardware.matrix] is missing: it names the row and column pins"
        )
    check.table(table, path, ("rows", "columns", "layout", "scan_hz", "debounce_samples"))
    rows = check.pins(table, path, "rows")
    columns = check.pins(table, path, "columns")
    size = len(rows) * len(columns)
    if size < BOARD_SQUARES:
        raise check.fail(
            (*path, "columns"),
            f"{len(rows)} rows x {len(columns)} columns give {size} switches, but the board "
            f"has {BOARD_SQUARES} squares: add rows or columns (3 x 10 and 5 x 6 both work)",
        )
    if "layout" in table:
        layout = _parse_layout(check, table["layout"], len(rows), len(columns))
    else:
        numbers = [n + 1 if n < BOARD_SQUARES else 0 for n in range(size)]
        layout = tuple(
            tuple(numbers[r * len(columns) : (r + 1) * len(columns)]) for r in range(len(rows))
        )
    return MatrixConfig(
        rows=rows,
        columns=columns,
        layout=layout,
        scan_hz=check.integer(table, path, "scan_hz", 200, 100, 2000),
        debounce_samples=check.integer(table, path, "debounce_samples", 3, 1, 50),
    )


def _parse_layout(
    check: _Checker, value: object, n_rows: int, n_columns: int
) -> tuple[tuple[int, ...], ...]:
    path: PathKey = ("hardware", "matrix", "layout")
    if not isinstance(value, list) or len(value) != n_rows:
        raise check.fail(path, f"layout must be a list of {n_rows} rows, one per row pin")
    seen: dict[int, Key] = {}
    layout = []
    for r, line in enumerate(value):
        if not isinstance(line, list) or len(line) != n_columns:
            raise check.fail(
                path, f"layout row {r + 1} must list {n_columns} squares, one per column pin"
            )
        for c, square in enumerate(line):
            if isinstance(square, bool) or not isinstance(square, int):
                raise check.fail(path, f"layout row {r + 1}: {square!r} is not a square number")
            if not 0 <= square <= BOARD_SQUARES:
                raise check.fail(
                    path, f"layout row {r + 1}: square {square} does not exist (1..30, 0 = none)"
                )
            if square and square in seen:
                raise check.fail(
                    path,
                    f"square {square} appears twice in the layout "
                    f"(rows {seen[square][0] + 1} and {r + 1})",
                )
            if square:
                seen[square] = (r, c)
        layout.append(tuple(line))
    missing = sorted(set(range(1, BOARD_SQUARES + 1)) - set(seen))
    if missing:
        raise check.fail(
            path,
            "the layout does not cover all 30 squares; missing: "
            + ", ".join(str(m) for m in missing),
        )
    return tuple(layout)


def _parse_throw(check: _Checker, table: object) -> ThrowConfig:
    path: PathKey = ("hardware", "throw")
    if not isinstance(table, dict):
        raise check.fail(path, "[hardware.throw] must be a table")
    check.table(table, path, ("settle_ms", "max_motion_ms", "min_changes", "button"))
    settle = check.integer(table, path, "settle_ms", 400, 20, 5000)
    max_motion = check.integer(table, path, "max_motion_ms", max(5000, settle * 4), 1, 60000)
    if max_motion <= settle:
        raise check.fail((*path, "max_motion_ms"), "max_motion_ms must be longer than settle_ms")
    button = None
    if "button" in table:
        button = check.pin(table["button"], (*path, "button"), "button")
    return ThrowConfig(
        settle_ms=settle,
        max_motion_ms=max_motion,
        min_changes=check.integer(table, path, "min_changes", 2, 1, 100),
        button=button,
    )


def _parse_sticks(check: _Checker, value: object) -> tuple[StickConfig, ...]:
    if not isinstance(value, list) or len(value) != 4:
        raise check.fail(
            ("hardware", "stick"),
            "there must be four [[hardware.stick]] tables, one per throwing stick",
        )
    sticks = []
    for i, table in enumerate(value):
        path: PathKey = ("hardware", "stick", i)
        if not isinstance(table, dict):
            raise check.fail(
                ("hardware", "stick"), "each stick is a [[hardware.stick]] table of its own"
            )
        check.table(
            table, path, ("kind", "pin", "channel", "light_level", "threshold", "hysteresis")
        )
        kind = check.choice(table, path, "kind", "", STICK_KINDS)
        default_level = "high" if kind == "analog" else "low"
        level = check.choice(table, path, "light_level", default_level, LEVELS)
        pin = channel = None
        if kind == "analog":
            if "pin" in table:
                raise check.fail((*path, "pin"), "an analog stick has a channel, not a pin")
            if "channel" not in table:
                raise check.fail(path, f"stick {i + 1} is analog: give its MCP3008 channel (0..7)")
            channel = check.integer(table, path, "channel", 0, 0, 7)
        else:
            if "channel" in table:
                raise check.fail((*path, "channel"), f"a {kind} stick has a pin, not a channel")
            if "pin" not in table:
                raise check.fail(path, f"stick {i + 1} is a {kind} sensor: give its pin")
            pin = check.pin(table["pin"], (*path, "pin"), f"stick {i + 1} pin")
        threshold = check.number(table, path, "threshold", 0.5, 0.0, 1.0)
        hysteresis = check.number(table, path, "hysteresis", 0.05, 0.0, 0.5)
        sticks.append(
            StickConfig(
                kind=kind,  # type: ignore[arg-type]
                pin=pin,
                channel=channel,
                light_level=level,  # type: ignore[arg-type]
                threshold=threshold,
                hysteresis=hysteresis,
            )
        )
    channels = [s.channel for s in sticks if s.channel is not None]
    for i, ch in enumerate(channels):
        if ch in channels[:i]:
            raise check.fail(("hardware", "stick"), f"MCP3008 channel {ch} is used by two sticks")
    return tuple(sticks)


def _parse_mcp3008(check: _Checker, table: object) -> Mcp3008Config:
    path: PathKey = ("hardware", "mcp3008")
    if not isinstance(table, dict):
        raise check.fail(path, "[hardware.mcp3008] must be a table")
    check.table(table, path, ("clock", "mosi", "miso", "select", "valid_range"))
    pins = {
        name: check.pin(table.get(name, default), (*path, name), name)
        for name, default in (("clock", 11), ("mosi", 10), ("miso", 9), ("select", 8))
    }
    valid = table.get("valid_range", [0.02, 0.98])
    if (
        not isinstance(valid, list)
        or len(valid) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in valid)
        or not 0 <= valid[0] < valid[1] <= 1
    ):
        raise check.fail(
            (*path, "valid_range"),
            "valid_range must be [low, high] with 0 <= low < high <= 1 (fractions of full scale)",
        )
    return Mcp3008Config(valid_range=(float(valid[0]), float(valid[1])), **pins)


def _check_pins_used_once(check: _Checker, config: HardwareConfig) -> None:
    used: dict[int, tuple[str, PathKey]] = {}

    def claim(pin: int | None, what: str, path: PathKey) -> None:
        if pin is None:
            return
        if pin in used:
            raise check.fail(
                path,
                f"GPIO {pin} is used twice: by {used[pin][0]} and by {what}; give each its own",
            )
        used[pin] = (what, path)

    m = config.matrix
    for i, pin in enumerate(m.rows):
        claim(pin, f"matrix row {i + 1}", ("hardware", "matrix", "rows"))
    for i, pin in enumerate(m.columns):
        claim(pin, f"matrix column {i + 1}", ("hardware", "matrix", "columns"))
    for i, stick in enumerate(config.sticks):
        claim(stick.pin, f"stick {i + 1}", ("hardware", "stick", i, "pin"))
    claim(config.throw.button, "the throw button", ("hardware", "throw", "button"))
    if config.mcp3008 is not None:
        for name, pin in zip(("clock", "mosi", "miso", "select"), config.mcp3008.pins, strict=True):
            claim(pin, f"the MCP3008 {name} pin", ("hardware", "mcp3008", name))


# --- files ------------------------------------------------------------------------------------


def default_config_text() -> str:
    """The configuration shipped with the package (a 3 x 10 matrix and tilt-switch sticks)."""
    return resources.files("hardware").joinpath(DEFAULT_CONFIG_NAME).read_text(encoding="utf-8")


def load_config(path: str | Path | None = None) -> HardwareConfig:
    """Read and validate a configuration file; ``None`` reads the shipped default."""
    if path is None:
        return parse_config(default_config_text(), source=DEFAULT_CONFIG_NAME)
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            "the configuration file does not exist: check the path, or leave it out to use "
            "the default configuration",
            source=str(path),
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"the configuration file cannot be read: {exc}", source=str(path)
        ) from None
    return parse_config(text, source=str(path))


def write_stick_thresholds(
    path: str | Path, thresholds: Mapping[int, tuple[float, float, Level]]
) -> None:
    """Write calibrated ``(threshold, hysteresis, light_level)`` per stick index into a file.

    The file is edited in place with its comments and layout kept, then validated again; it is
    replaced atomically, so a failure leaves the old file untouched.
    """
    import tomlkit

    path = Path(path)
    text = path.read_text(encoding="utf-8")
    document = tomlkit.parse(text)
    sticks = document.get("hardware", {}).get("stick")
    if sticks is None:
        raise ConfigError("there are no [[hardware.stick]] tables to calibrate", source=str(path))
    for index, (threshold, hysteresis, level) in thresholds.items():
        table = sticks[index]
        table["threshold"] = round(float(threshold), 4)
        table["hysteresis"] = round(float(hysteresis), 4)
        table["light_level"] = level
    new_text = tomlkit.dumps(document)
    parse_config(new_text, source=str(path))
    temporary = path.with_name(path.name + ".new")
    temporary.write_text(new_text, encoding="utf-8")
    temporary.replace(path)
