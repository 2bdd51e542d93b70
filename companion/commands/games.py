"""``senet-companion games``: the games kept in a journal, as text game records.

    games --journal PATH list                 the games, newest last
    games --journal PATH export [GAME]        a game record (default: the latest game)
    games --journal PATH import FILE          store a game record (checked move by move)
    games --journal PATH clean                the daily clean-up, now

Game records are described in ``docs/loop.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli import UsageError


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "games",
        help="list, export and import the games kept in a journal",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--journal", required=True, metavar="PATH", help="the journal file")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="the games, newest last").set_defaults(func=_list)
    p = actions.add_parser("export", help="write a game as a text game record")
    p.add_argument("game", nargs="?", help="the game id (default: the latest game)")
    p.set_defaults(func=_export)
    p = actions.add_parser("import", help="store a text game record")
    p.add_argument("file", help="the record, or - for standard input")
    p.set_defaults(func=_import)
    actions.add_parser("clean", help="drop old event logs and empty games").set_defaults(
        func=_clean
    )


def _open(args: argparse.Namespace, *, create: bool = False) -> Any:
    from companion.journal import Journal, JournalError

    path = Path(args.journal)
    if not create and not path.is_file():
        raise UsageError(f"{path}: no such journal")
    try:
        return Journal(path)
    except JournalError as exc:
        raise UsageError(str(exc)) from None


def _list(args: argparse.Namespace) -> int:
    with _open(args) as journal:
        for g in journal.games():
            result = f"{g.winner} {g.reason}" if g.winner else "-"
            moves = len(journal.steps(g.id))
            print(f"{g.id}  {g.ruleset:<10}  {g.status:<9}  {moves:>3} steps  {result}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from companion.journal import JournalError

    with _open(args) as journal:
        games = journal.games()
        if not games:
            raise UsageError(f"{args.journal} holds no game")
        try:
            sys.stdout.write(journal.export(args.game or games[-1].id))
        except JournalError as exc:
            raise UsageError(str(exc)) from None
    return 0


def _import(args: argparse.Namespace) -> int:
    from companion.journal import GameRecordError

    if args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {args.file}: {exc}") from None
    with _open(args, create=True) as journal:
        try:
            game = journal.import_record(text)
        except GameRecordError as exc:
            raise UsageError(f"{args.file}: {exc}") from None
    print(f"imported {game}")
    return 0


def _clean(args: argparse.Namespace) -> int:
    with _open(args) as journal:
        done = journal.maintain()
    print(f"dropped {done['events']} old events and {done['games']} empty games")
    return 0
