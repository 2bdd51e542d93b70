"""Hints: the best move for the throw in hand and each player's chance of winning from here."""

from __future__ import annotations

from dataclasses import dataclass

from companion.bots.evaluate import Evaluator
from companion.bots.search import Expectimax, SearchLimits
from companion.rules import Player, Position, Ruleset, Transition

__all__ = ["Hint", "ScoredMove", "hint"]

HINT_DEPTH = 2  # throws looked ahead: a few milliseconds, and the same answer on every machine
HINT_NODES = 20_000


@dataclass(frozen=True, slots=True)
class ScoredMove:
    """A legal move and White's chance to win after it."""

    transition: Transition
    chance_w: float

    def to_json(self) -> dict[str, object]:
        return {
            "move": self.transition.move.notation(),
            "position": self.transition.after.notation(),
            "chances": _chances(self.chance_w),
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """The advice for one throw: the moves best first, and the chances after the best one.

    With no legal move, ``best`` is None, ``moves`` is empty and the chances are those after
    the pass.
    """

    position: Position
    throw: int
    moves: tuple[ScoredMove, ...]
    chance_w: float
    depth: int

    @property
    def best(self) -> Transition | None:
        return self.moves[0].transition if self.moves else None

    @property
    def chance_b(self) -> float:
        return 1.0 - self.chance_w

    def chance(self, player: Player) -> float:
        return self.chance_w if player is Player.W else self.chance_b

    def to_json(self) -> dict[str, object]:
        best = self.best
        return {
            "position": self.position.notation(),
            "throw": self.throw,
            "best": best.move.notation() if best else None,
            "chances": _chances(self.chance_w),
            "moves": [m.to_json() for m in self.moves],
            "depth": self.depth,
        }


def _chances(chance_w: float) -> dict[str, float]:
    return {"W": round(chance_w, 4), "B": round(1.0 - chance_w, 4)}


def hint(
    ruleset: Ruleset,
    position: Position,
    throw: int,
    *,
    depth: int = HINT_DEPTH,
    max_nodes: int = HINT_NODES,
) -> Hint:
    """The moves for ``throw`` in ``position`` ranked best first, with each player's chance.

    The search is limited by depth and nodes, not by time, so a hint is the same on a slow
    board computer as in a test.
    """
    ruleset.throw_model.check(throw)
    search = Expectimax(ruleset, Evaluator(ruleset))
    found, passed = ruleset.after_throw(position, throw)
    if not found:
        return Hint(position, throw, (), search.value(passed, depth), depth)
    ranked = search.rank(position, throw, SearchLimits(None, max_nodes, depth))
    moves = tuple(ScoredMove(t, v) for t, v in ranked.moves)
    return Hint(position, throw, moves, moves[0].chance_w, ranked.depth)
