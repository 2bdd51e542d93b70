"""Replaying a game: a text script of events, or a saved journal, through the real game loop.

The loop runs without its thread, on a `ManualClock` that only the script moves forward
(``wait``), and prints the published state after each event as one JSON line. Tests use it,
and a bug report can carry the script that shows the bug. The script format is in
``docs/replay.md``; in short, one event per line:

    board start          lift 9          place 12        wait 0.5
    sticks 1 0 1 1       throw 3         press 9         move 9-12

Run it as ``senet-companion replay --ruleset R FILE`` (or ``python -m companion.replay``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from companion import actions as act
from companion.errors import ReplayError
from companion.game import TableSettings
from companion.journal import Journal, JournalError
from companion.loop import GameLoop
from companion.rules import Position, Ruleset, SenetError, get_ruleset
from companion.tracker import occupancy
from hardware import events as hw

__all__ = ["ManualClock", "ReplayError", "Replayer", "parse_line", "replay_journal", "run"]

SQLITE_MAGIC = b"SQLite format 3\x00"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class ManualClock:
    """A clock that moves only when told to: the replay's and the tests' injected time."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"time cannot go back ({seconds} s)")
        self.now += seconds

    def wall(self) -> datetime:
        return EPOCH + timedelta(seconds=self.now)


@dataclass(frozen=True, slots=True)
class Wait:
    """Move the clock forward, then let the loop look at its timers."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Slide:
    """A piece slid from ``start`` to ``end`` across the squares between (no pause)."""

    start: int
    end: int


Step = act.Event | Wait | Slide


def _ints(words: list[str], what: str) -> list[int]:
    try:
        return [int(w) for w in words]
    except ValueError:
        raise ReplayError(f"{what} must be whole numbers, got {' '.join(words)!r}") from None


def parse_line(line: str, rules: Ruleset) -> list[Step]:
    """The events of one script line (none for a blank line or a comment)."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return []
    word, *rest = text.split()
    word = word.lower()
    one = rest[0] if rest else ""
    if word == "board":
        if rest == ["start"]:
            return [hw.BoardSnapshot(occupancy(rules.start()))]
        if rest and rest[0] in ("empty", "-"):
            return [hw.BoardSnapshot(frozenset())]
        if len(rest) == 1 and len(one) == 30 and set(one) <= set("WB."):
            return [hw.BoardSnapshot(occupancy(Position(one, rules.first_side)))]
        return [hw.BoardSnapshot(frozenset(_ints(rest, "board squares")))]
    if word in ("lift", "place"):
        squares = _ints(rest, f"{word} squares") if rest else []
        if not squares:
            raise ReplayError(f"{word} needs a square, e.g. '{word} 9'")
        return [hw.SquareChanged(s, word == "place") for s in squares]
    if word == "slide":
        a, b = _pair(rest, "slide needs two squares, e.g. 'slide 9 12'")
        return [Slide(a, b)]
    if word == "press":
        return [hw.SquarePressed(s) for s in _ints(rest, "press squares")]
    if word == "sticks":
        return [hw.ThrowSettled(tuple(_ints(rest, "sticks")))]
    if word == "button":
        return [hw.ThrowRequested()]
    if word == "throw":
        if not rest:
            return [act.Throw()]
        if len(rest) == 1:
            return [act.Throw(value=_ints(rest, "throw")[0])]
        return [act.Throw(faces=tuple(_ints(rest, "throw faces")))]
    if word == "wait":
        try:
            seconds = float(one)
        except ValueError:
            raise ReplayError(f"wait needs a number of seconds, got {one!r}") from None
        if not 0 <= seconds <= 86_400:
            raise ReplayError(f"wait must be 0 to 86400 seconds, got {seconds}")
        return [Wait(seconds)]
    if word == "tick":
        return [act.Tick()]
    if word == "move":
        return [act.PlayMove(one)]
    if word == "decide":
        return [act.Decide(one)]
    if word == "new-game":
        options = dict(_option(o) for o in rest[1:])
        return [act.NewGame(one, options or None)]
    if word == "bot":
        if one == "none":
            return [act.SetBot(None)]
        if len(rest) != 2:
            raise ReplayError("bot needs a side and a level, e.g. 'bot B simple'")
        return [act.SetBot(rest[0], rest[1])]
    if word == "hint":
        return [act.Hint()]
    if word == "still":
        return [act.StillPlaying()]
    if word in ("fault", "clear-fault"):
        head, _, message = text.partition(":")
        words = head.split()[1:]
        if not words:
            raise ReplayError(f"{word} needs a code, e.g. '{word} sensor-range 12: message'")
        squares = _ints(words[1:], "fault squares")
        fault = hw.HardwareFault(words[0], message.strip() or words[0], tuple(squares))
        return [fault if word == "fault" else replace(fault, cleared=True)]
    if word == "event":
        try:
            return [act.decode(json.loads(text[len("event") :]))]
        except (ValueError, act.EventFormatError) as exc:
            raise ReplayError(f"event needs one JSON object: {exc}") from None
    raise ReplayError(f"unknown script word {word!r} (see docs/replay.md)")


