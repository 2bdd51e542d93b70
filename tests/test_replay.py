"""``senet-companion replay``: scripts and saved journals through the real loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.replay import ReplayError, make_loop, parse_line
from companion.rules import RULESETS, get_ruleset
from hardware import events as hw

SCRIPTS = Path(__file__).parent / "scripts"


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict], str]:
    status = main(["replay", *args])
    captured = capsys.readouterr()
    return status, [json.loads(line) for line in captured.out.splitlines()], captured.err


@pytest.mark.parametrize("ruleset", sorted(p.stem for p in SCRIPTS.glob("*.txt")))
def test_the_script_of_every_ruleset_plays_to_its_expected_position(
    ruleset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ruleset in RULESETS
    script = SCRIPTS / f"{ruleset}.txt"
    expected = script.read_text().splitlines()[-1].removeprefix("# expect: ")
    status, states, err = replay(capsys, "--ruleset", ruleset, "--seed", "11", str(script))
    assert status == 0, err
    assert states[-1]["position"] == expected
    versions = [s["version"] for s in states]
    assert versions == sorted(versions)
    mistakes = {a["text"] for s in states for a in s["announcements"] if a["kind"] == "mistake"}
    assert not mistakes
    moves = {s["last_move"]["move"] for s in states if s["last_move"]}
    assert len(moves) >= 5


def test_a_saved_journal_replays_to_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "games.db"
    script = SCRIPTS / "playpalace.txt"
    args = ("--ruleset", "playpalace", "--seed", "11")
    status, played, _ = replay(capsys, *args, "--journal", str(journal), str(script))
    assert status == 0
    status, replayed, _ = replay(capsys, *args, str(journal))
    assert status == 0
    assert replayed[-1]["position"] == played[-1]["position"]
    assert replayed[-1]["last_move"] == played[-1]["last_move"]


def test_bad_lines_are_reported_by_number_and_the_replay_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("board start\nwiggle 3\nwait soon\nlift\nwait 0.5\nsticks 1 1 1 0\n")
    status, states, err = replay(capsys, "--ruleset", "playpalace", str(script))
    assert status == 1
    assert "line 2: unknown script word 'wiggle'" in err
    assert "line 3: wait needs a number of seconds" in err
    assert "line 4: lift needs a square" in err
    assert states[-1]["phase"] == "move"


def test_a_missing_file_or_ruleset_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--ruleset", "playpalace", str(tmp_path / "none.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    script = tmp_path / "s.txt"
    script.write_text("board start\n")
    assert main(["replay", "--ruleset", "chess", str(script)]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().err


def test_script_words_make_the_documented_events() -> None:
    rules = get_ruleset("playpalace")
    assert parse_line("board start  # the layout", rules) == [
        hw.BoardSnapshot(frozenset(range(1, 11)))
    ]
    assert parse_line("lift 9 10", rules) == [
        hw.SquareChanged(9, False),
        hw.SquareChanged(10, False),
    ]
    assert parse_line("fault sensor-range 4 5: squares 4 and 5 read nonsense", rules) == [
        hw.HardwareFault("sensor-range", "squares 4 and 5 read nonsense", (4, 5))
    ]
    assert parse_line('event {"kind": "square-pressed", "square": 3}', rules) == [
        hw.SquarePressed(3)
    ]
    assert parse_line("", rules) == [] and parse_line("# only a comment", rules) == []
    with pytest.raises(ReplayError, match="bot needs a side and a level"):
        parse_line("bot B", rules)


def test_a_slide_passes_over_squares_without_counting_them() -> None:
    loop, clock = make_loop("playpalace", board="presence")
    from companion.replay import Replayer

    r = Replayer(loop, clock)
    for line in ("board start", "wait 0.5", "sticks 1 1 1 0", "slide 9 12", "wait 0.5"):
        for step in parse_line(line, loop.table.rules):
            r.play(step)
    assert loop.snapshot()["last_move"]["move"] == "9-12"


def test_the_documented_example_does_what_its_comments_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "replay.md").read_text()
    example = doc.split("## Example", 1)[1].split("`tests/scripts/`", 1)[0]
    lines = [line.strip() for line in example.splitlines() if line.startswith("    ")]
    script = tmp_path / "example.txt"
    script.write_text("\n".join(lines) + "\n")
    status, states, err = replay(capsys, "--ruleset", "playpalace", str(script))
    assert status == 0, err
    assert states[-1]["last_move"] == {
        "move": "10-12",
        "from": 10,
        "to": 12,
        "by": "B",
        "effects": ["swap"],
    }
    assert states[-1]["position"] == "WBWBWBWB.W.B.................. W 0 0"


def test_a_journal_with_the_computer_playing_replays_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.journal import Journal
    from companion.replay import Replayer
    from companion.rules import Position, Transition

    class LastMove:
        def choose(self, position: Position, throw: int) -> Transition:
            return get_ruleset("playpalace").transitions(position, throw)[-1]

    path = tmp_path / "games.db"
    loop, clock = make_loop("playpalace", board="none", seed=4, journal=Journal(path))
    loop.table.bot_factory = lambda level, rules, rng: LastMove()
    r = Replayer(loop, clock)
    for line in ["bot B simple"] + ["throw", "throw", "wait 1", "wait 1", "wait 1"] * 8:
        for step in parse_line(line, loop.table.rules):
            if loop.snapshot()["side"] == "W" and loop.snapshot()["phase"] == "move":
                r.play(
                    parse_line(f"move {loop.snapshot()['legal'][0]['move']}", loop.table.rules)[0]
                )
            r.play(step)
    played = loop.snapshot()
    assert any(s.side == "B" for s in loop.journal.steps(played["game_id"]))  # type: ignore[union-attr]
    loop.journal.close()  # type: ignore[union-attr]
    status, replayed, _ = replay(capsys, "--ruleset", "playpalace", "--board", "none", str(path))
    assert status == 0
    assert replayed[-1]["position"] == played["position"]
    said = [(a["key"], a["params"]) for a in played["announcements"]]
    assert ("mistake-bot-turn", {}) in said  # a person tried to throw for the computer
    assert [(a["key"], a["params"]) for a in replayed[-1]["announcements"]] == said
