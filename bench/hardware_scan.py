"""How fast the hardware layer scans: one full scan (30 squares, 4 sticks, the throw button).

Runs each local backend on the simulated board, first flat out (scans back to back, no thread)
to find the cost of one scan, then on its own scan thread at the configured 200 Hz to check
the rate it keeps. Prints a Markdown table for docs/benchmarks.md.

    .venv/bin/python bench/hardware_scan.py [--scans N] [--seconds S]
"""

from __future__ import annotations

import argparse
import platform
import queue
import threading
import time

from hardware.backends import open_backend
from hardware.config import default_config_text, parse_config
from hardware.simulation import SimulatedBoard

ANALOG = default_config_text()
for pin, channel in ((17, 0), (27, 1), (22, 2), (4, 3)):
    ANALOG = ANALOG.replace(
        f'kind = "tilt"\npin = {pin}\nlight_level = "low"', f'kind = "analog"\nchannel = {channel}'
    )

CASES = (
    ("sim", "tilt sticks", default_config_text()),
    ("sim", "analogue sticks (MCP3008, software SPI)", ANALOG),
    ("plain", "tilt sticks", default_config_text()),
)


def flat_out(spec: str, text: str, scans: int) -> float:
    board = SimulatedBoard()
    board.arrange(range(1, 11))
    backend = open_backend(spec, parse_config(text), board=board)
    backend.start(queue.Queue(), thread=False)  # type: ignore[call-arg]
    try:
        start = time.perf_counter()
        for _ in range(scans):
            backend.poll()  # type: ignore[attr-defined]
        return (time.perf_counter() - start) / scans
    finally:
        backend.stop()


def threaded(spec: str, text: str, seconds: float) -> float:
    board = SimulatedBoard()
    board.arrange(range(1, 11))
    backend = open_backend(spec, parse_config(text), board=board)
    backend.start(queue.Queue())
    try:
        threading.Event().wait(seconds)
        return float(backend.status()["scan_hz"])
    finally:
        backend.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.scans} scans")
    print()
    print("| backend | sticks | one scan | flat-out rate | rate kept at 200 Hz |")
    print("|---|---|---:|---:|---:|")
    for spec, sticks, text in CASES:
        per_scan = flat_out(spec, text, args.scans)
        kept = threaded(spec, text, args.seconds)
        cells = [spec, sticks, f"{per_scan * 1e6:.0f} µs", f"{1 / per_scan:.0f} /s"]
        print("| " + " | ".join([*cells, f"{kept:.0f} /s"]) + " |")


if __name__ == "__main__":
    main()
