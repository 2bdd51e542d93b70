"""Throw models: what can be thrown, with exact odds. The engine never rolls.

Randomness lives at the edges (the electronic throw, the bots, the tests) and is handed to the
engine as a plain throw value; this module only says which values exist and how likely each is,
like a chance node in a game tree.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from companion.rules.errors import NotationError

__all__ = ["D4", "D5", "FOUR_STICKS", "FOUR_STICKS_SIX", "Chance", "ThrowModel"]


class Chance(NamedTuple):
    """One possible throw and its exact probability."""

    value: int
    probability: Fraction


class ThrowModel(NamedTuple):
    """How a ruleset throws: four two-sided sticks, or a die.

    ``sticks`` is the number of sticks (0 for a die); ``blank`` is the value of a throw with no
    light face up. ``chances`` lists every value with its exact probability.
    """

    name: str
    description: str
    sticks: int
    blank: int
    chances: tuple[Chance, ...]

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(c.value for c in self.chances)

    def from_faces(self, faces: Sequence[int]) -> int:
        """The value of a throw of sticks; ``faces`` has 1 for each light face up."""
        if not self.sticks:
            raise NotationError(
                "faces", f"{self.description} is not thrown with sticks: use the electronic throw"
            )
        if len(faces) != self.sticks or any(f not in (0, 1) for f in faces):
            raise NotationError(
                "faces", f"expected {self.sticks} values of 0 or 1, got {list(faces)!r}"
            )
        light = sum(faces)
        return light if light else self.blank

    def check(self, value: object) -> int:
        """``value`` as a throw of this model, or a `NotationError` naming the field."""
        if isinstance(value, bool) or not isinstance(value, int) or value not in self.values:
            allowed = ", ".join(map(str, self.values))
            raise NotationError("throw", f"must be one of {allowed} ({self.name}), got {value!r}")
        return value


def _sticks(name: str, blank: int) -> ThrowModel:
    # Four fair two-sided sticks: k light faces up with probability C(4, k) / 16.
    odds = {1: 4, 2: 6, 3: 4, 4: 1, blank: 1}
    chances = tuple(Chance(v, Fraction(n, 16)) for v, n in sorted(odds.items()))
    description = f"four throwing sticks (no light face up counts {blank})"
    return ThrowModel(name, description, 4, blank, chances)


def _die(name: str, sides: int) -> ThrowModel:
    chances = tuple(Chance(v, Fraction(1, sides)) for v in range(1, sides + 1))
    return ThrowModel(name, f"a fair {sides}-sided die", 0, 0, chances)


FOUR_STICKS = _sticks("sticks", 5)
FOUR_STICKS_SIX = _sticks("sticks-6", 6)
D5 = _die("d5", 5)
D4 = _die("d4", 4)
