"""The companion's reading of device frames: typed values out of checked ``key=value`` text."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.firmware import wire
from firmware_bridge.firmware.framing import PROTOCOL_VERSION, Frame

__all__ = ["DeviceInfo", "Snapshot", "parse_hello", "parse_snapshot"]


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """What the board said about itself in its HELLO: protocol version and geometry."""

    version: int
    firmware: str = "?"
    squares: int = 30
    rows: int = 3
    cols: int = 10
    sticks: int = 4
    input: str = wire.INPUT_PRESENCE
    diodes: bool = True

    def as_status(self) -> dict[str, object]:
        return {
            "protocol": self.version,
            "firmware": self.firmware,
            "squares": self.squares,
            "matrix": f"{self.rows}x{self.cols}",
            "sticks": self.sticks,
            "input": self.input,
            "diodes": self.diodes,
        }


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The whole debounced state of the board at one moment."""

    occupied: frozenset[int]
    faces: tuple[int, ...]
    moving: bool
    faults: tuple[str, ...]
    button: bool = False
    scan_hz: int | None = None
    cycles: int | None = None


def _int_field(frame: Frame, key: str, default: int, low: int, high: int) -> int:
    text = frame.get(key)
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"{frame.kind} field {key}={text} is not a whole number {low}..{high}")
    return int(text)


def parse_hello(frame: Frame) -> DeviceInfo:
    """A device HELLO; ValueError if a field it needs is malformed (unknown keys are ignored).

    The version is checked by the caller, so that a device speaking another version is reported
    as such even when the rest of its HELLO means something else.
    """
    version_text = frame.get("v")
    if version_text is None or not version_text.isdigit():
        raise ValueError(f"HELLO carries no protocol version (v=): {frame!r}")
    version = int(version_text)
    if version != PROTOCOL_VERSION:
        return DeviceInfo(version=version)
    rows = _int_field(frame, "rows", 3, 1, 16)
    cols = _int_field(frame, "cols", 10, 1, 16)
    squares = _int_field(frame, "squares", 30, 1, 64)
    if squares > rows * cols:
        raise ValueError(f"HELLO says {squares} squares on a {rows}x{cols} matrix")
    input_kind = frame.get("input", wire.INPUT_PRESENCE)
    if input_kind not in (wire.INPUT_PRESENCE, wire.INPUT_BUTTONS):
        raise ValueError(f"HELLO input={input_kind} is neither presence nor buttons")
    return DeviceInfo(
        version=version,
        firmware=frame.get("fw", "?") or "?",
        squares=squares,
        rows=rows,
        cols=cols,
        sticks=_int_field(frame, "sticks", 4, 0, 8),
        input=input_kind,
        diodes=frame.get("diodes", "1") != "0",
    )


def parse_snapshot(frame: Frame, device: DeviceInfo) -> Snapshot:
    """A SNAP frame read against the device's geometry; ValueError if a field is malformed."""
    occupied = wire.hex_to_squares(frame.get("occ", "0") or "0", device.squares)
    faces_text = frame.get("sticks")
    faces = wire.text_to_faces(faces_text, device.sticks) if faces_text is not None else ()
    faults_text = frame.get("faults", "-") or "-"
    faults = () if faults_text == "-" else tuple(faults_text.split(","))
    return Snapshot(
        occupied=frozenset(occupied),
        faces=faces,
        moving=frame.get("moving", "0") == "1",
        faults=faults,
        button=frame.get("btn", "0") == "1",
        scan_hz=_optional_count(frame, "hz"),
        cycles=_optional_count(frame, "cycles"),
    )


def _optional_count(frame: Frame, key: str) -> int | None:
    text = frame.get(key)
    if text is None:
        return None
    if not text.isdigit():
        raise ValueError(f"{frame.kind} field {key}={text} is not a whole number")
    return int(text)
