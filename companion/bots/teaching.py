"""Teaching mode: the rule that applied to a move, and why the other moves were not allowed.

Built on the engine's own explanations (``rules.refusals`` and ``rules.explain``), so every
ruleset, present or future, is explained in its own terms. Sentences are plain English.
"""

from __future__ import annotations

from companion.rules import HAND, OFF, Effect, Move, Player, Position, Ruleset, Transition

__all__ = ["announce", "explain", "explain_pass", "why_not_lines"]

_BACKWARD_CODES = frozenset({"too-far-back", "forward-first", "no-backward"})


def explain(
    ruleset: Ruleset, position: Position, throw: int | None, transition: Transition | None
) -> list[str]:
    """Sentences for an announcement: what ``transition`` did and which rules applied, the
    other moves that were allowed, and why each remaining piece could not move.

    ``throw`` is None for a decision made instead of throwing; ``transition`` None means the
    throw allowed no move (see `explain_pass`).
    """
    if transition is None:
        if throw is None:
            raise ValueError("throw: a pass needs the throw that allowed no move")
        return explain_pass(ruleset, position, throw)
    lines = [_what_happened(ruleset, position, throw, transition)]
    if throw is None:
        return lines
    others = [
        t.move.notation() for t in ruleset.transitions(position, throw) if t.move != transition.move
    ]
    if others:
        lines.append(f"Other moves allowed with a {throw}: {', '.join(others)}.")
    else:
        lines.append(f"It was the only move allowed with a {throw}.")
    lines.extend(why_not_lines(ruleset, position, throw))
    return lines


def explain_pass(ruleset: Ruleset, position: Position, throw: int) -> list[str]:
    """Why a throw allowed no move, and what happens next."""
    side = _name(position.side)
    found, passed = ruleset.after_throw(position, throw)
    if found:
        raise ValueError(f"throw: a {throw} allows {len(found)} moves here, so the turn is no pass")
    lines = [f"{side} has no move with a {throw}."]
    lines.extend(why_not_lines(ruleset, position, throw))
    if passed.side is position.side:
        lines.append(f"{side} throws again.")
    else:
        lines.append(f"The turn passes to {_name(passed.side)}.")
    return lines


def why_not_lines(ruleset: Ruleset, position: Position, throw: int) -> list[str]:
    """Why each piece of the side to move cannot move with ``throw``: one sentence per reason,
    naming every move it rules out ("2-3 and 4-5 are not allowed: ...")."""
    moves: dict[str, list[str]] = {}
    pieces: dict[str, list[str]] = {}
    for square, refusal in sorted(ruleset.refusals(position, throw).items()):
        reason = ruleset.explain(refusal, position)
        target = square - throw if refusal.code in _BACKWARD_CODES else square + throw
        if refusal.code == "exit-only" or target < 1 or target > OFF:
            pieces.setdefault(reason, []).append(str(square))
        else:
            moves.setdefault(reason, []).append(Move(square, target).notation())
    lines = []
    for reason, names in moves.items():
        verb = "is" if len(names) == 1 else "are"
        lines.append(f"{_series(names)} {verb} not allowed: {reason}.")
    for reason, squares in pieces.items():
        what = "The piece on" if len(squares) == 1 else "The pieces on"
        lines.append(f"{what} {_series(squares)} cannot move: {reason}.")
    return lines


def _series(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _name(player: Player) -> str:
    return f"{player.value} ({'light' if player is Player.W else 'dark'})"


def _place(ruleset: Ruleset, square: int) -> str:
    name = ruleset.square_names.get(square)
    return f"{square}, {name}," if name else str(square)


def _what_happened(ruleset: Ruleset, position: Position, throw: int | None, t: Transition) -> str:
    move, effects, mover = t.move, t.effects, position.side
    parts: list[str] = []
    if effects & Effect.DECISION:
        parts.append(f"{move.notation()}: {_name(mover)} chose this instead of throwing")
    elif move.start == HAND:
        parts.append(f"{move.notation()}: a piece enters the board on {_place(ruleset, move.end)}")
    elif move.end == OFF:
        parts.append(f"{move.notation()}: the piece on {move.start} is borne off")
    else:
        verb = "moves back" if effects & Effect.BACKWARD else "moves"
        place = _place(ruleset, move.end).rstrip(",")
        parts.append(f"{move.notation()}: the piece on {move.start} {verb} to {place}")
    if effects & Effect.BACKWARD:
        parts.append("no piece could move forward, so a piece had to move backward")
    if effects & Effect.SWAP:
        sent = _arrived(position, t.after, mover.other)
        where = f" to {sent}" if sent else " back"
        parts.append(f"it captures: the {mover.other.value} piece there goes{where}")
    landed = _arrived(position, t.after, mover, exclude=move.end)
    if effects & Effect.WATER:
        parts.append(
            f"landing on the water square ({ruleset.water}) sends it to {landed}"
            if landed
            else f"the piece is caught in the water on {move.end}"
        )
    if effects & Effect.REBIRTH and landed:
        parts.append(f"ending on {move.end} sends it on to {landed}")
    if effects & Effect.WIN:
        parts.append(f"{_name(mover)} has borne off every piece and wins")
    elif effects & Effect.BONUS and throw is not None:
        parts.append(f"a {throw} throws again")
    elif effects & Effect.BONUS_LOST:
        parts.append("the extra throw is lost")
    elif effects & Effect.CONTINUE:
        parts.append(f"{_name(mover)} plays on with the rest of the throw")
    elif t.after.side is not mover:
        parts.append(f"the turn passes to {_name(mover.other)}")
    return "; ".join(parts) + "."


def _arrived(
    before: Position, after: Position, player: Player, exclude: int | None = None
) -> int | None:
    """A square where a piece of ``player`` stands after the move but did not before."""
    for square in after.squares_of(player):
        if square != exclude and before.at(square) is not player:
            return square
    return None


def announce(
    ruleset: Ruleset,
    position: Position,
    throw: int | None,
    transition: Transition,
    *,
    teach: bool = False,
) -> list[str]:
    """What to tell the players when a bot has chosen ``transition``.

    The first line is an instruction a person can carry out on a wooden board (the tracker then
    checks the squares); with ``teach``, the lines of `explain` follow.
    """
    mover = position.side
    move = transition.move
    colour = "light" if mover is Player.W else "dark"
    if move.start == HAND:
        text = f"Place a {colour} piece on square {move.end}"
    elif move.end == OFF:
        text = f"Take the {colour} piece on square {move.start} off the board"
    else:
        text = f"Move the {colour} piece from square {move.start} to square {move.end}"
    after = transition.after
    landed = _arrived(position, after, mover, exclude=move.end)
    if landed is not None and move.end != OFF and after.at(move.end) is not mover:
        text += f", then on to square {landed}"
    swapped = _arrived(position, after, mover.other)
    if transition.effects & Effect.SWAP and swapped is not None:
        other = "dark" if mover is Player.W else "light"
        text += f"; the {other} piece that was there goes to square {swapped}"
    lines = [f"{_name(mover)} plays {move.notation()}. {text}."]
    if teach:
        lines.extend(explain(ruleset, position, throw, transition))
    return lines
