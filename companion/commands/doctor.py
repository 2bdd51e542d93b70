"""``senet-companion doctor [--config FILE] [--hardware SPEC] [--json]``: check this machine.

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
        "checks what that backend needs",
    )
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.set_defaults(func=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from companion.doctor import exit_status, format_report, run_checks

    findings = run_checks(args.config, hardware=args.hardware)
    if args.json:
        print(json.dumps([f.as_dict() for f in findings], indent=2))
    else:
        print(format_report(findings))
    return exit_status(findings)
