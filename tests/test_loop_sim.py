"""The loop on the real simulated backend: pins scanned by threads, events on the loop's queue."""

from __future__ import annotations

import random
from typing import Any

from companion.game import TableSettings
from companion.loop import GameLoop
from companion.tracker import TrackerSettings
from hardware.backends import open_backend
from hardware.simulation import SimulatedBoard

QUICK = TableSettings(tracker=TrackerSettings(settle=0.1, bear_off_pause=1.0, mistake_delay=0.5))


def wait_for(states: Any, check: Any, what: str) -> dict[str, Any]:
    while True:
        state = states.get(timeout=10)
        assert state is not None, f"never saw {what}"
        if check(state):
            return state


def test_a_move_on_the_simulated_board_is_seen_and_played() -> None:
    board = SimulatedBoard(tumble_ms=50)
    backend = open_backend("sim", None, board=board)
    loop = GameLoop("playpalace", backend, rng=random.Random(0), settings=QUICK, tick_every=0.05)
    with loop.subscribe() as states:
        loop.start()
        try:
            board.arrange(range(1, 11))
            wait_for(states, lambda s: s["phase"] == "throw", "the set-up recognised")
            board.throw((1, 1, 1, 0))
            state = wait_for(states, lambda s: s["phase"] == "move", "the throw")
            assert state["throw"]["source"] == "sticks" and state["throw"]["value"] == 3
            board.move(9, 12)
            state = wait_for(states, lambda s: s["last_move"] is not None, "the move")
            assert state["last_move"]["move"] == "9-12"
            assert state["position"] == "WBWBWBWB.B.W.................. B 0 0"
            board.lift(2)
            state = wait_for(
                states, lambda s: s["announcements"][-1]["kind"] == "mistake", "the mistake"
            )
            assert state["announcements"][-1]["text"] == (
                "Throw first, then move. Put a dark piece on 2."
            )
        finally:
            loop.stop()
