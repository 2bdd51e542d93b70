"""Every sentence the companion says, keyed, so the page can show it in the visitor's language.

Each English template is wrapped in `N_` (a no-op) so Babel's extractor finds it. Announcements
carry a ``key`` and JSON-able ``params`` (square numbers, "W"/"B", throw values); `render` turns
them into text with any ``gettext``. A ``reason`` param names a refusal of the rules engine and
is rendered from the ``reason-*`` templates; a ``fix`` param is a list of
``{"key": ..., "params": ...}`` steps rendered one after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["KINDS", "N_", "TEMPLATES", "kind_of", "render", "side_name"]


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it here."""
    return text


SIDES: Mapping[str, str] = {"W": N_("Light"), "B": N_("Dark")}
OFF_BOARD = N_("off the board")

TEMPLATES: Mapping[str, str] = {
    # -- the game going on -----------------------------------------------------------------
    "new-game": N_("New game of {title}. {side} throws first."),
    "setup": N_("Set up the board for {title}: light pieces on {light}, dark pieces on {dark}."),
    "setup-done": N_("The board is set up. {side} throws first."),
    "resumed": N_("The game goes on where it stopped. {side} is to play."),
    "setup-empty": N_("New game of {title}: keep every piece off the board; they enter in play."),
    "throw": N_("{side} threw {value}."),
    "rest": N_("{side} plays the rest of the throw: {value}."),
    "rest-lost": N_("{side} cannot use the rest of the throw ({value})."),
    "entered": N_("{side} entered a piece on {to}."),
    "water-hand": N_(
        "The piece fell into the House of Waters: take it off {landing}; it must enter again."
    ),
    "throw-move": N_("{side} threw {value}: move a piece."),
    "throw-electronic": N_("This game is played with {model}: throw with the button on the page."),
    "moved": N_("{side} moved {from} to {to}."),
    "swap": N_("{side} moved {from} to {to} and swapped: the other piece goes to {back}."),
    "water": N_("The piece fell into the House of Waters: move it from {landing} to {to}."),
    "water-stays": N_("The piece fell into the House of Waters and waits on {to}."),
    "rebirth": N_("The piece is reborn: move it from {landing} to {to}."),
    "bear-off": N_("{side} bore a piece off from {from}."),
    "bonus": N_("{side} throws again."),
    "bonus-lost": N_("No extra throw after this move."),
    "pass": N_("{side} cannot move with {value}: the turn passes."),
    "pass-bonus": N_("{side} cannot move with {value} but throws again."),
    "pass-opening": N_("{value} is not a 1: pass the sticks on. The first 1 starts the game."),
    "decided": N_("{side} chose {label}."),
    "win": N_("{side} wins: {reason_text}."),
    "bot-set": N_("The computer plays {side} ({level})."),
    "bot-removed": N_("A person plays {side} now."),
    "bot-move": N_("The computer plays {from} to {to} for {side}: please move the piece."),
    "hint": N_("Hint: move the piece on {from} to {to}."),
    "hint-none": N_("There is no move to suggest right now."),
    "selected": N_("Move the piece from {from} to {to}, then press {to}."),
    "selected-swap": N_(
        "Move the piece from {from} to {to} and the other player's piece from {to} to {from},"
        " then press {to}."
    ),
    "selected-off": N_("Take the piece on {from} off the board, then press {from} again."),
    "decide-swap": N_("Which move did you make?"),
    "decide-move": N_("Which move did you make?"),
    "decide-water": N_(
        "Your piece is in the House of Waters: send it back to {to}, or throw for a {throw}."
    ),
    "decide-water-throw": N_(
        "Your piece is in the House of Waters: send it back to {to}, or throw the sticks."
    ),
    "choice-move": N_("{from} to {to}"),
    "choice-none": N_("I have not moved yet"),
    "choice-throw": N_("Throw the sticks"),
    "choice-water": N_("Send the piece back to {to}"),
    "board-fixed": N_("The board matches the game again."),
    "idle-check": N_("Still playing? Touch the page or make a move."),
    "attract": N_("A new game of {title} is ready: set up the pieces to play."),
    "fault": N_("Sensor problem: {message}"),
    "fault-cleared": N_("The sensor problem is gone: {message}"),
    # -- mistakes --------------------------------------------------------------------------
    "mistake-move": N_("{from} to {to} is not allowed: {reason_text}. {fix_text}"),
    "mistake-lifted": N_("The piece on {from} cannot move: {reason_text}. {fix_text}"),
    "mistake-board": N_("The board does not match the game. {fix_text}"),
    "mistake-not-yet": N_("Throw first, then move. {fix_text}"),
    "mistake-finish-move": N_("Finish the move first. {fix_text}"),
    "mistake-fix-board": N_("Make the board match the game before throwing. {fix_text}"),
    "mistake-electronic-only": N_(
        "This game is played with {model}: use the electronic throw on the page."
    ),
    "mistake-no-throw": N_("Throw first: there is no throw to move with."),
    "mistake-not-throwing": N_("It is not time to throw: {doing}."),
    "mistake-illegal": N_("{move} is not allowed: {reason_text}."),
    "mistake-bad-input": N_("That was not understood: {problem}."),
    "mistake-no-decision": N_("There is no question waiting for an answer."),
    "mistake-bad-choice": N_("{choice} is not one of the answers: choose {choices}."),
    "mistake-game-over": N_("The game is over: start a new game."),
    "mistake-press": N_("The piece on {from} cannot move: {reason_text}."),
    "mistake-press-empty": N_("There is no piece of {side} on {square} to move."),
    "mistake-bot-move": N_("The computer chose {from} to {to}. {fix_text}"),
    "mistake-bot-turn": N_("It is the computer's turn."),
    "mistake-bot-unavailable": N_("The computer player is not available: {problem}."),
    "mistake-unknown-ruleset": N_("Unknown ruleset {name}: choose one of {known}."),
    "mistake-phone-disabled": N_("Moves are made on the board here, not on the phone."),
    "mistake-internal": N_(
        "The companion could not handle that ({problem}); the game is unchanged."
    ),
    "mistake-split": N_("This ruleset splits throws, which this companion cannot play yet."),
    # -- the physical steps in a fix -------------------------------------------------------
    "fix-put-back": N_("Put the piece back on {square}."),
    "fix-move": N_("Move the piece from {from} to {to}."),
    "fix-place": N_("Put a piece on {square}."),
    "fix-remove": N_("Take the piece off {square}."),
    "fix-place-side": N_("Put a {side_text} piece on {square}."),
    "fix-wait": N_("Then go on."),
    # -- the rules engine's refusals, by code ------------------------------------------------
    "reason-no-piece": N_("there is no piece of the player to move on square {0}"),
    "reason-own": N_("square {0} is taken by one of your own pieces"),
    "reason-protected": N_("the piece on square {0} is protected and cannot be captured"),
    "reason-wall": N_("{0}-{1}-{2} is a wall of three that cannot be passed"),
    "reason-stop-26": N_("square 26 must be landed on exactly"),
    "reason-exit-only": N_("a piece on square {0} can only leave the board"),
    "reason-overshoot": N_("bearing off needs the exact throw"),
    "reason-too-far-back": N_("the piece would go back past square 1"),
    "reason-forward-first": N_("a piece may move backward only when no piece can move forward"),
    "reason-elsewhere": N_("with this throw the piece on {0} goes to {1}"),
    "reason-deal-with-water": N_("the piece in the House of Waters (27) must be dealt with first"),
    "reason-opening-9": N_("the first light move must be made with the piece on square 9"),
    "reason-opening-dark": N_("the game starts when somebody throws a 1 and moves 10 to 11"),
    "reason-game-over": N_("the game is over"),
    "reason-no-backward": N_("a piece on square {0} never moves backward"),
    "reason-locked": N_("the piece on square {0} cannot move"),
    "reason-no-move": N_("no piece moves that way"),
    "reason-end-all-borne-off": N_("all pieces borne off"),
    "reason-end-score": N_("most pieces borne off"),
}

