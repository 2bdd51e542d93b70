"""Calibrating the win-chance estimate of a ruleset from self-play (one-parameter logistic fit).

Games are played by the simple bot against itself, with one move in ten made at random so that
the positions seen are varied; every position where a side is about to throw becomes a sample:
the `heuristic` score for W and whether W went on to win. Newton's method on the log-loss of
``logistic(scale * score)`` gives the ``scale`` that makes the estimate a calibrated chance. The
bench runs this and writes ``companion/data/calibration/<ruleset>.json``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.bots.evaluate import DEFAULT_SCALE, heuristic
from companion.bots.game import play_game
from companion.bots.players import RandomBot, SimpleBot
from companion.rules import Player, Position, Transition, get_ruleset

__all__ = ["Calibration", "Sample", "fit_scale", "self_play_samples"]

Sample = tuple[float, float]  # W's heuristic score, 1.0 if W won


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
                samples.append((heuristic(rules, position, Player.W), label))
            if ply.transition is not None:
                position = ply.transition.after
            else:
                position = rules.after_throw(position, ply.throw or 0)[1]
    return samples


@dataclass(frozen=True, slots=True)
class Calibration:
    """A fitted scale and how well it predicts (mean log-loss; 0.693 is a coin toss)."""

    scale: float
    log_loss: float
    default_log_loss: float  # the same samples with `DEFAULT_SCALE`
    samples: int

    def to_json(self, ruleset: str, source: str) -> dict[str, object]:
        return {
            "ruleset": ruleset,
            "scale": round(self.scale, 6),
            "log_loss": round(self.log_loss, 4),
            "default_log_loss": round(self.default_log_loss, 4),
            "samples": self.samples,
            "source": source,
        }


def fit_scale(samples: Sequence[Sample], *, iterations: int = 30) -> Calibration:
    """The scale that minimises the log-loss of ``logistic(scale * score)`` on ``samples``."""
    if not samples:
        raise ValueError("samples: none to fit; play at least one finished game")
    scale = DEFAULT_SCALE
    for _ in range(iterations):
        gradient = curvature = 0.0
        for score, won in samples:
            p = _logistic(scale * score)
            gradient += (p - won) * score
            curvature += p * (1 - p) * score * score
        if curvature <= 0:
            break
        step = gradient / curvature
        scale = max(1e-4, scale - step)
        if abs(step) < 1e-7:
            break
    return Calibration(scale, _loss(scale, samples), _loss(DEFAULT_SCALE, samples), len(samples))


def _logistic(z: float) -> float:
    z = max(-40.0, min(40.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def _loss(scale: float, samples: Sequence[Sample]) -> float:
    total = 0.0
    for score, won in samples:
        p = min(max(_logistic(scale * score), 1e-12), 1 - 1e-12)
        total -= won * math.log(p) + (1 - won) * math.log(1 - p)
    return total / len(samples)
