"""``senet-companion bots``: computer opponents from the command line.

    bots match --ruleset R --games N A B [--seed S] [--jobs J]   (A, B: random, simple, strong)
    bots hint  --ruleset R --position P --throw N [--teach]

``match`` plays seeded games between two bots, alternating who starts, and prints the wins with a
95 % confidence interval; ``hint`` ranks the moves for a throw with each player's chance to win,
and with ``--teach`` explains the best move and why the other pieces cannot move.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from companion.cli import UsageError


def register(sub: Any) -> None:
    from companion.bots.players import LEVELS
    from companion.rules import RULESETS

    parser = sub.add_parser("bots", help="play bots against each other, and ask for hints")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    p = actions.add_parser("match", help="bots against each other, with a confidence interval")
    p.add_argument("--ruleset", required=True, help=f"one of {', '.join(RULESETS)}")
    p.add_argument("--games", type=_count("games"), default=100, help="games to play (100)")
    p.add_argument("a", choices=LEVELS, help="the first bot")
    p.add_argument("b", choices=LEVELS, help="the second bot")
    p.add_argument("--seed", type=_count("seed", 0), default=0, help="seed of the throws (0)")
    p.add_argument(
        "--jobs", type=_count("jobs"), default=1, help="processes to play in (1; 0: every core)"
    )
    p.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="the strong bot's time per move (default: none, so results repeat exactly)",
    )
    p.add_argument(
        "--depth", type=_count("depth", 0), default=2, help="the strong bot's throws ahead (2)"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_match)

    p = actions.add_parser("hint", help="the best move for a throw and the chances to win")
    p.add_argument("--ruleset", required=True, help=f"one of {', '.join(RULESETS)}")
    p.add_argument("--position", required=True, help="position in the project notation")
    p.add_argument("--throw", required=True, type=_count("throw", 0), help="the value thrown")
    p.add_argument("--teach", action="store_true", help="explain the rules behind the move")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_hint)


def _count(field: str, minimum: int = 1) -> Any:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{field} must be a whole number, got {text!r}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{field} must be at least {minimum}, got {value}")
        return value

    return convert


def _match(args: argparse.Namespace) -> int:
    from companion.bots.match import BotSpec, play_match
    from companion.rules import SenetError

    jobs = args.jobs if args.jobs > 0 else os.cpu_count() or 1
    if args.budget_ms is not None and args.budget_ms <= 0:
        raise UsageError(f"--budget-ms must be positive, got {args.budget_ms:g}")
    specs = [BotSpec(level, args.budget_ms, args.depth) for level in (args.a, args.b)]
    try:
        result = play_match(args.ruleset, specs[0], specs[1], args.games, seed=args.seed, jobs=jobs)
    except SenetError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    print(result.summary())
    print(
        f"the first player won {result.first_player_share:.1%};"
        f" {result.mean_moves:.0f} moves per game on average"
    )
    return 0


def _hint(args: argparse.Namespace) -> int:
    from companion.bots.hints import hint
    from companion.bots.teaching import explain
    from companion.rules import Position, SenetError, get_ruleset

    try:
        rules = get_ruleset(args.ruleset)
        position = rules.validate(Position.parse(args.position))
        throw = rules.throw_model.check(args.throw)
    except SenetError as exc:
        raise UsageError(str(exc)) from None
    advice = hint(rules, position, throw)
    lines = explain(rules, position, throw, advice.best) if args.teach else []
    if args.json:
        data = advice.to_json()
        if args.teach:
            data["explanation"] = lines
        print(json.dumps(data, ensure_ascii=False))
        return 0
    if advice.best is None:
        print(f"no legal move with a {throw}")
    for scored in advice.moves:
        w = scored.chance_w
        print(f"  {scored.transition.move.notation():<8} W {w:6.1%}   B {1 - w:6.1%}")
    print(f"chances with the best play: W {advice.chance_w:.1%}, B {advice.chance_b:.1%}")
    for line in lines:
        print(line)
    return 0
