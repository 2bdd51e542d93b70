"""The phone page's parts on their own: configuration, PIN gate, fan-out, board drawing, texts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_fakes import FakeClock, FakeLoop

from companion.actions import Throw
from companion.web.board import render_board, square_centre
from companion.web.broker import StateBroker
from companion.web.config import WebConfig
from companion.web.errors import NotAllowed, TooManyAttempts, TooManyClients, WebConfigError
from companion.web.i18n import compile_catalogues
from companion.web.security import PinGate
from companion.web.texts import describe


# -- configuration -------------------------------------------------------------------------
def test_web_table_of_the_configuration_file(tmp_path: Path) -> None:
    path = tmp_path / "senet.toml"
    path.write_text(
        '[hardware]\nsquares = "presence"\n\n[web]\npin = "2468"\nphone_input = false\n'
        'languages = ["pt", "en"]\ndefault_language = "pt"\nidle_after = 300\n',
        encoding="utf-8",
    )
    config = WebConfig.from_file(path)
    assert config.pin == "2468" and config.phone_input is False
    assert config.languages == ("pt", "en") and config.idle_after == 300.0


def test_a_file_without_a_web_table_gives_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "senet.toml"
    path.write_text('[hardware]\nsquares = "buttons"\n', encoding="utf-8")
    assert WebConfig.from_file(path) == WebConfig()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"pin": 2468}, "pin must be a string in quotes"),
        ({"pin": "12"}, "4 to 12 digits"),
        ({"pin": "12ab"}, "4 to 12 digits"),
        ({"phone_input": "yes"}, "true or false"),
        ({"languages": ["en", "xx"]}, "languages must be a non-empty list"),
        ({"languages": "en"}, "list of codes"),
        ({"default_language": "fr", "languages": ["en"]}, "not one of languages"),
        ({"idle_after": -1}, "positive number of seconds"),
        ({"idle_after": True}, "number of seconds"),
        ({"max_clients": 0}, "between 1 and 1000"),
        ({"colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_bad_web_tables_are_named(table: dict[str, Any], message: str) -> None:
    with pytest.raises(WebConfigError, match=re.escape(message)):
        WebConfig.from_mapping(table)


def test_unreadable_configuration_files(tmp_path: Path) -> None:
    with pytest.raises(WebConfigError, match="cannot read"):
        WebConfig.from_file(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[web\n", encoding="utf-8")
    with pytest.raises(WebConfigError, match="not valid TOML"):
        WebConfig.from_file(bad)
    assert issubclass(WebConfigError, ValueError)


# -- the PIN gate --------------------------------------------------------------------------
def test_pin_gate_doubles_the_wait_per_client() -> None:
    clock = FakeClock()
    gate = PinGate("2468", clock, free=3, base_delay=2.0)
    assert [gate.check("a", "0000") for _ in range(3)] == [False] * 3
    with pytest.raises(TooManyAttempts) as waited:
        gate.check("a", "2468")
    assert waited.value.retry_after == 2
    assert gate.check("b", "2468")  # another phone is not held up
    clock.advance(2)
    assert not gate.check("a", "1111")
    clock.advance(3.9)
    with pytest.raises(TooManyAttempts):
        gate.check("a", "2468")
    clock.advance(0.2)
    assert gate.check("a", "2468")
    assert not gate.check("a", "0000")  # a right PIN forgave the past


def test_pin_gate_slows_everybody_down_after_many_guesses() -> None:
    clock = FakeClock()
    gate = PinGate("2468", clock, free=3, global_free=5)
    for n in range(5):
        assert not gate.check(f"phone-{n}", "0000")
    with pytest.raises(TooManyAttempts):
        gate.check("phone-new", "2468")


def test_pin_gate_without_a_pin_refuses() -> None:
    with pytest.raises(NotAllowed, match="set a pin"):
        PinGate(None, FakeClock()).check("a", "")


# -- the fan-out ---------------------------------------------------------------------------
def test_broker_gives_each_follower_the_newest_state() -> None:
    loop = FakeLoop()
    broker = StateBroker(loop, max_clients=2, poll=0.05)
    first, second = broker.connect(), broker.connect()
    with pytest.raises(TooManyClients):
        broker.connect()
    sub = loop.subscribe()
    loop.submit(Throw(faces=(1, 0, 0, 0)))
    version = loop.snapshot()["version"]
    for follower in (first, second):
        state = follower.next(timeout=5)
        while state is not None and state["version"] < version:
            state = follower.next(timeout=5)
        assert state is not None and state["version"] == version
    sub.close()
    broker.disconnect(first)
    assert broker.count == 1
    broker.connect()  # room again
    broker.stop()
    assert second.closed and second.next(timeout=0.01) is None
    with pytest.raises(TooManyClients, match="shutting down"):
        broker.connect()


def test_broker_encodes_once_per_key() -> None:
    broker = StateBroker(FakeLoop())
    calls: list[int] = []

    def make() -> str:
        calls.append(1)
        return "x"

    assert broker.encoded(("g", 1, "en"), make) == broker.encoded(("g", 1, "en"), make)
    assert len(calls) == 1


# -- the board drawing ---------------------------------------------------------------------
def state_after_throw(faces: tuple[int, ...]) -> dict[str, Any]:
    loop = FakeLoop()
    loop.submit(Throw(faces=faces))
    return loop.snapshot()


def test_board_draws_track_pieces_moves_and_sticks() -> None:
    svg = render_board(state_after_throw((1, 0, 1, 1)))
    assert svg.count('class="square') == 30
    assert svg.count('class="piece W movable"') == 5 and svg.count('class="piece B"') == 5
    assert svg.count('class="legal-arrow"') == 5 and svg.count('class="target"') == 5
    assert svg.count("stick-light") == 3 and svg.count("stick-dark") == 1
    assert ">= 3</text>" in svg
    assert "House of Happiness" in svg
    assert 'viewBox="40 0' in svg  # no pieces in hand: no room kept for them


def test_board_track_is_s_shaped() -> None:
    assert square_centre(1)[1] == square_centre(10)[1] < square_centre(11)[1]
    assert square_centre(11)[0] == square_centre(10)[0]  # 11 is under 10
    assert square_centre(21)[0] == square_centre(20)[0] == square_centre(1)[0]
    assert square_centre("off")[0] > square_centre(30)[0]
    assert square_centre(31) == square_centre("off") and square_centre(0) == square_centre("hand")


def test_board_draws_bearing_off_entering_and_escapes_names() -> None:
    state = state_after_throw((1, 0, 0, 0))
    state = {
        **state,
        "board": "." * 27 + "W.B",
        "off": {"W": 2, "B": 4},
        "legal": [
            {"move": "28-off", "from": 28, "to": "off", "effects": ["bear-off"]},
            {"move": "hand-1", "from": 0, "to": 1, "effects": ["enter"]},
        ],
        "last_move": {"move": "27-30", "from": 27, "to": 30, "by": "B", "effects": []},
        "ruleset": {**state["ruleset"], "square_names": {"15": "<b>&"}},
        "throw": {"value": 3, "faces": None, "source": "electronic", "bonus": False},
    }
    svg = render_board(state)
    assert 'data-move="28-off"' in svg and 'data-move="hand-1"' in svg
    assert 'viewBox="0 0' in svg  # pieces in hand: the hand is drawn
    assert "&lt;b&gt;&amp;" in svg and "<b>" not in svg
    assert 'class="die"' in svg
    assert 'class="square last-to" data-square="30"' in svg


def test_board_tolerates_a_truncated_state() -> None:
    assert render_board({}).count('class="square') == 30


# -- texts ---------------------------------------------------------------------------------
def test_texts_for_the_end_and_the_pauses() -> None:
    state = state_after_throw((1, 0, 1, 1))
    over = {**state, "phase": "over", "outcome": {"winner": "B", "reason": "all pieces borne off"}}
    assert describe(over, str)["turn"] == "Dark wins: all pieces borne off"
    assert describe({**state, "phase": "idle-check"}, str)["idle"] is True
    assert describe({**state, "phase": "setup"}, str)["turn"] == "Set up the pieces to start"
    bonus = {**state, "throw": {**state["throw"], "bonus": True}}
    assert describe(bonus, str)["bonus"] == "Throws again after this move"
    faults = {**state, "hardware": {"backend": "sim", "faults": [{"code": "x", "message": "m"}]}}
    assert describe(faults, str)["faults"] == ["m"]
    assert describe(state, str)["hand"] == ""
    entering = {**state, "board": "W" + "." * 29, "off": {"W": 1, "B": 0}}
    assert describe(entering, str)["hand"] == "In hand: light 3, dark 5"


def test_announcements_fall_back_to_the_published_text() -> None:
    state = {"announcements": [{"id": 1, "kind": "info", "key": "no-such-key", "text": "Hello"}]}
    assert describe(state, str)["announcements"][0]["text"] in ("Hello", "no-such-key")
    state = {"announcements": [{"id": 2, "kind": "info", "text": "Plain"}]}
    assert describe(state, str)["announcements"][0]["text"] == "Plain"


# -- catalogues ----------------------------------------------------------------------------
def test_catalogues_compile_where_they_can_be_written(tmp_path: Path) -> None:
    source = tmp_path / "translations"
    (source / "pt" / "LC_MESSAGES").mkdir(parents=True)
    po = source / "pt" / "LC_MESSAGES" / "messages.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Rules"\nmsgstr "Regras"\n', encoding="utf-8")
    assert compile_catalogues(source) == source
    mo = source / "pt" / "LC_MESSAGES" / "messages.mo"
    assert mo.exists()
    from babel.support import Translations

    assert Translations.load(str(source), ["pt"]).gettext("Rules") == "Regras"


@pytest.mark.parametrize("code", ["pt", "fr"])
def test_catalogues_translate_every_text_with_the_same_placeholders(code: str) -> None:
    from babel.messages.pofile import read_po

    from companion.web.i18n import TRANSLATIONS

    with open(TRANSLATIONS / "messages.pot", "rb") as handle:
        template = read_po(handle)
    with open(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalogue = read_po(handle, locale=code)
    holes = re.compile(r"%\(\w+\)s|\{\w*\}")
    for message in template:
        if not message.id:
            continue
        translated = catalogue.get(message.id)
        assert translated is not None and translated.string, f"{code}: {message.id!r}"
        assert sorted(holes.findall(str(message.id))) == sorted(
            holes.findall(str(translated.string))
        ), f"{code}: {message.id!r} -> {translated.string!r}"
