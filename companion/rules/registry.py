"""The rulesets by name."""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.base import Ruleset
from companion.rules.errors import UnknownRuleset
from companion.rules.rulesets.basic import Basic
from companion.rules.rulesets.bell import Bell
from companion.rules.rulesets.d5 import FiveSidedDie
from companion.rules.rulesets.isac import Isac
from companion.rules.rulesets.jequier import Jequier
from companion.rules.rulesets.kendall import KENDALL_ALIASES, Kendall
from companion.rules.rulesets.piccione import Piccione
from companion.rules.rulesets.playpalace import PlayPalace

__all__ = ["RULESETS", "get_ruleset"]

RULESETS: Mapping[str, type[Ruleset]] = {
    cls.name: cls for cls in (PlayPalace, Basic, Isac, FiveSidedDie)
}
# The scholarly reconstructions (seed 004), with Ludii's named Kendall option rulesets.
_SCHOLARLY: tuple[type[Ruleset], ...] = (Piccione, Kendall, *KENDALL_ALIASES, Jequier, Bell)
RULESETS = {**RULESETS, **{cls.name: cls for cls in _SCHOLARLY}}


def get_ruleset(name: str, **options: str) -> Ruleset:
    """The ruleset called ``name`` with the given options chosen."""
    try:
        cls = RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise UnknownRuleset(f"unknown ruleset {name!r}; choose one of {known}") from None
    return cls(**options)