KINDS: Mapping[str, str] = {
    "throw": "throw",
    "throw-move": "throw",
    "pass": "throw",
    "pass-bonus": "throw",
    "pass-opening": "throw",
    "rest": "throw",
    "rest-lost": "throw",
    "entered": "move",
    "water-hand": "rule",
    "moved": "move",
    "swap": "move",
    "bear-off": "move",
    "decided": "move",
    "bot-move": "move",
    "water": "rule",
    "water-stays": "rule",
    "rebirth": "rule",
    "bonus": "rule",
    "bonus-lost": "rule",
    "win": "result",
}


def kind_of(key: str) -> str:
    """The announcement kind the page groups ``key`` under."""
    if key.startswith("mistake-"):
        return "mistake"
    return KINDS.get(key, "info")


def side_name(side: str, gettext: Callable[[str], str] = lambda s: s) -> str:
    return gettext(SIDES[side]) if side in SIDES else side


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(
    key: str, params: Mapping[str, Any] | None = None, gettext: Callable[[str], str] = lambda s: s
) -> str:
    """The text of announcement ``key`` with ``params`` filled in, translated by ``gettext``."""
    params = dict(params or {})
    template = TEMPLATES.get(key)
    if template is None:
        return str(params.get("text", key))
    if key.startswith("reason-"):
        return _reason(key, params, gettext)
    values = _Params(params)
    if "side" in params:
        values["side"] = side_name(str(params["side"]), gettext)
        values["side_text"] = values["side"].lower()
    for name in ("from", "to", "square", "back", "landing"):
        if params.get(name) in (31, "off"):
            values[name] = gettext(OFF_BOARD)
    if "reason" in params:
        values["reason_text"] = _reason("reason-" + str(params["reason"]), params, gettext)
    if "fix" in params:
        values["fix_text"] = " ".join(
            render(step.get("key", ""), step.get("params", {}), gettext)
            for step in params["fix"]
            if isinstance(step, Mapping)
        )
    else:
        values["fix_text"] = ""
    try:
        return gettext(template).format_map(values).strip()
    except (IndexError, KeyError, ValueError):
        return str(params.get("text", template))


def _reason(key: str, params: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """A refusal of the rules engine: its template takes the squares it is about, in order."""
    template = TEMPLATES.get(key)
    if template is None:
        return key.removeprefix("reason-")
    squares = ["off the board" if s == 31 else str(s) for s in params.get("squares", ())]
    try:
        return gettext(template).format(*squares, *[""] * 3)
    except (IndexError, KeyError, ValueError):
        return template.format(*squares, *[""] * 3)
