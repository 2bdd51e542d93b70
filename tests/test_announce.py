"""Announcement templates: every key renders, and translations go through gettext."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion import announce
from companion.announce import TEMPLATES, render

SAMPLE = {
    "side": "W",
    "value": 3,
    "from": 9,
    "to": 12,
    "back": 9,
    "landing": 27,
    "square": 4,
    "title": "PlayPalace",
    "light": "1, 3",
    "dark": "2, 4",
    "model": "a fair 5-sided die",
    "label": "27-15",
    "reason": "stop-26",
    "squares": [26],
    "level": "simple",
    "move": "9-13",
    "problem": "nonsense",
    "choice": "x",
    "choices": "a, b",
    "name": "chess",
    "known": "basic",
    "message": "square 4 is stuck",
    "throw": "4",
    "doing": "moving",
    "side_text": "light",
    "fix": [{"key": "fix-put-back", "params": {"square": 9}}],
}


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_template_renders_without_leftover_fields(key: str) -> None:
    text = render(key, SAMPLE)
    assert text and not re.search(r"\{\w*\}", text), text


def test_reasons_fixes_and_sides_are_rendered_inside_a_sentence() -> None:
    params = {
        "from": 25,
        "to": 28,
        "reason": "stop-26",
        "squares": [26],
        "fix": [{"key": "fix-move", "params": {"from": 28, "to": 25}}],
    }
    assert render("mistake-move", params) == (
        "25 to 28 is not allowed: square 26 must be landed on exactly."
        " Move the piece from 28 to 25."
    )
    assert render("bear-off", {"side": "B", "from": 30}) == "Dark bore a piece off from 30."
    assert render("fix-move", {"from": 31, "to": 5}) == "Move the piece from off the board to 5."


def test_gettext_translates_the_template_and_every_part() -> None:
    french = {
        "{side} threw {value}.": "{side} a lancé {value}.",
        "Light": "Clair",
    }
    assert render("throw", {"side": "W", "value": 4}, french.get) == "Clair a lancé 4."
    assert render("throw", {"side": "W", "value": 4}, lambda s: french.get(s, s)) == (
        "Clair a lancé 4."
    )


def test_unknown_keys_and_broken_translations_fall_back_to_text() -> None:
    assert render("no-such-key", {"text": "as sent"}) == "as sent"
    broken = render("throw", {"side": "W", "value": 2}, lambda s: "{oops")
    assert broken == "{side} threw {value}."


def test_kinds_group_the_keys() -> None:
    assert announce.kind_of("mistake-move") == "mistake"
    assert announce.kind_of("win") == "result"
    assert announce.kind_of("swap") == "move"
    assert announce.kind_of("setup") == "info"


def test_every_template_is_marked_for_extraction() -> None:
    tree = ast.parse(Path(announce.__file__).read_text(encoding="utf-8"))
    marked = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "N_"
        and isinstance(node.args[0], ast.Constant)
    }
    assert set(TEMPLATES.values()) <= marked
    assert set(announce.SIDES.values()) <= marked
