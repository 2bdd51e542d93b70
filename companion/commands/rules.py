"""``senet-companion rules``: ask the rules engine from the command line.

    rules list
    rules start --ruleset R
    rules moves --ruleset R --position P --throw N
    rules moves --ruleset R --jsonl        (the batch interface of NOTATION.md, stdin to stdout)
    rules play  --ruleset R --position P --throw N --move M
    rules stats --ruleset R [--games N]     (how the ruleset plays, from self-play games)

Human-readable by default, ``--json`` for one case as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import IO, Any

from companion.cli import UsageError
from companion.rules import (
    RULESETS,
    Move,
    Position,
    Ruleset,
    SenetError,
    Transition,
    get_ruleset,
)
from companion.rules.diagram import diagram


def register(sub: Any) -> None:
    parser = sub.add_parser("rules", help="list rulesets, legal moves and their results")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    p = actions.add_parser("list", help="the rulesets, with their sources")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_list)

    p = actions.add_parser("start", help="the starting position of a ruleset")
    _common(p)
    p.set_defaults(func=_start)

    p = actions.add_parser("moves", help="the legal moves for a throw")
    _common(p)
    p.add_argument("--position", help="position in the project notation")
    p.add_argument("--throw", type=_int("throw"), help="the value thrown")
    p.add_argument(
        "--jsonl", action="store_true", help="read JSON lines on stdin, one answer per line"
    )
    p.set_defaults(func=_moves)

    p = actions.add_parser("play", help="the position after one move")
    _common(p)
    p.add_argument("--position", required=True, help="position in the project notation")
    p.add_argument(
        "--throw", type=_int("throw"), help="the value thrown (leave out for a decision)"
    )
    p.add_argument("--move", required=True, help="the move, e.g. 9-12 or 28-off")
    p.set_defaults(func=_play)

    _register_stats(actions)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", required=True, help=f"one of {', '.join(RULESETS)}")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="choose a named reading of the ruleset (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")


def _int(field: str) -> Any:
    def convert(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{field} must be a whole number, got {text!r}"
            ) from None

    return convert


def _ruleset(args: argparse.Namespace) -> Ruleset:
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"--option takes KEY=VALUE, got {item!r}")
        options[key] = value
    try:
        return get_ruleset(args.ruleset, **options)
    except SenetError as exc:
        raise UsageError(str(exc)) from None


def _position(rules: Ruleset, text: str | None) -> Position:
    if text is None:
        raise UsageError("--position is required")
    try:
        return rules.validate(Position.parse(text))
    except SenetError as exc:
        raise UsageError(f"position: {exc}") from None


def _throw(rules: Ruleset, value: object) -> int:
    try:
        return rules.throw_model.check(value)
    except SenetError as exc:
        raise UsageError(str(exc)) from None


def _emit(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def _move_json(rules: Ruleset, t: Transition) -> dict[str, Any]:
    entry: dict[str, Any] = {"move": t.move.notation(), "position": t.after.notation()}
    if rules.outcome(t.after) is not None:
        entry["game_over"] = True
    return entry


# -- actions ------------------------------------------------------------------------------
def _list(args: argparse.Namespace) -> int:
    rows = [
        {
            "name": cls.name,
            "title": cls.title,
            "source": cls.source,
            "author": cls.author,
            "year": cls.year,
            "summary": cls.summary,
            "throws": cls.throw_model.description,
            "options": {k: list(o.choices) for k, o in cls.options.items()},
        }
        for cls in RULESETS.values()
    ]
    if args.json:
        _emit(rows)
        return 0
    for row in rows:
        print(f"{row['name']:<12} {row['title']} — {row['author']}, {row['year']}")
        print(f"{'':<12} {row['summary']}")
        print(f"{'':<12} source: {row['source']}; throws: {row['throws']}")
    return 0


def _start(args: argparse.Namespace) -> int:
    rules = _ruleset(args)
    position = rules.start()
    if args.json:
        _emit({"ruleset": rules.name, "position": position.notation()})
    else:
        print(position.notation())
        print(diagram(position))
    return 0


def _moves(args: argparse.Namespace) -> int:
    rules = _ruleset(args)
    if args.jsonl:
        return batch(rules, sys.stdin, sys.stdout)
    position = _position(rules, args.position)
    if args.throw is None:
        raise UsageError("--throw is required (or use --jsonl)")
    throw = _throw(rules, args.throw)
    found, passed = rules.after_throw(position, throw)
    if args.json:
        data: dict[str, Any] = {
            "position": position.notation(),
            "throw": throw,
            "moves": [_move_json(rules, t) for t in found],
        }
        if not found:
            data["pass"] = passed.notation()
        _emit(data)
        return 0
    print(diagram(position, {t.move.start: "*" for t in found}))
    print(f"throw {throw}: ", end="")
    if not found:
        print(f"no legal move; next: {passed.notation()}")
    else:
        print(f"{len(found)} legal move{'s' if len(found) != 1 else ''}")
        for t in found:
            effects = [e.name.lower().replace("_", " ") for e in t.effects if e.name]
            note = f"  ({', '.join(effects)})" if effects else ""
            print(f"  {t.move.notation():<8} -> {t.after.notation()}{note}")
    for square, refusal in sorted(rules.refusals(position, throw).items()):
        print(f"  {square}: {rules.explain(refusal, position)}")
    return 0


def _play(args: argparse.Namespace) -> int:
    rules = _ruleset(args)
    position = _position(rules, args.position)
    throw = None if args.throw is None else _throw(rules, args.throw)
    try:
        move = Move.parse(args.move)
        t = rules.play(position, throw, move)
    except SenetError as exc:
        raise UsageError(str(exc)) from None
    outcome = rules.outcome(t.after)
    if args.json:
        data = _move_json(rules, t)
        if outcome is not None:
            data["winner"] = outcome.winner.value
        _emit(data)
        return 0
    print(t.after.notation())
    print(diagram(t.after))
    if outcome is not None:
        print(f"{outcome.winner.value} wins: {outcome.reason.value}")
    return 0


def batch(rules: Ruleset, lines: Iterable[str], out: IO[str]) -> int:
    """The batch interface: one JSON answer per JSON input line; 1 if any line was malformed."""
    failed = False
    for line in lines:
        if not line.strip():
            continue
        try:
            answer = _batch_line(rules, line)
        except (SenetError, ValueError, TypeError) as exc:
            failed = True
            answer = {"error": str(exc)}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    out.flush()
    return 1 if failed else 0


def _batch_line(rules: Ruleset, line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"line is not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(data, dict):
        raise ValueError("line must be a JSON object with 'position' and 'throw'")
    if "position" not in data:
        raise ValueError("position: missing")
    if "throw" not in data:
        raise ValueError("throw: missing")
    position = rules.validate(Position.parse(data["position"]))
    throw = rules.throw_model.check(data["throw"])
    return {
        "position": data["position"],
        "throw": throw,
        "moves": [_move_json(rules, t) for t in rules.transitions(position, throw)],
    }


# -- statistics ---------------------------------------------------------------------------
def _register_stats(actions: Any) -> None:
    p = actions.add_parser("stats", help="game length, special squares, first-player advantage")
    _common(p)
    p.add_argument("--games", type=_int("games"), default=1000, help="games to play (1000)")
    p.add_argument("--seed", type=_int("seed"), default=0, help="seed of the games (0)")
    p.add_argument("--jobs", type=_int("jobs"), default=1, help="processes to play in (1)")
    p.set_defaults(func=_stats)


def _stats(args: argparse.Namespace) -> int:
    from companion.bots.stats import ruleset_stats

    rules = _ruleset(args)
    if args.games < 1 or args.jobs < 1:
        raise UsageError("--games and --jobs must be at least 1")
    data = ruleset_stats(rules, args.games, args.seed, jobs=args.jobs)
    if args.json:
        _emit(data)
        return 0
    length, first = data["length"], data["first_player"]
    print(f"{rules.title}: {data['games']} games, {data['players']} (seed {data['seed']})")
    print(
        f"length: {length['moves_mean']} moves on average (median {length['moves_median']},"
        f" {length['moves_min']} to {length['moves_max']}), {length['throws_mean']} throws"
    )
    low, high = first["interval_95"]
    share = first["share"] if first["share"] is not None else 0.0
    print(
        f"first player ({first['side']}) won {share:.1%}"
        f" (95 % confidence interval {low:.1%}–{high:.1%})"
    )
    for row in data["special_squares"]:
        print(
            f"  {row['square']:>2} {row['name']:<28} {row['visits_per_game']:6.2f} visits a game"
            f" ({row['landings_per_game']:.2f} landings, {row['sent_there_per_game']:.2f} sent)"
        )
    per_game = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in data["per_game"].items() if v)
    print(f"per game: {per_game}")
    return 0
