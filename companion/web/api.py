"""The page's live data and the players' actions.

``GET /api/state`` and ``GET /api/events`` (Server-Sent Events) are open to every phone.
Every event carries the complete state with its ``version`` as the event id, so a phone that
lost the connection is whole again with the first event after reconnecting. Players' actions
(throw, move, decide, still playing) need the configuration's ``phone_input`` and the page's
CSRF token; a move or choice must be one the current state offers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, stream_with_context
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from companion import actions
from companion.web.errors import NotAllowed
from companion.web.security import check_csrf
from companion.web.view import encoded_view, services

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/state")
def state() -> ResponseReturnValue:
    body = encoded_view(services().loop.snapshot())
    return Response(body, mimetype="application/json", headers={"Cache-Control": "no-store"})


@bp.get("/events")
def events() -> ResponseReturnValue:
    s = services()
    follower = s.broker.connect()  # TooManyClients -> 503 before the stream starts

    def stream() -> Iterator[str]:
        try:
            yield "retry: 2000\n\n"
            sent = -1
            latest: dict[str, Any] | None = s.broker.snapshot()
            while not s.broker.stopping:
                if latest is not None and _version(latest) != sent:
                    sent = _version(latest)
                    yield f"id: {sent}\nevent: state\ndata: {encoded_view(latest)}\n\n"
                latest = follower.next(s.keepalive)
                if latest is None:
                    if follower.closed:
                        return
                    yield ": keep-alive\n\n"
        finally:
            s.broker.disconnect(follower)

    return Response(
        stream_with_context(stream()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _version(state: dict[str, Any]) -> int:
    version = state.get("version")
    return version if isinstance(version, int) else -1


def player_request() -> dict[str, Any]:
    """The JSON body of a player's action, after checking this phone may act."""
    if not services().config.phone_input:
        raise NotAllowed(
            _("this board is played with its pieces and sticks; phones here show the game only")
        )
    check_csrf()
    services().actions.take(request.remote_addr or "unknown")
    body = request.get_json(silent=True)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        abort(400, description="send a JSON object")
    return body


def _accepted() -> ResponseReturnValue:
    return jsonify({"accepted": True}), 202


@bp.post("/throw")
def throw() -> ResponseReturnValue:
    player_request()
    s = services()
    if s.loop.snapshot().get("phase") != "throw":
        return jsonify({"error": _("it is not time to throw")}), 409
    s.loop.submit(actions.Throw())
    return _accepted()


@bp.post("/move")
def move() -> ResponseReturnValue:
    body = player_request()
    s = services()
    wanted = body.get("move")
    if not isinstance(wanted, str) or len(wanted) > 16:
        abort(400, description='send {"move": "9-12"}, a move in the board notation')
    legal = [m.get("move") for m in s.loop.snapshot().get("legal") or []]
    if wanted not in legal:
        message = _("%(move)s is not a legal move now", move=wanted)
        return jsonify({"error": message, "legal": legal}), 409
    s.loop.submit(actions.PlayMove(move=wanted))
    return _accepted()


@bp.post("/decide")
def decide() -> ResponseReturnValue:
    body = player_request()
    s = services()
    choice = body.get("choice")
    decision = s.loop.snapshot().get("decision") or {}
    ids = [c.get("id") for c in decision.get("choices") or []]
    if not isinstance(choice, str) or choice not in ids:
        message = _("that is not one of the choices offered now")
        return jsonify({"error": message, "choices": ids}), 409
    s.loop.submit(actions.Decide(choice=choice))
    return _accepted()


@bp.post("/still-playing")
def still_playing() -> ResponseReturnValue:
    player_request()
    s = services()
    s.loop.submit(actions.StillPlaying())
    return _accepted()


@bp.post("/hint")
def hint() -> ResponseReturnValue:
    player_request()
    s = services()
    s.loop.submit(actions.Hint())
    return _accepted()
