"""``senet-companion maintain``, the daily journal clean-up the systemd timer runs."""

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.rules import get_ruleset


@pytest.fixture(autouse=True)
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(False)


def _old_finished_game(path: Path) -> None:
    start = get_ruleset("basic").start()
    with Journal(path) as journal:
        journal.begin_game("g1", "basic", {}, start, "2020-01-01T10-00-00", {})
        for n in range(200):
            journal.record("g1", [{"type": "throw", "n": n, "pad": "x" * 200}], float(n), [], {})
        journal.record(
            "g1", [{"type": "end"}], 201.0, [], {}, finished=("2020-01-01T11-00-00", "W", "race")
        )
        journal.begin_game("g2", "basic", {}, start, "2020-01-02T10-00-00", {})
        journal.begin_game("g3", "basic", {}, start, "2020-01-03T10-00-00", {})


def test_old_event_logs_are_dropped_and_the_file_shrinks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    _old_finished_game(path)
    before = path.stat().st_size
    assert main(["maintain", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "removed 201 old event(s) and 1 empty game(s)" in out
    assert path.stat().st_size < before
    with Journal(path) as journal:
        # g2 was abandoned without a move when g3 began; g3 is still being played.
        assert {g.id for g in journal.games()} == {"g1", "g3"}
        assert journal.events("g1") == []


def test_the_journal_is_found_in_the_state_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    _old_finished_game(path)
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    config = tmp_path / "config.toml"
    config.write_text('[logging]\nlevel = "warning"\n')
    assert main(["maintain", "--config", str(config)]) == 0
    assert logging.getLogger().level == logging.WARNING
    assert f"journal {path}: removed 201" in capsys.readouterr().out


def test_no_journal_yet_is_nothing_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    assert main(["maintain", "--journal", str(path)]) == 0
    assert "nothing to clean up" in capsys.readouterr().out
    assert not path.exists()


def test_a_damaged_journal_is_reported_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    assert main(["maintain", "--journal", str(path)]) == 1
    assert "is not a usable game journal" in capsys.readouterr().out


def test_a_broken_configuration_does_not_stop_the_clean_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[logging\n")
    journal = tmp_path / "journal.sqlite3"
    _old_finished_game(journal)
    assert main(["maintain", "--config", str(config), "--journal", str(journal)]) == 0
    assert "removed 201 old event(s)" in capsys.readouterr().out


def test_negative_days_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["maintain", "--keep-days", "-1"])
    assert exc.value.code == 2
    assert "not a number of days" in capsys.readouterr().err
