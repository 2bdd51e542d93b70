"""A small stand-in for the game loop that keeps to the loop/web contract, for the page's tests.

It plays real rules (the engine) synchronously on ``submit`` and publishes complete states with
increasing versions to every subscriber's bounded queue.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from companion.actions import NewGame, PlayMove, StillPlaying, Throw
from companion.journal import GameInfo
from companion.rules import Position, get_ruleset
from hardware.config import default_config_text, parse_config


class FakeSubscription:
    def __init__(self, owner: FakeLoop) -> None:
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=8)
        self.owner = owner

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.owner.unsubscribe(self)


@dataclass
class FakeLoop:
    ruleset: str = "playpalace"
    seed: int = 1
    commands: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.lock = threading.Lock()
        self.subscribers: list[FakeSubscription] = []
        self.version = 0
        self.announcements: list[dict[str, Any]] = []
        self.next_id = 1
        self.phase_override: str | None = None
        self.decision: dict[str, Any] | None = None
        self.new_game(self.ruleset)

    # -- contract -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return self.state

    def subscribe(self) -> FakeSubscription:
        sub = FakeSubscription(self)
        with self.lock:
            self.subscribers.append(sub)
        return sub

    def unsubscribe(self, sub: FakeSubscription) -> None:
        with self.lock:
            if sub in self.subscribers:
                self.subscribers.remove(sub)

    def submit(self, command: Any) -> None:
        self.commands.append(command)
        if isinstance(command, Throw):
            faces = command.faces or tuple(self.rng.randint(0, 1) for _ in range(4))
            self.throw(faces)
        elif isinstance(command, PlayMove):
            self.play(command.move)
        elif isinstance(command, NewGame):
            self.new_game(command.ruleset)
        elif isinstance(command, StillPlaying):
            self.phase_override = None
            self.publish()
        else:
            self.publish()

    # -- the game -------------------------------------------------------------------------
    def new_game(self, name: str) -> None:
        self.rules = get_ruleset(name)
        self.position: Position = self.rules.start()
        self.throw_value: int | None = None
        self.faces: tuple[int, ...] | None = None
        self.legal: list[Any] = []
        self.last_move: dict[str, Any] | None = None
        self.say("info", "new-game", {}, f"A new game of {self.rules.title}.")
        self.publish()

    def say(self, kind: str, key: str, params: dict[str, Any], text: str) -> None:
        self.announcements.append(
            {"id": self.next_id, "kind": kind, "key": key, "params": params, "text": text}
        )
        self.next_id += 1
        self.announcements = self.announcements[-20:]

    def throw(self, faces: tuple[int, ...]) -> None:
        value = self.rules.throw_model.from_faces(faces)
        self.faces, self.throw_value = faces, value
        transitions, passed = self.rules.after_throw(self.position, value)
        self.say("throw", "throw", {"value": value}, f"Thrown: {value}.")
        if transitions:
            self.legal = transitions
        else:
            self.position = passed
            self.legal = []
            self.say("rule", "pass", {}, "No move possible.")
        self.publish()

    def play(self, move: str) -> None:
        for t in self.legal:
            if t.move.notation() == move:
                side = self.position.side.value
                self.position = t.after
                self.last_move = {
                    "move": move,
                    "from": t.move.start,
                    "to": t.move.end,
                    "by": side,
                    "effects": [],
                }
                self.legal = []
                self.say("move", "moved", {"move": move}, f"Moved {move}.")
                break
        else:
            self.say("mistake", "mistake-illegal", {"move": move}, f"{move} is not legal.")
        self.publish()

    def publish(self) -> None:
        self.version += 1
        pos = self.position
        outcome = self.rules.outcome(pos)
        if outcome is not None:
            phase = "over"
        elif self.phase_override:
            phase = self.phase_override
        elif self.decision:
            phase = "decide"
        elif self.legal:
            phase = "move"
        else:
            phase = "throw"
        state = {
            "version": self.version,
            "game_id": "2026-11-21T10-50-00-ab12",
            "ruleset": {
                "name": self.rules.name,
                "title": self.rules.title,
                "electronic_only": False,
                "throw_kind": "sticks",
                "square_names": {str(k): v for k, v in self.rules.square_names.items()},
            },
            "position": pos.notation(),
            "board": pos.board,
            "side": pos.side.value,
            "off": {"W": pos.off_w, "B": pos.off_b},
            "phase": phase,
            "throw": (
                {
                    "value": self.throw_value,
                    "faces": list(self.faces or ()),
                    "source": "electronic",
                    "bonus": self.throw_value in (1, 4, 5),
                }
                if self.throw_value is not None
                else None
            ),
            "legal": [
                {
                    "move": t.move.notation(),
                    "from": t.move.start,
                    "to": t.move.end,
                    "effects": [],
                    "after": t.after.notation(),
                }
                for t in self.legal
            ],
            "decision": self.decision,
            "last_move": self.last_move,
            "board_check": {"matches": True, "extra": [], "missing": [], "message": ""},
            "outcome": (
                {"winner": outcome.winner.value, "reason": outcome.reason.value}
                if outcome
                else None
            ),
            "announcements": list(self.announcements),
            "bots": {"W": None, "B": None},
            "hint": None,
            "hardware": {"backend": "sim", "faults": []},
            "input": {"board": "presence", "phone": True},
        }
        with self.lock:
            self.state = state
            subscribers = list(self.subscribers)
        for sub in subscribers:
            try:
                sub.queue.put_nowait(state)
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    sub.queue.get_nowait()
                sub.queue.put_nowait(state)


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeSimBoard:
    """Records what the simulator page asked the simulated board to do."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def place(self, square: int) -> None:
        self.calls.append(("place", square))

    def lift(self, square: int) -> None:
        self.calls.append(("lift", square))

    def press(self, square: int) -> None:
        self.calls.append(("press", square))

    def throw(self, faces: tuple[int, ...]) -> None:
        self.calls.append(("throw", faces))

    def press_throw_button(self) -> None:
        self.calls.append(("throw-button",))


def analog_config_text() -> str:
    """The shipped configuration with the second stick on an analogue light sensor."""
    return default_config_text().replace(
        'kind = "tilt"\npin = 27\nlight_level = "low"', 'kind = "analog"\nchannel = 5'
    )


class FakeBackend:
    """A backend with a fixed board; ``analog`` gives it a light sensor to calibrate."""

    name = "sim"

    def __init__(self, board: FakeSimBoard | None = None, analog: bool = False) -> None:
        self.board = board
        self.config = parse_config(analog_config_text() if analog else default_config_text())
        self.light = True  # which face the calibrating player has put up

    def stick_readings(self) -> list[float | int | None]:
        level = 0.8 if self.light else 0.2
        return [None, level, None, None]

    def start(self, events: Any) -> None:
        pass

    def stop(self) -> None:
        pass

    def occupied(self) -> frozenset[int]:
        return frozenset({1, 2, 3})

    def status(self) -> dict[str, Any]:
        return {"backend": "sim", "sticks": [0, 1, 0, 1]}


class FakeJournal:
    """Two games, as ``companion.journal.Journal.games`` lists them."""

    def games(self, status: str | None = None) -> list[GameInfo]:
        return [
            GameInfo("g1", "isac", {}, "s", "2026-11-20T10:00", "finished", "t", "W", "all"),
            GameInfo("g2", "basic", {}, "s", "2026-11-21T09:00", "active"),
        ]
