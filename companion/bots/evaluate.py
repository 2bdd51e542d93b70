"""How good a position is: a static estimate of White's chance to win, and `win_chance`.

The estimate is a logistic function of a few features, each counted for W minus the same for B,
so the game's symmetry between the sides holds by construction:

- one feature per place a piece can be (in hand, squares 1..30, borne off): the learned value of
  a piece there, which captures the race and the special squares of each ruleset;
- ``tempo``: +1 when W throws next, -1 when B does;
- ``pairs``: pieces with a neighbour of their own colour (protection in most rulesets);
- ``walls``: runs of three pieces of one colour (a blockade in most rulesets);
- ``exposed``: lone pieces an opponent piece stands close enough behind to capture.

The weights of each ruleset are fitted by logistic regression on self-play games
(`companion.bots.learn`, run by ``bench/bots.py``) and shipped as package data in
``companion/data/weights/<ruleset>.json``. A ruleset without a file (a new one) gets a plain race
estimate that needs no fitting, so every ruleset can be played and hinted at once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.rules import Player, Position, Ruleset

__all__ = [
    "FEATURES",
    "Evaluator",
    "Weights",
    "default_weights",
    "feature_vector",
    "load_weights",
    "win_chance",
]

SQUARE_FEATURES = 32  # 0: in hand, 1..30: the squares, 31: borne off
TEMPO, PAIRS, WALLS, EXPOSED = 32, 33, 34, 35
FEATURES: tuple[str, ...] = (
    "hand",
    *(f"square {s}" for s in range(1, 31)),
    "off",
    "tempo",
    "pairs",
    "walls",
    "exposed",
)


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of the features in `FEATURES` order, and where they came from."""

    values: tuple[float, ...]
    source: str  # "default" or a description of the fit

    def __post_init__(self) -> None:
        if len(self.values) != len(FEATURES):
            raise ValueError(
                f"weights: expected {len(FEATURES)} values (one per feature), got"
                f" {len(self.values)}; refit them with bench/bots.py"
            )

    def to_json(self) -> dict[str, object]:
        return {"features": list(FEATURES), "weights": list(self.values), "source": self.source}


def default_weights() -> Weights:
    """A plain race estimate: a piece is worth its square; a small bonus for throwing next."""
    values = [0.0] * len(FEATURES)
    for square in range(1, 31):
        values[square] = square * 0.1
    values[31] = 3.4
    values[TEMPO] = 0.25
    values[PAIRS] = 0.05
    values[WALLS] = 0.05
    values[EXPOSED] = -0.05
    return Weights(tuple(values), "default")


@cache
def load_weights(name: str) -> Weights:
    """The fitted weights shipped for the ruleset ``name``, or `default_weights` if none are."""
    try:
        text = resources.files("companion.data.weights").joinpath(f"{name}.json").read_text()
        data = json.loads(text)
        if list(data["features"]) != list(FEATURES):
            return default_weights()
        return Weights(tuple(float(v) for v in data["weights"]), str(data["source"]))
    except (OSError, ValueError, KeyError, TypeError):
        return default_weights()


def feature_vector(rules: Ruleset, position: Position) -> list[float]:
    """The features of ``position``, W minus B, in `FEATURES` order."""
    x = [0.0] * len(FEATURES)
    board = position.board
    for i, ch in enumerate(board):
        if ch == "W":
            x[i + 1] += 1.0
        elif ch == "B":
            x[i + 1] -= 1.0
    x[31] = float(position.off_w - position.off_b)
    x[0] = float(rules.in_hand(position, Player.W) - rules.in_hand(position, Player.B))
    x[TEMPO] = 1.0 if position.side is Player.W else -1.0
    safe: frozenset[int] = getattr(rules, "safe", frozenset())
    unsafe: frozenset[int] = getattr(rules, "unsafe", frozenset())
    reach = max(rules.throw_model.values)
    for player, sign in (("W", 1.0), ("B", -1.0)):
        other = "B" if player == "W" else "W"
        pairs = walls = exposed = 0
        for i, ch in enumerate(board):
            if ch != player:
                continue
            square = i + 1
            paired = (i > 0 and board[i - 1] == player) or (i < 29 and board[i + 1] == player)
            if paired and square not in unsafe:
                pairs += 1
            if board[i : i + 3] == player * 3:
                walls += 1
            if not paired and square not in safe and other in board[max(0, i - reach) : i]:
                exposed += 1
        x[PAIRS] += sign * pairs
        x[WALLS] += sign * walls
        x[EXPOSED] += sign * exposed
    return x


def _logistic(score: float) -> float:
    if score < -40:
        return 0.0
    if score > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-score))


class Evaluator:
    """White's chance to win from a position, estimated without looking ahead (cached)."""

    def __init__(self, rules: Ruleset, weights: Weights | None = None) -> None:
        self.rules = rules
        self.weights = weights if weights is not None else load_weights(rules.name)
        self._cache: dict[Position, float] = {}

    def score(self, position: Position) -> float:
        """The logit of White's chance (positive: W is ahead)."""
        x = feature_vector(self.rules, position)
        return sum(w * v for w, v in zip(self.weights.values, x, strict=True) if v)

    def static(self, position: Position) -> float:
        """White's chance to win, 0..1; exactly 0 or 1 once the game is over."""
        found = self._cache.get(position)
        if found is not None:
            return found
        outcome = self.rules.outcome(position)
        if outcome is not None:
            value = 1.0 if outcome.winner is Player.W else 0.0
        else:
            value = _logistic(self.score(position))
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[position] = value
        return value


def win_chance(ruleset: Ruleset, position: Position, *, depth: int = 1) -> float:
    """White's estimated chance (0..1) of winning from ``position`` with good play.

    Looks ``depth`` throws ahead over the exact throw odds (one by default: a millisecond or
    so) and estimates the positions it reaches with the ruleset's fitted weights. B's chance is
    one minus this.
    """
    from companion.bots.search import Expectimax

    return Expectimax(ruleset, Evaluator(ruleset)).value(position, depth)


def logit(values: Sequence[float], x: Sequence[float]) -> float:
    return sum(w * v for w, v in zip(values, x, strict=True))
