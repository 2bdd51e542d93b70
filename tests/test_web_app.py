"""The phone page's routes and refusals, through Flask's test client."""

from __future__ import annotations

import re
from typing import Any

import pytest
from web_fakes import FakeClock, FakeLoop

from companion.actions import Decide, Hint, PlayMove, StillPlaying, Throw
from companion.web import create_app

PIN = "2468"


def make(**kw: Any) -> tuple[Any, FakeLoop, FakeClock]:
    loop = kw.pop("loop", None) or FakeLoop()
    clock = FakeClock()
    config = {"pin": PIN, **kw.pop("config", {})}
    if config["pin"] is None:
        del config["pin"]
    app = create_app(config, loop=loop, clock=clock, keepalive=0.05, **kw)
    app.testing = True
    return app, loop, clock


def token(client: Any) -> str:
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert found
    return found.group(1)


def post(client: Any, url: str, body: Any = None, **headers: str) -> Any:
    return client.post(url, json=body if body is not None else {}, headers=headers)


@pytest.fixture
def setup() -> tuple[Any, FakeLoop, FakeClock]:
    return make()


def test_the_page_shows_board_status_and_live_region(setup: Any) -> None:
    app, _loop, _ = setup
    page = app.test_client().get("/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "<svg" in html and 'aria-live="polite"' in html
    assert "Light to throw" in html
    assert "House of Happiness" in html
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing from outside


def test_state_carries_version_svg_and_texts(setup: Any) -> None:
    app, loop, _ = setup
    loop.submit(Throw(faces=(1, 0, 1, 1)))
    data = app.test_client().get("/api/state").get_json()
    assert data["version"] == loop.snapshot()["version"]
    assert data["text"]["turn"] == "Light to move with 3"
    assert {m["move"] for m in data["text"]["moves"]} == {"1-4", "3-6", "5-8", "7-10", "9-12"}
    assert data["svg"].count('class="piece W movable"') == 5


def test_events_stream_full_states_with_versions(setup: Any) -> None:
    app, loop, _ = setup
    response = app.test_client().get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    first = next(chunks).decode()
    version = loop.snapshot()["version"]
    assert first.startswith(f"id: {version}\nevent: state\ndata: {{")
    loop.submit(Throw(faces=(1, 1, 1, 1)))
    received = next(chunks).decode()
    while received.startswith(":"):
        received = next(chunks).decode()
    assert received.startswith(f"id: {version + 1}\n")
    assert "Light to move with 4" in received
    response.close()
    assert app.extensions["senet"].broker.count == 0


def test_stream_ends_when_the_server_stops(setup: Any) -> None:
    app, _loop, _ = setup
    response = app.test_client().get("/api/events", buffered=False)
    chunks = list_until_stop(app, response)
    assert any(c.startswith(b"id:") for c in chunks)


def list_until_stop(app: Any, response: Any) -> list[bytes]:
    chunks = iter(response.response)
    out = [next(chunks), next(chunks)]
    app.extensions["senet"].broker.stop()
    out.extend(chunks)  # ends: the broker closed every stream
    return out


def test_too_many_followers_are_told_to_come_back_later() -> None:
    app, _, _ = make(config={"max_clients": 1})
    client = app.test_client()
    first = client.get("/api/events", buffered=False)
    second = client.get("/api/events")
    assert second.status_code == 503 and second.headers["Retry-After"] == "30"
    assert "already following" in second.get_json()["error"]
    first.close()


def test_players_throw_and_move_with_the_token(setup: Any) -> None:
    app, loop, _ = setup
    client = app.test_client()
    csrf = token(client)
    assert post(client, "/api/throw", {}, **{"X-CSRF-Token": csrf}).status_code == 202
    assert isinstance(loop.commands[-1], Throw) and loop.commands[-1].faces is None
    legal = loop.snapshot()["legal"][0]["move"]
    assert post(client, "/api/move", {"move": legal}, **{"X-CSRF-Token": csrf}).status_code == 202
    assert loop.commands[-1] == PlayMove(move=legal)


@pytest.mark.parametrize("url", ["/api/throw", "/api/move", "/api/decide", "/api/still-playing"])
def test_actions_without_the_token_are_refused(setup: Any, url: str) -> None:
    app, loop, _ = setup
    client = app.test_client()
    token(client)
    response = post(client, url, {"move": "9-12"}, **{"X-CSRF-Token": "forged"})
    assert response.status_code == 403
    assert "security token" in response.get_json()["error"]
    assert loop.commands == []


def test_actions_from_another_site_are_refused(setup: Any) -> None:
    app, loop, _ = setup
    client = app.test_client()
    csrf = token(client)
    response = post(client, "/api/throw", {}, **{"X-CSRF-Token": csrf, "Origin": "http://evil"})
    assert response.status_code == 403 and loop.commands == []


@pytest.mark.parametrize("url", ["/api/throw", "/api/move", "/api/decide", "/api/still-playing"])
def test_spectator_phones_cannot_act(url: str) -> None:
    app, loop, _ = make(config={"phone_input": False})
    client = app.test_client()
    csrf = token(client)
    response = post(client, url, {}, **{"X-CSRF-Token": csrf})
    assert response.status_code == 403
    assert "show the game only" in response.get_json()["error"]
    assert loop.commands == []


def test_page_for_spectators_has_no_throw_button() -> None:
    app, _, _ = make(config={"phone_input": False})
    html = app.test_client().get("/").get_data(as_text=True)
    assert 'id="throw-button"' not in html and 'data-can-play="false"' in html


def test_out_of_turn_and_illegal_requests_are_refused(setup: Any) -> None:
    app, loop, _ = setup
    client = app.test_client()
    h = {"X-CSRF-Token": token(client)}
    assert post(client, "/api/move", {"move": "9-12"}, **h).status_code == 409
    loop.submit(Throw(faces=(1, 0, 1, 1)))
    assert post(client, "/api/throw", {}, **h).status_code == 409
    refused = post(client, "/api/move", {"move": "2-5"}, **h)
    assert refused.status_code == 409 and "9-12" in refused.get_json()["legal"]
    assert post(client, "/api/move", {"move": 12}, **h).status_code == 400
    assert post(client, "/api/move", ["9-12"], **h).status_code == 400
    assert post(client, "/api/decide", {"choice": "27-15"}, **h).status_code == 409
    assert len(loop.commands) == 1


def test_decisions_and_idle_answers_reach_the_loop(setup: Any) -> None:
    app, loop, _ = setup
    loop.decision = {"prompt": "Return to 15?", "choices": [{"id": "27-15", "label": "Yes"}]}
    loop.publish()
    client = app.test_client()
    h = {"X-CSRF-Token": token(client)}
    assert post(client, "/api/decide", {"choice": "27-15"}, **h).status_code == 202
    assert post(client, "/api/still-playing", {}, **h).status_code == 202
    assert post(client, "/api/hint", {}, **h).status_code == 202
    assert [type(c) for c in loop.commands[-3:]] == [Decide, StillPlaying, Hint]


def test_bodies_that_are_too_large_are_refused(setup: Any) -> None:
    app, _, _ = setup
    client = app.test_client()
    h = {"X-CSRF-Token": token(client)}
    response = post(client, "/api/move", {"move": "x" * 20000}, **h)
    assert response.status_code == 413


def test_rules_pages_fall_back_to_the_rulesets(setup: Any, monkeypatch: Any, tmp_path: Any) -> None:
    monkeypatch.setattr("companion.web.rules_doc.RULES_DOCUMENT", tmp_path / "absent.md")
    app, _, _ = setup
    client = app.test_client()
    index = client.get("/rules").get_data(as_text=True)
    for name in ("playpalace", "basic", "isac", "d5"):
        assert f"/rules/{name}" in index
    isac = client.get("/rules/isac").get_data(as_text=True)
    assert "House of Waters" in isac and "rebirth_taken" in isac
    assert "<li>No walls: the handout has none." in isac and "``" not in isac
    missing = client.get("/rules/chess")
    assert missing.status_code == 404 and "no ruleset called" in missing.get_data(as_text=True)


def test_language_comes_from_the_browser_and_can_be_switched(setup: Any) -> None:
    app, _, _ = setup
    client = app.test_client()
    html = client.get("/", headers={"Accept-Language": "pt-BR,pt;q=0.9"}).get_data(as_text=True)
    assert '<html lang="pt">' in html and "Claro lança" in html
    switched = client.get("/lang/fr?next=/rules")
    assert switched.status_code == 302 and switched.headers["Location"] == "/rules"
    html = client.get("/", headers={"Accept-Language": "pt"}).get_data(as_text=True)
    assert '<html lang="fr">' in html and "Règles" in html
    assert client.get("/lang/xx").status_code == 404
    assert client.get("/lang/en?next=//evil.example").headers["Location"] == "/"
    assert client.get("/lang/en?next=https://evil.example").headers["Location"] == "/"


def test_announcements_in_the_visitors_language(setup: Any) -> None:
    app, loop, _ = setup
    client = app.test_client()
    client.get("/lang/pt")
    loop.submit(Throw(faces=(1, 0, 1, 1)))
    text = client.get("/api/state").get_json()["text"]
    assert text["turn"] == "Claro joga com 3"
    assert text["off"].startswith("Fora do tabuleiro")


def test_qr_code_of_the_page(setup: Any) -> None:
    app, _, _ = setup
    response = app.test_client().get("/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data


def test_unknown_pages_and_methods_get_clear_errors(setup: Any) -> None:
    app, _, _ = setup
    client = app.test_client()
    assert client.get("/nothing-here").status_code == 404
    assert client.get("/api/throw").status_code == 405
    assert "error" in client.get("/api/throw").get_json()


DOCUMENT = """# Senet rulesets

Nobody knows exactly how Senet was played.

## `playpalace` — PlayPalace (PlayPalace team, 2026)

**For players.** Light (W) starts.

| question | the companion does |
|---|---|
| Can 26 use a 5? | No. |

## Scholarly reconstructions

### `piccione`: Peter Piccione

- **Entering.** With a 1.

### `kendall`: Timothy Kendall

Other text.
"""


def test_rules_sections_come_from_the_rules_document(tmp_path: Any) -> None:
    from companion.rules import RULESETS
    from companion.web.rules_doc import document_intro, ruleset_doc, section_of

    path = tmp_path / "rules.md"
    path.write_text(DOCUMENT, encoding="utf-8")
    doc = ruleset_doc(RULESETS["playpalace"], path)
    assert doc.from_document
    assert "<strong>For players.</strong>" in doc.html and "<table>" in doc.html
    assert "Scholarly" not in doc.html
    piccione = section_of(DOCUMENT, "piccione")
    assert piccione is not None and "Entering" in piccione and "Kendall" not in piccione
    assert section_of(DOCUMENT, "isac") is None
    fallback = ruleset_doc(RULESETS["isac"], path)  # no section: the docstring
    assert not fallback.from_document and "<code>opening=dark</code>" in fallback.html
    intro = document_intro(path)
    assert intro is not None and "Nobody knows" in intro and "For players" not in intro
    assert document_intro(tmp_path / "missing.md") is None


def test_rules_page_shows_the_document_section(monkeypatch: Any, tmp_path: Any) -> None:
    path = tmp_path / "rules.md"
    path.write_text(DOCUMENT, encoding="utf-8")
    monkeypatch.setattr("companion.web.rules_doc.RULES_DOCUMENT", path)
    app, _, _ = make()
    client = app.test_client()
    page = client.get("/rules/playpalace").get_data(as_text=True)
    assert "<strong>For players.</strong>" in page and "Can 26 use a 5?" in page
    assert "Nobody knows exactly" in client.get("/rules").get_data(as_text=True)


def test_a_phone_tapping_too_fast_is_slowed_down(setup: Any) -> None:
    app, loop, clock = setup
    client = app.test_client()
    h = {"X-CSRF-Token": token(client)}
    answers = [post(client, "/api/hint", {}, **h).status_code for _ in range(13)]
    assert answers == [202] * 12 + [429]
    refused = post(client, "/api/hint", {}, **h)
    assert "too many actions" in refused.get_json()["error"] and refused.headers["Retry-After"]
    clock.advance(0.5)  # two more actions earned at four a second
    assert [post(client, "/api/hint", {}, **h).status_code for _ in range(3)] == [202, 202, 429]
    assert len(loop.commands) == 14


def test_refusals_in_the_visitors_language() -> None:
    app, _, _ = make(config={"phone_input": False})
    client = app.test_client()
    client.get("/lang/pt")
    response = post(client, "/api/throw", {}, **{"X-CSRF-Token": token(client)})
    assert response.status_code == 403
    assert "aqui os telemóveis só mostram o jogo" in response.get_json()["error"]
