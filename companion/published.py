"""The game as others see it: the published state, and the checkpoint a restart resumes from.

`view` builds the JSON-able state of the web contract (without its version, which the loop
adds); `checkpoint` and `restore` turn a `Table` into the JSON kept in the journal and back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.announce import render
from companion.rules import OFF, Effect, Position, get_ruleset
from companion.tracker import Watch

if TYPE_CHECKING:
    from companion.game import Table

__all__ = ["Choice", "Decision", "checkpoint", "effect_names", "end_name", "restore", "view"]


def effect_names(flags: int) -> list[str]:
    """``Effect`` flags as the page's names: ``["swap", "bear-off"]``."""
    effects = Effect(flags)
    return [e.name.lower().replace("_", "-") for e in Effect if e.name and e in effects and e]


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer to a question on the phone: its id, and its label's announcement key."""

    id: str
    key: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """A question on the phone: the prompt's announcement key and the choices."""

    key: str
    params: dict[str, Any]
    choices: tuple[Choice, ...]


def checkpoint(table: Table) -> dict[str, Any]:
    """Everything needed to resume the game after a restart (JSON-able)."""
    return {
        "game_id": table.game_id,
        "started": table.started,
        "ruleset": table.rules.name,
        "options": dict(table.rules.settings),
        "position": table.position.notation(),
        "phase": table.phase,
        "resume_phase": table.resume_phase,
        "throw": table.throw,
        "legal": [str(t.move) for t in table.legal],
        "decision": _decision_json(table.decision),
        "last_move": table.last_move,
        "hint": table.hint,
        "selected": table.selected,
        "bot_move": str(table.bot_move.move) if table.bot_move else None,
        "bots": dict(table.bots),
        "announcements": list(table.announcements),
        "next_announcement": table.next_announcement,
    }


def restore(table: Table, state: Mapping[str, Any], now: float) -> None:
    """Take up the game of a checkpoint (the loop checks the board against it next)."""
    table.rules = get_ruleset(state["ruleset"], **state.get("options", {}))
    table.game_id = state["game_id"]
    table.started = state["started"]
    table.position = table.rules.validate(Position.parse(state["position"]))
    table.phase = state["phase"]
    table.resume_phase = state.get("resume_phase")
    table.throw = state.get("throw")
    table.legal = ()
    if table.throw is not None:
        table.legal = tuple(table.rules.transitions(table.position, table.throw["value"]))
    table.decision = _decision_from(state.get("decision"))
    table.last_move = state.get("last_move")
    table.hint = state.get("hint")
    table.selected = state.get("selected")
    table.bot_move = None
    if state.get("bot_move"):
        table.bot_move = next((t for t in table.legal if str(t.move) == state["bot_move"]), None)
    table.bots = dict(state.get("bots") or {"W": None, "B": None})
    table.announcements = list(state.get("announcements", []))
    table.next_announcement = int(state.get("next_announcement", 1))
    if table.phase in ("idle-check", "attract"):
        table.phase = table.resume_phase or "throw"
    table.phase_since = now
    table.last_activity = now
    table.last_step_at = now
    table.watch = Watch(frozenset(), now)
    table.board_seen = False
    table.reported = None
    table.say("resumed", side=table.position.side.value)


def view(table: Table) -> dict[str, Any]:
    """The published state without its version (see the web contract)."""
    rules = table.rules
    outcome = rules.outcome(table.position)
    return {
        "game_id": table.game_id,
        "ruleset": {
            "name": rules.name,
            "title": rules.title,
            "electronic_only": rules.throw_model.sticks == 0,
            "throw_kind": "sticks" if rules.throw_model.sticks else "die",
            "square_names": {str(k): v for k, v in rules.square_names.items()},
            "throw_model": rules.throw_model.description,
            "options": dict(rules.settings),
        },
        "position": table.position.notation(),
        "board": table.position.board,
        "side": table.position.side.value,
        "off": {"W": table.position.off_w, "B": table.position.off_b},
        "phase": table.phase,
        "throw": dict(table.throw) if table.throw else None,
        "legal": [
            {
                "move": str(t.move),
                "from": t.move.start,
                "to": end_name(t.move.end),
                "effects": effect_names(t.flags),
                "after": t.after.notation(),
            }
            for t in (table.legal if table.phase == "move" else ())
        ],
        "decision": _decision_view(table),
        "last_move": table.last_move,
        "board_check": _board_check(table),
        "outcome": (
            {"winner": outcome.winner.value, "reason": outcome.reason.value} if outcome else None
        ),
        "announcements": list(table.announcements),
        "bots": dict(table.bots),
        "hint": table.hint,
        "selected": table.selected,
    }


def _decision_view(table: Table) -> dict[str, Any] | None:
    d = table.decision
    if d is None or table.phase != "decide":
        return None
    return {
        "prompt": render(d.key, d.params),
        "key": d.key,
        "params": d.params,
        "choices": [
            {"id": c.id, "label": render(c.key, c.params), "key": c.key, "params": c.params}
            for c in d.choices
        ],
    }


def _board_check(table: Table) -> dict[str, Any]:
    if table.board_kind != "presence":
        return {"matches": True, "extra": [], "missing": [], "message": ""}
    sensed = table.watch.sensed - table.ignored_squares()
    expected = table.expected_board()
    message = ""
    if sensed != expected and (table.phase != "move" or table.reported == table.watch.sensed):
        message = " ".join(render(s["key"], s["params"]) for s in table.board_fix_steps())
    return {
        "matches": sensed == expected,
        "extra": sorted(sensed - expected),
        "missing": sorted(expected - sensed),
        "message": message,
    }


def end_name(end: int) -> int | str:
    """A move's end square as the page shows it: a number, or "off"."""
    return "off" if end == OFF else end


def _decision_json(d: Decision | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "key": d.key,
        "params": d.params,
        "choices": [{"id": c.id, "key": c.key, "params": c.params} for c in d.choices],
    }


def _decision_from(data: Mapping[str, Any] | None) -> Decision | None:
    if not data:
        return None
    choices = tuple(Choice(c["id"], c["key"], dict(c["params"])) for c in data["choices"])
    return Decision(data["key"], dict(data["params"]), choices)
