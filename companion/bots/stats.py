"""Statistics for teaching: how a ruleset plays, measured over many self-play games.

Average game length, how often the special squares are visited, how often pieces are captured
or fall in the water, and the first player's advantage, so that a museum can show how the
reconstructions play differently. The bench caches one JSON file per ruleset in
``companion/data/stats/<name>.json`` for the rules page; `cached_stats` reads it.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.bots.game import GameRecord, play_game
from companion.bots.match import wilson
from companion.bots.players import get_bot
from companion.rules import Effect, Position, Ruleset, get_ruleset

__all__ = ["cached_stats", "ruleset_stats"]

STATS_BOT = "simple"  # both sides: reasonable play, and thousands of games a minute
_EFFECTS = {
    "captures": Effect.SWAP,
    "water": Effect.WATER,
    "rebirths": Effect.REBIRTH,
    "backward_moves": Effect.BACKWARD,
    "bonus_throws": Effect.BONUS,
    "decisions": Effect.DECISION,
}


@dataclass(frozen=True, slots=True)
class _Game:
    """What the statistics keep of one game."""

    first_won: bool | None
    moves: int
    throws: int
    turns: int
    passes: int
    landings: dict[int, int]  # special square -> moves that ended there
    arrivals: dict[int, int]  # special square -> pieces sent there by an effect
    effects: dict[str, int]


def _summarise(rules: Ruleset, record: GameRecord) -> _Game:
    specials = set(rules.square_names)
    landings = dict.fromkeys(specials, 0)
    arrivals = dict.fromkeys(specials, 0)
    effects = dict.fromkeys(_EFFECTS, 0)
    passes = 0
    position = rules.start()
    for ply in record.plies:
        t = ply.transition
        if t is None:
            passes += 1
            position = rules.after_throw(position, ply.throw or 0)[1]
            continue
        if t.move.end in landings:
            landings[t.move.end] += 1
        for square in _sent_to(position, t.after, t.move.end):
            if square in arrivals:
                arrivals[square] += 1
        for name, flag in _EFFECTS.items():
            if t.effects & flag:
                effects[name] += 1
        position = t.after
    return _Game(
        None if record.winner is None else record.winner is record.first,
        record.moves,
        record.throws,
        record.turns,
        passes,
        landings,
        arrivals,
        effects,
    )


def _sent_to(before: Position, after: Position, end: int) -> list[int]:
    """Squares a piece reached other than by the move's own landing (water, rebirth, swap)."""
    return [
        square
        for square in range(1, 31)
        if square != end
        and after.board[square - 1] != "."
        and after.board[square - 1] != before.board[square - 1]
    ]


def _play(args: tuple[str, dict[str, str], int, Sequence[int]]) -> list[_Game]:
    name, options, seed, indices = args
    rules = get_ruleset(name, **options)
    games = []
    for index in indices:
        rng = random.Random(f"stats:{seed}:{index}")
        bots = {
            side: get_bot(STATS_BOT, rules, rng=random.Random(f"stats:{seed}:{index}:{side}"))
            for side in (rules.start().side, rules.start().side.other)
        }
        games.append(_summarise(rules, play_game(rules, bots, rng)))
    return games


def ruleset_stats(
    ruleset: Ruleset | str, games: int = 1000, seed: int = 0, *, jobs: int = 1
) -> dict[str, Any]:
    """Statistics of ``games`` seeded self-play games of ``ruleset``, as a JSON-able dict."""
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if games < 1:
        raise ValueError(f"games: must be at least 1, got {games}")
    options = dict(rules.settings)
    size = max(1, min(100, games // (4 * jobs) or 1))
    work = [
        (rules.name, options, seed, range(i, min(games, i + size))) for i in range(0, games, size)
    ]
    if jobs <= 1:
        parts = [_play(w) for w in work]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_play, work))
    played = [g for part in parts for g in part]
    return _report(rules, played, seed)


def _report(rules: Ruleset, played: list[_Game], seed: int) -> dict[str, Any]:
    n = len(played)
    finished = [g.first_won for g in played if g.first_won is not None]
    first_wins = sum(finished)
    low, high = wilson(first_wins, len(finished))
    moves = [g.moves for g in played]
    specials = []
    for square, name in sorted(rules.square_names.items()):
        landed = sum(g.landings[square] for g in played) / n
        sent = sum(g.arrivals[square] for g in played) / n
        specials.append(
            {
                "square": square,
                "name": name,
                "landings_per_game": round(landed, 3),
                "sent_there_per_game": round(sent, 3),
                "visits_per_game": round(landed + sent, 3),
            }
        )
    return {
        "ruleset": rules.name,
        "title": rules.title,
        "options": dict(rules.settings),
        "games": n,
        "seed": seed,
        "players": f"{STATS_BOT} bot against {STATS_BOT} bot",
        "unfinished": n - len(finished),
        "length": {
            "moves_mean": round(statistics.fmean(moves), 1),
            "moves_median": statistics.median(moves),
            "moves_min": min(moves),
            "moves_max": max(moves),
            "throws_mean": round(statistics.fmean(g.throws for g in played), 1),
            "turns_mean": round(statistics.fmean(g.turns for g in played), 1),
            "passes_mean": round(statistics.fmean(g.passes for g in played), 1),
        },
        "first_player": {
            "side": rules.start().side.value,
            "wins": first_wins,
            "share": round(first_wins / len(finished), 4) if finished else None,
            "interval_95": [round(low, 4), round(high, 4)],
        },
        "special_squares": specials,
        "per_game": {name: round(sum(g.effects[name] for g in played) / n, 3) for name in _EFFECTS},
    }


def cached_stats(name: str) -> dict[str, Any] | None:
    """The statistics the bench cached for the ruleset ``name``, or None if there are none."""
    try:
        path = resources.files("companion.data.stats").joinpath(f"{name}.json")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
