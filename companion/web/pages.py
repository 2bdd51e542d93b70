"""The pages people open: the game, the rules of each ruleset, the language switch."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from companion.rules import RULESETS
from companion.web.i18n import choose_locale
from companion.web.rules_doc import document_intro, ruleset_doc
from companion.web.security import is_admin
from companion.web.view import services, view

bp = Blueprint("pages", __name__)


def can_play() -> bool:
    return bool(services().config.phone_input)


def admin_now() -> bool:
    s = services()
    return is_admin(s.boot, s.clock(), s.config.admin_timeout)


@bp.get("/")
def index() -> ResponseReturnValue:
    s = services()
    return render_template(
        "index.html",
        data=view(s.loop.snapshot()),
        can_play=can_play(),
        simulator=s.simulator is not None and (can_play() or admin_now()),
        admin=admin_now(),
    )


@bp.get("/rules")
def rules_index() -> ResponseReturnValue:
    docs = [ruleset_doc(cls) for cls in RULESETS.values()]
    return render_template("rules_index.html", docs=docs, intro=document_intro())


@bp.get("/rules/<name>")
def rules(name: str) -> ResponseReturnValue:
    cls = RULESETS.get(name)
    if cls is None:
        abort(404, description=f"there is no ruleset called {name!r}; see the list of rules")
    return render_template("rules.html", doc=ruleset_doc(cls))


@bp.get("/lang/<code>")
def language(code: str) -> ResponseReturnValue:
    if code not in services().config.languages:
        abort(404, description=f"the page is not available in {code!r}")
    choose_locale(code)
    target = request.args.get("next", "")
    # Only paths on this site: a link must not send visitors elsewhere.
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = url_for("pages.index")
    return redirect(target)


@bp.get("/qr.svg")
def qr_code() -> ResponseReturnValue:
    out = io.BytesIO()
    segno.make(request.host_url, error="m").save(out, kind="svg", scale=6, border=2)
    return out.getvalue(), 200, {"Content-Type": "image/svg+xml", "Cache-Control": "no-store"}
