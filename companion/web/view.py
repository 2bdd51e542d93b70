"""What a phone is sent for one published state: the SVG board and the texts, as JSON."""

from __future__ import annotations

import json
from typing import Any

from flask import current_app
from flask_babel import get_locale, gettext

from companion.web.board import render_board
from companion.web.texts import describe

__all__ = ["encoded_view", "services", "view"]


def services() -> Any:
    return current_app.extensions["senet"]


def view(state: dict[str, Any]) -> dict[str, Any]:
    """The state with its board drawing and texts in the request's language."""
    return {
        "version": state.get("version"),
        "state": state,
        "svg": render_board(state, gettext),
        "text": describe(state, gettext),
    }


def encoded_view(state: dict[str, Any]) -> str:
    """``view(state)`` as JSON, made once per version and language for all phones."""
    key = (state.get("game_id"), state.get("version"), str(get_locale()))
    return str(services().broker.encoded(key, lambda: json.dumps(view(state), ensure_ascii=False)))
