import json

import pytest

from companion.cli import main


def test_bots_match_prints_wins_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "match", "--ruleset", "d5", "--games", "4", "simple", "random"]) == 0
    out = capsys.readouterr().out
    assert "simple won" in out and "95 % confidence interval" in out


def test_bots_match_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bots", "match", "--ruleset", "isac", "--games", "2", "strong", "random"]
    assert main([*args, "--depth", "1", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["a"] == "strong (depth 1)"


def test_bots_match_refuses_unknown_levels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bots", "match", "--ruleset", "d5", "expert", "random"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_bots_match_refuses_unknown_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "match", "--ruleset", "chess", "simple", "random"]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().err


def test_bots_match_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bots", "match", "--ruleset", "d5", "--games", "0", "simple", "random"])
    assert "games must be at least 1" in capsys.readouterr().err


def test_bots_hint_with_teaching(capsys: pytest.CaptureFixture[str]) -> None:
    position = "W.W.W..B......BB..W.....W.B..B W 0 0"
    args = ["bots", "hint", "--ruleset", "playpalace", "--position", position, "--throw", "3"]
    assert main([*args, "--teach"]) == 0
    out = capsys.readouterr().out
    assert "chances with the best play" in out
    assert "25-28 is not allowed" in out
    assert main([*args, "--json", "--teach"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] in {"1-4", "3-6", "5-8", "19-22"}
    assert data["explanation"][0].startswith(data["best"])


def test_bots_hint_refuses_a_bad_position(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bots", "hint", "--ruleset", "playpalace", "--position", "WB W 0 0", "--throw", "3"]
    assert main(args) == 2
    assert "board: must have exactly 30 squares" in capsys.readouterr().err


def test_rules_stats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "stats", "--ruleset", "basic", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "first player (B) won" in out
    assert "House of Water" in out
    assert main(["rules", "stats", "--ruleset", "d5", "--games", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
