"""The Senet rules engine: positions, moves, throws and rulesets. Standard library only.

>>> from companion.rules import get_ruleset, Position
>>> rules = get_ruleset("playpalace")
>>> start = rules.start()
>>> [str(m) for m in rules.legal_moves(start, 2)]
['9-11']
"""

from companion.rules.base import (
    Effect,
    EndReason,
    Option,
    Outcome,
    Refusal,
    Ruleset,
    Transition,
)
from companion.rules.errors import IllegalMove, NotationError, SenetError, UnknownRuleset
from companion.rules.position import HAND, OFF, Move, Player, Position
from companion.rules.registry import RULESETS, get_ruleset
from companion.rules.throws import Chance, ThrowModel

__all__ = [
    "HAND",
    "OFF",
    "RULESETS",
    "Chance",
    "Effect",
    "EndReason",
    "IllegalMove",
    "Move",
    "NotationError",
    "Option",
    "Outcome",
    "Player",
    "Position",
    "Refusal",
    "Ruleset",
    "SenetError",
    "ThrowModel",
    "Transition",
    "UnknownRuleset",
    "get_ruleset",
]
