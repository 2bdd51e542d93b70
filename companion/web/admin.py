"""Administration behind the PIN: new game, ruleset, bot, board check, history.

Every request here needs the PIN session (which ends after ``admin_timeout`` idle seconds) and
every change also the session's CSRF token. Wrong PINs slow further attempts down.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from companion import actions
from companion.rules import RULESETS
from companion.web.errors import NotAllowed
from companion.web.security import check_csrf, end_admin, is_admin, start_admin, touch_admin
from companion.web.view import services
from hardware.check import calibrate_sticks
from hardware.config import write_stick_thresholds
from hardware.errors import HardwareError

bp = Blueprint("admin", __name__, url_prefix="/admin")

CALIBRATION_SAMPLES = 20
_LEVEL = re.compile(r"[a-z][a-z0-9-]{0,23}")


def _admin() -> bool:
    s = services()
    return is_admin(s.boot, s.clock(), s.config.admin_timeout)


def require_admin(*, change: bool = True) -> None:
    if not _admin():
        raise NotAllowed(_("this needs the administration PIN: open the administration page"))
    if change:
        check_csrf()
    touch_admin(services().clock())


def bot_levels() -> tuple[str, ...]:
    """The bot levels on offer: the bots package's, when it says."""
    try:
        bots = importlib.import_module("companion.bots")
    except ImportError:
        return ("simple",)
    return tuple(getattr(bots, "LEVELS", ("simple",)))


@bp.get("/")
def panel() -> ResponseReturnValue:
    s = services()
    if not _admin():
        return render_template("login.html", enabled=s.pins.enabled)
    touch_admin(s.clock())
    state = s.loop.snapshot()
    return render_template(
        "admin.html",
        state=state,
        rulesets=list(RULESETS.values()),
        levels=bot_levels(),
        calibrate=_calibratable(s.backend),
    )


@bp.post("/login")
def login() -> ResponseReturnValue:
    check_csrf()
    s = services()
    attempt = request.form.get("pin", "")
    client = request.remote_addr or "unknown"
    if not s.pins.check(client, attempt[:32]):
        flash(_("That PIN is not right."), "error")
        return redirect(url_for("admin.panel")), 303
    start_admin(s.boot, s.clock())
    return redirect(url_for("admin.panel")), 303


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    check_csrf()
    end_admin()
    return redirect(url_for("pages.index")), 303


@bp.post("/new-game")
def new_game() -> ResponseReturnValue:
    require_admin()
    s = services()
    name = request.form.get("ruleset", "")
    cls = RULESETS.get(name)
    if cls is None:
        abort(400, description=f"choose one of the rulesets: {', '.join(RULESETS)}")
    options: dict[str, str] = {}
    for key, option in dict(cls.options).items():
        value = request.form.get(f"option-{key}", option.default)
        if value not in option.choices:
            abort(400, description=f"option {key} must be one of {', '.join(option.choices)}")
        options[key] = value
    s.loop.submit(actions.NewGame(ruleset=name, options=options or None))
    flash(_("A new game of %(title)s has started.", title=_(cls.title)), "info")
    return redirect(url_for("admin.panel")), 303


@bp.post("/bot")
def bot() -> ResponseReturnValue:
    require_admin()
    s = services()
    side = request.form.get("side", "")
    level = request.form.get("level", "")
    if side not in ("", "W", "B"):
        abort(400, description="side must be W, B or empty for no bot")
    if level not in bot_levels() or not _LEVEL.fullmatch(level):
        abort(400, description=f"level must be one of {', '.join(bot_levels())}")
    s.loop.submit(actions.SetBot(side=side or None, level=level))
    flash(_("Bot settings changed."), "info")
    return redirect(url_for("admin.panel")), 303


def _calibratable(backend: Any) -> bool:
    """True for a backend with analogue stick sensors whose raw readings can be sampled."""
    config = getattr(backend, "config", None)
    return callable(getattr(backend, "stick_readings", None)) and bool(
        getattr(config, "has_analog_sticks", False)
    )


@bp.get("/board")
def board_check() -> ResponseReturnValue:
    require_admin(change=False)
    s = services()
    state = s.loop.snapshot()
    status: dict[str, Any] = {}
    occupied: list[int] = []
    if s.backend is not None:
        status = dict(s.backend.status())
        occupied = sorted(s.backend.occupied())
    expected = [i for i, c in enumerate(str(state.get("board", "")), start=1) if c in "WB"]
    return render_template(
        "board_check.html",
        state=state,
        status=status,
        occupied=occupied,
        expected=expected,
        calibrate=_calibratable(s.backend),
        calibration_step="dark" if s.calibration else "light",
    )


@bp.post("/calibrate")
def calibrate() -> ResponseReturnValue:
    """Two steps: sample with the light faces up, then with the dark faces up and save."""
    require_admin()
    s = services()
    if not _calibratable(s.backend):
        abort(404, description="this board has no analogue stick sensors to calibrate")
    step = request.form.get("step", "")
    samples = [list(s.backend.stick_readings()) for _ in range(CALIBRATION_SAMPLES)]
    if step == "light":
        s.calibration[:] = samples
        flash(_("Now lay every stick dark face up, then press the button again."), "info")
        return redirect(url_for("admin.board_check")), 303
    if step != "dark" or not s.calibration:
        abort(400, description="calibrate with the light faces up first, then the dark faces")
    readings = iter([*s.calibration, *samples])
    s.calibration.clear()
    try:
        found = calibrate_sticks(
            s.backend.config,
            read=lambda: next(readings),
            ask=lambda face: None,
            samples=CALIBRATION_SAMPLES,
            interval=0.0,
        )
        thresholds = {c.stick: (c.threshold, c.hysteresis, c.light_level) for c in found}
        if s.config_path is None:
            flash(_("Calibrated, but not saved: start the companion with --config FILE."), "error")
        else:
            write_stick_thresholds(s.config_path, thresholds)
            flash(_("Calibrated and saved; restart the companion to use it."), "info")
    except HardwareError as exc:
        flash(str(exc), "error")
    return redirect(url_for("admin.board_check")), 303


@bp.get("/history")
def history() -> ResponseReturnValue:
    require_admin(change=False)
    s = services()
    games: list[Any] = []
    if s.journal is not None:
        games = sorted(s.journal.games(), key=lambda g: g.started, reverse=True)[:100]
    return render_template("history.html", games=games, journal=s.journal is not None)
