"""The game loop: its thread, its published states, and what the players see on the page."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion import actions as act
from companion.game import TableSettings
from companion.journal import Journal
from companion.loop import GameLoop
from companion.replay import ManualClock, Replayer, make_loop, parse_line
from companion.rules import Position, Transition
from hardware import events as hw

CONTRACT_FIELDS = {
    "version",
    "game_id",
    "ruleset",
    "position",
    "board",
    "side",
    "off",
    "phase",
    "throw",
    "legal",
    "decision",
    "last_move",
    "board_check",
    "outcome",
    "announcements",
    "bots",
    "hint",
    "hardware",
    "input",
}


class Table:
    """A loop on a manual clock, driven by script lines, for the tests."""

    def __init__(self, ruleset: str = "playpalace", board: str = "presence", **kw: Any) -> None:
        self.loop, self.clock = make_loop(ruleset, board=board, **kw)
        self.replayer = Replayer(self.loop, self.clock)

    def at(self, position: str) -> Table:
        self.loop.table.set_up(Position.parse(position), self.clock())
        self.do(f"board {position.split()[0]}", "wait 0.5")
        return self

    def do(self, *lines: str) -> dict[str, Any]:
        for line in lines:
            for step in parse_line(line, self.loop.table.rules):
                self.replayer.play(step)
        return self.state

    @property
    def state(self) -> dict[str, Any]:
        return self.loop.snapshot()

    def said(self, since: int = 0) -> list[str]:
        return [a["text"] for a in self.state["announcements"] if a["id"] > since]

    def last_id(self) -> int:
        return int(self.state["announcements"][-1]["id"])


def wait_for(sub: Any, check: Any, timeout: float = 5.0) -> dict[str, Any]:
    while True:
        state = sub.get(timeout)
        assert state is not None, "no state was published in time"
        if check(state):
            return state


# -- the thread and the published state ----------------------------------------------------------
def test_the_loop_thread_plays_commands_and_publishes_in_order() -> None:
    loop = GameLoop("playpalace", board_kind="none", rng=random.Random(1))
    loop.start()
    try:
        with loop.subscribe() as sub:
            first = sub.get(1)
            assert first is not None and set(first) >= CONTRACT_FIELDS
            loop.submit(act.Throw(value=3))
            state = wait_for(sub, lambda s: s["phase"] == "move")
            assert [m["move"] for m in state["legal"]][-1] == "9-12"
            loop.submit(act.PlayMove("9-12"))
            state = wait_for(sub, lambda s: s["last_move"] is not None)
            assert state["position"] == "WBWBWBWB.B.W.................. B 0 0"
            assert state["version"] > first["version"]
            assert loop.snapshot()["version"] >= state["version"]
    finally:
        loop.stop()
        loop.stop()


def test_versions_go_up_by_one_and_slow_subscribers_lose_only_old_states() -> None:
    t = Table(board="none", seed=3)
    sub = t.loop.subscribe()
    slow = GameLoop.subscribe(t.loop)
    slow._states.maxsize = 2  # a page that stopped reading
    versions = []
    for _ in range(10):
        t.do("throw 2")
        t.do(f"move {t.state['legal'][0]['move']}" if t.state["legal"] else "hint")
    while (s := sub.get(0)) is not None:
        versions.append(s["version"])
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    kept = [slow.get(0), slow.get(0), slow.get(0)]
    assert kept[-1] is None and kept[1]["version"] == t.state["version"]
    sub.close()
    slow.close()


def test_every_published_state_has_every_field_and_is_json() -> None:
    import json

    t = Table()
    for line in ("board start", "wait 0.5", "sticks 1 1 0 0", "lift 9", "place 11", "wait 1"):
        state = t.do(line)
        assert set(state) >= CONTRACT_FIELDS
        assert json.loads(json.dumps(state)) == state
    assert state["input"] == {"board": "presence", "phone": True}
    assert state["ruleset"]["throw_kind"] == "sticks"


@pytest.mark.parametrize(
    "command",
    [
        act.PlayMove("zz"),
        act.PlayMove("9-13"),
        act.Decide("27-15"),
        act.Throw(value=9),
        act.Throw(faces=(1, 2, 0, 0)),
        hw.SquareChanged(99, True),
        hw.SquarePressed(0),
        hw.ThrowSettled((1, 1)),
        act.NewGame("chess"),
        act.NewGame("isac", {"colour": "red"}),
        act.NewGame("isac", "rebirth_taken=stay"),  # type: ignore[arg-type]
        act.Throw(value="3"),  # type: ignore[arg-type]
        act.PlayMove(9),  # type: ignore[arg-type]
        hw.BoardSnapshot(frozenset({"a"})),  # type: ignore[arg-type]
        act.SetBot("X", "simple"),
    ],
)
def test_refused_commands_are_mistakes_never_exceptions(command: act.Event) -> None:
    t = Table(board="none")
    t.do("throw 3")
    before = t.state
    t.loop.handle(command)
    after = t.state
    assert after["announcements"][-1]["kind"] == "mistake", after["announcements"][-1]
    assert after["position"] == before["position"]


def test_an_illegal_phone_move_says_why() -> None:
    t = Table(board="none")
    t.do("throw 3", "move 9-13")
    assert t.said()[-1] == "9-13 is not allowed: with this throw the piece on 9 goes to 12."


def test_phone_moves_can_be_switched_off() -> None:
    loop = GameLoop("playpalace", board_kind="buttons", phone_input=False)
    loop.handle(act.Throw(value=3))
    loop.handle(act.PlayMove("9-12"))
    assert loop.snapshot()["announcements"][-1]["key"] == "mistake-phone-disabled"
    assert loop.snapshot()["input"]["phone"] is False


# -- throws --------------------------------------------------------------------------------------
def test_electronic_throws_draw_four_sticks_or_a_die() -> None:
    t = Table(board="none", seed=5)
    state = t.do("throw")
    faces = state["throw"]["faces"]
    assert len(faces) == 4 and state["throw"]["value"] == (sum(faces) or 5)
    assert state["throw"]["source"] == "electronic"
    d5 = Table("d5", board="none", seed=5)
    assert d5.state["ruleset"]["electronic_only"] is True
    assert "five-sided die" in d5.said()[-1] or "5-sided die" in d5.said()[-1]
    state = d5.do("sticks 1 0 0 0")
    assert state["announcements"][-1]["key"] == "mistake-electronic-only"
    state = d5.do("button")
    assert state["throw"]["faces"] is None and 1 <= state["throw"]["value"] <= 5


def test_a_pass_and_a_bonus_throw_are_announced() -> None:
    t = Table(board="none").at("WBWBWBWBWB.................... W 0 0")
    state = t.do("throw 5")
    assert state["phase"] == "move"
    t.do("throw 4")
    assert t.state["announcements"][-1]["key"] == "mistake-finish-move"
    t = Table(board="none").at("........................W....B W 4 4")
    state = t.do("throw 2")
    assert state["announcements"][-1]["key"] == "pass"
    assert state["side"] == "B" and state["phase"] == "throw"
    t = Table(board="none").at("........................W....B W 4 4")
    state = t.do("throw 4")
    assert state["announcements"][-1]["key"] == "pass-bonus" and state["side"] == "W"


# -- the presence board --------------------------------------------------------------------------
def test_setup_waits_for_the_starting_layout_square_by_square() -> None:
    t = Table()
    state = t.do("board 1 2 3 4 5 6 7 8 9 12")
    assert state["phase"] == "setup"
    assert state["board_check"]["missing"] == [10] and state["board_check"]["extra"] == [12]
    assert state["board_check"]["message"] == "Move the piece from 12 to 10."
    assert t.do("sticks 1 1 0 0")["announcements"][-1]["key"] == "mistake-fix-board"
    state = t.do("lift 12", "place 10", "wait 0.5")
    assert state["phase"] == "throw" and state["board_check"]["matches"]


def test_moving_out_of_turn_is_told_and_followed_back() -> None:
    t = Table().at("WBWBWBWBWB.................... W 0 0")
    mark = t.last_id()
    t.do("lift 9", "place 12", "wait 2.5")
    assert t.said(mark) == ["Throw first, then move. Move the piece from 12 to 9."]
    assert t.do("sticks 1 1 1 0")["announcements"][-1]["key"] == "mistake-fix-board"
    t.do("lift 12", "place 9", "wait 0.5")
    assert t.said()[-1] == "The board matches the game again."
    assert t.do("sticks 1 1 1 0")["phase"] == "move"


def test_a_wrong_square_is_explained_then_the_right_move_is_taken() -> None:
    t = Table().at("WBWBWB.B.......B........W..... W 1 0")
    t.do("sticks 1 1 1 0")
    mark = t.last_id()
    t.do("lift 25", "place 28", "wait 3")
    assert t.said(mark) == [
        "25 to 28 is not allowed: square 26 must be landed on exactly."
        " Move the piece from 28 to 25."
    ]
    t.do("lift 28", "place 25", "wait 0.5", "lift 5", "lift 8", "place 8", "place 5")
    state = t.do("wait 0.5")
    assert state["last_move"]["move"] == "5-8"
    assert state["position"] == "WBWBBB.W.......B........W..... B 1 0"


def test_the_house_of_waters_first_on_27_then_moved_on_when_told() -> None:
    t = Table().at("WBWBWB.B......B..........W.... W 1 0")
    t.do("sticks 1 0 0 0")
    mark = t.last_id()
    state = t.do("lift 26", "place 27", "wait 0.5")
    assert state["last_move"]["move"] == "26-27"
    assert "move it from 27 to 14" in " ".join(t.said(mark))
    assert state["board_check"] == {
        "matches": False,
        "extra": [27],
        "missing": [14],
        "message": "Move the piece from 27 to 14.",
    }
    assert state["side"] == "W"  # a 1 throws again
    assert t.do("sticks 1 0 0 0")["announcements"][-1]["key"] == "mistake-fix-board"
    state = t.do("lift 27", "place 14", "wait 0.5")
    assert state["board_check"]["matches"]
    assert t.do("sticks 1 0 0 0")["phase"] == "move"


def test_bearing_off_is_confirmed_by_a_pause_or_by_the_next_throw() -> None:
    t = Table().at("WBWBWB.B.....................W W 1 1")
    t.do("sticks 1 0 0 0", "lift 30", "wait 1")
    assert t.state["phase"] == "move"
    state = t.do("wait 2")
    assert state["last_move"]["move"] == "30-off" and state["off"]["W"] == 2
    t = Table().at("WBWBWB.B....................W. W 1 1")
    t.do("sticks 1 1 0 0", "lift 29")
    state = t.do("sticks 1 0 0 0")
    assert state["last_move"]["move"] == "29-off"
    assert state["side"] == "B" and state["throw"]["value"] == 1


def test_several_possible_swaps_are_asked_on_the_phone_or_by_a_press() -> None:
    t = Table().at("WBWBWBWBWB.................... W 0 0")
    t.do("sticks 1 0 0 0", "lift 5", "place 5", "wait 0.5")
    state = t.state
    assert state["phase"] == "decide"
    assert [c["id"] for c in state["decision"]["choices"]] == [
        "1-2",
        "3-4",
        "5-6",
        "7-8",
        "9-10",
        "none",
    ]
    state = t.do("press 6")
    assert state["last_move"]["move"] == "5-6"
    assert state["position"] == "WBWBBWWBWB.................... W 0 0"


def test_a_knocked_piece_is_named_and_play_goes_on_once_it_is_back() -> None:
    t = Table().at("WBWBWBWBWB.................... W 0 0")
    t.do("sticks 1 1 0 0")
    mark = t.last_id()
    t.do("lift 4", "wait 2.5")
    assert t.said(mark) == ["The board does not match the game. Put a dark piece on 4."]
    state = t.do("place 4", "wait 0.5", "lift 9", "place 11", "wait 0.5")
    assert state["last_move"]["move"] == "9-11"


def test_a_phone_move_on_a_presence_board_is_followed_by_the_board() -> None:
    t = Table().at("WBWBWBWBWB.................... W 0 0")
    state = t.do("sticks 1 1 1 0", "move 9-12")
    assert state["board_check"]["message"] == "Move the piece from 9 to 12."
    assert t.do("lift 9", "place 12", "wait 0.5")["board_check"]["matches"]


def test_a_faulty_square_is_left_out_of_the_check() -> None:
    t = Table().at("WBWBWBWBWB.................... W 0 0")
    t.do("place 20", "fault sensor-range 20: square 20 reads nonsense", "wait 3")
    state = t.state
    assert state["board_check"]["matches"]
    assert state["hardware"]["faults"] == [
        {"code": "sensor-range", "message": "square 20 reads nonsense"}
    ]
    assert t.do("clear-fault sensor-range 20")["hardware"]["faults"] == []


# -- push buttons --------------------------------------------------------------------------------
def test_push_buttons_select_then_confirm_with_the_swap_spelt_out() -> None:
    t = Table(board="buttons").at("WBWBWBWBWB.................... W 0 0")
    t.do("sticks 1 1 1 0", "press 7")
    assert t.said()[-1] == (
        "Move the piece from 7 to 10 and the other player's piece from 10 to 7, then press 10."
    )
    t.do("press 2")
    assert t.said()[-1] == "There is no piece of Light on 2 to move."
    t.do("press 9", "press 12")
    assert t.state["last_move"]["move"] == "9-12"


# -- decisions -----------------------------------------------------------------------------------
def test_the_isac_water_choice_is_asked_and_answered_by_a_press() -> None:
    t = Table("isac", board="buttons").at("WBWBWB.B..B...............W... W 1 0")
    state = t.state
    assert state["phase"] == "decide"
    assert [c["id"] for c in state["decision"]["choices"]] == ["27-15", "throw"]
    state = t.do("press 15")
    assert state["position"] == "WBWBWB.B..B...W............... B 1 0"
    t = Table("isac", board="none").at("WBWBWB.B..B...............W... W 1 0")
    state = t.do("throw 4")
    assert state["phase"] == "move" and [m["move"] for m in state["legal"]] == ["27-off"]


# -- idle handling -------------------------------------------------------------------------------
def test_idle_tables_ask_then_reset_to_a_waiting_game() -> None:
    settings = TableSettings(idle_after=60, idle_reset=30)
    t = Table(board="none", settings=settings)
    t.do("throw 3", "move 9-12")
    game = t.state["game_id"]
    assert t.do("wait 59")["phase"] == "throw"
    assert t.do("wait 2")["phase"] == "idle-check"
    assert t.do("still")["phase"] == "throw"
    t.do("wait 61", "wait 31")
    state = t.state
    assert state["phase"] == "attract" and state["game_id"] != game
    assert state["position"] == "WBWBWBWBWB.................... W 0 0"
    assert t.do("throw 2")["phase"] == "move"


# -- bots ----------------------------------------------------------------------------------------
class FirstMoveBot:
    def choose(self, position: Position, throw: int) -> Transition:
        from companion.rules import get_ruleset

        return get_ruleset("playpalace").transitions(position, throw)[-1]


def test_a_bot_plays_its_side_by_the_clock() -> None:
    loop, clock = make_loop("playpalace", board="none", seed=2)
    loop.table.bot_factory = lambda level, rules, rng: FirstMoveBot()
    r = Replayer(loop, clock)
    for line in ("bot B simple", "throw 2", "move 9-11"):
        for step in parse_line(line, loop.table.rules):
            r.play(step)
    assert loop.snapshot()["bots"] == {"W": None, "B": "simple"}
    assert loop.snapshot()["side"] == "B"
    loop.handle(act.Throw(value=2))
    assert loop.snapshot()["announcements"][-1]["key"] == "mistake-bot-turn"
    for _ in range(4):
        clock.advance(1.0)
        loop.tick()
    assert loop.snapshot()["last_move"]["by"] == "B"


def test_a_bot_on_a_presence_board_is_moved_by_a_person_and_checked() -> None:
    t = Table().at("WBWBWBWBWB.................... B 0 0")
    t.loop.table.bot_factory = lambda level, rules, rng: FirstMoveBot()
    t.do("bot B simple", "wait 1.5")
    throw = t.state["throw"]["value"]
    t.do("wait 1.5")
    said = t.state["announcements"][-1]
    assert said["key"] == "bot-move"
    start, end = said["params"]["from"], said["params"]["to"]
    position = Position.parse(t.state["position"])
    from tests.physical import hands

    (move,) = [x for x in t.loop.table.legal if x.move.start == start]
    t.do(*hands(position, move), "wait 3")
    assert t.state["last_move"]["move"] == f"{start}-{end}" and throw


def test_set_bot_is_refused_when_no_bot_can_be_made() -> None:
    t = Table(board="none")

    def missing(level: str, rules: Any, rng: Any) -> Any:
        raise ImportError("No module named 'companion.bots'")

    t.loop.table.bot_factory = missing
    state = t.do("bot B simple")
    assert state["announcements"][-1]["key"] == "mistake-bot-unavailable"
    assert state["bots"] == {"W": None, "B": None}


def test_a_hint_names_a_legal_move() -> None:
    t = Table(board="none")
    state = t.do("throw 3", "hint")
    assert state["hint"]["move"] in [m["move"] for m in state["legal"]]


# -- resuming ------------------------------------------------------------------------------------
def test_a_restart_resumes_the_same_game_at_the_same_point(tmp_path) -> None:
    path = tmp_path / "journal.db"
    t = Table(journal=Journal(path))
    t.do("board start", "wait 0.5", "sticks 1 1 1 0", "lift 9", "place 12", "wait 0.5")
    t.do("sticks 1 1 1 0")
    before = t.state
    t.loop.journal.close()  # type: ignore[union-attr]
    again = Table(journal=Journal(path))
    state = again.state
    for key in ("game_id", "position", "phase", "throw", "legal", "last_move"):
        assert state[key] == before[key], key
    assert state["version"] > before["version"]
    assert state["announcements"][-1]["key"] == "resumed"
    state = again.do(f"board {before['board']}", "lift 10", "place 13", "wait 0.5")
    assert state["last_move"]["move"] == "10-13"
    assert [s.move for s in again.loop.journal.steps(state["game_id"])] == ["9-12", "10-13"]


# -- trouble -------------------------------------------------------------------------------------
class FakeBackend:
    """A backend that reports a fixed board and records how it was driven."""

    name = "fake"

    def __init__(self, occupied: frozenset[int]) -> None:
        self.board = occupied
        self.started: Any = None
        self.stops = 0

    def start(self, events: Any) -> None:
        self.started = events

    def stop(self) -> None:
        self.stops += 1

    def occupied(self) -> frozenset[int]:
        return self.board

    def status(self) -> dict[str, Any]:
        return {}


def test_a_backend_feeds_the_same_queue_and_the_board_is_read_at_start() -> None:
    from hardware.backend import Backend

    backend = FakeBackend(frozenset(range(1, 11)))
    assert isinstance(backend, Backend)
    clock = ManualClock()
    loop = GameLoop("playpalace", backend, clock=clock, rng=random.Random(0))
    loop.start()
    try:
        assert loop.snapshot()["hardware"]["backend"] == "fake"
        clock.advance(1)
        state = loop.result(act.StillPlaying(), timeout=5)
        assert state is not None and state["board_check"]["matches"]
        backend.started.put(hw.ThrowSettled((1, 1, 1, 0)))
        state = loop.result(act.Hint(), timeout=5)
        assert state is not None and state["phase"] == "move" and state["hint"]
    finally:
        loop.stop()
        loop.stop()
    assert backend.stops == 2


def test_result_reports_a_refusal_in_the_state() -> None:
    loop = GameLoop("playpalace", board_kind="none")
    loop.start()
    try:
        state = loop.result(act.PlayMove("9-12"), timeout=5)
        assert state is not None and state["announcements"][-1]["key"] == "mistake-no-throw"
    finally:
        loop.stop()


def test_a_journal_that_cannot_be_written_is_a_fault_not_a_crash(tmp_path) -> None:
    journal = Journal(tmp_path / "j.db")
    t = Table(board="none", journal=journal)
    journal.close()
    state = t.do("throw 3")
    assert state["phase"] == "move"
    assert [f["code"] for f in state["hardware"]["faults"]] == ["journal"]


def test_a_broken_bot_hands_its_side_back() -> None:
    class Broken:
        def choose(self, position: Position, throw: int) -> Transition:
            raise RuntimeError("out of ideas")

    t = Table(board="none")
    t.loop.table.bot_factory = lambda level, rules, rng: Broken()
    t.do("bot W simple", "wait 2", "wait 2")
    state = t.state
    assert state["bots"]["W"] is None
    assert state["announcements"][-1]["key"] == "mistake-bot-unavailable"
    assert "out of ideas" in state["announcements"][-1]["text"]


def test_something_that_is_not_an_event_is_refused() -> None:
    t = Table(board="none")
    t.loop.handle("launch the rockets")  # type: ignore[arg-type]
    assert t.state["announcements"][-1]["key"] == "mistake-bad-input"


def test_an_internal_failure_leaves_the_game_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table(board="none")
    t.do("throw 3")
    before = t.state

    def explode(*args: Any) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(t.loop.table, "_apply", explode)
    state = t.do("move 9-12")
    assert state["position"] == before["position"] and state["phase"] == "move"
    assert state["announcements"][-1]["key"] == "mistake-internal"
    monkeypatch.undo()
    assert t.do("move 9-12")["last_move"]["move"] == "9-12"


def test_the_daily_clean_up_runs_while_nobody_plays(tmp_path) -> None:
    clock = ManualClock()
    loop = GameLoop(
        "playpalace", journal=Journal(tmp_path / "j.db"), clock=clock, maintain_every=100
    )
    calls = []
    loop.journal.maintain = lambda: calls.append(1) or {}  # type: ignore[union-attr,method-assign]
    clock.advance(101)
    loop.tick()
    assert calls == [1]
    loop.tick()
    assert calls == [1]


def test_after_a_restart_nothing_is_judged_before_the_board_is_read(tmp_path) -> None:
    path = tmp_path / "journal.db"
    t = Table(journal=Journal(path))
    t.do("board start", "wait 0.5", "sticks 1 1 1 0")
    t.loop.journal.close()  # type: ignore[union-attr]
    again = Table(journal=Journal(path))
    state = again.do("wait 5", "wait 5")
    assert state["announcements"][-1]["key"] == "resumed"
    state = again.do("board 1 2 3 4 5 6 7 8 10", "wait 3")
    assert state["announcements"][-1]["key"] == "mistake-finish-move"
    assert (
        state["announcements"][-1]["text"] == "Finish the move first. Move the piece from 9 to 12."
    )


def test_the_isac_opening_passes_the_sticks_until_somebody_throws_a_1() -> None:
    t = Table("isac", board="none")
    state = t.do("throw 3")
    assert state["announcements"][-1]["text"] == (
        "3 is not a 1: pass the sticks on. The first 1 starts the game."
    )
    state = t.do("throw 1")
    assert [m["move"] for m in state["legal"]] == ["10-11"]


def test_another_move_than_the_computers_is_refused_with_its_choice() -> None:
    t = Table().at("WBWBWBWBWB.................... B 0 0")
    t.loop.table.bot_factory = lambda level, rules, rng: FirstMoveBot()
    t.do("bot B simple", "wait 1.5", "wait 1.5")
    chosen = t.state["announcements"][-1]["params"]
    assert chosen["from"] == 10  # the last of the legal moves
    t.do("lift 2", "place 20", "wait 3")
    said = t.state["announcements"][-1]
    assert said["key"] == "mistake-bot-move"
    assert said["text"].startswith(f"The computer chose {chosen['from']} to {chosen['to']}.")


def test_kendalls_water_choice_is_asked_like_the_isac_one() -> None:
    state = Table("kendall", board="none").at("WBWBWBWBWB.B..............W... W 1 1").state
    assert state["phase"] == "decide"
    assert state["decision"]["prompt"] == (
        "Your piece is in the House of Waters: send it back to 15, or throw for a 4."
    )
