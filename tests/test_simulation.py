"""The simulated board: what a player does, and what the sensors see at each moment."""

from __future__ import annotations

import threading

import pytest

from hardware.simulation import ManualClock, SimulatedBoard


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(10.0)


@pytest.fixture
def board(clock: ManualClock) -> SimulatedBoard:
    return SimulatedBoard(clock)


def test_place_lift_and_occupied(board: SimulatedBoard, clock: ManualClock) -> None:
    board.place(1)
    board.place(30)
    board.place(30)  # a second piece cannot stand on the same square
    assert board.occupied == {1, 30}
    board.lift(1)
    board.lift(2)  # lifting from an empty square changes nothing
    assert board.occupied == {30}
    board.move(30, 27)
    assert board.occupied == {27}
    clock.advance(1)
    assert board.closed_squares() == {27}


def test_a_contact_bounces_then_rests(board: SimulatedBoard, clock: ManualClock) -> None:
    board.place(5, bounce=True)
    readings = []
    for _ in range(8):
        readings.append(5 in board.closed_squares())
        clock.advance(0.001)
    assert True in readings and False in readings, "the contact should chatter while bouncing"
    clock.advance(0.01)
    assert all(5 in board.closed_squares() for _ in range(3))


def test_arrange_sets_the_whole_board_without_bounce(board: SimulatedBoard) -> None:
    board.arrange(range(1, 11))
    assert board.closed_squares() == set(range(1, 11))


def test_press_closes_a_square_for_a_while(board: SimulatedBoard, clock: ManualClock) -> None:
    board.press(12)
    clock.advance(0.05)
    assert 12 in board.closed_squares()
    assert board.occupied == frozenset()
    clock.advance(0.2)
    assert 12 not in board.closed_squares()


def test_thrown_sticks_tumble_then_rest(board: SimulatedBoard, clock: ManualClock) -> None:
    board.throw((1, 0, 1, 1), tumble_ms=300)
    assert board.sticks == (1, 0, 1, 1)
    seen = set()
    for _ in range(30):
        clock.advance(0.01)
        seen.add(board.stick_faces())
    assert len(seen) > 3, "the sensors should see the sticks turn over"
    clock.advance(0.01)
    assert board.stick_faces() == (1, 0, 1, 1)


def test_a_stick_turned_by_hand_changes_at_once(board: SimulatedBoard) -> None:
    board.turn_stick(3)
    assert board.stick_faces() == (0, 0, 0, 1)
    assert board.sticks == (0, 0, 0, 1)


def test_a_wobbling_stick_ends_where_it_was(board: SimulatedBoard, clock: ManualClock) -> None:
    board.throw((1, 1, 0, 0), tumble_ms=0)
    board.wobble_stick(1, 500)
    faces = set()
    for _ in range(40):
        clock.advance(0.01)
        faces.add(board.stick_faces()[1])
    assert faces == {0, 1}
    clock.advance(0.2)
    assert board.stick_faces() == (1, 1, 0, 0)


def test_analogue_readings_and_unplugging(board: SimulatedBoard) -> None:
    board.throw((1, 0, 0, 0), tumble_ms=0)
    assert board.stick_reading(0) > board.stick_reading(1)
    board.unplug_stick(1)
    assert board.stick_reading(1) == 1.0
    assert not board.stick_connected(1)
    board.unplug_stick(1, unplugged=False)
    assert board.stick_connected(1)


def test_throw_button(board: SimulatedBoard, clock: ManualClock) -> None:
    assert not board.throw_button_closed()
    board.press_throw_button()
    assert board.throw_button_closed()
    clock.advance(1)
    assert not board.throw_button_closed()


@pytest.mark.parametrize("square", [0, 31, -1, "3", True, 2.0])
def test_squares_outside_the_board_are_refused(board: SimulatedBoard, square: object) -> None:
    with pytest.raises(ValueError, match="squares are 1 to 30"):
        board.place(square)  # type: ignore[arg-type]


@pytest.mark.parametrize("faces", [(1, 0, 1), (1, 0, 1, 2), (1, 0, 1, 1, 0)])
def test_impossible_faces_are_refused(board: SimulatedBoard, faces: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="four faces"):
        board.throw(faces)


def test_bad_stick_numbers_are_refused(board: SimulatedBoard) -> None:
    with pytest.raises(ValueError, match="sticks are numbered 0 to 3"):
        board.turn_stick(4)


def test_manual_clock_never_goes_backwards() -> None:
    clock = ManualClock(5.0)
    assert clock.advance(0.5) == 5.5
    clock.set(6.0)
    assert clock() == 6.0
    with pytest.raises(ValueError):
        clock.set(1.0)
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_the_board_is_safe_to_use_from_many_threads(board: SimulatedBoard) -> None:
    start = threading.Barrier(4)

    def player(squares: range) -> None:
        start.wait(timeout=5)
        for _ in range(50):
            for s in squares:
                board.place(s)
            board.closed_squares()
            for s in squares:
                board.lift(s)
        for s in squares:
            board.place(s)

    threads = [
        threading.Thread(target=player, args=(range(1 + 7 * i, 8 + 7 * i),)) for i in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert board.occupied == set(range(1, 29))


def test_repr_shows_the_board(board: SimulatedBoard) -> None:
    board.arrange({1, 2})
    assert repr(board).startswith("<SimulatedBoard oo....")
