"""The simulator page: lift, place and press squares and throw the sticks of the simulated board.

It drives the simulated hardware exactly as the sensors would (the events go through the same
debouncing and throw detection as on the wooden board), so it only exists on the simulated
backend, and only for phones that may play (or the administrator).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from companion.web.api import player_request
from companion.web.errors import NotAllowed
from companion.web.security import check_csrf, is_admin
from companion.web.view import services, view

bp = Blueprint("simulator", __name__, url_prefix="/simulator")


def _board() -> Any:
    board = services().simulator
    if board is None:
        abort(404, description="the simulator exists only on the simulated board (--hardware sim)")
    return board


def _admin() -> bool:
    s = services()
    return is_admin(s.boot, s.clock(), s.config.admin_timeout)


def _body() -> dict[str, Any]:
    if _admin():
        check_csrf()
        services().actions.take(request.remote_addr or "unknown")
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            abort(400, description="send a JSON object")
        return body
    return player_request()


def _square(body: dict[str, Any]) -> int:
    square = body.get("square")
    if not isinstance(square, int) or isinstance(square, bool) or not 1 <= square <= 30:
        abort(400, description="square must be a whole number from 1 to 30")
    return square


@bp.get("/")
def page() -> ResponseReturnValue:
    s = services()
    _board()
    if not (s.config.phone_input or _admin()):
        raise NotAllowed(_("the simulator is for players: phones here show the game only"))
    return render_template(
        "simulator.html", data=view(s.loop.snapshot()), occupied=sorted(s.backend.occupied())
    )


@bp.get("/sensors")
def sensors() -> ResponseReturnValue:
    """The squares the sensors see occupied now (the simulator marks them)."""
    _board()
    occupied = sorted(services().backend.occupied())
    return jsonify({"occupied": occupied}), 200, {"Cache-Control": "no-store"}


@bp.post("/<action>")
def act(action: str) -> ResponseReturnValue:
    board = _board()
    body = _body()
    if action == "place":
        board.place(_square(body))
    elif action == "lift":
        board.lift(_square(body))
    elif action == "press":
        board.press(_square(body))
    elif action == "throw":
        faces = body.get("faces")
        if (
            not isinstance(faces, list)
            or not 1 <= len(faces) <= 8
            or any(f not in (0, 1) or isinstance(f, bool) for f in faces)
        ):
            abort(400, description="faces must be a list of 0 and 1, one per stick")
        board.throw(tuple(faces))
    elif action == "throw-button":
        board.press_throw_button()
    else:
        abort(404, description=f"the simulator cannot {action!r}")
    return jsonify({"accepted": True, "occupied": sorted(services().backend.occupied())}), 202
