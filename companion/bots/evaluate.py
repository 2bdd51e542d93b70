"""How good a position is: the bots' judgement, a static chance to win, and `win_chance`.

`heuristic` scores a position for one player by the tips of the PlayPalace rules page (seed
000): progress counts most; pairs protect and walls block; a lone piece an opponent can reach is
at risk; a piece past 26 is through the bottleneck; a piece stuck in the water is not; throwing
next is worth a few squares. It is a weighted sum of `COMPONENTS`, each counted for W minus B,
so it is antisymmetric: W's score is minus B's. The simple bot plays by it.

For the strong bot, hints and W, the same components are weighted again, per ruleset, by a
logistic regression on self-play games (`companion.bots.learn`, run by ``bench/bots.py``), so
that ``logistic(weights . components)`` is a calibrated chance that W wins. The fitted weights
ship as package data in ``companion/data/calibration/<ruleset>.json``; a ruleset without a
file (a new one) gets `HAND_WEIGHTS` times `DEFAULT_SCALE`, so every ruleset can be played and
hinted at once.
"""

from __future__ import annotations

import json
import math
from functools import cache, lru_cache
from importlib import resources
from typing import NamedTuple

from companion.rules import OFF, Player, Position, Ruleset

__all__ = [
    "COMPONENTS",
    "DEFAULT_SCALE",
    "HAND_WEIGHTS",
    "Evaluator",
    "Structure",
    "components",
    "default_weights",
    "heuristic",
    "load_weights",
    "structure",
    "win_chance",
]

DEFAULT_SCALE = 0.05  # a piece twenty squares ahead: about 73 %
_BORNE_OFF = OFF + 4  # a borne-off piece is worth a little more than one on 30

# Caches stay small: the garbage collector walks every object they hold, and a pause of that
# walk in the middle of a search would blow the strong bot's time budget.
_CACHE_LIMIT = 20_000

# What `heuristic` adds up, each counted for W minus B, and its weight in squares of progress.
COMPONENTS = ("progress", "past 26", "in the water", "pairs", "walls", "exposed", "tempo")
HAND_WEIGHTS = (1.0, 2.0, -8.0, 1.5, 2.0, -2.0, 1.5)


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
        self.water_index = water - 1 if water else -1
        self._boards: dict[str, tuple[float, float, float, float, float, float]] = {}

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

    def components(self, position: Position) -> tuple[float, ...]:
        """The `COMPONENTS` of ``position``, each W's count minus B's."""
        board = position.board
        on_board = self._boards.get(board)
        if on_board is None:
            on_board = self._board_components(board)
            if len(self._boards) > _CACHE_LIMIT:
                self._boards.clear()
            self._boards[board] = on_board
        progress, past, water, pairs, walls, exposed = on_board
        return (
            progress + _BORNE_OFF * (position.off_w - position.off_b),
            past,
            water,
            pairs,
            walls,
            exposed,
            1.0 if position.side is Player.W else -1.0,
        )

    def _board_components(self, board: str) -> tuple[float, float, float, float, float, float]:
        # The part that depends on the board alone, cached: a search meets the same boards
        # again and again with another side to move or another count of pieces borne off.
        progress = 0.0
        past = water = 0
        for i, ch in enumerate(board):
            if ch == "W":
                progress += i + 1
                past += i >= 26
                water += i == self.water_index
            elif ch == "B":
                progress -= i + 1
                past -= i >= 26
                water -= i == self.water_index
        w = self.structure(board, "W", "B")
        b = self.structure(board, "B", "W")
        return (
            progress,
            float(past),
            float(water),
            float(w.pairs - b.pairs),
            float(w.walls - b.walls),
            float(w.exposed - b.exposed),
        )

    def score(self, position: Position, player: Player) -> float:
        total = sum(h * c for h, c in zip(HAND_WEIGHTS, self.components(position), strict=True))
        return total if player is Player.W else -total


@lru_cache(maxsize=64)
def _judge(rules: Ruleset) -> _Judge:
    return _Judge(rules)


def structure(rules: Ruleset, position: Position, player: Player) -> Structure:
    """``player``'s pieces with a neighbour of their own colour (protected in most rulesets),
    runs of three of them (walls), and lone pieces an opponent piece stands within one throw
    behind (exposed to a capture)."""
    return _judge(rules).structure(position.board, player.value, player.other.value)


def components(rules: Ruleset, position: Position) -> tuple[float, ...]:
    """The `COMPONENTS` of ``position``, each counted for W minus B."""
    return _judge(rules).components(position)


def heuristic(rules: Ruleset, position: Position, player: Player) -> float:
    """How good ``position`` looks to ``player``, in squares of progress (antisymmetric)."""
    if (outcome := rules.outcome(position)) is not None:
        return 1000.0 if outcome.winner is player else -1000.0
    return _judge(rules).score(position, player)


def default_weights() -> tuple[float, ...]:
    """`HAND_WEIGHTS` scaled by `DEFAULT_SCALE`: the estimate for a ruleset with no fit."""
    return tuple(DEFAULT_SCALE * h for h in HAND_WEIGHTS)


@cache
def load_weights(name: str) -> tuple[float, ...]:
    """The fitted weights of `COMPONENTS` shipped for ``name``, or `default_weights`.

    A variant without its own file (``kendall-trap``) uses its family's (``kendall``).
    """
    for candidate in dict.fromkeys((name, name.split("-")[0])):
        weights = _read_weights(candidate)
        if weights is not None:
            return weights
    return default_weights()


def _read_weights(name: str) -> tuple[float, ...] | None:
    try:
        path = resources.files("companion.data.calibration").joinpath(f"{name}.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["components"]) != COMPONENTS:
            return None
        weights = tuple(float(w) for w in data["weights"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if len(weights) != len(COMPONENTS) or not all(math.isfinite(w) for w in weights):
        return None
    return weights


def _logistic(score: float) -> float:
    if score < -40:
        return 0.0
    if score > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-score))


class Evaluator:
    """White's chance to win from a position, estimated without looking ahead (cached).

    ``logistic(weights . components)``: the weights are those fitted for the ruleset (see
    `load_weights`) unless given.
    """

    def __init__(self, rules: Ruleset, weights: tuple[float, ...] | None = None) -> None:
        self.rules = rules
        self.weights = weights if weights is not None else load_weights(rules.name)
        self._judge = _judge(rules)
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
            parts = self._judge.components(position)
            value = _logistic(sum(w * c for w, c in zip(self.weights, parts, strict=True)))
        if len(self._cache) > _CACHE_LIMIT:
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
