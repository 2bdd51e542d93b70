"""Reading Ludii's Senet playout records (``ludii-*.jsonl.gz``) into the project's notation.

The records are Ludii's own per-ply dumps (format in ``README-ludii.md`` beside them): a board of
``1``/``2``/``.``, the mover, the throw, and every legal move with the state after it. This module
turns each record into a `Case`: the position in the project notation, the throw, the moves
Ludii allows with the positions they lead to, and (when Ludii only passes) the position after
the pass. The tests compare those with the engine.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from conftest import shared_dir

from companion.rules import Position


def records(name: str) -> Iterator[dict[str, Any]]:
    """The records of ``vectors/ludii-<name>.jsonl.gz``, in file order."""
    path = shared_dir() / "vectors" / f"ludii-{name}.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


@dataclass
class Case:
    """One Ludii decision point in the project's terms."""

    record: dict[str, Any]
    position: Position
    throw: int
    moves: dict[str, str] = field(default_factory=dict)  # move -> position after
    passed: str | None = None  # the position after Ludii's pass, when it only passes
    voluntary_pass: bool = False  # Ludii offers a pass beside other moves
    game_over: set[str] = field(default_factory=set)  # moves that end the game


def _square(value: Any) -> int | str:
    return value if isinstance(value, int) else {"off": "off", "hand": "hand"}[value]


def move_text(m: dict[str, Any]) -> str:
    return f"{_square(m['from'])}-{_square(m['to'])}"


def steps_of(m: dict[str, Any]) -> int:
    start = 0 if m["from"] == "hand" else m["from"]
    end = 31 if m["to"] == "off" else (0 if m["to"] == "hand" else m["to"])
    return abs(end - start)


def _board(board: str, p1: str) -> str:
    p2 = "B" if p1 == "W" else "W"
    return board.replace("1", p1).replace("2", p2)


def _color(player: int, p1: str) -> str:
    return p1 if player == 1 else ("B" if p1 == "W" else "W")


def _notation(board: str, side: str, off: tuple[int, int], extras: dict[str, str]) -> str:
    text = f"{board} {side} {off[0]} {off[1]}"
    if extras:
        text += " " + " ".join(f"{k}={v}" for k, v in sorted(extras.items()))
    return text


def _offs(state: dict[str, Any], p1: str, key: str = "off") -> tuple[int, int]:
    values = state.get(key, [0, 0])
    return (values[0], values[1]) if p1 == "W" else (values[1], values[0])


# -- Kendall (P1 is the project's B) ------------------------------------------------------
def kendall_cases(name: str, starting_throw: bool) -> Iterator[Case]:
    p1 = "B"

    def extras(state: dict[str, Any], board: str, opening: bool) -> dict[str, str]:
        found: dict[str, str] = {}
        if opening:
            found["opening"] = "1"
        if starting_throw and state.get("pval", [-1, -1])[1] != 1:
            found["waiting"] = "W"
        if state.get("state15") == 1 and board[14] != ".":
            found["rescued"] = board[14]
        return found

    for r in records(name):
        opening = r["phase"] == "Opening"
        board = _board(r["board"], p1)
        side = "B" if opening else _color(r["mover"], p1)
        text = _notation(board, side, _offs(r, p1), extras(r, board, opening))
        case = Case(r, Position.parse(text), r["throw"])
        _fill(case, r, p1, lambda m, b: extras(m, b, False), opening_side="B" if opening else None)
        yield case


# -- Jéquier (P1 is W) --------------------------------------------------------------------
def jequier_cases() -> Iterator[Case]:
    p1 = "W"
    for r in records("jequier"):
        opening = r["phase"] == "Opening"
        board = _board(r["board"], p1)
        side = "B" if opening else _color(r["mover"], p1)
        text = _notation(board, side, _offs(r, p1), {"opening": "1"} if opening else {})
        case = Case(r, Position.parse(text), r["throw"])
        _fill(case, r, p1, lambda m, b: {}, opening_side="B" if opening else None)
        yield case


