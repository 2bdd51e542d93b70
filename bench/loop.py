"""How fast the game loop handles events, with and without the journal on disk.

    python bench/loop.py [--games N]

Plays whole games on a presence board (every lift, place and pause a person would make) through
`GameLoop.handle`, the consumer's work for one event, and prints a Markdown table for
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.journal import Journal
from companion.replay import Replayer, make_loop, parse_line
from companion.rules import Position
from companion.tracker import Watch, judge, occupancy
from tests.physical import hands, settle


def play(ruleset: str, seed: int, journal: Journal | None) -> tuple[int, float, list[float]]:
    """One whole game; the number of events, the seconds spent and each event's latency."""
    loop, clock = make_loop(ruleset, seed=seed, journal=journal)
    replayer = Replayer(loop, clock)
    rules = loop.table.rules
    pick = random.Random(seed)
    latencies: list[float] = []

    def do(*lines: str) -> None:
        for line in lines:
            for step in parse_line(line, rules):
                start = time.perf_counter()
                replayer.play(step)
                latencies.append(time.perf_counter() - start)

    do("board start", "wait 0.5")
    while (state := loop.snapshot())["phase"] != "over":
        if state["phase"] == "decide":
            do(f"decide {state['decision']['choices'][-1]['id']}")
            continue
        if rules.throw_model.sticks:
            do("sticks " + " ".join(str(pick.getrandbits(1)) for _ in range(4)))
        else:
            do("throw")
        state = loop.snapshot()
        if state["phase"] == "move":
            position = Position.parse(state["position"])
            t = pick.choice(rules.transitions(position, state["throw"]["value"]))
            do(*hands(position, t), settle(t))
    return len(latencies), sum(latencies), latencies


def judge_rate(seconds: float = 1.0) -> float:
    rules = make_loop("playpalace")[0].table.rules
    position = rules.start()
    moves = rules.transitions(position, 3)
    watch = Watch(occupancy(position) - {9} | {12}, 0.0, frozenset({9, 12}))
    n, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        judge(watch, 5.0, position, moves, rules=rules, throw=3)
        n += 1
    return n / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per ruleset and setting")
    args = parser.parse_args()
    rows = []
    for name in ("memory", "journal"):
        events, spent, latencies = 0, 0.0, []
        with tempfile.TemporaryDirectory() as tmp:
            for ruleset in ("playpalace", "basic", "isac", "d5"):
                for seed in range(args.games):
                    journal = (
                        Journal(Path(tmp) / f"{ruleset}{seed}.db") if name == "journal" else None
                    )
                    n, s, lat = play(ruleset, seed, journal)
                    events, spent = events + n, spent + s
                    latencies += lat
                    if journal is not None:
                        journal.close()
        latencies.sort()
        p99 = latencies[int(len(latencies) * 0.99)]
        rows.append(
            f"| loop, {name} | {events} | {events / spent:,.0f} events/s |"
            f" {statistics.median(latencies) * 1e3:.2f} ms | {p99 * 1e3:.2f} ms |"
        )
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}\n")
    print("| what | events | throughput | median per event | 99th percentile |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"| tracker `judge` alone | | {judge_rate():,.0f} readings/s | | |")


if __name__ == "__main__":
    main()
