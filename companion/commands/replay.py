"""``senet-companion replay --ruleset R FILE``: a script of events or a saved journal through
the real game loop, printing the published state after each event as JSON lines.

The script format is documented in ``docs/replay.md``.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import UsageError


def register(sub: Any) -> None:
    from companion.replay import add_arguments

    parser = sub.add_parser(
        "replay",
        help="feed a script of events or a saved journal through the game loop",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(func=_replay)


def _replay(args: argparse.Namespace) -> int:
    from companion.replay import ReplayError, main_with

    try:
        return main_with(args)
    except ReplayError as exc:
        raise UsageError(str(exc)) from None
