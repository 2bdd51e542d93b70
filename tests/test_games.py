"""Whole games for every ruleset, played through the real loop as a person would play them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.journal import Journal, parse_record
from companion.replay import ManualClock, Replayer, make_loop, parse_line
from companion.rules import OFF, RULESETS, Position
from tests.physical import hands, settle

SEEDS = range(2)
# One ruleset of each kind for the slower checks; the options of a kind play the same way.
KINDS = sorted({cls.__module__: name for name, cls in reversed(list(RULESETS.items()))}.values())


class Player:
    """Plays random legal moves on one kind of board, checking the loop after each one."""

    def __init__(self, ruleset: str, seed: int, board: str, journal: Journal | None = None):
        self.loop, clock = make_loop(ruleset, seed=seed, board=board, journal=journal)
        self.clock: ManualClock = clock
        self.replayer = Replayer(self.loop, clock)
        self.rules = self.loop.table.rules
        self.board = board
        self.pick = random.Random(seed)
        self.moves = 0

    def do(self, *lines: str) -> dict[str, Any]:
        for line in lines:
            for step in parse_line(line, self.rules):
                self.replayer.play(step)
        return self.loop.snapshot()

    def throw(self) -> dict[str, Any]:
        if self.rules.throw_model.sticks == 0:
            return self.do("throw")
        return self.do("sticks " + " ".join(str(self.pick.getrandbits(1)) for _ in range(4)))

    def decide(self, state: dict[str, Any]) -> None:
        position = Position.parse(state["position"])
        choices = [c["id"] for c in state["decision"]["choices"]]
        choice = self.pick.choice(choices)
        decision = next((t for t in self.rules.decisions(position) if str(t.move) == choice), None)
        if decision is not None and self.board == "presence":
            self.do(*hands(position, decision), "wait 0.5")
        elif decision is not None and self.board == "buttons":
            self.do(f"press {decision.move.end}")
            self.do(*hands(position, decision))
        else:
            self.do(f"decide {choice}")
        if decision is not None:
            assert self.loop.snapshot()["position"] == decision.after.notation()

    def move(self, state: dict[str, Any]) -> None:
        position = Position.parse(state["position"])
        t = self.pick.choice(self.rules.transitions(position, state["throw"]["value"]))
        if self.board == "presence":
            self.do(*hands(position, t), settle(t))
            if self.loop.snapshot()["phase"] == "decide":  # the board fits several moves
                self.do(f"decide {t.move}")
        elif self.board == "buttons":
            self.do(f"press {t.move.start}")
            self.do(f"press {t.move.start if t.move.end == OFF else t.move.end}")
        else:
            self.do(f"move {t.move}")
        after = self.loop.snapshot()
        expected = self.rest_lost(t.after)
        assert after["position"] == expected.notation(), (position, t.move, after["announcements"])
        assert after["last_move"]["move"] == str(t.move)
        self.moves += 1

    def rest_lost(self, position: Position) -> Position:
        """``position`` after any rest of a split throw that cannot be played is lost."""
        while not self.rules.needs_throw(position):
            rest = self.rules.pending_throw(position)
            if rest is None or self.rules.transitions(position, rest):
                break
            position = self.rules.pass_turn(position, rest)
        return position

    def play(self, limit: int = 5000) -> dict[str, Any]:
        state = self.do("board start", "wait 0.5")
        for _ in range(limit):
            if state["phase"] == "over":
                return state
            if state["phase"] == "decide":
                self.decide(state)
            elif state["phase"] == "move":  # the rest of a split throw
                assert state["throw"]["rest"]
                self.move(state)
            else:
                assert state["phase"] == "throw", state["announcements"][-3:]
                assert state["board_check"]["matches"], state["board_check"]
                state = self.throw()
                if state["phase"] == "move":
                    self.move(state)
            state = self.loop.snapshot()
        raise AssertionError(f"no end after {limit} steps: {state['position']}")


@pytest.mark.parametrize("board", ["presence", "buttons", "none"])
@pytest.mark.parametrize("ruleset", KINDS)
def test_whole_games_end_with_a_winner(ruleset: str, board: str) -> None:
    for seed in SEEDS:
        player = Player(ruleset, seed, board)
        state = player.play()
        assert state["outcome"]["winner"] in ("W", "B")
        assert state["announcements"][-1]["key"] == "win"
        assert player.moves > 10


@pytest.mark.parametrize("ruleset", KINDS)
def test_a_played_game_is_journaled_and_its_record_reads_back(ruleset: str, tmp_path) -> None:
    journal = Journal(tmp_path / "games.db")
    player = Player(ruleset, 7, "presence", journal)
    final = player.play()
    (info,) = journal.games("finished")
    assert info.winner == final["outcome"]["winner"]
    steps = journal.steps(info.id)
    assert steps[-1].after == final["position"]
    record = journal.export(info.id)
    parsed, parsed_steps = parse_record(record)
    assert (parsed.id, parsed.winner) == (info.id, info.winner)
    assert parsed_steps == [s.__class__(s.side, s.throw, s.move, s.after) for s in steps]
    other = Journal(tmp_path / "other.db")
    assert other.import_record(record) == info.id
    assert other.export(info.id) == record


@pytest.mark.parametrize("ruleset", sorted(set(RULESETS) - set(KINDS)))
def test_every_option_of_a_ruleset_plays_to_the_end(ruleset: str) -> None:
    state = Player(ruleset, 1, "presence").play()
    assert state["outcome"]["winner"] in ("W", "B")
