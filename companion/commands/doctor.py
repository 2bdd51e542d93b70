"""``senet-companion doctor``: check this machine before (and after) installing the service.

    senet-companion doctor [--config FILE] [--hardware SPEC] [--host H] [--port N]
                           [--journal FILE] [--json]

Prints one line per check (OK, WARN or FAIL) and, for each problem, how to fix it. Exit status
0 when the companion can run (warnings allowed), 1 when something stops it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "doctor",
        help="check this machine: Python, GPIO, serial board, configuration, journal, port",
        description=(
            "Check that this machine can run the companion and say how to fix what is wrong. "
            "Run it as the service's user to see what the service sees: "
            "sudo -u senet senet-companion doctor"
        ),
    )
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="the configuration file (default: /etc/senet-companion/config.toml)",
    )
    parser.add_argument(
        "--hardware",
        metavar="SPEC",
        help="the backend the service uses (gpio, serial, serial:PORT, sim); "
        "default: SENET_HARDWARE from /etc/default/senet-companion",
    )
    parser.add_argument(
        "--host", help="the address the page listens on (default: SENET_HOST, else 0.0.0.0)"
    )
    parser.add_argument(
        "--port",
        type=_port,
        help="the port the page listens on (default: SENET_PORT, else 80)",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help="the game journal (default: /var/lib/senet-companion/journal.sqlite3)",
    )
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.set_defaults(func=_doctor)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number from 1 to 65535")
    return port


def _doctor(args: argparse.Namespace) -> int:
    from companion.doctor import Choices, exit_status, format_report, run_checks

    choices = Choices(args.hardware, args.host, args.port, args.journal)
    findings = run_checks(args.config, choices=choices)
    if args.json:
        print(json.dumps([f.as_dict() for f in findings], indent=2))
    else:
        print(format_report(findings))
    return exit_status(findings)
