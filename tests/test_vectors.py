"""Move generation agrees with the reference implementations' recorded vectors.

Each vector file is fed through the batch interface of NOTATION.md and every answer line is
compared with the recorded one as a set of moves (board and borne-off counts always; the side to
move except after a game-ending move), as the vectors' README prescribes.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.commands.rules import batch
from companion.rules import Position, get_ruleset

VECTOR_FILES = {"playpalace": "playpalace.jsonl", "basic": "basic.jsonl"}


def _key(entry: dict[str, Any]) -> tuple[str, tuple[object, ...]]:
    after = Position.parse(entry["position"])
    side = None if entry.get("game_over") else after.side.value
    return entry["move"], (after.board, after.off_w, after.off_b, after.extras, side)


def _compare(expected_lines: list[dict[str, Any]], answers: list[dict[str, Any]]) -> list[str]:
    assert len(answers) == len(expected_lines)
    problems = []
    for expected, got in zip(expected_lines, answers, strict=True):
        assert "error" not in got, got
        assert got["position"] == expected["position"] and got["throw"] == expected["throw"]
        want = dict(map(_key, expected["moves"]))
        have = dict(map(_key, got["moves"]))
        if want != have:
            problems.append(
                f"{expected['position']} throw {expected['throw']}: "
                f"missing {sorted(set(want.items()) - set(have.items()))}, "
                f"extra {sorted(set(have.items()) - set(want.items()))}"
            )
    return problems


@pytest.mark.parametrize("ruleset", list(VECTOR_FILES))
def test_every_vector_line_agrees(shared: Path, ruleset: str) -> None:
    text = (shared / "vectors" / VECTOR_FILES[ruleset]).read_text()
    expected = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert len(expected) > 3000 and all(e["ruleset"] == ruleset for e in expected)
    out = io.StringIO()
    status = batch(get_ruleset(ruleset), io.StringIO(text), out)
    assert status == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    problems = _compare(expected, answers)
    assert not problems, "\n".join(problems[:10])


def test_batch_command_end_to_end(shared: Path) -> None:
    """The installed command reads a vector file on stdin and answers line for line."""
    lines = (shared / "vectors" / "playpalace.jsonl").read_text().splitlines()[:200]
    run = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "moves", "--ruleset", "playpalace", "--jsonl"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert not _compare([json.loads(line) for line in lines], answers)


def test_malformed_batch_lines_get_errors_and_the_run_goes_on() -> None:
    lines = [
        '{"position": "WBWBWBWBWB.................... W 0 0", "throw": 2}',
        "not json",
        '{"position": "WBWBWBWBWB...... W 0 0", "throw": 2}',
        '{"position": "WBWBWBWBWB.................... W 0 0", "throw": 7}',
        '{"throw": 2}',
        '["position"]',
        '{"position": "WBWBWBWBWB.................... W 0 0", "throw": 3}',
    ]
    out = io.StringIO()
    status = batch(get_ruleset("playpalace"), io.StringIO("\n".join(lines)), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 1
    assert len(answers) == len(lines)
    assert [m["move"] for m in answers[0]["moves"]] == ["9-11"]
    assert "not JSON" in answers[1]["error"]
    assert answers[2]["error"].startswith("board:")
    assert answers[3]["error"].startswith("throw:")
    assert answers[4]["error"] == "position: missing"
    assert "JSON object" in answers[5]["error"]
    assert [m["move"] for m in answers[6]["moves"]] == ["1-4", "3-6", "5-8", "7-10", "9-12"]
