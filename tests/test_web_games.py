"""Whole games of every ruleset through the real loop, drawn by the page after every step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.actions import Decide, PlayMove, Throw
from companion.loop import GameLoop
from companion.rules import RULESETS
from companion.web import create_app

# The loop plays these to the end; the scholarly ones are drawn for as long as the loop goes.
FINISHING = ("playpalace", "basic", "isac", "d5")
SCHOLARLY = ("piccione", "kendall", "jequier", "bell")


@pytest.mark.parametrize("name", [n for n in FINISHING + SCHOLARLY if n in RULESETS])
def test_every_state_of_a_game_is_drawn(name: str) -> None:
    loop = GameLoop(name, None, board_kind="none", rng=random.Random(5))
    app = create_app({"pin": "2468"}, loop=loop)
    client = app.test_client()
    rng = random.Random(9)
    seen: set[str] = set()
    for _ in range(3000 if name in FINISHING else 400):
        state: dict[str, Any] = loop.snapshot()
        seen.add(state["phase"])
        data = client.get("/api/state", headers={"Accept-Language": "pt"}).get_json()
        assert data["svg"].count('class="square') == 30
        assert data["svg"].count("movable") >= len({m["from"] for m in state["legal"]})
        assert all(a["text"] for a in data["text"]["announcements"])
        if state["phase"] == "over":
            assert data["text"]["turn"].count("ganha")
            break
        if state["phase"] == "decide":
            loop.handle(Decide(rng.choice(state["decision"]["choices"])["id"]))
        elif state["phase"] == "move":
            loop.handle(PlayMove(rng.choice(state["legal"])["move"]))
        else:
            loop.handle(Throw())
    assert "throw" in seen
    if name in FINISHING:
        assert {"move", "over"} <= seen
    assert client.get("/").status_code == 200
