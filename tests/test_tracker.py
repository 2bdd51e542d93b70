"""The board tracker, as pure functions: what a still board means after a throw."""

from __future__ import annotations

from companion.announce import render
from companion.rules import Position, get_ruleset
from companion.tracker import (
    Ambiguous,
    Matches,
    Mismatch,
    Pending,
    Recognised,
    Settling,
    TrackerSettings,
    Watch,
    board_fix,
    judge,
    landing,
    occupancy,
)

PP = get_ruleset("playpalace")
START = PP.start()
SETTINGS = TrackerSettings(settle=0.4, bear_off_pause=2.5, mistake_delay=2.0)


def watch_through(position: Position, *boards: set[int]) -> Watch:
    """A watch that saw ``boards`` one after the other, each at the next whole second."""
    w = Watch(occupancy(position), 0.0)
    for n, board in enumerate(boards, start=1):
        w = w.see(frozenset(board), float(n))
    return w


def read(position: Position, throw: int, w: Watch, now: float, **kw: object) -> object:
    return judge(
        w,
        now,
        position,
        PP.transitions(position, throw),
        rules=PP,
        throw=throw,
        settings=SETTINGS,
        **kw,  # type: ignore[arg-type]
    )


def test_a_move_is_read_only_once_the_board_is_still() -> None:
    board = occupancy(START) - {9} | {12}
    w = watch_through(START, occupancy(START) - {9}, board)
    assert isinstance(read(START, 3, w, 2.1), Settling)
    verdict = read(START, 3, w, 2.5)
    assert isinstance(verdict, Recognised) and str(verdict.transition.move) == "9-12"


def test_a_slide_over_other_squares_counts_only_where_it_stops() -> None:
    start = occupancy(START)
    w = watch_through(START, start - {9}, start - {9} | {11}, start - {9}, start - {9} | {12})
    verdict = read(START, 3, w, 10.0)
    assert isinstance(verdict, Recognised) and str(verdict.transition.move) == "9-12"
    assert w.touched == {9, 11, 12}


def test_a_swap_is_recognised_from_both_lifts() -> None:
    start = occupancy(START)
    w = watch_through(START, start - {7}, start - {7, 10}, start - {7}, start)
    verdict = read(START, 3, w, 9.0)
    assert isinstance(verdict, Recognised) and str(verdict.transition.move) == "7-10"


def test_an_unchanged_board_with_several_swaps_is_asked_about() -> None:
    # A throw of 1 at the start: every legal move is a swap and leaves the board as it was.
    start = occupancy(START)
    w = watch_through(START, start - {5}, start)
    verdict = read(START, 1, w, 9.0)
    assert isinstance(verdict, Ambiguous)
    assert sorted(str(t.move) for t in verdict.transitions) == [
        "1-2",
        "3-4",
        "5-6",
        "7-8",
        "9-10",
    ]


def test_an_unchanged_board_with_one_swap_takes_it() -> None:
    position = Position.parse("W.B........................... W 4 4")
    start = occupancy(position)
    w = watch_through(position, start - {1}, start)
    verdict = read(position, 2, w, 9.0)
    assert isinstance(verdict, Recognised) and str(verdict.transition.move) == "1-3"


def test_a_hesitation_is_not_a_move() -> None:
    start = occupancy(START)
    w = watch_through(START, start - {9}, start)
    assert isinstance(read(START, 3, w, 9.0), Matches)


def test_the_house_of_waters_accepts_the_landing_square_or_the_destination() -> None:
    position = Position.parse("WBWBWB.B......B..........W.... W 0 0")
    (t,) = [t for t in PP.transitions(position, 1) if t.move.start == 26]
    assert landing(position, t) == occupancy(position) - {26} | {27}
    for board in (landing(position, t), occupancy(t.after)):
        w = watch_through(position, occupancy(position) - {26}, set(board or ()))
        verdict = read(position, 1, w, 9.0)
        assert isinstance(verdict, Recognised) and verdict.transition == t


def test_bearing_off_waits_for_a_pause_unless_the_turn_ends() -> None:
    position = Position.parse("WBWBWB.B.....................W W 0 0")
    w = watch_through(position, occupancy(position) - {30})
    assert isinstance(read(position, 1, w, 2.0), Pending)
    assert isinstance(read(position, 1, w, 4.0), Recognised)
    forced = read(position, 1, w, 1.1, force=True)
    assert isinstance(forced, Recognised) and str(forced.transition.move) == "30-off"


def test_a_move_past_26_is_explained_and_undone_in_words() -> None:
    position = Position.parse("WBWBWB.B.......B........W..... W 0 0")
    w = watch_through(position, occupancy(position) - {25}, occupancy(position) - {25} | {28})
    assert isinstance(read(position, 3, w, 3.0), Pending)
    verdict = read(position, 3, w, 5.0)
    assert isinstance(verdict, Mismatch) and verdict.key == "mistake-move"
    text = render(verdict.key, verdict.params)
    assert "square 26 must be landed on exactly" in text
    assert "Move the piece from 28 to 25." in text
    assert verdict.missing == (25,) and verdict.extra == (28,)


def test_a_piece_that_cannot_move_is_put_back() -> None:
    position = Position.parse("WBWBWB.B.......B........W..... W 0 0")
    w = watch_through(position, occupancy(position) - {25})
    verdict = read(position, 3, w, 5.0)
    assert isinstance(verdict, Mismatch) and verdict.key == "mistake-lifted"
    assert render(verdict.key, verdict.params).endswith("Put the piece back on 25.")


def test_a_knocked_piece_is_named_with_its_colour() -> None:
    w = watch_through(START, occupancy(START) - {4})
    verdict = read(START, 3, w, 5.0)
    assert isinstance(verdict, Mismatch) and verdict.key == "mistake-board"
    assert "Put a dark piece on 4." in render(verdict.key, verdict.params)


def test_moving_before_the_throw_is_a_mistake() -> None:
    w = watch_through(START, occupancy(START) - {9} | {12})
    verdict = judge(w, 5.0, START, (), rules=PP, throw=None, settings=SETTINGS)
    assert isinstance(verdict, Mismatch) and verdict.key == "mistake-not-yet"
    assert render(verdict.key, verdict.params) == (
        "Throw first, then move. Move the piece from 12 to 9."
    )


def test_faulty_squares_are_left_out() -> None:
    w = watch_through(START, occupancy(START) | {20})
    assert isinstance(
        judge(w, 5.0, START, (), rules=PP, throw=None, ignored=frozenset({20})), Matches
    )


def test_setup_lists_every_square() -> None:
    steps = board_fix(START, frozenset({1, 2, 3, 12}), occupancy(START))
    texts = [render(s["key"], s["params"]) for s in steps]
    assert texts[0] == "Put a dark piece on 4."
    assert texts[-1] == "Take the piece off 12."
    assert len(texts) == 8
