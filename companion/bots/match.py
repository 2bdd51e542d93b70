"""Matches between bots: seeded games, alternating who starts, wins with a confidence interval.

Game ``i`` of a match with seed ``S`` draws its throws from ``random.Random(f"{S}:{i}")`` and each
bot's tie-breaks from its own generator seeded the same way, so a match is reproducible game by
game whatever the number of worker processes. Bot ``a`` plays the side that starts in even games,
``b`` in odd ones.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from companion.bots.errors import UnknownBot
from companion.bots.game import Bot, play_game
from companion.bots.players import DEFAULT_BUDGET_MS, LEVELS, get_bot
from companion.rules import get_ruleset

__all__ = ["BotSpec", "DecisionTimes", "GameSummary", "MatchResult", "play_match", "wilson"]


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot level and its search limits (for the strong bot), as a match plays it."""

    level: str
    budget_ms: float | None = DEFAULT_BUDGET_MS
    max_depth: int = 4
    max_nodes: int | None = None

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise UnknownBot(f"unknown bot level {self.level!r}; choose one of {', '.join(LEVELS)}")

    def build(self, ruleset: str, rng: random.Random) -> Bot:
        return get_bot(
            self.level,
            ruleset,
            rng=rng,
            budget_ms=self.budget_ms,
            max_depth=self.max_depth,
            max_nodes=self.max_nodes,
        )

    def __str__(self) -> str:
        if self.level != "strong":
            return self.level
        limits = [f"depth {self.max_depth}"]
        if self.budget_ms is not None:
            limits.append(f"{self.budget_ms:g} ms")
        if self.max_nodes is not None:
            limits.append(f"{self.max_nodes} nodes")
        return f"strong ({', '.join(limits)})"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a match keeps of one game."""

    index: int
    a_first: bool
    winner: str | None  # "a", "b" or None (unfinished)
    first_won: bool | None
    moves: int
    times_a: tuple[float, ...] = ()  # seconds per real choice (two or more options)
    times_b: tuple[float, ...] = ()


def _play_one(
    ruleset: str, a: BotSpec, b: BotSpec, seed: int, index: int, timed: bool
) -> GameSummary:
    rules = get_ruleset(ruleset)
    rng = random.Random(f"{seed}:{index}")
    bot_a = a.build(ruleset, random.Random(f"{seed}:{index}:a"))
    bot_b = b.build(ruleset, random.Random(f"{seed}:{index}:b"))
    first = rules.start().side
    a_first = index % 2 == 0
    bots = {first: bot_a, first.other: bot_b} if a_first else {first: bot_b, first.other: bot_a}
    record = play_game(rules, bots, rng, clock=time.perf_counter if timed else None)
    winner = None
    if record.winner is not None:
        winner = "a" if bots[record.winner] is bot_a else "b"
    a_side = first if a_first else first.other
    times_a = tuple(p.seconds for p in record.plies if p.options > 1 and p.side is a_side)
    times_b = tuple(p.seconds for p in record.plies if p.options > 1 and p.side is not a_side)
    return GameSummary(
        index,
        a_first,
        winner,
        None if record.winner is None else record.winner is first,
        record.moves,
        times_a if timed else (),
        times_b if timed else (),
    )


def _play_chunk(args: tuple[str, BotSpec, BotSpec, int, Sequence[int], bool]) -> list[GameSummary]:
    ruleset, a, b, seed, indices, timed = args
    return [_play_one(ruleset, a, b, seed, i, timed) for i in indices]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for the default ``z``)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    spread /= 1 + z * z / trials
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return (low, high)


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """Seconds per real choice of one bot over a match."""

    count: int
    median: float
    worst: float

    @classmethod
    def of(cls, times: Sequence[float]) -> DecisionTimes:
        if not times:
            return cls(0, 0.0, 0.0)
        return cls(len(times), statistics.median(times), max(times))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of a match of ``a`` against ``b``."""

    ruleset: str
    a: BotSpec
    b: BotSpec
    seed: int
    games: tuple[GameSummary, ...] = field(repr=False)

    @property
    def wins_a(self) -> int:
        return sum(1 for g in self.games if g.winner == "a")

    @property
    def wins_b(self) -> int:
        return sum(1 for g in self.games if g.winner == "b")

    @property
    def finished(self) -> int:
        return self.wins_a + self.wins_b

    @property
    def share_a(self) -> float:
        return self.wins_a / self.finished if self.finished else 0.0

    def interval(self) -> tuple[float, float]:
        """95 % confidence interval of ``a``'s share of the finished games."""
        return wilson(self.wins_a, self.finished)

    @property
    def first_player_share(self) -> float:
        done = [g.first_won for g in self.games if g.first_won is not None]
        return sum(done) / len(done) if done else 0.0

    @property
    def mean_moves(self) -> float:
        return statistics.fmean(g.moves for g in self.games) if self.games else 0.0

    def times(self, who: str) -> DecisionTimes:
        return DecisionTimes.of([t for g in self.games for t in getattr(g, f"times_{who}")])

    def to_json(self) -> dict[str, object]:
        low, high = self.interval()
        data: dict[str, object] = {
            "ruleset": self.ruleset,
            "a": str(self.a),
            "b": str(self.b),
            "seed": self.seed,
            "games": len(self.games),
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "unfinished": len(self.games) - self.finished,
            "share_a": round(self.share_a, 4),
            "interval_95": [round(low, 4), round(high, 4)],
            "first_player_share": round(self.first_player_share, 4),
            "mean_moves": round(self.mean_moves, 1),
        }
        for who in ("a", "b"):
            t = self.times(who)
            if t.count:
                data[f"decision_ms_{who}"] = {
                    "choices": t.count,
                    "median": round(t.median * 1000, 2),
                    "worst": round(t.worst * 1000, 2),
                }
        return data

    def summary(self) -> str:
        low, high = self.interval()
        text = (
            f"{self.a} won {self.wins_a} of {self.finished} games against {self.b} on"
            f" {self.ruleset}: {self.share_a:.1%} (95 % confidence interval {low:.1%}–{high:.1%})"
        )
        unfinished = len(self.games) - self.finished
        if unfinished:
            text += f"; {unfinished} unfinished"
        return text


def _chunks(games: int, jobs: int) -> Iterator[list[int]]:
    size = max(1, min(50, games // (jobs * 4) or 1))
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def play_match(
    ruleset: str,
    a: BotSpec,
    b: BotSpec,
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    timed: bool = False,
) -> MatchResult:
    """Play ``games`` games of ``a`` against ``b`` on ``ruleset``, in ``jobs`` processes.

    With ``timed``, each bot's choices are timed on the wall clock (for the bench; timings
    depend on the machine and its load, the wins do not unless a time budget is set).
    """
    get_ruleset(ruleset)  # an unknown name fails here, before any process starts
    if games < 1:
        raise ValueError(f"games: must be at least 1, got {games}")
    work = [(ruleset, a, b, seed, chunk, timed) for chunk in _chunks(games, jobs)]
    if jobs <= 1:
        parts = [_play_chunk(w) for w in work]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_play_chunk, work))
    summaries = tuple(g for part in parts for g in part)
    return MatchResult(ruleset, a, b, seed, summaries)
