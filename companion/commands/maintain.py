"""``senet-companion maintain``: the daily clean-up that keeps the game journal small.

    senet-companion maintain [--config FILE] [--journal FILE] [--keep-days N]

Run once a day by ``senet-companion-maintain.timer`` (see docs/install-pi.md). It drops the
event logs of games finished more than ``--keep-days`` ago (their moves stay), abandoned games
without a move, and compacts the file. A journal that does not exist yet is left alone.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.maintain")


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "maintain",
        help="clean up and compact the game journal (run daily by a systemd timer)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="the configuration file, for its [logging] level",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help="the journal database (default: $STATE_DIRECTORY/journal.sqlite3, else "
        "/var/lib/senet-companion/journal.sqlite3)",
    )
    parser.add_argument(
        "--keep-days",
        type=_days,
        default=7,
        metavar="N",
        help="keep the event logs of the last N days of games (default 7)",
    )
    parser.set_defaults(func=_maintain)


def _days(text: str) -> int:
    try:
        days = int(text)
    except ValueError:
        days = -1
    if days < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days (0 or more)")
    return days


def _maintain(args: argparse.Namespace) -> int:
    from companion.journal import Journal, JournalError
    from companion.locations import journal_path
    from companion.logging_setup import configure_logging, level_from_config

    configure_logging(level_from_config(args.config))
    path = args.journal or journal_path()
    if not path.exists():
        print(f"no journal at {path} yet: nothing to clean up")
        return 0
    try:
        with Journal(path) as journal:
            before = path.stat().st_size
            removed = journal.maintain(keep_days=args.keep_days)
            after = path.stat().st_size
    except (JournalError, OSError) as exc:
        log.error("journal maintenance failed: %s", exc)
        print(f"senet-companion maintain: {exc}")
        return 1
    print(
        f"journal {path}: removed {removed['events']} old event(s) and "
        f"{removed['games']} empty game(s); {before // 1024} KiB -> {after // 1024} KiB"
    )
    return 0
