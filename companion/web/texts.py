"""The words of the page that depend on the game state, in the visitor's language.

Every English text here is marked with ``N_`` so Babel's extractor puts it in the catalogues;
``describe`` turns a published state into the short texts the page shows beside the board.
Announcements are worded by ``companion.announce`` (the game loop's templates) and fall back to
the English text the loop published when a template is unknown.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["N_", "announcement_text", "describe", "player_name"]

Gettext = Callable[[str], str]


def N_(text: str) -> str:
    """Marks a text for translation without translating it (Babel's extractor looks for it)."""
    return text


# The same names the announcements use; the pieces' shapes are named beside them on the page.
PLAYERS = {"W": N_("Light"), "B": N_("Dark")}

# Names the rulesets give to squares and game ends, so the catalogues can translate them.
WORDS = (
    N_("House of Rebirth"),
    N_("House of Happiness"),
    N_("House of Water"),
    N_("House of Waters"),
    N_("House of Three Truths"),
    N_("House of Re-Atum"),
    N_("the last square"),
    N_("House of Second Life"),
    N_("House of Beauty"),
    N_("House of Three Judges"),
    N_("House of Two Judges"),
    N_("House of Horus"),
    N_("all pieces borne off"),
    N_("most pieces borne off"),
)

EFFECTS = {
    "swap": N_("swaps"),
    "water": N_("falls into the water"),
    "rebirth": N_("is reborn"),
    "bear_off": N_("bears off"),
    "bear-off": N_("bears off"),
    "bonus": N_("throws again"),
    "bonus_lost": N_("no extra throw"),
    "bonus-lost": N_("no extra throw"),
    "backward": N_("backward"),
    "enter": N_("enters"),
    "win": N_("wins"),
}


def player_name(side: Any, _: Gettext) -> str:
    return _(PLAYERS.get(str(side), str(side)))


def _render_function() -> Callable[..., str] | None:
    try:
        module = importlib.import_module("companion.announce")
    except ImportError:
        return None
    render = getattr(module, "render", None)
    return render if callable(render) else None


def announcement_text(item: Mapping[str, Any], _: Gettext) -> str:
    """An announcement in the visitor's language, or the loop's English text."""
    render = _render_function()
    fallback = str(item.get("text", ""))
    if render is None or not item.get("key"):
        return fallback
    try:
        return str(render(item.get("key"), item.get("params") or {}, gettext=_))
    except (KeyError, ValueError, TypeError, LookupError):
        return fallback


def _move_label(entry: Mapping[str, Any], _: Gettext) -> str:
    move = str(entry.get("move", ""))
    start, _sep, target = move.partition("-")
    if target == "off":
        label = _("%(start)s → off") % {"start": start}
    elif start == "hand":
        label = _("enter on %(target)s") % {"target": target}
    else:
        label = f"{start} → {target}"
    effects = [_(EFFECTS[e]) for e in entry.get("effects") or [] if e in EFFECTS]
    return f"{label} ({', '.join(effects)})" if effects else label


def describe(state: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
    """The texts shown beside the board, ready for the template and the live updates."""
    side = player_name(state.get("side"), _)
    phase = state.get("phase")
    throw = state.get("throw") or None
    outcome = state.get("outcome") or None
    off = state.get("off") or {}
    if phase == "over" and outcome:
        turn = _("%(player)s wins: %(reason)s") % {
            "player": player_name(outcome.get("winner"), _),
            "reason": _(str(outcome.get("reason", ""))),
        }
    elif phase == "move" and throw:
        turn = _("%(player)s to move with %(value)s") % {
            "player": side,
            "value": throw.get("value"),
        }
    elif phase == "decide":
        turn = _("%(player)s to decide") % {"player": side}
    elif phase == "setup":
        turn = _("Set up the pieces to start")
    elif phase == "idle-check":
        turn = _("Still playing?")
    elif phase == "attract":
        turn = _("Come and play Senet, the oldest board game still played!")
    else:
        turn = _("%(player)s to throw") % {"player": side}
    board = str(state.get("board", ""))
    hand = {side: max(0, 5 - board.count(side) - int(off.get(side, 0) or 0)) for side in ("W", "B")}
    decision = state.get("decision") or None
    check = state.get("board_check") or {}
    faults = (state.get("hardware") or {}).get("faults") or []
    return {
        "turn": turn,
        "side": str(state.get("side", "")),
        "phase": str(phase or ""),
        "off": _("Borne off: light %(w)s, dark %(b)s")
        % {"w": off.get("W", 0), "b": off.get("B", 0)},
        "hand": (
            _("In hand: light %(w)s, dark %(b)s") % {"w": hand["W"], "b": hand["B"]}
            if board and any(hand.values())
            else ""
        ),
        "bonus": _("Throws again after this move") if throw and throw.get("bonus") else "",
        "throw": (_("Thrown: %(value)s") % {"value": throw.get("value")} if throw else ""),
        "moves": [
            {"move": str(m.get("move", "")), "label": _move_label(m, _)}
            for m in state.get("legal") or []
        ],
        "decision": (
            {
                "prompt": announcement_text({**decision, "text": decision.get("prompt", "")}, _),
                "choices": [
                    {
                        "id": str(c.get("id", "")),
                        "label": announcement_text({**c, "text": c.get("label", "")}, _),
                    }
                    for c in decision.get("choices") or []
                ],
            }
            if decision
            else None
        ),
        "board_check": "" if check.get("matches", True) else str(check.get("message", "")),
        "faults": [str(f.get("message", f.get("code", ""))) for f in faults],
        "can_throw": phase == "throw",
        "over": phase == "over",
        "idle": phase == "idle-check",
        "announcements": [
            {"id": a.get("id"), "kind": str(a.get("kind", "info")), "text": announcement_text(a, _)}
            for a in state.get("announcements") or []
        ],
    }
