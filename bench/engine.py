"""Engine speed: random playouts per second and legal-move lists per second, per ruleset.

    python bench/engine.py [--seconds S] [--write]

Runs each measurement for about S seconds on one core (best of three rounds) and, with --write,
puts the table into the "Engine" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from report import write_section

from companion.rules import RULESETS, Position, get_ruleset
from companion.rules.playout import random_playout


def sample_positions(name: str, count: int, seed: int = 1) -> list[tuple[Position, int]]:
    """Positions met in random games, each with a throw drawn at that point."""
    rules = get_ruleset(name)
    rng = random.Random(seed)
    found: list[tuple[Position, int]] = []

    def keep(before: Position, throw: int | None, t: object, after: Position) -> None:
        if throw is not None and rules.needs_throw(before):
            found.append((before, throw))

    while len(found) < count:
        random_playout(rules, rng, observe=keep)
    return found[:count]


def rate(fn, seconds: float) -> float:
    """Calls of ``fn`` per second: best of three rounds of about ``seconds / 3``."""
    best = 0.0
    for _ in range(3):
        calls, start = 0, time.perf_counter()
        deadline = start + seconds / 3
        while (now := time.perf_counter()) < deadline:
            calls += fn()
        best = max(best, calls / (now - start))
    return best


def measure(name: str, seconds: float) -> tuple[float, float, float]:
    rules = get_ruleset(name)
    rng = random.Random(42)
    plies = 0
    games = 0

    def one_game() -> int:
        nonlocal plies, games
        result = random_playout(rules, rng)
        plies += result.plies
        games += 1
        return 1

    games_per_s = rate(one_game, seconds)
    positions = sample_positions(name, 5000)

    def lists() -> int:
        transitions = rules.transitions
        for position, throw in positions:
            transitions(position, throw)
        return len(positions)

    lists_per_s = rate(lists, seconds)
    return games_per_s, lists_per_s, plies / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per measurement")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    rows = []
    ratio_games = ratio_lists = 0.0
    for name in RULESETS:
        games, lists, plies = measure(name, args.seconds)
        if name == "playpalace":
            ratio_games, ratio_lists = games / 1200, lists / 210_000
        rows.append(f"| `{name}` | {games:,.0f} | {lists:,.0f} | {plies:.0f} |")
        print(rows[-1], flush=True)
    table = "\n".join(
        [
            "| ruleset | random games / s | legal-move lists / s | plies per game |",
            "|---|---:|---:|---:|",
            *rows,
        ]
    )
    section = (
        "## Engine\n\n"
        f"`python bench/engine.py --write` on {platform.machine()}, Python "
        f"{platform.python_version()}, one core, best of three rounds of "
        f"{args.seconds / 3:.1f} s. A game is a uniformly random playout from the start "
        "(`companion.rules.playout.random_playout`: throws drawn with the exact odds, every "
        "decision point counted as a ply); a legal-move list is `transitions(position, throw)` "
        "over 5,000 positions met in such games (every legal move; a move's resulting "
        "position is worked out when first asked for, as a game does for the one it "
        "plays).\n\n"
        f"{table}\n\n"
        "For scale: PlayPalace's own Senet module, which knows only its one ruleset, plays "
        "about 1,200 random games a second (about 210,000 legal-move lists a second) on this "
        f"machine class. On `playpalace` the general engine plays {ratio_games:.2f} times as "
        f"many games and lists {ratio_lists:.2f} times as many legal moves a second, short of "
        "the aim of three times: every ply goes through the general turn flow (decisions, "
        "passes, split throws, resulting positions with their effects) that a single-ruleset "
        "module does not have.\n"
    )
    if args.write:
        write_section("Engine", section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
