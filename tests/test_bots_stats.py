import json

import pytest

from companion.bots.stats import cached_stats, ruleset_stats
from companion.rules import RULESETS, get_ruleset

FAMILIES = [name for name in RULESETS if not name.startswith("kendall-")]


@pytest.mark.parametrize("name", FAMILIES)
def test_stats_report_length_squares_and_first_player(name: str) -> None:
    data = ruleset_stats(name, games=6, seed=2)
    assert json.loads(json.dumps(data)) == data
    assert data["ruleset"] == name and data["games"] == 6
    assert (
        data["length"]["moves_min"] <= data["length"]["moves_mean"] <= data["length"]["moves_max"]
    )
    first = data["first_player"]
    assert first["side"] == get_ruleset(name).start().side.value
    assert 0 <= first["wins"] <= 6
    low, high = first["interval_95"]
    assert 0.0 <= low <= high <= 1.0
    squares = [row["square"] for row in data["special_squares"]]
    assert squares == sorted(get_ruleset(name).square_names)
    for row in data["special_squares"]:
        assert row["visits_per_game"] == pytest.approx(
            row["landings_per_game"] + row["sent_there_per_game"], abs=0.002
        )


def test_stats_repeat_for_a_seed_and_differ_between_seeds() -> None:
    assert ruleset_stats("d5", 4, 1) == ruleset_stats("d5", 4, 1)
    assert ruleset_stats("d5", 4, 1)["length"] != ruleset_stats("d5", 4, 2)["length"]


def test_the_water_is_counted_where_it_is_landed_on() -> None:
    data = ruleset_stats("playpalace", 10, 0)
    water = next(row for row in data["special_squares"] if row["square"] == 27)
    assert water["landings_per_game"] == data["per_game"]["water"]
    rebirth = next(row for row in data["special_squares"] if row["square"] == 15)
    assert rebirth["sent_there_per_game"] > 0  # the water sends pieces back there


def test_options_of_a_ruleset_are_kept() -> None:
    rules = get_ruleset("isac", rebirth_taken="stay")
    assert ruleset_stats(rules, 2, 0)["options"] == {"rebirth_taken": "stay"}


def test_cached_stats_ship_for_every_present_ruleset() -> None:
    for name in FAMILIES:
        data = cached_stats(name)
        assert data is not None, name
        assert data["ruleset"] == name
        assert data["games"] >= 1000
    assert cached_stats("no-such-ruleset") is None


def test_no_games_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        ruleset_stats("d5", 0)
