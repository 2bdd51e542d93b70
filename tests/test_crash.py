"""Pulling the plug: a companion killed in the middle of play loses nothing it acknowledged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from companion.journal import Journal
from companion.replay import parse_line
from companion.rules import Position, get_ruleset
from tests.physical import hands, settle

RULES = get_ruleset("playpalace")
ROOT = Path(__file__).resolve().parent.parent


class Companion:
    """``python -m companion.replay`` on a journal, fed one script line at a time."""

    def __init__(self, journal: Path) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion.replay",
                "--ruleset",
                "playpalace",
                "--journal",
                str(journal),
                "-",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self.state = self.read()

    def read(self) -> dict[str, Any]:
        out: IO[str] = self.proc.stdout  # type: ignore[assignment]
        line = out.readline()
        assert line, f"the companion stopped: {self.proc.stderr.read()}"  # type: ignore[union-attr]
        return json.loads(line)  # type: ignore[no-any-return]

    def do(self, *lines: str) -> dict[str, Any]:
        for line in lines:
            self.proc.stdin.write(line + "\n")  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
            for _ in parse_line(line, RULES):
                self.state = self.read()  # acknowledged: written to the journal, then printed
        return self.state

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()  # type: ignore[union-attr]

    def close(self) -> int:
        self.proc.stdin.close()  # type: ignore[union-attr]
        status = self.proc.wait(10)
        self.proc.stdout.close()  # type: ignore[union-attr]
        self.proc.stderr.close()  # type: ignore[union-attr]
        return status


def first_move(state: dict[str, Any]) -> list[str]:
    position = Position.parse(state["position"])
    t = RULES.transitions(position, state["throw"]["value"])[-1]
    return [*hands(position, t), settle(t)]


def test_sigkill_in_the_middle_of_a_move_loses_nothing(tmp_path: Path) -> None:
    journal = tmp_path / "companion.db"
    first = Companion(journal)
    state = first.do("board start", "wait 0.5")
    throws = ["sticks 1 1 1 0", "sticks 1 1 0 0", "sticks 1 1 1 0", "sticks 1 1 0 0"]
    for line in throws:
        state = first.do(line)
        if state["phase"] == "move":
            state = first.do(*first_move(state))
    moves = [s["move"] for s in [state["last_move"]] if s]
    state = first.do("sticks 1 1 1 0")
    position = Position.parse(state["position"])
    t = RULES.transitions(position, 3)[-1]
    acknowledged = first.do(f"lift {t.move.start}")  # the piece is in the player's hand
    first.kill()

    with Journal(journal) as j:
        (game,) = j.games("active")
        kept = [s.move for s in j.steps(game.id)]
    assert len(kept) == 4 and kept[-1] == moves[-1]

    second = Companion(journal)
    resumed = second.state
    for key in ("game_id", "position", "phase", "throw", "legal", "last_move", "bots"):
        assert resumed[key] == acknowledged[key], key
    assert resumed["version"] > acknowledged["version"]
    assert resumed["announcements"][-1]["key"] == "resumed"
    # The board is read again: the lifted piece is still in the hand; the move goes on.
    board = sorted(set(range(1, 31)) - {i + 1 for i, c in enumerate(position.board) if c == "."})
    board.remove(t.move.start)
    state = second.do("board " + " ".join(map(str, board)), *hands(position, t)[1:], "wait 0.5")
    assert state["last_move"]["move"] == str(t.move)
    assert state["position"] == t.after.notation()
    assert second.close() == 0
    with Journal(journal) as j:
        assert [s.move for s in j.steps(game.id)] == [*kept, str(t.move)]
        events = j.events(game.id)
    assert events[0][1]["kind"] == "board-snapshot"
