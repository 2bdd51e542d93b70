"""Administration behind the PIN, and the simulator page, through Flask's test client."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_app import PIN, make, post, token
from web_fakes import FakeBackend, FakeJournal, FakeSimBoard, analog_config_text

from companion.actions import NewGame, SetBot
from hardware.config import parse_config


def login(client: Any, pin: str = PIN) -> Any:
    csrf = token(client)
    return client.post("/admin/login", data={"pin": pin, "csrf_token": csrf})


def form(client: Any, url: str, **data: str) -> Any:
    return client.post(url, data={"csrf_token": token(client), **data})


def test_the_panel_asks_for_the_pin_first() -> None:
    app, _, _ = make()
    client = app.test_client()
    page = client.get("/admin/").get_data(as_text=True)
    assert 'name="pin"' in page and "New game" not in page
    assert login(client).status_code == 303
    page = client.get("/admin/").get_data(as_text=True)
    assert "New game" in page and "playpalace" in page


def test_no_pin_configured_means_no_administration() -> None:
    app, _, _ = make(config={"pin": None})
    client = app.test_client()
    assert "switched off" in client.get("/admin/").get_data(as_text=True)
    response = login(client, "0000")
    assert response.status_code == 403


def test_login_needs_the_csrf_token() -> None:
    app, _, _ = make()
    client = app.test_client()
    token(client)
    assert client.post("/admin/login", data={"pin": PIN}).status_code == 403


def test_wrong_pins_slow_down_guessing() -> None:
    app, _, clock = make()
    client = app.test_client()
    for _ in range(3):
        assert login(client, "1111").status_code == 303
    refused = login(client, PIN)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 2
    assert "wait" in refused.get_data(as_text=True)
    clock.advance(2.5)
    assert login(client, "1111").status_code == 303
    clock.advance(2.5)
    assert login(client, PIN).status_code == 429  # the wait doubled
    clock.advance(5)
    assert login(client, PIN).status_code == 303
    assert "New game" in client.get("/admin/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/admin/new-game"),
        ("post", "/admin/bot"),
        ("get", "/admin/board"),
        ("post", "/admin/calibrate"),
        ("get", "/admin/history"),
    ],
)
def test_administration_needs_the_pin_session(method: str, url: str) -> None:
    app, loop, _ = make()
    client = app.test_client()
    response = getattr(client, method)(url, data={"csrf_token": token(client)})
    assert response.status_code == 403
    assert "administration PIN" in response.get_data(as_text=True)
    assert loop.commands == []


def test_admin_changes_need_the_token_even_with_the_pin() -> None:
    app, loop, _ = make()
    client = app.test_client()
    login(client)
    response = client.post("/admin/new-game", data={"ruleset": "isac"})
    assert response.status_code == 403 and loop.commands == []


def test_new_game_with_ruleset_and_options() -> None:
    app, loop, _ = make()
    client = app.test_client()
    login(client)
    assert form(client, "/admin/new-game", ruleset="chess").status_code == 400
    bad = form(client, "/admin/new-game", ruleset="isac", **{"option-rebirth_taken": "fly"})
    assert bad.status_code == 400
    ok = form(client, "/admin/new-game", ruleset="isac", **{"option-rebirth_taken": "stay"})
    assert ok.status_code == 303
    assert loop.commands == [NewGame(ruleset="isac", options={"rebirth_taken": "stay"})]
    assert "A new game of" in client.get("/admin/").get_data(as_text=True)


def test_bot_on_and_off() -> None:
    app, loop, _ = make()
    client = app.test_client()
    login(client)
    assert form(client, "/admin/bot", side="B", level="simple").status_code == 303
    assert form(client, "/admin/bot", side="", level="simple").status_code == 303
    assert form(client, "/admin/bot", side="X", level="simple").status_code == 400
    assert form(client, "/admin/bot", side="W", level="<script>").status_code == 400
    assert loop.commands == [SetBot(side="B", level="simple"), SetBot(side=None, level="simple")]


def test_board_check_shows_game_and_sensors() -> None:
    app, _, _ = make(backend=FakeBackend())
    client = app.test_client()
    login(client)
    page = client.get("/admin/board").get_data(as_text=True)
    assert "match the game" in page and "1, 2, 3" in page and "sticks" in page
    assert "light faces are up" not in page  # tilt switches need no calibration


def test_calibration_in_two_steps_saved_to_the_configuration(tmp_path: Any) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(analog_config_text(), encoding="utf-8")
    backend = FakeBackend(analog=True)
    app, _, _ = make(backend=backend, config_path=str(path))
    client = app.test_client()
    login(client)
    assert "The light faces are up" in client.get("/admin/board").get_data(as_text=True)
    assert form(client, "/admin/calibrate", step="dark").status_code == 400  # light first
    assert form(client, "/admin/calibrate", step="light").status_code == 303
    assert "The dark faces are up" in client.get("/admin/board").get_data(as_text=True)
    backend.light = False
    assert form(client, "/admin/calibrate", step="dark").status_code == 303
    saved = parse_config(path.read_text(encoding="utf-8"))
    assert saved.sticks[1].light_level == "high" and 0.2 < saved.sticks[1].threshold < 0.8
    assert "saved" in client.get("/admin/board").get_data(as_text=True)


def test_calibration_that_cannot_tell_the_faces_apart() -> None:
    backend = FakeBackend(analog=True)
    app, _, _ = make(backend=backend)
    client = app.test_client()
    login(client)
    form(client, "/admin/calibrate", step="light")
    assert form(client, "/admin/calibrate", step="dark").status_code == 303  # same readings
    page = client.get("/admin/board").get_data(as_text=True)
    assert "stick 2" in page and "The light faces are up" in page


def test_calibration_on_hardware_without_it() -> None:
    app, _, _ = make(backend=FakeBackend())
    client = app.test_client()
    login(client)
    assert form(client, "/admin/calibrate", step="light").status_code == 404


def test_history_from_the_journal() -> None:
    app, _, _ = make(journal=FakeJournal())
    client = app.test_client()
    login(client)
    page = client.get("/admin/history").get_data(as_text=True)
    assert "g1" in page and "isac" in page and "Light wins" in page and "not finished" in page
    assert page.index("g2") < page.index("g1")  # newest first


def test_the_pin_session_ends_when_idle_and_on_logout() -> None:
    app, _, clock = make()
    client = app.test_client()
    login(client)
    clock.advance(901)
    assert client.get("/admin/board").status_code == 403
    login(client)
    assert client.get("/admin/board").status_code == 200
    assert form(client, "/admin/logout").status_code == 303
    assert client.get("/admin/board").status_code == 403


def test_a_pin_session_does_not_survive_a_restart() -> None:
    app, _, _ = make(config={"secret_key": "same"})
    client = app.test_client()
    login(client)
    cookie = client.get_cookie("session")
    assert cookie is not None
    other, _, _ = make(config={"secret_key": "same"})
    second = other.test_client()
    second.set_cookie("session", cookie.value)
    assert second.get("/admin/board").status_code == 403


# -- the simulator page --------------------------------------------------------------------
def test_simulator_drives_the_simulated_board() -> None:
    board = FakeSimBoard()
    app, _, _ = make(backend=FakeBackend(board))
    client = app.test_client()
    assert client.get("/simulator/").status_code == 200
    h = {"X-CSRF-Token": token(client)}
    for action, body in [
        ("place", {"square": 11}),
        ("lift", {"square": 9}),
        ("press", {"square": 12}),
        ("throw", {"faces": [1, 0, 1, 1]}),
        ("throw-button", {}),
    ]:
        assert post(client, f"/simulator/{action}", body, **h).status_code == 202
    assert board.calls == [
        ("place", 11),
        ("lift", 9),
        ("press", 12),
        ("throw", (1, 0, 1, 1)),
        ("throw-button",),
    ]


@pytest.mark.parametrize(
    ("action", "body", "status"),
    [
        ("place", {"square": 31}, 400),
        ("place", {"square": "9"}, 400),
        ("lift", {}, 400),
        ("throw", {"faces": [2, 0, 0, 0]}, 400),
        ("throw", {"faces": "1011"}, 400),
        ("throw", {"faces": [True, 0, 0, 0]}, 400),
        ("explode", {}, 404),
    ],
)
def test_simulator_refuses_bad_requests(action: str, body: Any, status: int) -> None:
    board = FakeSimBoard()
    app, _, _ = make(backend=FakeBackend(board))
    client = app.test_client()
    h = {"X-CSRF-Token": token(client)}
    assert post(client, f"/simulator/{action}", body, **h).status_code == status
    assert board.calls == []


def test_simulator_shows_what_the_sensors_feel() -> None:
    app, _, _ = make(backend=FakeBackend(FakeSimBoard()))
    client = app.test_client()
    assert client.get("/simulator/sensors").get_json() == {"occupied": [1, 2, 3]}
    assert 'data-occupied="1 2 3"' in client.get("/simulator/").get_data(as_text=True)


def test_no_simulator_on_real_hardware() -> None:
    app, _, _ = make(backend=FakeBackend(board=None))
    client = app.test_client()
    assert client.get("/simulator/").status_code == 404
    assert client.get("/simulator/sensors").status_code == 404
    h = {"X-CSRF-Token": token(client)}
    assert post(client, "/simulator/place", {"square": 1}, **h).status_code == 404


def test_simulator_for_spectators_needs_the_pin() -> None:
    board = FakeSimBoard()
    app, _, _ = make(backend=FakeBackend(board), config={"phone_input": False})
    client = app.test_client()
    assert client.get("/simulator/").status_code == 403
    h = {"X-CSRF-Token": token(client)}
    assert post(client, "/simulator/place", {"square": 1}, **h).status_code == 403
    login(client)
    assert client.get("/simulator/").status_code == 200
    h = {"X-CSRF-Token": token(client)}
    assert post(client, "/simulator/place", {"square": 1}, **h).status_code == 202
    assert board.calls == [("place", 1)]
