"""Random physical play against the tracker: right moves, wrong moves, slides, knocks, pauses.

Whatever the hands do, the loop must never apply an illegal move, never apply a move the board
does not show, and never leave the board disagreeing with the game without saying so.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.replay import make_loop
from companion.rules import OFF, RULESETS, Move, Position
from companion.tracker import landing, occupancy
from hardware import events as hw

LONG = 3.0  # longer than every settle time, pause and mistake delay of the tracker


class PhysicalPlay(RuleBasedStateMachine):
    @initialize(ruleset=st.sampled_from(sorted(RULESETS)), seed=st.integers(0, 2**16))
    def set_up(self, ruleset: str, seed: int) -> None:
        self.loop, self.clock = make_loop(ruleset, seed=seed)
        self.rules = self.loop.table.rules
        start = self.rules.start()
        self.pieces: dict[int, str] = {i + 1: ch for i, ch in enumerate(start.board) if ch != "."}
        self.send(hw.BoardSnapshot(frozenset(self.pieces)))
        self.wait(LONG)
        self.seen = self.state()
        assert self.seen["phase"] == "throw"

    # -- the hands -----------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return self.loop.snapshot()

    def send(self, event: Any) -> None:
        before = self.state()
        self.loop.handle(event)
        self.check_step(before, self.state())

    def wait(self, seconds: float) -> None:
        before = self.state()
        self.clock.advance(seconds)
        self.loop.tick()
        self.check_step(before, self.state())

    def lift(self, square: int) -> str | None:
        piece = self.pieces.pop(square, None)
        if piece is not None:
            self.send(hw.SquareChanged(square, False))
        return piece

    def place(self, square: int, piece: str) -> None:
        if square in self.pieces or not 1 <= square <= 30:
            return
        self.pieces[square] = piece
        self.send(hw.SquareChanged(square, True))

    def position(self) -> Position:
        return Position.parse(self.state()["position"])

    # -- what the players do -------------------------------------------------------------------
    @rule(faces=st.tuples(*[st.integers(0, 1)] * 4))
    def throw(self, faces: tuple[int, ...]) -> None:
        if self.rules.throw_model.sticks:
            self.send(hw.ThrowSettled(faces))
        else:
            self.send(hw.ThrowRequested())

    @precondition(lambda self: self.state()["phase"] == "move")
    @rule(data=st.data())
    def right_move(self, data: st.DataObject) -> None:
        before = self.position()
        legal = self.rules.transitions(before, self.state()["throw"]["value"])
        t = data.draw(st.sampled_from(legal))
        self.carry_out(before, t.move, t.after, landing(before, t) is not None)

    @precondition(lambda self: self.state()["phase"] == "decide")
    @rule(data=st.data())
    def answer(self, data: st.DataObject) -> None:
        choices = [c["id"] for c in self.state()["decision"]["choices"]]
        from companion.actions import Decide

        self.send(Decide(data.draw(st.sampled_from(choices))))

    @rule(data=st.data())
    def wrong_move(self, data: st.DataObject) -> None:
        own = [s for s, p in self.pieces.items() if p == self.position().side.value]
        empty = [s for s in range(1, 31) if s not in self.pieces]
        if own and empty:
            start = data.draw(st.sampled_from(own))
            piece = self.lift(start)
            self.place(data.draw(st.sampled_from(empty)), piece or "W")

    @rule(data=st.data())
    def slide(self, data: st.DataObject) -> None:
        if not self.pieces:
            return
        start = data.draw(st.sampled_from(sorted(self.pieces)))
        end = data.draw(st.integers(1, 30))
        piece = self.lift(start) or "W"
        step = 1 if end > start else -1
        for square in range(start + step, end, step):
            if square not in self.pieces:
                self.place(square, piece)
                self.lift(square)
        if end in self.pieces:
            end = start
        self.place(end, piece)

    @rule(data=st.data(), off=st.booleans())
    def knock(self, data: st.DataObject, off: bool) -> None:
        if not self.pieces:
            return
        square = data.draw(st.sampled_from(sorted(self.pieces)))
        piece = self.lift(square) or "W"
        if not off:
            empty = [s for s in range(1, 31) if s not in self.pieces]
            self.place(data.draw(st.sampled_from(empty)), piece)

    @rule(data=st.data())
    def hesitate(self, data: st.DataObject) -> None:
        if self.pieces:
            square = data.draw(st.sampled_from(sorted(self.pieces)))
            piece = self.lift(square) or "W"
            self.wait(data.draw(st.sampled_from([0.1, 1.0])))
            self.place(square, piece)

    @rule(seconds=st.sampled_from([0.1, 0.3, 1.0, LONG]))
    def pause(self, seconds: float) -> None:
        self.wait(seconds)

    @rule()
    def follow_the_instructions(self) -> None:
        """Make the board match the game, as the companion asks."""
        target = self.position().board
        for square in sorted(self.pieces):
            if target[square - 1] != self.pieces[square]:
                self.lift(square)
        for square in range(1, 31):
            if target[square - 1] != "." and square not in self.pieces:
                self.place(square, target[square - 1])
        self.wait(LONG)

    def carry_out(self, before: Position, move: Move, after: Position, lands: bool) -> None:
        start, end = move
        piece = self.lift(start) or before.side.value
        if end != OFF:
            self.lift(end)
            if lands:
                self.place(end, piece)
                self.wait(0.5)
                self.lift(end)
        for square in range(1, 31):
            want = after.board[square - 1]
            if want == "." and square in self.pieces and square not in occupancy(before):
                self.lift(square)
        for square in range(1, 31):
            want = after.board[square - 1]
            if want != "." and square not in self.pieces:
                self.place(square, want)
        if after.board.count(".") < 30:
            for square in sorted(self.pieces):
                if after.board[square - 1] == "." and square in (start, end):
                    self.lift(square)
        self.wait(LONG)

    # -- the checks ------------------------------------------------------------------------------
    def automatic(self, position: Position) -> set[Position]:
        """``position`` and where the loop may take it in the same event without a move:
        the rest of a split throw lost, or a throw (the next event's) with no legal move."""
        rules = self.rules
        found = {position}
        todo = [position]
        while todo:
            here = todo.pop()
            if not rules.needs_throw(here):
                rest = rules.pending_throw(here)
                throws = [rest] if rest is not None else []
            else:
                throws = list(rules.throw_model.values)
            for value in throws:
                if not rules.transitions(here, value):
                    there = rules.pass_turn(here, value)
                    if there not in found:
                        found.add(there)
                        todo.append(there)
        return found

    def check_step(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        if after["position"] == before["position"] or after["game_id"] != before["game_id"]:
            return
        old = Position.parse(before["position"])
        new = Position.parse(after["position"])
        move = after["last_move"]
        throw = before["throw"]["value"] if before["throw"] else after["throw"]
        if move is not None and move != before["last_move"]:
            t = self.rules.play(
                old, throw if isinstance(throw, int) else None, Move.parse(move["move"])
            )
            assert new in self.automatic(t.after), (old, move, new)
            shapes = {occupancy(t.after), landing(old, t) or occupancy(t.after)}
            if before["phase"] == "move":
                assert frozenset(self.pieces) in shapes, (
                    "a move was applied that the board does not show",
                    old,
                    move,
                    sorted(self.pieces),
                )
        else:
            assert new in self.automatic(old), (old, new)

    @invariant()
    def never_silently_disagrees(self) -> None:
        if not hasattr(self, "loop"):
            return
        state = self.state()
        still = self.clock() - self.loop.table.watch.changed_at
        if still < LONG or state["phase"] not in ("throw", "move", "setup"):
            return
        if frozenset(self.pieces) != occupancy(self.position()):
            check = state["board_check"]
            assert not check["matches"]
            assert check["message"], ("silent disagreement", state["position"], self.pieces)


PhysicalPlay.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestPhysicalPlay = PhysicalPlay.TestCase
