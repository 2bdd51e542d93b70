"""How good a position is: the bots' judgement, a static chance to win, and `win_chance`.

`heuristic` scores a position for one player by the tips of the PlayPalace rules page (seed
000): progress counts most; pairs protect and walls block; a lone piece an opponent can reach is
at risk; a piece past 26 is through the bottleneck; a piece stuck in the water is not; throwing
next is worth a few squares. It is antisymmetric (W's score is minus B's), so W's chance to win
is estimated as ``logistic(scale * heuristic(position, W))``.

The ``scale`` of each ruleset is fitted by logistic regression on self-play games
(`companion.bots.learn`, run by ``bench/bots.py``) and shipped as package data in
``companion/data/calibration/<ruleset>.json``; a ruleset without a file (a new one) gets
`DEFAULT_SCALE`, so every ruleset can be played and hinted at once.
"""

from __future__ import annotations

import json
import math
from functools import cache, lru_cache
from importlib import resources
from typing import NamedTuple

from companion.rules import OFF, Player, Position, Ruleset

__all__ = [
    "DEFAULT_SCALE",
    "Evaluator",
    "Structure",
    "heuristic",
    "load_scale",
    "structure",
    "win_chance",
]

DEFAULT_SCALE = 0.05  # a piece twenty squares ahead: about 73 %
_BORNE_OFF = OFF + 4  # a borne-off piece is worth a little more than one on 30
_PAST_26 = 2.0
_IN_WATER = -8.0
_PAIR, _WALL, _EXPOSED, _TEMPO = 1.5, 2.0, -2.0, 1.5


class Structure(NamedTuple):
    """Counts of one player's pairs, walls and exposed pieces (see `structure`)."""

    pairs: int
    walls: int
    exposed: int


class _Judge:
    """`heuristic` with the ruleset's tables worked out once (it runs at every search leaf)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        safe: frozenset[int] = getattr(rules, "safe", frozenset())
        unsafe: frozenset[int] = getattr(rules, "unsafe", frozenset())
        water = getattr(rules, "water", 0)
        self.can_pair = tuple(i + 1 not in unsafe for i in range(30))
        self.can_expose = tuple(i + 1 not in safe for i in range(30))
        self.reach = max(rules.throw_model.values)
        self.value = tuple(
            square + (_IN_WATER if square == water else _PAST_26 if square > 26 else 0.0)
            for square in range(1, 31)
        )

    def structure(self, board: str, mine: str, theirs: str) -> Structure:
        pairs = walls = exposed = 0
        i = board.find(mine)
        while i >= 0:
            paired = (i > 0 and board[i - 1] == mine) or (i < 29 and board[i + 1] == mine)
            if paired:
                pairs += self.can_pair[i]
                walls += board[i : i + 3] == mine * 3
            elif self.can_expose[i] and theirs in board[max(0, i - self.reach) : i]:
                exposed += 1
            i = board.find(mine, i + 1)
        return Structure(pairs, walls, exposed)

    def score(self, position: Position, player: Player) -> float:
        board, mine, theirs = position.board, player.value, player.other.value
        value = self.value
        score = 0.0
        i = board.find(mine)
        while i >= 0:
            score += value[i]
            i = board.find(mine, i + 1)
        i = board.find(theirs)
        while i >= 0:
            score -= value[i]
            i = board.find(theirs, i + 1)
        score += _BORNE_OFF * (position.off(player) - position.off(player.other))
        me = self.structure(board, mine, theirs)
        them = self.structure(board, theirs, mine)
        score += _PAIR * (me.pairs - them.pairs) + _WALL * (me.walls - them.walls)
        score += _EXPOSED * (me.exposed - them.exposed)
        score += _TEMPO if position.side is player else -_TEMPO
        return score


@lru_cache(maxsize=64)
def _judge(rules: Ruleset) -> _Judge:
    return _Judge(rules)


def structure(rules: Ruleset, position: Position, player: Player) -> Structure:
    """``player``'s pieces with a neighbour of their own colour (protected in most rulesets),
    runs of three of them (walls), and lone pieces an opponent piece stands within one throw
    behind (exposed to a capture)."""
    return _judge(rules).structure(position.board, player.value, player.other.value)


def heuristic(rules: Ruleset, position: Position, player: Player) -> float:
    """How good ``position`` looks to ``player``, in squares of progress (antisymmetric)."""
    if (outcome := rules.outcome(position)) is not None:
        return 1000.0 if outcome.winner is player else -1000.0
    return _judge(rules).score(position, player)


@cache
def load_scale(name: str) -> float:
    """The fitted scale shipped for the ruleset ``name``, or `DEFAULT_SCALE` if none is."""
    try:
        path = resources.files("companion.data.calibration").joinpath(f"{name}.json")
        scale = float(json.loads(path.read_text())["scale"])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_SCALE
    return scale if 0 < scale < 10 else DEFAULT_SCALE


def _logistic(score: float) -> float:
    if score < -40:
        return 0.0
    if score > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-score))


class Evaluator:
    """White's chance to win from a position, estimated without looking ahead (cached)."""

    def __init__(self, rules: Ruleset, scale: float | None = None) -> None:
        self.rules = rules
        self.scale = scale if scale is not None else load_scale(rules.name)
        self._cache: dict[Position, float] = {}

    def static(self, position: Position) -> float:
        """White's chance to win, 0..1; exactly 0 or 1 once the game is over."""
        found = self._cache.get(position)
        if found is not None:
            return found
        outcome = self.rules.outcome(position)
        if outcome is not None:
            value = 1.0 if outcome.winner is Player.W else 0.0
        else:
            value = _logistic(self.scale * heuristic(self.rules, position, Player.W))
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[position] = value
        return value


def win_chance(ruleset: Ruleset, position: Position, *, depth: int = 1) -> float:
    """White's estimated chance (0..1) of winning from ``position`` with good play.

    Looks ``depth`` throws ahead over the exact throw odds (one by default: about a
    millisecond) and estimates the positions reached with the ruleset's fitted scale. B's chance
    is one minus this.
    """
    from companion.bots.search import Expectimax

    return Expectimax(ruleset, Evaluator(ruleset)).value(position, depth)
