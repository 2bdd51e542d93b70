"""Calibrating the win-chance estimate of a ruleset from self-play (logistic regression).

Games are played by the simple bot against itself, with one move in ten made at random so that
the positions seen are varied; every position where a side is about to throw becomes a sample:
its `COMPONENTS` (W minus B) and whether W went on to win. Newton's method on the log-loss of
``logistic(weights . components)`` (no intercept: the game is the same for both sides) gives
weights that make the estimate a calibrated chance. The bench runs this and writes
``companion/data/calibration/<ruleset>.json``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.bots.evaluate import COMPONENTS, HAND_WEIGHTS, components, default_weights
from companion.bots.game import play_game
from companion.bots.players import RandomBot, SimpleBot
from companion.rules import Player, Position, Transition, get_ruleset

__all__ = ["Calibration", "Sample", "fit_weights", "self_play_samples"]

Sample = tuple[tuple[float, ...], float]  # the components, 1.0 if W won


@dataclass
class _Exploring:
    """The simple bot, making a random move instead one time in ``1 / share``."""

    simple: SimpleBot
    wild: RandomBot
    rng: random.Random
    share: float = 0.1
    level: str = "exploring"

    def choose(self, position: Position, throw: int) -> Transition:
        bot = self.wild if self.rng.random() < self.share else self.simple
        return bot.choose(position, throw)

    def decide(self, position: Position) -> Transition | None:
        bot = self.wild if self.rng.random() < self.share else self.simple
        return bot.decide(position)


def self_play_samples(name: str, games: int, seed: int) -> list[Sample]:
    """Samples from ``games`` self-play games of the ruleset ``name`` (picklable, for workers)."""
    rules = get_ruleset(name)
    samples: list[Sample] = []
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        bots = {
            side: _Exploring(SimpleBot(rules, rng), RandomBot(rules, rng), rng)
            for side in (Player.W, Player.B)
        }
        record = play_game(rules, bots, rng)
        if record.winner is None:
            continue
        label = 1.0 if record.winner is Player.W else 0.0
        position = rules.start()
        for ply in record.plies:
            if ply.throw is not None and rules.needs_throw(position):
                samples.append((components(rules, position), label))
            if ply.transition is not None:
                position = ply.transition.after
            else:
                position = rules.after_throw(position, ply.throw or 0)[1]
    return samples


@dataclass(frozen=True, slots=True)
class Calibration:
    """Fitted weights and how well they predict (mean log-loss; 0.693 is a coin toss)."""

    weights: tuple[float, ...]
    log_loss: float  # on the held-out fifth of the samples
    default_log_loss: float  # the same samples with `default_weights`
    samples: int
    method: str = "every component"  # or "one scale for the hand weights", or "default"

    def to_json(self, ruleset: str, source: str) -> dict[str, object]:
        return {
            "ruleset": ruleset,
            "components": list(COMPONENTS),
            "weights": [round(w, 6) for w in self.weights],
            "log_loss": round(self.log_loss, 4),
            "default_log_loss": round(self.default_log_loss, 4),
            "samples": self.samples,
            "method": self.method,
            "source": source,
        }


def fit_weights(
    samples: Sequence[Sample], *, iterations: int = 12, ridge: float = 1e-3, seed: int = 0
) -> Calibration:
    """Weights minimising the log-loss on four fifths of ``samples``, checked on the rest."""
    if len(samples) < 10:
        raise ValueError(f"samples: {len(samples)} are too few to fit; play more games")
    order = list(samples)
    random.Random(seed).shuffle(order)
    held = len(order) // 5
    test, train = order[:held], order[held:]
    n = len(COMPONENTS)
    w = list(default_weights())
    loss = _loss(w, train)
    for _ in range(iterations):
        gradient = [ridge * wi for wi in w]
        hessian = [[ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in train:
            p = _logistic(_dot(w, x))
            r, c = p - y, p * (1 - p)
            for i in range(n):
                if x[i]:
                    gradient[i] += r * x[i]
                    row, cx = hessian[i], c * x[i]
                    for j in range(n):
                        row[j] += cx * x[j]
        step = _solve(hessian, gradient)
        # Newton's step can overshoot where the logistic saturates: halve it until it helps.
        for _ in range(20):
            trial = [wi - si for wi, si in zip(w, step, strict=True)]
            trial_loss = _loss(trial, train)
            if trial_loss <= loss:
                break
            step = [si / 2 for si in step]
        else:
            break
        w, improvement, loss = trial, loss - trial_loss, trial_loss
        if improvement < 1e-9:
            break
    method = "every component"
    if w[0] < 0.1 * default_weights()[0]:
        # Progress that hardly helps is a quirk of the self-play, not a strategy to learn:
        # keep the simple bot's proportions and fit only how sure the estimate is.
        w, method = _fit_scale(train), "one scale for the hand weights"
    fitted, default = _loss(w, test), _loss(default_weights(), test)
    if not math.isfinite(fitted) or fitted > default:
        w, fitted, method = list(default_weights()), default, "default"  # never worse
    return Calibration(tuple(w), fitted, default, len(order), method)


def _fit_scale(samples: Sequence[Sample]) -> list[float]:
    """`HAND_WEIGHTS` times the positive scale that fits ``samples`` best (golden section)."""
    low, high = 1e-4, 0.5
    for _ in range(40):
        a, b = low + 0.382 * (high - low), low + 0.618 * (high - low)
        if _loss([a * h for h in HAND_WEIGHTS], samples) <= _loss(
            [b * h for h in HAND_WEIGHTS], samples
        ):
            high = b
        else:
            low = a
    scale = (low + high) / 2
    return [scale * h for h in HAND_WEIGHTS]


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


def _logistic(z: float) -> float:
    z = max(-40.0, min(40.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def _loss(w: Sequence[float], samples: Sequence[Sample]) -> float:
    total = 0.0
    for x, y in samples:
        p = min(max(_logistic(_dot(w, x)), 1e-12), 1 - 1e-12)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(samples)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` \\ ``vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("samples: the components do not vary enough to fit every weight")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for k in range(col, n + 1):
                a[r][k] -= f * a[col][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x
