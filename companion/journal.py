"""The game journal: every event and every move, on disk before anybody is told about it.

One SQLite file (standard library, write-ahead log, ``synchronous=FULL`` so a pulled plug loses
nothing that was acknowledged). The game loop calls `Journal.record` once per event it handled,
in one transaction with the moves it made and a checkpoint of its state, and publishes only
after that returns. After a restart `Journal.active` gives the checkpoint back.

Finished games are kept and can be written as a text game record (`Journal.export`) and read
back (`Journal.import_record`); the record uses the project notation for positions and moves.
`Journal.maintain` is the daily clean-up that keeps the file small.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.errors import GameRecordError, JournalError
from companion.rules import Move, Position, SenetError, get_ruleset

__all__ = [
    "SCHEMA_VERSION",
    "GameInfo",
    "GameRecordError",
    "Journal",
    "JournalError",
    "Step",
    "format_record",
    "parse_record",
]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    start TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned', 'imported')),
    winner TEXT,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    event TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE TABLE IF NOT EXISTS steps (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    side TEXT NOT NULL,
    throw INTEGER,
    move TEXT,
    effects TEXT NOT NULL DEFAULT '',
    after TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS checkpoints (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    state TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game: a move (or a pass when ``move`` is None) and the position after it.

    ``throw`` is None for a decision made instead of throwing.
    """

    side: str
    throw: int | None
    move: str | None
    after: str
    effects: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game in the journal."""

    id: str
    ruleset: str
    options: dict[str, str]
    start: str
    started: str
    status: str
    finished: str | None = None
    winner: str | None = None
    reason: str | None = None


class Journal:
    """The SQLite journal of games (one file, safe to reopen after any crash)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=10
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._create()
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"{self.path} is not a usable game journal ({exc}); move it aside to start a"
                " new one"
            ) from exc

    def _create(self) -> None:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self._db.execute(statement)
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} was written by a newer companion (schema {row[0]}, this one knows"
                f" {SCHEMA_VERSION}); upgrade the companion or move the file aside"
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- writing, from the game loop ----------------------------------------------------------
    def begin_game(
        self,
        game_id: str,
        ruleset: str,
        options: dict[str, str],
        start: Position,
        started: str,
        checkpoint: dict[str, Any],
    ) -> None:
        """Open a new game; any game still active is marked abandoned (kept, not deleted)."""
        with self._transaction() as db:
            db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'active'")
            db.execute(
                "INSERT INTO games (id, ruleset, options, start, started, status)"
                " VALUES (?, ?, ?, ?, ?, 'active')",
                (game_id, ruleset, json.dumps(options), start.notation(), started),
            )
            db.execute("INSERT INTO checkpoints VALUES (?, ?)", (game_id, json.dumps(checkpoint)))

    def record(
        self,
        game_id: str,
        events: Sequence[dict[str, Any]],
        at: float,
        steps: Sequence[Step],
        checkpoint: dict[str, Any],
        *,
        finished: tuple[str, str, str] | None = None,
    ) -> None:
        """Write the events of one handling (the event as received, or as resolved: an
        electronic throw with its faces), the steps it made and the loop's new state, atomically.

        ``finished`` is (wall time, winner, reason) when the game ended with this event.
        """
        with self._transaction() as db:
            for event in events:
                db.execute(
                    "INSERT INTO events (game_id, at, event) VALUES (?, ?, ?)",
                    (game_id, at, json.dumps(event)),
                )
            if steps:
                (ply,) = db.execute(
                    "SELECT COUNT(*) FROM steps WHERE game_id = ?", (game_id,)
                ).fetchone()
                for n, step in enumerate(steps, start=ply + 1):
                    db.execute(
                        "INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            n,
                            step.side,
                            step.throw,
                            step.move,
                            ",".join(step.effects),
                            step.after,
                        ),
                    )
            db.execute(
                "INSERT OR REPLACE INTO checkpoints VALUES (?, ?)",
                (game_id, json.dumps(checkpoint)),
            )
            if finished is not None:
                db.execute(
                    "UPDATE games SET status = 'finished', finished = ?, winner = ?, reason = ?"
                    " WHERE id = ?",
                    (*finished, game_id),
                )

    # -- reading ----------------------------------------------------------------------------
    def active(self) -> tuple[GameInfo, dict[str, Any]] | None:
        """The game to resume after a restart (the latest active or finished-but-shown game)
        with the loop's last checkpoint, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT g.id FROM games g JOIN checkpoints c ON c.game_id = g.id"
                " WHERE g.status IN ('active', 'finished') ORDER BY g.rowid DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            info = self.game(row[0])
            (state,) = self._db.execute(
                "SELECT state FROM checkpoints WHERE game_id = ?", (row[0],)
            ).fetchone()
        return info, json.loads(state)

    def game(self, game_id: str) -> GameInfo:
        with self._lock:
            row = self._db.execute(
                "SELECT id, ruleset, options, start, started, status, finished, winner, reason"
                " FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            raise JournalError(f"there is no game {game_id!r} in {self.path}")
        return GameInfo(row[0], row[1], json.loads(row[2]), *row[3:])

    def games(self, status: str | None = None) -> list[GameInfo]:
        """The games in the journal, oldest first (only those of ``status`` if given)."""
        with self._lock:
            ids = [
                r[0]
                for r in self._db.execute(
                    "SELECT id FROM games WHERE ? IS NULL OR status = ? ORDER BY rowid",
                    (status, status),
                )
            ]
        return [self.game(i) for i in ids]

    def steps(self, game_id: str) -> list[Step]:
        with self._lock:
            rows = self._db.execute(
                "SELECT side, throw, move, effects, after FROM steps WHERE game_id = ?"
                " ORDER BY ply",
                (game_id,),
            ).fetchall()
        return [Step(s, t, m, a, tuple(e.split(",")) if e else ()) for s, t, m, e, a in rows]

    def events(self, game_id: str) -> list[tuple[float, dict[str, Any]]]:
        """The events of a game, in the order the loop handled them, with its clock times."""
        with self._lock:
            rows = self._db.execute(
                "SELECT at, event FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        return [(at, json.loads(text)) for at, text in rows]

    # -- game records -----------------------------------------------------------------------
    def export(self, game_id: str) -> str:
        """The text game record of a game (see `format_record`)."""
        return format_record(self.game(game_id), self.steps(game_id))

    def import_record(self, text: str) -> str:
        """Store a text game record (checked move by move) as an imported game; its id."""
        info, steps = parse_record(text)
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (info.id,)).fetchone():
                raise GameRecordError(f"the journal already holds a game {info.id!r}")
            db.execute(
                "INSERT INTO games (id, ruleset, options, start, started, finished, status,"
                " winner, reason) VALUES (?, ?, ?, ?, ?, ?, 'imported', ?, ?)",
                (
                    info.id,
                    info.ruleset,
                    json.dumps(info.options),
                    info.start,
                    info.started,
                    info.finished,
                    info.winner,
                    info.reason,
                ),
            )
            for ply, step in enumerate(steps, start=1):
                db.execute(
                    "INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        info.id,
                        ply,
                        step.side,
                        step.throw,
                        step.move,
                        ",".join(step.effects),
                        step.after,
                    ),
                )
        return info.id

    # -- housekeeping -----------------------------------------------------------------------
    def maintain(self, now: datetime | None = None, *, keep_days: int = 7) -> dict[str, int]:
        """The daily clean-up: drop the event log of games that ended more than ``keep_days``
        ago (their moves stay), drop abandoned games without a move, and compact the file."""
        now = now or datetime.now(UTC)
        cutoff = (now - timedelta(days=keep_days)).strftime("%Y-%m-%dT%H-%M-%S")
        with self._transaction() as db:
            old = (
                "SELECT id FROM games WHERE status IN ('finished', 'abandoned', 'imported')"
                " AND COALESCE(finished, started) < ?"
            )
            events = db.execute(f"DELETE FROM events WHERE game_id IN ({old})", (cutoff,)).rowcount
            empty = (
                "SELECT id FROM games WHERE status = 'abandoned' AND started < ?"
                " AND id NOT IN (SELECT game_id FROM steps)"
            )
            db.execute(f"DELETE FROM events WHERE game_id IN ({empty})", (cutoff,))
            db.execute(f"DELETE FROM checkpoints WHERE game_id IN ({empty})", (cutoff,))
            games = db.execute(f"DELETE FROM games WHERE id IN ({empty})", (cutoff,)).rowcount
            db.execute(f"DELETE FROM checkpoints WHERE game_id IN ({old})", (cutoff,))
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.execute("VACUUM")
        return {"events": events, "games": games}


# -- the text game record ----------------------------------------------------------------------
_HEADER = "# Senet game record: positions and moves in the project notation"
_FIELDS = ("Game", "Ruleset", "Options", "Started", "Finished", "Result", "Start")


def format_record(info: GameInfo, steps: Sequence[Step]) -> str:
    """A game as text: header lines ``Name: value``, a blank line, then one line per step,
    ``<side> <throw or -> <move or pass> <position after>``."""
    options = " ".join(f"{k}={v}" for k, v in sorted(info.options.items()))
    result = f"{info.winner} {info.reason}" if info.winner else "*"
    lines = [
        _HEADER,
        f"Game: {info.id}",
        f"Ruleset: {info.ruleset}",
        f"Options: {options or '-'}",
        f"Started: {info.started}",
        f"Finished: {info.finished or '-'}",
        f"Result: {result}",
        f"Start: {info.start}",
        "",
    ]
    for step in steps:
        throw = "-" if step.throw is None else str(step.throw)
        lines.append(f"{step.side} {throw} {step.move or 'pass'} {step.after}")
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> tuple[GameInfo, list[Step]]:
    """Read a text game record and check every step against the rules engine."""
    headers: dict[str, str] = {}
    lines = text.splitlines()
    n = 0
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            break
        if line.startswith("#"):
            continue
        name, sep, value = line.partition(": ")
        if not sep or name not in _FIELDS:
            raise GameRecordError(f"line {n}: expected a header 'Name: value', got {line!r}")
        headers[name] = value.strip()
    for name in ("Game", "Ruleset", "Start"):
        if name not in headers:
            raise GameRecordError(f"the record has no {name}: header line")
    options = {}
    if headers.get("Options", "-") != "-":
        for item in headers["Options"].split():
            key, sep, value = item.partition("=")
            if not sep:
                raise GameRecordError(f"Options: expected key=value, got {item!r}")
            options[key] = value
    try:
        rules = get_ruleset(headers["Ruleset"], **options)
        position = rules.validate(Position.parse(headers["Start"]))
    except SenetError as exc:
        raise GameRecordError(f"header: {exc}") from None
    steps = []
    for number, line in enumerate(lines[n:], start=n + 1):
        if not line.strip() or line.startswith("#"):
            continue
        step = _parse_step(line, number)
        position = _check_step(rules, position, step, number)
        steps.append(step)
    winner, _, reason = headers.get("Result", "*").partition(" ")
    info = GameInfo(
        id=headers["Game"],
        ruleset=rules.name,
        options=options,
        start=headers["Start"],
        started=headers.get("Started", "-"),
        status="imported",
        finished=None if headers.get("Finished", "-") == "-" else headers["Finished"],
        winner=winner if winner in ("W", "B") else None,
        reason=reason or None,
    )
    return info, steps


def _parse_step(line: str, number: int) -> Step:
    parts = line.split(" ", 3)
    if len(parts) != 4 or parts[0] not in ("W", "B"):
        raise GameRecordError(
            f"line {number}: expected '<side> <throw> <move> <position>', got {line!r}"
        )
    side, throw_text, move, after = parts
    if throw_text != "-" and not throw_text.isdigit():
        raise GameRecordError(f"line {number}: throw must be a number or '-', got {throw_text!r}")
    throw = None if throw_text == "-" else int(throw_text)
    return Step(side, throw, None if move == "pass" else move, after)


def _check_step(rules: Any, position: Position, step: Step, number: int) -> Position:
    try:
        after = Position.parse(step.after)
        if step.side != position.side.value:
            raise GameRecordError(f"line {number}: it is {position.side.value}'s turn")
        if step.move is None:
            if step.throw is None:
                raise GameRecordError(f"line {number}: a pass needs a throw")
            moves, expected = rules.after_throw(position, rules.throw_model.check(step.throw))
            if moves:
                raise GameRecordError(f"line {number}: {step.throw} has legal moves, no pass")
        else:
            expected = rules.play(position, step.throw, Move.parse(step.move)).after
    except SenetError as exc:
        raise GameRecordError(f"line {number}: {exc}") from None
    if expected != after:
        raise GameRecordError(
            f"line {number}: the position after {step.move or 'pass'} is {expected.notation()},"
            f" not {step.after}"
        )
    return after
