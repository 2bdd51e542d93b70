"""End to end in headless Chromium on a phone-sized screen, against the real loop on the
simulated board: throw and move through the simulator, see highlights and announcements change,
lose and regain the connection, switch language.

Chromium is Debian's (``tests/setup-browser.sh`` installs it); Playwright drives it by path.
Set ``SENET_SCREENSHOTS=1`` to save the main screens under ``docs/screenshots/``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_server import Companion, Proxy, running_companion

from companion.actions import Throw

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("SENET_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
WAIT = 8000  # ms: an upper bound for things that take well under a second


def shoot(page: Any, name: str) -> None:
    if os.environ.get("SENET_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        message = f"{CHROMIUM} is missing: run tests/setup-browser.sh as root"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[Companion]:
    with running_companion(tmp_path) as c:
        yield c


def phone(browser: Any, locale: str = "en-GB") -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale)
    context.set_default_timeout(WAIT)
    return context


def newest(page: Any) -> str:
    return str(page.locator("#announcements li").first.inner_text())


def test_throw_and_move_through_the_simulator(browser: Any, companion: Companion) -> None:
    from playwright.sync_api import expect

    context = phone(browser)
    game = context.new_page()
    game.goto(companion.url)
    expect(game.locator("#turn")).to_have_text("Light to throw")
    expect(game.locator("#game")).to_have_attribute("data-connected", "true")
    sim = context.new_page()
    sim.goto(companion.url + "simulator/")
    for stick in (0, 2, 3):
        sim.locator(".stick").nth(stick).check()
    sim.get_by_role("button", name="Throw these sticks").click()
    expect(game.locator("#turn")).to_have_text("Light to move with 3")
    expect(game.locator("svg .movable")).to_have_count(5)
    expect(game.locator("svg .legal-arrow")).to_have_count(5)
    expect(game.locator("#announcements li").first).to_contain_text("Light threw 3")
    shoot(game, "game-move")
    shoot(sim, "simulator")
    # Lift the piece on 9 and put it down on 12, as on the wooden board.
    expect(sim.locator("svg .square.sensed")).to_have_count(10)
    sim.locator('svg .square[data-square="9"]').click()
    expect(sim.locator('svg .square.sensed[data-square="9"]')).to_have_count(0)
    sim.locator('svg .square[data-square="12"]').click()
    expect(game.locator("#announcements li").first).to_contain_text("moved 9 to 12")
    expect(game.locator("svg .movable")).to_have_count(0)
    expect(game.locator("#turn")).to_have_text("Dark to throw")
    expect(game.locator('svg .square.last-to[data-square="12"]')).to_have_count(1)
    context.close()


# Records what the page asks the browser to say, in place of the speech synthesiser.
SPEECH = """
window.__said = [];
window.speechSynthesis.speak = function (u) { window.__said.push([u.lang, u.text]); };
"""


def test_phone_throws_and_taps_a_highlighted_piece(browser: Any, companion: Companion) -> None:
    from playwright.sync_api import expect

    context = phone(browser)
    context.add_init_script(SPEECH)
    page = context.new_page()
    page.goto(companion.url)
    sound = page.locator("#sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Throw the sticks").click()
    expect(page.locator("#announcements li").first).to_contain_text("Light threw")
    said = page.evaluate("window.__said")
    assert ["en", newest(page)] in said  # the new announcement was spoken, in English
    expect(page.locator("svg .sticks rect")).to_have_count(4)
    state = companion.loop.snapshot()
    if state["phase"] == "move":
        move = state["legal"][0]["move"]
        page.locator(f'svg .movable[data-move="{move}"]').click()
        expect(page.locator("#announcements")).to_contain_text(
            re.compile(r"Light moved|Light bore|The piece")
        )
        expect(page.locator("svg .movable")).to_have_count(0)
    context.close()


def test_lost_connection_is_shown_and_recovered(browser: Any, companion: Companion) -> None:
    from playwright.sync_api import expect

    proxy = Proxy(companion.port)
    try:
        context = phone(browser)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{proxy.port}/")
        expect(page.locator("#game")).to_have_attribute("data-connected", "true")
        expect(page.locator("#connection")).to_be_hidden()
        proxy.cut()
        expect(page.locator("#connection")).to_be_visible()
        shoot(page, "disconnected")
        companion.loop.submit(Throw(faces=(1, 1, 1, 1)))  # happens while the phone is away
        proxy.mend()
        expect(page.locator("#connection")).to_be_hidden()
        expect(page.locator("#turn")).to_have_text("Light to move with 4")
        expect(page.locator("#announcements li").first).to_contain_text("Light threw 4")
        context.close()
    finally:
        proxy.close()


def test_language_from_the_browser_and_switched(browser: Any, companion: Companion) -> None:
    from playwright.sync_api import expect

    context = phone(browser, locale="pt-PT")
    page = context.new_page()
    page.goto(companion.url)
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    expect(page.locator("#turn")).to_have_text("Claro lança")
    page.get_by_role("button", name="Lançar os paus").click()
    expect(page.locator("#announcements li").first).to_contain_text("Claro lançou")
    shoot(page, "game-portuguese")
    page.get_by_role("link", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("nav").get_by_role("link", name="Règles")).to_be_visible()
    expect(page.locator("#announcements li").first).to_contain_text("Clair a lancé")
    context.close()


def test_spectators_and_administration(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with running_companion(tmp_path, web={"phone_input": False}) as companion:
        context = phone(browser)
        page = context.new_page()
        page.goto(companion.url)
        expect(page.locator("#throw-button")).to_have_count(0)
        page.goto(companion.url + "admin/")
        page.locator("#pin").fill("2468")
        page.get_by_role("button", name="Enter").click()
        expect(page.get_by_role("heading", name="New game")).to_be_visible()
        shoot(page, "administration")
        page.locator("#ruleset").select_option("isac")
        page.get_by_role("button", name="Start a new game").click()
        expect(page.locator(".flash")).to_contain_text("A new game of")
        page.goto(companion.url + "rules/isac")
        shoot(page, "rules")
        context.close()


def play_to_the_end(loop: Any) -> None:
    """Throw and play the first legal move until the game is over (board kind "none")."""
    from companion.actions import Decide, PlayMove

    with loop.subscribe() as states:
        state = loop.snapshot()
        for _ in range(3000):
            if state["phase"] == "over":
                return
            if state["phase"] == "move":
                loop.submit(PlayMove(state["legal"][0]["move"]))
            elif state["phase"] == "decide":
                loop.submit(Decide(state["decision"]["choices"][0]["id"]))
            else:
                loop.submit(Throw())
            version = state["version"]
            while state["version"] == version:
                got = states.get(timeout=5)
                assert got is not None, "the loop stopped publishing"
                state = got
    raise AssertionError("the game did not end")


def test_the_result_is_shown(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with running_companion(tmp_path, board_kind="none") as companion:
        context = phone(browser)
        page = context.new_page()
        page.goto(companion.url)
        expect(page.locator("#game")).to_have_attribute("data-connected", "true")
        play_to_the_end(companion.loop)
        winner = "Light" if companion.loop.snapshot()["outcome"]["winner"] == "W" else "Dark"
        expect(page.locator("#turn")).to_have_text(f"{winner} wins: all pieces borne off")
        expect(page.locator("#throw-button")).to_be_hidden()
        expect(page.locator("#announcements li").first).to_contain_text(f"{winner} wins")
        shoot(page, "game-over")
        context.close()
