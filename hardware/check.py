"""The self-test a maker runs after wiring the board, and light-sensor calibration.

:func:`render_report` turns a backend's ``status()`` (and the latest events) into the text the
terminal shows: the board as it is laid out, what each stick reads, the scan rate and the
faults. :func:`calibrate_sticks` samples the analogue stick sensors with the light faces and
then the dark faces up and returns a threshold and hysteresis per stick, which
:func:`hardware.config.write_stick_thresholds` writes into the configuration file.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.config import HardwareConfig, Level
from hardware.errors import CalibrationError
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)
from hardware.sensing import calibrate_threshold

__all__ = [
    "BOARD_ROWS",
    "StickCalibration",
    "calibrate_sticks",
    "describe_event",
    "render_board",
    "render_report",
]

# The three rows of a Senet board as the players see them: the middle row runs right to left.
BOARD_ROWS = (tuple(range(1, 11)), tuple(range(20, 10, -1)), tuple(range(21, 31)))
MIN_SCAN_HZ = 100


def render_board(closed: Iterable[int]) -> list[str]:
    """The board as three lines of squares, ``[##]`` where the switch reads closed."""
    closed = set(closed)
    return [" ".join("[##]" if sq in closed else f"[{sq:2d}]" for sq in row) for row in BOARD_ROWS]


def describe_event(event: HardwareEvent) -> str:
    """One line of plain words for an event."""
    match event:
        case SquareChanged(square=sq, occupied=True):
            return f"square {sq}: piece placed"
        case SquareChanged(square=sq):
            return f"square {sq}: piece lifted"
        case SquarePressed(square=sq):
            return f"square {sq}: pressed"
        case ThrowSettled(faces=faces):
            return "sticks settled: " + " ".join("light" if f else "dark" for f in faces)
        case ThrowRequested():
            return "throw button pressed"
        case BoardSnapshot(occupied=squares):
            shown = ", ".join(str(s) for s in sorted(squares)) or "none"
            return f"board at start: {shown}"
        case HardwareFault(code=code, cleared=True):
            return f"fault cleared: {code}"
        case HardwareFault(code=code, message=message):
            return f"FAULT {code}: {message}"
    return repr(event)


def render_report(
    status: dict[str, Any],
    config: HardwareConfig,
    readings: Sequence[float | int | None] = (),
    recent: Sequence[HardwareEvent] = (),
) -> str:
    """The self-test screen for one moment."""
    lines = [f"senet-companion hardware check: {status['backend']} backend", ""]
    kind = "pressed" if config.squares == "buttons" else "occupied"
    lines.append(f"Squares that read {kind}:")
    lines.extend("  " + line for line in render_board(status["closed"]))
    lines.append("")
    lines.append("Sticks:")
    faces = status["sticks"]
    for i, stick in enumerate(config.sticks):
        face = faces[i] if i < len(faces) else None
        shown = (
            "light face up" if face == 1 else "dark face up" if face == 0 else "NO SENSIBLE READING"
        )
        where = f"pin {stick.pin}" if stick.pin is not None else f"MCP3008 channel {stick.channel}"
        raw = ""
        if i < len(readings) and readings[i] is not None:
            value = readings[i]
            raw = f", reads {value:.3f}" if isinstance(value, float) else f", level {value}"
        lines.append(f"  stick {i + 1} ({stick.kind}, {where}): {shown}{raw}")
    state = "moving" if status["moving"] else "at rest"
    lines.append(f"  sticks {state}")
    if config.throw.button is not None:
        pressed = "pressed" if status["throw_button"] else "released"
        lines.append(f"  throw button (pin {config.throw.button}): {pressed}")
    lines.append("")
    rate = status["scan_hz"]
    verdict = "" if rate >= MIN_SCAN_HZ or status["scans"] < 2 else f"  (below {MIN_SCAN_HZ} Hz!)"
    lines.append(
        f"Scan rate: {rate:.0f} scans/s (configured {config.matrix.scan_hz}){verdict}; "
        f"{status['scans']} scans"
    )
    faults = status["faults"]
    lines.append("Faults: none" if not faults else "Faults:")
    for fault in faults:
        lines.append(f"  {fault['code']}: {fault['message']}")
    if recent:
        lines.append("")
        lines.append("Recent events:")
        lines.extend("  " + describe_event(e) for e in recent)
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class StickCalibration:
    """The calibrated threshold of one analogue stick sensor."""

    stick: int
    threshold: float
    hysteresis: float
    light_level: Level
    light_readings: tuple[float, ...]
    dark_readings: tuple[float, ...]


def _sample(
    read: Callable[[], Sequence[float | int | None]],
    sticks: Sequence[int],
    samples: int,
    interval: float,
) -> dict[int, list[float]]:
    values: dict[int, list[float]] = {i: [] for i in sticks}
    pause = threading.Event()
    for n in range(samples):
        readings = read()
        for i in sticks:
            value = readings[i]
            if not isinstance(value, float):
                raise CalibrationError(
                    f"stick {i + 1} gave no analogue reading: check its MCP3008 channel wiring"
                )
            values[i].append(value)
        if n + 1 < samples:
            pause.wait(interval)
    return values


def calibrate_sticks(
    config: HardwareConfig,
    read: Callable[[], Sequence[float | int | None]],
    ask: Callable[[str], None],
    *,
    samples: int = 20,
    interval: float = 0.01,
) -> list[StickCalibration]:
    """Calibrate every analogue stick: ``ask`` waits for the player, ``read`` samples sensors.

    ``ask("light")`` must return once all sticks lie light face up over their sensors, and
    ``ask("dark")`` once they lie dark face up.
    """
    analog = [i for i, s in enumerate(config.sticks) if s.kind == "analog"]
    if not analog:
        raise CalibrationError(
            "no stick is an analog sensor: tilt switches and digital light modules need no "
            'calibration (set kind = "analog" in [[hardware.stick]] for MCP3008 sensors)'
        )
    ask("light")
    light = _sample(read, analog, samples, interval)
    ask("dark")
    dark = _sample(read, analog, samples, interval)
    result = []
    for i in analog:
        try:
            threshold, hysteresis, light_is_high = calibrate_threshold(light[i], dark[i])
        except ValueError as exc:
            raise CalibrationError(f"stick {i + 1}: {exc}") from None
        result.append(
            StickCalibration(
                stick=i,
                threshold=threshold,
                hysteresis=hysteresis,
                light_level="high" if light_is_high else "low",
                light_readings=tuple(light[i]),
                dark_readings=tuple(dark[i]),
            )
        )
    return result
