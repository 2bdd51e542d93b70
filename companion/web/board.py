"""Draws the board as SVG from a published state: the track, pieces, last move, sticks, moves.

Pure: a function of the state dict and a ``gettext`` for the few words inside the drawing, so
the same picture is made for the first page load and for every live update. Players are told
apart by shape, not colour alone: W's pieces are cones, B's are spools.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import escape

__all__ = ["CELL", "render_board", "square_centre"]

Gettext = Callable[[str], str]

CELL = 60
_LEFT = 44  # room for pieces entering from the hand
_TOP = 8
_WIDTH = _LEFT + 10 * CELL + 64
_STICKS_TOP = _TOP + 3 * CELL + 14
_HEIGHT = _STICKS_TOP + 56

# Marks drawn on the special squares (whatever a ruleset calls them).
_MARKS = {
    15: '<path d="M0,-14a6,7 0 1 1 0.1,0M0,-7v21M-8,-3h16" class="mark-line"/>',
    26: '<g class="mark-line"><path d="M0,14v-18"/><circle cx="0" cy="-9" r="5"/>'
    '<path d="M-7,3h14"/></g>',
    27: '<path d="M-15,-6q4,-5 8,0t8,0t8,0t7,0M-15,2q4,-5 8,0t8,0t8,0t7,0'
    'M-15,10q4,-5 8,0t8,0t8,0t7,0" class="mark-water"/>',
    28: '<path d="M-8,-10v20M0,-10v20M8,-10v20" class="mark-line"/>',
    29: '<path d="M-4,-10v20M4,-10v20" class="mark-line"/>',
    30: '<path d="M0,-10v20" class="mark-line"/>',
}


def square_centre(square: int | str) -> tuple[float, float]:
    """Where a square (1..30), ``"off"`` or ``"hand"`` is drawn."""
    if square == "off" or (isinstance(square, int) and square > 30):
        return _LEFT + 10 * CELL + 32, _TOP + 2.5 * CELL
    if square == "hand" or (isinstance(square, int) and square < 1):
        return _LEFT / 2, _TOP + 0.5 * CELL
    index = int(square) - 1
    row, place = divmod(index, 10)
    column = 9 - place if row == 1 else place
    return _LEFT + (column + 0.5) * CELL, _TOP + (row + 0.5) * CELL


def _end(value: Any, text: str) -> int | str:
    if text in ("off", "hand"):
        return text
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return text if text in ("off", "hand") else "off"


def _move_ends(entry: Mapping[str, Any]) -> tuple[int | str, int | str]:
    start, _, target = str(entry.get("move", "")).partition("-")
    return _end(entry.get("from"), start), _end(entry.get("to"), target)


def _piece(player: str, x: float, y: float) -> str:
    if player == "W":
        shape = (
            f'<path d="M{x - 14},{y + 17}L{x - 3},{y - 15}Q{x},{y - 20} {x + 3},{y - 15}'
            f'L{x + 14},{y + 17}Q{x},{y + 22} {x - 14},{y + 17}Z" class="cone"/>'
        )
    else:
        shape = (
            f'<path d="M{x - 13},{y - 18}H{x + 13}V{y - 12}Q{x + 5},{y} {x + 13},{y + 12}'
            f'V{y + 18}H{x - 13}V{y + 12}Q{x - 5},{y} {x - 13},{y - 12}Z" class="spool"/>'
        )
    return shape


def _arrow(a: tuple[float, float], b: tuple[float, float], cls: str) -> str:
    (x1, y1), (x2, y2) = a, b
    # Bend arrows that change rows so they do not run through the pieces between.
    bend = 0.0 if abs(y1 - y2) < 1 else (CELL * 0.9 if x1 >= _LEFT + 5 * CELL else -CELL * 0.9)
    mx, my = (x1 + x2) / 2 + bend, (y1 + y2) / 2
    return (
        f'<path d="M{x1:.0f},{y1:.0f}Q{mx:.0f},{my - (14 if not bend else 0):.0f} '
        f'{x2:.0f},{y2:.0f}" class="{cls}" marker-end="url(#head-{cls})"/>'
    )


def _sticks(throw: Mapping[str, Any] | None, _: Gettext) -> str:
    if not throw:
        return ""
    faces = throw.get("faces")
    value = escape(str(throw.get("value", "")))
    label = escape(_("Last throw"))
    parts = [f'<g class="sticks" aria-label="{label}: {value}">']
    x = _LEFT
    if isinstance(faces, list) and faces:
        for face in faces:
            cls = "stick-light" if face else "stick-dark"
            parts.append(
                f'<rect x="{x}" y="{_STICKS_TOP + 8}" width="64" height="16" rx="8" class="{cls}"/>'
            )
            if face:
                parts.append(
                    f'<path d="M{x + 18},{_STICKS_TOP + 10}v12M{x + 32},{_STICKS_TOP + 10}v12'
                    f'M{x + 46},{_STICKS_TOP + 10}v12" class="stick-mark"/>'
                )
            x += 74
    else:
        parts.append(
            f'<rect x="{x}" y="{_STICKS_TOP + 2}" width="30" height="30" rx="5" class="die"/>'
        )
        x += 40
    parts.append(
        f'<text x="{x + 6}" y="{_STICKS_TOP + 23}" class="throw-value">= {value}</text></g>'
    )
    return "".join(parts)


def render_board(state: Mapping[str, Any], gettext: Gettext = lambda s: s) -> str:
    """The SVG of ``state`` (the published-state dict of the game loop)."""
    _ = gettext
    board = str(state.get("board", "")).ljust(30, ".")[:30]
    names: Mapping[str, str] = (state.get("ruleset") or {}).get("square_names") or {}
    legal = list(state.get("legal") or [])
    last = state.get("last_move")
    title = escape(_("Senet board"))
    off_label = escape(_("off"))
    # The hand is drawn left of square 1 only in games that have pieces waiting to enter.
    in_hand = any(str(e.get("move", "")).startswith("hand") for e in legal) or (
        board.count("W") + int((state.get("off") or {}).get("W", 0)) < 5
        or board.count("B") + int((state.get("off") or {}).get("B", 0)) < 5
    )
    left = 0 if in_hand else _LEFT - 4
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left} 0 {_WIDTH - left} {_HEIGHT}" '
        f'class="board" role="group" aria-label="{title}">',
        "<defs>",
        *(
            f'<marker id="head-{cls}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
            f'markerHeight="5" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
            f'class="{cls}-head"/></marker>'
            for cls in ("legal-arrow", "last-arrow")
        ),
        "</defs>",
    ]
    last_ends = _move_ends(last) if last else (None, None)
    for square in range(1, 31):
        x, y = square_centre(square)
        classes = ["square"]
        if str(square) in names:
            classes.append("special")
        if square == last_ends[0]:
            classes.append("last-from")
        if square == last_ends[1]:
            classes.append("last-to")
        name = names.get(str(square))
        label = f"{square}: {_(name)}" if name else str(square)
        out.append(
            f'<g class="{" ".join(classes)}" data-square="{square}"><title>{escape(label)}</title>'
            f'<rect x="{x - CELL / 2 + 1}" y="{y - CELL / 2 + 1}" width="{CELL - 2}" '
            f'height="{CELL - 2}" rx="4"/>'
        )
        if square in _MARKS and name:
            out.append(f'<g transform="translate({x},{y})" class="mark">{_MARKS[square]}</g>')
        out.append(
            f'<text x="{x - CELL / 2 + 5}" y="{y - CELL / 2 + 14}" class="num">{square}</text>'
        )
        out.append("</g>")
    ox, oy = square_centre("off")
    out.append(
        f'<g class="off-zone"><rect x="{ox - 28}" y="{oy - CELL / 2 + 1}" width="56" '
        f'height="{CELL - 2}" rx="4"/><text x="{ox}" y="{oy + 4}" text-anchor="middle">'
        f"{off_label}</text></g>"
    )
    if last and last_ends[0] is not None:
        out.append(
            _arrow(square_centre(last_ends[0]), square_centre(last_ends[1] or "off"), "last-arrow")
        )
    movable: dict[int | str, str] = {}
    for entry in legal:
        start, target = _move_ends(entry)
        movable.setdefault(start, str(entry.get("move", "")))
        out.append(_arrow(square_centre(start), square_centre(target), "legal-arrow"))
        tx, ty = square_centre(target)
        out.append(f'<circle cx="{tx}" cy="{ty}" r="24" class="target"/>')
    for square, cell in enumerate(board, start=1):
        if cell not in ("W", "B"):
            continue
        x, y = square_centre(square)
        who = _("cone") if cell == "W" else _("spool")
        move = movable.get(square)
        if move:
            label = escape(_("Move %(move)s") % {"move": move})
            out.append(
                f'<g class="piece {cell} movable" data-move="{escape(move)}" '
                f'data-square="{square}" role="button" '
                f'tabindex="0" aria-label="{label}"><title>{label}</title>'
                f'<circle cx="{x}" cy="{y}" r="27" class="halo"/>'
            )
            out.append(_piece(cell, x, y))
            out.append("</g>")
        else:
            out.append(
                f'<g class="piece {cell}" data-square="{square}"><title>{escape(who)}</title>'
                f"{_piece(cell, x, y)}</g>"
            )
    for start, move in movable.items():
        if isinstance(start, str):  # entering from the hand
            x, y = square_centre(start)
            label = escape(_("Move %(move)s") % {"move": move})
            side = str(state.get("side", "W"))
            out.append(
                f'<g class="piece {side} movable" data-move="{escape(move)}" role="button" '
                f'tabindex="0" aria-label="{label}"><title>{label}</title>'
                f'<circle cx="{x}" cy="{y}" r="22" class="halo"/>{_piece(side, x, y)}</g>'
            )
    out.append(_sticks(state.get("throw"), _))
    out.append("</svg>")
    return "".join(out)
