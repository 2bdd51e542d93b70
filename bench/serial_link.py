"""How fast the firmware bridge is: the framer, the firmware's scan cycle, and the whole link.

    .venv/bin/python bench/serial_link.py

Prints one Markdown table for docs/benchmarks.md. The figures are for the machine it runs on;
the scan cycle is measured on CPython, not on the microcontroller.
"""

from __future__ import annotations

import platform
import queue
import statistics
import time

from firmware_bridge.config import SerialConfig
from firmware_bridge.fake_device import FakeDevice
from firmware_bridge.firmware import scanner, simpins
from firmware_bridge.firmware.device import Firmware
from firmware_bridge.firmware.framing import Frame, Framer, encode
from firmware_bridge.link import SerialBackend
from hardware.events import HardwareEvent, SquareChanged

FRAMES = 20_000
CYCLES = 5_000
ROUND_TRIPS = 200


def bench_framer() -> tuple[float, float]:
    frames = [
        Frame(i % 65536, "SQ", (("n", str(i % 30 + 1)), ("on", str(i % 2)))) for i in range(FRAMES)
    ]
    start = time.perf_counter()
    stream = b"".join(encode(frame) for frame in frames)
    encoded = time.perf_counter() - start
    framer = Framer()
    start = time.perf_counter()
    for offset in range(0, len(stream), 64):  # USB full-speed packets are 64 bytes
        framer.feed(stream[offset : offset + 64])
    decoded = time.perf_counter() - start
    assert framer.accepted == FRAMES
    return FRAMES / encoded, FRAMES / decoded


def bench_scan_cycle() -> float:
    squares = {1, 3, 5, 7, 9, 12, 14, 18, 22, 30}
    keys = simpins.squares_to_keys(scanner.default_square_map(3, 10), 10)
    matrix = simpins.SimulatedMatrix(3, 10, lambda: [keys[s] for s in squares])
    sticks = simpins.SimulatedSticks(4, lambda: (1, 0, 1, 1))
    out: list[bytes] = []
    firmware = Firmware(
        scanner.MatrixScanner(matrix.row_pins, matrix.col_pins),
        scanner.DigitalSticks(sticks.pins),
        out.append,
        square_map=scanner.default_square_map(3, 10),
    )
    start = time.perf_counter()
    for ms in range(0, CYCLES * 5, 5):
        firmware.step(ms)
    return (time.perf_counter() - start) / CYCLES * 1e6


def bench_link_latency() -> tuple[float, float, float]:
    """Milliseconds from a switch closing on the simulated board to the event on the queue."""
    board: set[int] = set()
    latencies = []
    with FakeDevice(lambda: set(board), lambda: (0, 0, 0, 0), snapshot_ms=60_000) as device:
        events: queue.Queue[HardwareEvent] = queue.Queue()
        link = SerialBackend(SerialConfig(port=device.port))
        link.start(events)
        if not link.wait_ready(10):
            raise SystemExit("the fake device did not connect")
        events.get(timeout=10)
        for i in range(ROUND_TRIPS):
            square = i % 30 + 1
            start = time.perf_counter()
            if square in board:
                board.discard(square)
            else:
                board.add(square)
            while True:
                event = events.get(timeout=10)
                if isinstance(event, SquareChanged) and event.square == square:
                    break
            latencies.append((time.perf_counter() - start) * 1000)
        link.stop()
    latencies.sort()
    return (
        statistics.median(latencies),
        latencies[int(len(latencies) * 0.95)],
        latencies[-1],
    )


def main() -> None:
    encode_rate, decode_rate = bench_framer()
    cycle_us = bench_scan_cycle()
    median, p95, worst = bench_link_latency()
    print(f"Firmware bridge on {platform.machine()}, Python {platform.python_version()}:\n")
    print("| measure | result |")
    print("| --- | --- |")
    print(f"| framer: encode | {encode_rate:,.0f} frames/s |")
    print(f"| framer: decode, fed in 64-byte USB packets | {decode_rate:,.0f} frames/s |")
    print(f"| firmware scan cycle (3x10 matrix, 4 sticks, CPython) | {cycle_us:,.0f} µs |")
    print(
        f"| switch closed to SquareChanged, through the pty ({ROUND_TRIPS} changes) "
        f"| median {median:.1f} ms, 95th {p95:.1f} ms, worst {worst:.1f} ms |"
    )


if __name__ == "__main__":
    main()
