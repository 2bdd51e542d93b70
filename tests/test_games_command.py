"""``senet-companion games``: list, export and import the games of a journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from tests.test_journal import RECORD


def test_import_list_export_and_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(tmp_path / "j.db")
    record = tmp_path / "g7.txt"
    record.write_text(RECORD)
    assert main(["games", "--journal", journal, "import", str(record)]) == 0
    assert capsys.readouterr().out == "imported g7\n"
    assert main(["games", "--journal", journal, "list"]) == 0
    assert "g7  playpalace  imported     2 steps  -" in capsys.readouterr().out
    assert main(["games", "--journal", journal, "export"]) == 0
    assert capsys.readouterr().out == RECORD
    assert main(["games", "--journal", journal, "clean"]) == 0
    assert "dropped" in capsys.readouterr().out


def test_problems_are_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(tmp_path / "j.db")
    assert main(["games", "--journal", journal, "list"]) == 2
    assert "no such journal" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text(RECORD.replace("W 3 9-12", "W 3 9-13"))
    assert main(["games", "--journal", journal, "import", str(bad)]) == 2
    assert "line 10: 9-13 is not allowed" in capsys.readouterr().err
    assert main(["games", "--journal", journal, "export", "nope"]) == 2
    assert "holds no game" in capsys.readouterr().err