# -- Bell (P1 is W; ``off`` counts taken pieces too, ``score`` the borne off) --------------
def bell_cases() -> Iterator[Case]:
    p1 = "W"
    first_throw = 0
    for r in records("bell"):
        board = _board(r["board"], p1)
        extras: dict[str, str] = {}
        side = _color(r["mover"], p1)
        if r["phase"] == "Opening":
            extras["rolloff"] = "W" if r["mover"] == 1 else str(first_throw)
            first_throw = r["throw"]
        text = _notation(board, side, _offs(r, p1, "score"), extras)
        case = Case(r, Position.parse(text), r["throw"])
        for m in r["moves"]:
            after_board = _board(m["board"], p1)
            after = _notation(after_board, _color(m["next"], p1), _offs(m, p1, "score"), {})
            if m.get("pass"):
                if r["phase"] == "Opening" and r["mover"] == 1:
                    after = _notation(after_board, "B", (0, 0), {"rolloff": str(r["throw"])})
                case.passed = after
            else:
                _add(case, m, after)
        yield case


# -- Piccione (P1 is W; pieces in hand; split throws) -------------------------------------
def piccione_cases() -> Iterator[Case]:
    p1 = "W"
    game = None
    entered = False  # the previous ply entered a piece
    direction = ""  # direction of the last part of the throw being split
    origin = 0  # the fresh throw being split
    saved = False  # a part of this throw landed on 15 or 26: an extra throw is due
    for r in records("piccione"):
        if r["game"] != game:
            game, entered, direction, origin, saved = r["game"], False, "", 0, False
        board = _board(r["board"], p1)
        side = _color(r["mover"], p1)
        mover = r["mover"] - 1
        extras: dict[str, str] = {}
        if r["rolled"]:
            throw = r["throw"]
            origin, saved = throw, False
            if entered:
                extras["entered"] = "1"
        else:
            throw = r["pval"][mover]
            extras["rest"] = str(throw)
            if direction == "back":
                extras["dir"] = "back"
            if saved or origin == 5:
                extras["extra"] = "1"
        case = Case(r, Position.parse(_notation(board, side, _offs(r, p1), extras)), throw)
        case.record["origin"] = origin
        case.record["saved"] = saved
        for m in r["moves"]:
            after_board = _board(m["board"], p1)
            next_side = _color(m["next"], p1)
            if m.get("pass"):
                if len(r["moves"]) > 1:
                    case.voluntary_pass = True
                else:
                    case.passed = _notation(after_board, next_side, _offs(m, p1), {})
                continue
            if m["to"] == "hand":  # Ludii's removal of an entered piece that cannot move
                case.passed = _notation(after_board, next_side, _offs(m, p1), {})
                continue
            after_extras: dict[str, str] = {}
            if m["from"] == "hand":
                after_extras["entered"] = "1"
            elif m["next"] == r["mover"] and throw - steps_of(m) > 0 and not m.get("over"):
                after_extras["rest"] = str(throw - steps_of(m))
                if m["to"] != "off" and m["to"] < m["from"]:
                    after_extras["dir"] = "back"
                if saved or origin == 5 or m["to"] in (15, 26):
                    after_extras["extra"] = "1"
            _add(case, m, _notation(after_board, next_side, _offs(m, p1), after_extras))
        chosen = r["moves"][r["chosen"]]
        entered = chosen.get("from") == "hand"
        if chosen.get("to") in (15, 26) and chosen["next"] == r["mover"]:
            saved = saved or throw - steps_of(chosen) > 0
        if not chosen.get("pass") and chosen.get("from") not in ("hand", None):
            back = (
                chosen["to"] != "off" and chosen["to"] != "hand" and chosen["to"] < chosen["from"]
            )
            direction = "back" if back else "forward"
        yield case


# -- shared -------------------------------------------------------------------------------
def _add(case: Case, m: dict[str, Any], after: str) -> None:
    text = move_text(m)
    case.moves[text] = after
    if m.get("over"):
        case.game_over.add(text)


def _fill(case: Case, r: dict[str, Any], p1: str, extras: Any, opening_side: str | None) -> None:
    for m in r["moves"]:
        after_board = _board(m["board"], p1)
        if m.get("pass"):
            side = opening_side or _color(m["next"], p1)
            if opening_side and "M" in m["acts"]:  # the opening throw of 1 moves the front piece
                front = next(a for a in m["acts"].split() if a.startswith("M"))[1:]
                start, end = front.split(">")
                case.moves[f"{start}-{end}"] = _notation(
                    after_board, "B", _offs(m, p1), extras(m, after_board)
                )
            elif len(r["moves"]) > 1:
                case.voluntary_pass = True
            else:
                opening = {"opening": "1"} if opening_side else {}
                case.passed = _notation(
                    after_board, side, _offs(m, p1), {**opening, **extras(m, after_board)}
                )
            continue
        after = _notation(after_board, _color(m["next"], p1), _offs(m, p1), extras(m, after_board))
        _add(case, m, after)
