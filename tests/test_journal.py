"""The SQLite journal: write-before-publish records, resuming, game records, clean-up."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.journal import (
    GameInfo,
    GameRecordError,
    Journal,
    JournalError,
    Step,
    format_record,
    parse_record,
)
from companion.rules import get_ruleset

START = get_ruleset("playpalace").start()


def open_game(journal: Journal, game_id: str = "g1", started: str = "2026-01-01T00-00-00") -> None:
    journal.begin_game(game_id, "playpalace", {}, START, started, {"phase": "throw"})


def test_the_file_uses_a_write_ahead_log(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        mode = journal._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_events_steps_and_checkpoints_are_kept_together(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        open_game(journal)
        step = Step("W", 3, "9-12", "WBWBWBWB.B.W.................. B 0 0")
        journal.record(
            "g1", [{"kind": "throw", "value": 3}], 1.5, [step], {"phase": "throw", "v": 2}
        )
    with Journal(path) as journal:
        info, checkpoint = journal.active()  # type: ignore[misc]
        assert info.id == "g1" and checkpoint == {"phase": "throw", "v": 2}
        assert journal.steps("g1") == [step]
        assert journal.events("g1") == [(1.5, {"kind": "throw", "value": 3})]


def test_a_failed_write_leaves_nothing_half_done(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        open_game(journal)
        with pytest.raises(TypeError):
            journal.record("g1", [{"kind": "tick"}], 1.0, [], {"bad": object()})
        assert journal.events("g1") == []
        assert journal.active()[1] == {"phase": "throw"}  # type: ignore[index]


def test_a_new_game_leaves_the_old_one_abandoned_not_deleted(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        open_game(journal, "g1")
        open_game(journal, "g2")
        assert [(g.id, g.status) for g in journal.games()] == [
            ("g1", "abandoned"),
            ("g2", "active"),
        ]
        assert journal.active()[0].id == "g2"  # type: ignore[index]


def test_a_file_that_is_not_a_journal_is_refused_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(b"this is not a database, just some text" * 100)
    with pytest.raises(JournalError, match="move it aside"):
        Journal(path)


def test_a_journal_from_a_newer_companion_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="newer companion"):
        Journal(path)


RECORD = """\
# Senet game record: positions and moves in the project notation
Game: g7
Ruleset: playpalace
Options: -
Started: 2026-01-01T00-00-00
Finished: -
Result: *
Start: WBWBWBWBWB.................... W 0 0

W 3 9-12 WBWBWBWB.B.W.................. B 0 0
B 2 10-12 WBWBWBWB.W.B.................. W 0 0
"""


def test_a_game_record_round_trips(tmp_path: Path) -> None:
    info, steps = parse_record(RECORD)
    assert [s.move for s in steps] == ["9-12", "10-12"]
    assert format_record(info, steps) == RECORD
    with Journal(tmp_path / "j.db") as journal:
        assert journal.import_record(RECORD) == "g7"
        assert journal.export("g7") == RECORD
        with pytest.raises(GameRecordError, match="already holds"):
            journal.import_record(RECORD)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("W 3 9-12", "W 3 9-13"), "line 10: 9-13 is not allowed"),
        (("B 2 10-12 WBWBWBWB.W.B", "B 2 10-12 WBWBWBWB..WB"), "line 11: the position after"),
        (("Ruleset: playpalace", "Ruleset: chess"), "unknown ruleset"),
        (("W 3 9-12", "B 3 9-12"), "line 10: it is W's turn"),
        (("Game: g7\n", ""), "no Game: header"),
        (("Options: -", "Options: x"), "Options: expected key=value"),
        (("W 3 9-12 ", "W three 9-12 "), "line 10: throw must be a number"),
    ],
)
def test_a_bad_record_names_the_line_and_the_problem(change: tuple[str, str], message: str) -> None:
    with pytest.raises(GameRecordError, match=message):
        parse_record(RECORD.replace(*change))


def test_maintain_drops_old_events_and_empty_games_but_keeps_moves(tmp_path: Path) -> None:
    now = datetime(2026, 3, 1, tzinfo=UTC)
    old = (now - timedelta(days=30)).strftime("%Y-%m-%dT%H-%M-%S")
    recent = (now - timedelta(days=1)).strftime("%Y-%m-%dT%H-%M-%S")
    with Journal(tmp_path / "j.db") as journal:
        open_game(journal, "empty", old)
        open_game(journal, "played", old)
        step = Step("W", 3, "9-12", "WBWBWBWB.B.W.................. B 0 0")
        journal.record("played", [{"kind": "tick"}] * 50, 1.0, [step], {}, finished=(old, "W", "x"))
        open_game(journal, "today", recent)
        journal.record("today", [{"kind": "tick"}], 1.0, [], {})
        done = journal.maintain(now, keep_days=7)
        assert done == {"events": 50, "games": 1}
        assert [g.id for g in journal.games()] == ["played", "today"]
        assert journal.steps("played") == [step]
        assert journal.events("today") == [(1.0, {"kind": "tick"})]
        assert journal.active()[0].id == "today"  # type: ignore[index]


def test_game_info_of_an_unknown_game_is_an_error(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal, pytest.raises(JournalError, match="no game"):
        journal.game("nope")
    assert GameInfo("a", "b", {}, "c", "d", "e").status == "e"
