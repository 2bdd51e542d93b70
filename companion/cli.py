"""The ``senet-companion`` command line."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion import __version__

# Each name is a module of companion.commands with a ``register(subparsers)`` function.
COMMANDS: tuple[str, ...] = ("rules", "hardware", "replay", "games", "bots", "serve", "doctor")

EXIT_USAGE = 2


class UsageError(Exception):
    """Input the user can fix: printed as one line, exit status 2, never a traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="senet-companion",
        description="An electronic companion for the board game Senet.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"companion.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except UsageError as exc:
        print(f"senet-companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