def _pair(words: list[str], usage: str) -> tuple[int, int]:
    if len(words) != 2:
        raise ReplayError(usage)
    a, b = _ints(words, "squares")
    return a, b


def _option(item: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep:
        raise ReplayError(f"ruleset options are key=value, got {item!r}")
    return key, value


class Replayer:
    """Feeds script steps to a `GameLoop` on a `ManualClock`, keeping the board it implies."""

    def __init__(self, loop: GameLoop, clock: ManualClock) -> None:
        self.loop = loop
        self.clock = clock
        self.occupied: set[int] = set()

    def play(self, step: Step) -> None:
        if isinstance(step, Wait):
            self.clock.advance(step.seconds)
            self.loop.tick()
        elif isinstance(step, Slide):
            self._slide(step.start, step.end)
        else:
            if isinstance(step, hw.SquareChanged):
                (self.occupied.add if step.occupied else self.occupied.discard)(step.square)
            elif isinstance(step, hw.BoardSnapshot):
                self.occupied = set(step.occupied)
            self.loop.handle(step)

    def _slide(self, start: int, end: int) -> None:
        # Reed switches under the squares passed over close and open again.
        self.play(hw.SquareChanged(start, False))
        direction = 1 if end > start else -1
        for square in range(start + direction, end, direction):
            if 1 <= square <= 30 and square not in self.occupied:
                self.loop.handle(hw.SquareChanged(square, True))
                self.loop.handle(hw.SquareChanged(square, False))
        if 1 <= end <= 30:
            self.play(hw.SquareChanged(end, True))


def make_loop(
    ruleset: str,
    *,
    options: dict[str, str] | None = None,
    seed: int = 0,
    board: str = "presence",
    journal: Journal | None = None,
    settings: TableSettings | None = None,
) -> tuple[GameLoop, ManualClock]:
    """A loop for replaying: manual clock, seeded throws, fixed wall clock."""
    clock = ManualClock()
    rules = get_ruleset(ruleset, **(options or {}))
    loop = GameLoop(
        rules,
        journal=journal,
        clock=clock,
        rng=random.Random(seed),
        board_kind=board,
        settings=settings,
        wall_clock=clock.wall,
    )
    return loop, clock


def run(
    lines: Iterable[str],
    loop: GameLoop,
    clock: ManualClock,
    out: IO[str],
    err: IO[str],
) -> int:
    """Replay script ``lines``; print the state after each event. 0, or 1 if a line was bad."""
    replayer = Replayer(loop, clock)
    status = 0
    _emit(out, loop.snapshot())
    for number, line in enumerate(lines, start=1):
        try:
            steps = parse_line(line, loop.table.rules)
        except ReplayError as exc:
            print(f"line {number}: {exc}", file=err)
            status = 1
            continue
        for step in steps:
            replayer.play(step)
            _emit(out, loop.snapshot())
    return status


def replay_journal(
    path: Path,
    ruleset: str | None,
    out: IO[str],
    err: IO[str],
    *,
    game: str | None = None,
    board: str = "presence",
) -> int:
    """Replay the events of a saved journal's game (the latest, or ``game``)."""
    with Journal(path) as journal:
        games = journal.games()
        if not games:
            raise ReplayError(f"{path} holds no game")
        info = next((g for g in games if g.id == game), None) if game else games[-1]
        if info is None:
            raise ReplayError(f"{path} holds no game {game!r}")
        events = journal.events(info.id)
    if ruleset and ruleset != info.ruleset:
        print(f"note: the journal's game is {info.ruleset}, not {ruleset}", file=err)
    loop, clock = make_loop(info.ruleset, options=info.options, board=board)
    # The computer's throws and moves are in the journal: its sides stay the computer's (so
    # people are refused as they were) but it does not act on its own.
    loop.table.bots_act = False
    loop.table.bot_factory = lambda level, rules, rng: _Passive()
    _emit(out, loop.snapshot())
    offset = 0.0
    last = 0.0
    for at, event, by_bot in _events(events, err):
        if at + offset < last:
            offset = last - at  # the companion restarted: its clock began again
        clock.now = at + offset
        last = clock.now
        if isinstance(event, act.Tick):
            loop.tick()
        else:
            loop.handle(event, by_bot=by_bot)
        _emit(out, loop.snapshot())
    return 0


def _events(
    rows: list[tuple[float, dict[str, Any]]], err: IO[str]
) -> Iterator[tuple[float, act.Event, bool]]:
    for at, data in rows:
        try:
            yield at, act.decode(data), data.get("by") == "bot"
        except act.EventFormatError as exc:
            print(f"skipped a journal event: {exc}", file=err)


class _Passive:
    """A computer player that never plays: replays take its moves from the journal."""

    def choose(self, position: Position, throw: int) -> Any:
        raise ReplayError("a replayed computer player does not choose")


def _emit(out: IO[str], state: dict[str, Any]) -> None:
    out.write(json.dumps(state, sort_keys=True) + "\n")
    out.flush()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", required=True, help="the ruleset the script plays")
    parser.add_argument("file", metavar="FILE", help="a replay script, a saved journal, or -")
    parser.add_argument("--seed", type=int, default=0, help="seed of the electronic throws")
    parser.add_argument(
        "--board",
        choices=("presence", "buttons", "none"),
        default="presence",
        help="the kind of board the script drives (default: presence)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a ruleset option (repeatable)",
    )
    parser.add_argument(
        "--journal",
        metavar="PATH",
        help="keep the game in this journal (and resume the game it holds)",
    )
    parser.add_argument("--game", help="which game of a saved journal to replay")


def main_with(
    args: argparse.Namespace, out: IO[str] | None = None, err: IO[str] | None = None
) -> int:
    """Run the replay described by parsed ``args``; raises `ReplayError` for bad input."""
    out = out or sys.stdout
    err = err or sys.stderr
    path = None if args.file == "-" else Path(args.file)
    if path is not None and not path.is_file():
        raise ReplayError(f"{args.file}: no such file")
    if path is not None and path.read_bytes()[:16] == SQLITE_MAGIC:
        try:
            return replay_journal(path, args.ruleset, out, err, game=args.game, board=args.board)
        except JournalError as exc:
            raise ReplayError(str(exc)) from None
    try:
        options = dict(_option(o) for o in args.option)
        journal = Journal(args.journal) if args.journal else None
        loop, clock = make_loop(
            args.ruleset, options=options, seed=args.seed, board=args.board, journal=journal
        )
    except (SenetError, JournalError) as exc:
        raise ReplayError(str(exc)) from None
    if path is None:
        # Line by line, so a driver can wait for the answer to each line it wrote.
        return run(iter(sys.stdin.readline, ""), loop, clock, out, err)
    with path.open(encoding="utf-8", errors="replace") as lines:
        return run(lines, loop, clock, out, err)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.replay", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return main_with(args)
    except ReplayError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
