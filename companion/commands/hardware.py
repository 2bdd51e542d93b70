"""``senet-companion hardware``: self-test, light-sensor calibration and the default wiring.

senet-companion hardware check [--hardware gpio|sim|plain|serial:PORT] [--config FILE]
senet-companion hardware calibrate --config FILE [--hardware ...]
senet-companion hardware default-config > senet.toml
"""

from __future__ import annotations

import argparse
import collections
import queue
import sys
import threading
import time
from typing import Any, TextIO

from companion.cli import UsageError

EXIT_OK = 0
EXIT_FAULTS = 1
CLEAR_SCREEN = "\x1b[H\x1b[2J"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hardware",
        help="test the board's sensors and calibrate the sticks",
        description="Test the board's wiring and sensors, and calibrate light sensors.",
    )
    sub = parser.add_subparsers(dest="hardware_command", metavar="ACTION", required=True)

    check = sub.add_parser(
        "check",
        help="show live what every square and stick reads, the scan rate and faults",
        description="A live self-test: which squares read occupied, what each stick reads, "
        "the scan rate and any wiring fault. Ctrl-C ends it.",
    )
    _common(check)
    check.add_argument(
        "--once",
        action="store_true",
        help="print one report and exit (status 1 if a fault is found); "
        "the default when the output is not a terminal",
    )
    check.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    check.add_argument(
        "--demo",
        action="store_true",
        help="on a simulated board, set up the starting position first",
    )
    check.set_defaults(func=run_check)

    calibrate = sub.add_parser(
        "calibrate",
        help="calibrate analogue light sensors and write their thresholds to the configuration",
        description="Lay the sticks light face up, then dark face up, when asked; the "
        "thresholds are written into the configuration file, keeping its comments.",
    )
    _common(calibrate)
    calibrate.add_argument(
        "--samples", type=int, default=20, help="readings taken per face (default 20)"
    )
    calibrate.set_defaults(func=run_calibrate)

    default = sub.add_parser(
        "default-config",
        help="print the default configuration, to copy and edit",
    )
    default.set_defaults(func=run_default_config)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hardware",
        default="gpio",
        metavar="SPEC",
        help="gpio (the Raspberry Pi's pins, the default), sim, plain or serial:PORT",
    )
    parser.add_argument(
        "--config", default=None, metavar="FILE", help="configuration file (default: built in)"
    )


def _open(args: argparse.Namespace) -> tuple[Any, Any]:
    from hardware.backends import open_backend
    from hardware.config import load_config
    from hardware.errors import HardwareError

    try:
        config = load_config(args.config)
        backend = open_backend(args.hardware, config)
    except HardwareError as exc:
        raise UsageError(str(exc)) from None
    return config, backend


def _start(backend: Any, events: queue.Queue[Any]) -> None:
    from hardware.errors import HardwareError

    try:
        backend.start(events)
    except HardwareError as exc:
        raise UsageError(str(exc)) from None


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from hardware.check import render_report
    from hardware.sensing import DEFAULT_SETTLE_MS

    out = out if out is not None else sys.stdout
    config, backend = _open(args)
    board = getattr(backend, "board", None)
    if args.demo:
        if board is None:
            raise UsageError("--demo needs a simulated board: use --hardware sim or plain")
        board.arrange(range(1, 11))
    live = not args.once and out.isatty()
    events: queue.Queue[Any] = queue.Queue()
    recent: collections.deque[Any] = collections.deque(maxlen=8)
    pause = threading.Event()
    _start(backend, events)
    try:
        # Let the scan rate and the sticks' first settle time show before the first report.
        pause.wait(max(0.5, DEFAULT_SETTLE_MS / 1000))
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        while True:
            while True:
                try:
                    recent.append(events.get_nowait())
                except queue.Empty:
                    break
            readings = backend.stick_readings() if hasattr(backend, "stick_readings") else []
            report = render_report(backend.status(), config, readings, list(recent))
            if not live:
                print(report, file=out)
                return EXIT_FAULTS if backend.status()["faults"] else EXIT_OK
            out.write(CLEAR_SCREEN + report + "\n\n(Ctrl-C to stop)\n")
            out.flush()
            if deadline is not None and time.monotonic() >= deadline:
                return EXIT_OK
            pause.wait(0.25)
    finally:
        backend.stop()


def run_calibrate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from hardware.check import calibrate_sticks
    from hardware.config import write_stick_thresholds
    from hardware.errors import HardwareError

    out = out if out is not None else sys.stdout
    if args.config is None:
        raise UsageError(
            "calibration writes into a configuration file: give --config FILE "
            "(start one with `senet-companion hardware default-config > senet.toml`)"
        )
    if args.samples < 2:
        raise UsageError("--samples must be 2 or more")
    config, backend = _open(args)
    board = getattr(backend, "board", None)

    def ask(face: str) -> None:
        message = f"Lay all four sticks {face} face up over their sensors"
        if board is not None:
            # A simulated board has nobody to turn the sticks: turn them for the user.
            print(f"{message}: done on the simulated board.", file=out)
            board.throw((1, 1, 1, 1) if face == "light" else (0, 0, 0, 0), tumble_ms=0)
            return
        print(f"{message}, then press Enter.", file=out)
        out.flush()
        if not sys.stdin.readline():
            raise UsageError("calibration cancelled: no answer on standard input")

    events: queue.Queue[Any] = queue.Queue()
    _start(backend, events)
    try:
        results = calibrate_sticks(config, backend.stick_readings, ask, samples=args.samples)
        write_stick_thresholds(
            args.config,
            {r.stick: (r.threshold, r.hysteresis, r.light_level) for r in results},
        )
    except HardwareError as exc:
        raise UsageError(str(exc)) from None
    finally:
        backend.stop()
    for r in results:
        print(
            f"stick {r.stick + 1}: threshold {r.threshold:.3f}, hysteresis {r.hysteresis:.3f}, "
            f"light face reads {r.light_level}",
            file=out,
        )
    print(f"Written to {args.config}.", file=out)
    return EXIT_OK


def run_default_config(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from hardware.config import default_config_text

    out = out if out is not None else sys.stdout
    out.write(default_config_text())
    return EXIT_OK
