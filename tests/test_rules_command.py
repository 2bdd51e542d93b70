"""The ``senet-companion rules`` command: human output, --json, and clear usage errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main

START = "WBWBWBWBWB.................... W 0 0"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["rules", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_list_names_every_ruleset_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "list", "--json")
    assert status == 0
    rows = {row["name"]: row for row in json.loads(out)}
    assert {"playpalace", "basic", "isac", "d5"} <= set(rows)
    assert rows["basic"]["author"] == "lkdjiin" and rows["basic"]["year"] == "2011"
    assert rows["isac"]["options"] == {"rebirth_taken": ["next-free", "stay"]}
    status, out, _ = run(capsys, "list")
    assert "source: Rules Of Senet" in out


def test_start(capsys: pytest.CaptureFixture[str]) -> None:
    _status, out, _ = run(capsys, "start", "--ruleset", "isac", "--json")
    assert json.loads(out) == {"ruleset": "isac", "position": START[:-5] + "B 0 0 opening=dark"}
    _, out, _ = run(capsys, "start", "--ruleset", "playpalace")
    assert out.splitlines()[0] == START
    assert " 1W   2B " in out


def test_moves_human_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "moves", "--ruleset", "playpalace", "--position", START, "--throw", "2"
    )
    assert status == 0
    assert "1 legal move" in out and "9-11" in out
    assert "1: square 3 is taken by one of your own pieces" in out
    status, out, _ = run(
        capsys, "moves", "--ruleset", "playpalace", "--position", START, "--throw", "2", "--json"
    )
    data = json.loads(out)
    assert data["moves"] == [{"move": "9-11", "position": "WBWBWBWB.BW................... B 0 0"}]


def test_moves_with_no_legal_move_shows_the_pass(capsys: pytest.CaptureFixture[str]) -> None:
    position = "WWWWWBBBBB.................... W 0 0"
    _, out, _ = run(
        capsys, "moves", "--ruleset", "d5", "--position", position, "--throw", "5", "--json"
    )
    assert json.loads(out) == {
        "position": position,
        "throw": 5,
        "moves": [],
        "pass": "WWWWWBBBBB.................... B 0 0",
    }


def test_play_reports_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys,
        "play",
        "--ruleset",
        "playpalace",
        "--position",
        "BBBBB........................W W 4 0",
        "--throw",
        "1",
        "--move",
        "30-off",
        "--json",
    )
    data = json.loads(out)
    assert data["game_over"] is True and data["winner"] == "W"


def test_play_decision_without_throw(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "play",
        "--ruleset",
        "isac",
        "--position",
        "WBWBWBWB..B...............W... W 0 0",
        "--move",
        "27-15",
        "--json",
    )
    assert status == 0
    assert json.loads(out)["position"] == "WBWBWBWB..B...W............... B 0 0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["moves", "--ruleset", "nope", "--position", START, "--throw", "2"], "unknown ruleset"),
        (["moves", "--ruleset", "basic", "--position", "WB W 0 0", "--throw", "2"], "board:"),
        (["moves", "--ruleset", "basic", "--position", START, "--throw", "6"], "throw:"),
        (["moves", "--ruleset", "basic", "--position", START], "--throw is required"),
        (["moves", "--ruleset", "basic", "--throw", "2"], "--position is required"),
        (
            [
                "play",
                "--ruleset",
                "playpalace",
                "--position",
                START,
                "--throw",
                "2",
                "--move",
                "1-3",
            ],
            "1-3 is not allowed: square 3 is taken",
        ),
        (
            ["play", "--ruleset", "playpalace", "--position", START, "--throw", "2", "--move", "x"],
            "move:",
        ),
        (["start", "--ruleset", "isac", "--option", "colour=red"], "has no option 'colour'"),
        (["start", "--ruleset", "isac", "--option", "rebirth_taken"], "KEY=VALUE"),
    ],
)
def test_usage_errors_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2
    assert message in err
    assert "Traceback" not in err


def test_the_console_script_never_prints_a_traceback() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "rules",
            "moves",
            "--ruleset",
            "basic",
            "--position",
            "garbage",
            "--throw",
            "2",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("senet-companion rules: position:")
    assert "Traceback" not in result.stderr
