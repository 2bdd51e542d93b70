"""The phone page: live board, legal moves, announcements, administration.

    app = create_app(WebConfig(pin="2468"), loop=loop, backend=backend, journal=journal)

The app is thin: it shows what the game loop publishes and puts commands on the loop's queue.
Services live in ``app.extensions["senet"]``; nothing starts a thread at import or creation (the
live-update fan-out starts with the first phone that follows it).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import Babel
from werkzeug.exceptions import HTTPException

from companion.web.broker import StateBroker
from companion.web.config import LANGUAGES, WebConfig
from companion.web.errors import NotAllowed, TooManyAttempts, TooManyClients, WebConfigError
from companion.web.i18n import compile_catalogues, select_locale
from companion.web.security import ActionLimiter, PinGate, csrf_token

__all__ = ["Services", "WebConfig", "create_app"]

_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


@dataclass
class Services:
    """What the page works with, handed in by ``senet-companion serve`` or a test."""

    loop: Any
    config: WebConfig
    broker: StateBroker
    pins: PinGate
    actions: ActionLimiter
    backend: Any = None
    journal: Any = None
    clock: Callable[[], float] = time.monotonic
    keepalive: float = 15.0
    boot: str = field(default_factory=lambda: secrets.token_hex(8))
    config_path: str | None = None  # the TOML file, where calibration is saved
    calibration: list[list[Any]] = field(default_factory=list)  # light-face samples so far

    @property
    def simulator(self) -> Any:
        """The simulated board behind the backend, or None on real hardware."""
        return getattr(self.backend, "board", None) if self.backend is not None else None


def create_app(
    config: WebConfig | Mapping[str, Any] | None = None,
    *,
    loop: Any,
    backend: Any = None,
    journal: Any = None,
    clock: Callable[[], float] = time.monotonic,
    keepalive: float = 15.0,
    config_path: str | None = None,
) -> Flask:
    """The Flask app showing ``loop``'s game; ``config`` is a WebConfig or the ``[web]`` table."""
    if config is None:
        config = WebConfig()
    elif not isinstance(config, WebConfig):
        config = WebConfig.from_mapping(config)
    if loop is None:
        raise WebConfigError("the phone page needs a game loop to show")
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=config.secret_key or secrets.token_hex(32),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=16 * 1024,
        BABEL_TRANSLATION_DIRECTORIES=str(compile_catalogues()),
        JSON_SORT_KEYS=False,
    )
    app.extensions["senet"] = Services(
        loop=loop,
        config=config,
        broker=StateBroker(loop, max_clients=config.max_clients),
        pins=PinGate(config.pin, clock),
        actions=ActionLimiter(clock),
        backend=backend,
        journal=journal,
        clock=clock,
        keepalive=keepalive,
        config_path=config_path,
    )
    Babel(app, locale_selector=select_locale)

    from companion.web import admin, api, pages, simulator

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(simulator.bp)

    @app.context_processor
    def _globals() -> dict[str, Any]:
        return {
            "csrf_token": csrf_token,
            "languages": {c: LANGUAGES[c] for c in config.languages},
            "locale": select_locale(),
        }

    @app.after_request
    def _headers(response: Any) -> Any:
        response.headers.setdefault("Content-Security-Policy", _CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    _register_errors(app)
    return app


def _register_errors(app: Flask) -> None:
    def reply(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
        if request.path.startswith(("/api/", "/simulator/")) or request.is_json:
            response = jsonify({"error": message})
        else:
            response = app.make_response(
                (render_template("error.html", status=status, message=message), status)
            )
        response.status_code = status
        response.headers.update(headers or {})
        return response

    @app.errorhandler(NotAllowed)
    def _not_allowed(exc: NotAllowed) -> ResponseReturnValue:
        return reply(403, str(exc))

    @app.errorhandler(TooManyAttempts)
    def _too_many(exc: TooManyAttempts) -> ResponseReturnValue:
        return reply(429, str(exc), {"Retry-After": str(exc.retry_after)})

    @app.errorhandler(TooManyClients)
    def _full(exc: TooManyClients) -> ResponseReturnValue:
        return reply(503, str(exc), {"Retry-After": "30"})

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> ResponseReturnValue:
        return reply(exc.code or 500, exc.description or exc.name)
