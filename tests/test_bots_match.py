import pytest

from companion.bots import UnknownBot
from companion.bots.match import BotSpec, play_match, wilson
from companion.rules import UnknownRuleset


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_match_alternates_who_starts_and_counts_every_game() -> None:
    result = play_match("d5", BotSpec("simple"), BotSpec("random"), 6, seed=3)
    assert [g.a_first for g in result.games] == [True, False] * 3
    assert result.wins_a + result.wins_b == result.finished == 6
    low, high = result.interval()
    assert low <= result.share_a <= high
    assert "won" in result.summary() and "d5" in result.summary()
    data = result.to_json()
    assert data["games"] == 6 and data["wins_a"] == result.wins_a


def test_a_match_repeats_exactly_whatever_the_number_of_processes() -> None:
    spec = BotSpec("strong", budget_ms=None, max_depth=1)
    one = play_match("playpalace", spec, BotSpec("simple"), 4, seed=9, jobs=1)
    two = play_match("playpalace", spec, BotSpec("simple"), 4, seed=9, jobs=2)
    assert one.games == two.games


def test_timed_matches_record_decision_times() -> None:
    result = play_match("isac", BotSpec("simple"), BotSpec("random"), 2, seed=1, timed=True)
    times = result.times("a")
    assert times.count > 0
    assert 0.0 <= times.median <= times.worst
    assert "decision_ms_a" in result.to_json()


def test_bad_match_requests_are_refused() -> None:
    with pytest.raises(UnknownBot):
        BotSpec("expert")
    with pytest.raises(UnknownRuleset):
        play_match("chess", BotSpec("random"), BotSpec("random"), 2)
    with pytest.raises(ValueError, match="at least 1"):
        play_match("d5", BotSpec("random"), BotSpec("random"), 0)


def test_bot_spec_names_its_limits() -> None:
    assert str(BotSpec("simple")) == "simple"
    assert str(BotSpec("strong", budget_ms=None, max_depth=2)) == "strong (depth 2)"
    assert "100 ms" in str(BotSpec("strong"))
