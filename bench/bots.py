"""Bots: calibration, ruleset statistics, matches and decision times.

    python bench/bots.py [--jobs J] [--games N] [--scholarly-games M] [--stages ...]

Stages (the first four by default):

- ``calibrate``: fits each ruleset family's win-chance weights on self-play games and writes
  ``companion/data/calibration/<name>.json``;
- ``stats``: `ruleset_stats` for every ruleset, cached in ``companion/data/stats/<name>.json``;
- ``matches``: strong (depth 1, no time budget, so the result repeats exactly) against simple,
  and simple against random, N games on the four original rulesets, M on the scholarly ones;
- ``timing``: the strong bot as players meet it (100 ms budget, up to 4 throws ahead) against
  simple for a few games per ruleset, timing every real choice of both bots;
- ``deeper``: strong two throws ahead against simple, fewer games, on the original rulesets;
- ``hints``: the time of `hint` and `win_chance` at the choices of one game per family.

Writes the ``## Bots`` section of docs/benchmarks.md (leaving the other sections alone).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from report import write_section

from companion.bots.evaluate import load_weights, win_chance
from companion.bots.game import play_game
from companion.bots.hints import hint
from companion.bots.learn import fit_weights, self_play_samples
from companion.bots.match import BotSpec, MatchResult, play_match
from companion.bots.players import DEFAULT_BUDGET_MS, get_bot
from companion.bots.stats import ruleset_stats
from companion.rules import RULESETS, Player, get_ruleset

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "companion" / "data"
DOC = ROOT / "docs" / "benchmarks.md"
RESULTS = ROOT / "bench" / "bots-results.json"
ORIGINAL = ("playpalace", "basic", "isac", "d5")
FAMILIES = tuple(name for name in RULESETS if "-" not in name)  # kendall-* share kendall's fit
STAGES = ("calibrate", "stats", "matches", "timing", "deeper", "hints")


def _samples(args: tuple[str, int, int]) -> list[tuple[tuple[float, ...], float]]:
    return self_play_samples(*args)


def calibrate(jobs: int, games: int, only: list[str], log: dict[str, object]) -> None:
    (DATA / "calibration").mkdir(parents=True, exist_ok=True)
    fits = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name in FAMILIES:
            if only and name not in only:
                continue
            began = time.perf_counter()
            parts = pool.map(_samples, [(name, games // 8, seed) for seed in range(8)])
            samples = [s for part in parts for s in part]
            fit = fit_weights(samples)
            source = f"bench/bots.py: {games // 8 * 8} self-play games of the simple bot"
            data = fit.to_json(name, source)
            path = DATA / "calibration" / f"{name}.json"
            path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            fits[name] = data
            took = time.perf_counter() - began
            print(
                f"calibrate {name}: log-loss {fit.log_loss:.4f}"
                f" (default {fit.default_log_loss:.4f}) on {len(samples)} positions, {took:.0f} s",
                flush=True,
            )
    log.setdefault("calibration", {}).update(fits)  # type: ignore[union-attr]
    load_weights.cache_clear()  # the matches that follow must see the new weights


def stats(jobs: int, games: int, variant_games: int, log: dict[str, object]) -> None:
    (DATA / "stats").mkdir(parents=True, exist_ok=True)
    rows = {}
    for name in RULESETS:
        began = time.perf_counter()
        n = games if name in FAMILIES else variant_games
        data = ruleset_stats(name, n, seed=0, jobs=jobs)
        path = DATA / "stats" / f"{name}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        rows[name] = data
        print(f"stats {name}: {n} games, {time.perf_counter() - began:.0f} s", flush=True)
    log["stats"] = rows


def _match(
    name: str, a: BotSpec, b: BotSpec, games: int, jobs: int, *, timed: bool = False
) -> MatchResult:
    began = time.perf_counter()
    result = play_match(name, a, b, games, seed=2026, jobs=jobs, timed=timed)
    print(f"{result.summary()} [{time.perf_counter() - began:.0f} s]", flush=True)
    return result


def matches(jobs: int, games: int, scholarly: int, log: dict[str, object]) -> None:
    strong = BotSpec("strong", budget_ms=None, max_depth=1)
    rows = []
    for name in FAMILIES:
        n = games if name in ORIGINAL else scholarly
        for a, b in ((strong, BotSpec("simple")), (BotSpec("simple"), BotSpec("random"))):
            rows.append(_match(name, a, b, n, jobs).to_json())
    log["matches"] = rows


def deeper(jobs: int, games: int, log: dict[str, object]) -> None:
    strong = BotSpec("strong", budget_ms=None, max_depth=2)
    log["deeper"] = [
        _match(name, strong, BotSpec("simple"), games, jobs).to_json() for name in ORIGINAL
    ]


def hints(log: dict[str, object]) -> None:
    """Time `hint` and `win_chance` at every real choice of one simple-bot game per family."""
    rows = {}
    for name in FAMILIES:
        rules = get_ruleset(name)
        bots = {side: get_bot("simple", rules, rng=random.Random(1)) for side in Player}
        record = play_game(rules, bots, random.Random(1))
        position, hint_ms, chance_ms = rules.start(), [], []
        for ply in record.plies:
            if ply.throw is not None and ply.options > 1:
                began = time.perf_counter()
                hint(rules, position, ply.throw)
                hint_ms.append((time.perf_counter() - began) * 1000)
                began = time.perf_counter()
                win_chance(rules, position)
                chance_ms.append((time.perf_counter() - began) * 1000)
            if ply.transition is not None:
                position = ply.transition.after
            else:
                position = rules.after_throw(position, ply.throw or 0)[1]
        rows[name] = {
            "positions": len(hint_ms),
            "hint_ms": [round(statistics.median(hint_ms), 2), round(max(hint_ms), 1)],
            "win_chance_ms": [round(statistics.median(chance_ms), 2), round(max(chance_ms), 1)],
        }
        print(f"hints {name}: {rows[name]}", flush=True)
    log["hints"] = rows


def timing(jobs: int, games: int, log: dict[str, object]) -> None:
    real = BotSpec("strong", budget_ms=DEFAULT_BUDGET_MS, max_depth=4)
    rows = []
    for name in FAMILIES:
        # One process only: timings taken side by side with another game would be inflated.
        rows.append(_match(name, real, BotSpec("simple"), games, 1, timed=True).to_json())
        rows.append(
            _match(name, BotSpec("random"), BotSpec("simple"), games, 1, timed=True).to_json()
        )
    log["timing"] = rows


def write_doc(log: dict[str, object]) -> None:
    lines = ["## Bots", ""]
    minutes: dict[str, float] = log.get("stage_minutes", {})  # type: ignore[assignment]
    spent = ", ".join(f"{stage} {m:g}" for stage, m in minutes.items())
    if "minutes" in log:  # a whole run before stage times were kept
        spent = f"whole run {log['minutes']:.0f}" + (f", then {spent}" if spent else "")
    lines.append(
        f"`.venv/bin/python bench/bots.py` ({log['machine']}, shared with other work, so"
        f" times are pessimistic); minutes per stage: {spent}. Full figures:"
        " `bench/bots-results.json`."
    )
    lines.append("")
    match_rows = list(log.get("matches", [])) + list(log.get("deeper", []))  # type: ignore[call-overload]
    if match_rows:
        lines += [
            "### Matches",
            "",
            "Seeded games (seed 2026), the two bots alternating who starts; wins of the first-named"
            " bot with a 95 % Wilson interval. `strong (depth 1)` is the strong bot limited to one"
            " throw ahead and no clock, so that the thousands of games fit in the run and repeat"
            " exactly; as players meet it (100 ms, deeper) it is measured under Decision times.",
            "",
            "| ruleset | match | games | wins | share | 95 % interval | first player won |",
            "|---|---|---:|---:|---:|---|---:|",
        ]
        for row in match_rows:
            low, high = row["interval_95"]
            lines.append(
                f"| {row['ruleset']} | {row['a']} vs {row['b']} | {row['games']} |"
                f" {row['wins_a']} | {row['share_a']:.1%} | {low:.1%}–{high:.1%} |"
                f" {row['first_player_share']:.1%} |"
            )
        lines.append("")
    if "timing" in log:
        lines += [
            "### Decision times",
            "",
            "Time per real choice (two or more legal moves, or a decision), one game at a time,"
            " wall clock on a shared machine; the strong bot with its default 100 ms budget and"
            " up to four throws ahead.",
            "",
            "| ruleset | bot | choices | median | worst | result of these games |",
            "|---|---|---:|---:|---:|---|",
        ]
        for row in log["timing"]:  # type: ignore[union-attr]
            for who in ("a", "b"):
                t = row.get(f"decision_ms_{who}")
                if not t:
                    continue
                result = f"{row['a']} {row['wins_a']}–{row['wins_b']} {row['b']}"
                lines.append(
                    f"| {row['ruleset']} | {row[who]} | {t['choices']} | {t['median']:.2f} ms |"
                    f" {t['worst']:.1f} ms | {result} |"
                )
        lines.append("")
    if "hints" in log:
        lines += [
            "### Hints and win chances",
            "",
            "`hint()` (two throws ahead, node-limited) and `win_chance()` (one throw ahead) at"
            " every real choice of one simple-bot game per ruleset: median and worst.",
            "",
            "| ruleset | positions | hint | win_chance |",
            "|---|---:|---:|---:|",
        ]
        for name, row in log["hints"].items():  # type: ignore[union-attr]
            (hm, hw), (cm, cw) = row["hint_ms"], row["win_chance_ms"]
            lines.append(
                f"| {name} | {row['positions']} | {hm:.1f} ms, worst {hw:.0f} ms |"
                f" {cm:.2f} ms, worst {cw:.1f} ms |"
            )
        lines.append("")
    if "calibration" in log:
        lines += [
            "### Win-chance calibration",
            "",
            "Mean log-loss of W's estimated chance on held-out self-play positions (0.693 is a"
            " coin toss), fitted weights against the hand weights scaled by the default.",
            "",
            "| ruleset | positions | fitted | default |",
            "|---|---:|---:|---:|",
        ]
        for name, data in log["calibration"].items():  # type: ignore[union-attr]
            lines.append(
                f"| {name} | {data['samples']} | {data['log_loss']:.4f} |"
                f" {data['default_log_loss']:.4f} |"
            )
        lines.append("")
    if "stats" in log:
        lines += [
            "### Ruleset statistics",
            "",
            "`senet-companion rules stats`: simple bot against simple bot, seed 0; cached for the"
            " rules page in `companion/data/stats/`. Unfinished: still running after 4,000 throws"
            " (with the home-row option of Kendall's rules, a wall and pieces left at home can"
            " block both sides for good).",
            "",
            "| ruleset | games | unfinished | moves (mean) | first player won | captures | water |"
            " per game |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for name, data in log["stats"].items():  # type: ignore[union-attr]
            first = data["first_player"]
            per, length = data["per_game"], data["length"]
            lines.append(
                f"| {name} | {data['games']} | {data['unfinished']} | {length['moves_mean']} |"
                f" {first['side']} {first['share']:.1%} | {per['captures']} | {per['water']} |"
                f" {length['throws_mean']} throws |"
            )
        lines.append("")
    section = "\n".join(lines).rstrip() + "\n"
    write_section("Bots", section, DOC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", type=int, default=2000, help="match games, original rulesets")
    parser.add_argument("--scholarly-games", type=int, default=500, help="match games, others")
    parser.add_argument("--calibration-games", type=int, default=800)
    parser.add_argument("--stats-games", type=int, default=1000)
    parser.add_argument("--variant-stats-games", type=int, default=300)
    parser.add_argument("--timing-games", type=int, default=4)
    parser.add_argument("--deeper-games", type=int, default=300)
    parser.add_argument(
        "--doc-only", action="store_true", help="rewrite the docs section from the results file"
    )
    parser.add_argument("--stages", nargs="+", choices=STAGES, default=list(STAGES[:4]))
    parser.add_argument(
        "--only", nargs="+", default=[], choices=FAMILIES, help="calibrate these families only"
    )
    args = parser.parse_args(argv)
    log: dict[str, object] = {}
    if RESULTS.exists():
        log.update(json.loads(RESULTS.read_text(encoding="utf-8")))
    log["machine"] = (
        f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}"
    )
    if args.doc_only:
        write_doc(log)
        return 0
    spent: dict[str, float] = dict(log.get("stage_minutes", {}))  # type: ignore[call-overload]
    for stage in STAGES:
        if stage not in args.stages:
            continue
        began = time.perf_counter()
        if stage == "calibrate":
            calibrate(args.jobs, args.calibration_games, args.only, log)
        elif stage == "stats":
            stats(args.jobs, args.stats_games, args.variant_stats_games, log)
        elif stage == "matches":
            matches(args.jobs, args.games, args.scholarly_games, log)
        elif stage == "timing":
            timing(args.jobs, args.timing_games, log)
        elif stage == "deeper":
            deeper(args.jobs, args.deeper_games, log)
        else:
            hints(log)
        key = f"{stage} ({', '.join(args.only)})" if stage == "calibrate" and args.only else stage
        spent[key] = round((time.perf_counter() - began) / 60, 1)
    log["stage_minutes"] = spent
    RESULTS.write_text(json.dumps(log, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_doc(log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
