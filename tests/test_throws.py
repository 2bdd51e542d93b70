from fractions import Fraction

import pytest

from companion.rules import RULESETS, NotationError, get_ruleset
from companion.rules.throws import D5, FOUR_STICKS


@pytest.mark.parametrize("name", list(RULESETS))
def test_odds_are_exact_and_sum_to_one(name: str) -> None:
    rules = get_ruleset(name)
    chances = rules.throws(rules.start())
    assert sum(c.probability for c in chances) == 1
    assert all(isinstance(c.probability, Fraction) for c in chances)


def test_four_sticks_odds_follow_the_binomial() -> None:
    odds = {c.value: c.probability for c in FOUR_STICKS.chances}
    assert odds == {
        1: Fraction(4, 16),
        2: Fraction(6, 16),
        3: Fraction(4, 16),
        4: Fraction(1, 16),
        5: Fraction(1, 16),
    }


@pytest.mark.parametrize(
    ("faces", "value"),
    [((0, 0, 0, 0), 5), ((1, 0, 0, 0), 1), ((1, 0, 1, 0), 2), ((1, 1, 0, 1), 3), ((1, 1, 1, 1), 4)],
)
def test_value_of_the_sticks(faces: tuple[int, ...], value: int) -> None:
    assert FOUR_STICKS.from_faces(faces) == value


def test_bad_faces_are_refused() -> None:
    with pytest.raises(NotationError, match="4 values of 0 or 1"):
        FOUR_STICKS.from_faces((1, 0, 2, 0))
    with pytest.raises(NotationError, match="4 values"):
        FOUR_STICKS.from_faces((1, 0))
    with pytest.raises(NotationError, match="electronic throw"):
        D5.from_faces((1, 0, 1, 0))


def test_die_is_uniform() -> None:
    assert {c.probability for c in D5.chances} == {Fraction(1, 5)}
    assert D5.values == (1, 2, 3, 4, 5)


@pytest.mark.parametrize("bad", [0, 6, "3", 2.0, True, None])
def test_throw_check_names_the_field(bad: object) -> None:
    with pytest.raises(NotationError) as exc:
        FOUR_STICKS.check(bad)
    assert exc.value.field == "throw"
