"""Worked examples from "Basic Rules Of Senet" of lkdjiin/senet (seed 001)."""

import pytest
from positions import moves, pos, squares

from companion.rules import Effect, Move, Player, get_ruleset

rules = get_ruleset("basic")


def test_black_plays_first_from_the_alternating_setup() -> None:
    # "The player (randomly choosen) with the black pieces plays first."
    assert rules.start().notation() == "WBWBWBWBWB.................... B 0 0"


@pytest.mark.parametrize(
    ("throw", "again"), [(1, True), (2, False), (3, False), (4, True), (5, True)]
)
def test_1_4_and_5_play_again(throw: int, again: bool) -> None:
    # "1: make your move and then play again" ... "2: make your move"
    position = pos([1, 3, 5, 7, 9], [12, 14, 16, 18, 20], side="B")
    after = moves(rules, position, throw)[f"20-{20 + throw}"]
    assert (after.side is Player.B) is again


def test_backward_only_when_no_forward_move() -> None:
    # "The player must move a piece forward if he can. If there is no legal forward move
    # possible, then he must move a piece backward."
    position = pos([24, 25, 28, 29, 30], [10, 12, 14, 16, 18])
    # 3: 24 and 25 would pass 26, 28 exits with 3: a forward move exists.
    assert set(moves(rules, position, 3)) == {"28-off"}
    # 4: no forward move at all, so backward moves are the legal ones.
    back = moves(rules, position, 4)
    # 28-24 and 29-25 land on own pieces.
    assert set(back) == {"24-20", "25-21", "30-26"}
    assert rules.play(position, 4, Move(24, 20)).effects & Effect.BACKWARD
    assert "only when no piece can move forward" in rules.why_not(position, 3, Move(24, 21))


def test_forfeited_throw_passes_the_turn() -> None:
    # "If there is no legal backward move possible, the throw is forfeited."
    position = pos([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert moves(rules, position, 5) == {}
    assert rules.pass_turn(position, 5).side is Player.B


def test_swap_with_an_undefended_piece() -> None:
    # "When moving to an enemy square, you swap places with this undefended enemy piece"
    position = pos([8, 1, 3, 5, 20], [11, 2, 4, 6, 22])
    t = rules.play(position, 3, Move(8, 11))
    assert t.after.at(11) is Player.W and t.after.at(8) is Player.B


def test_two_on_consecutive_squares_protect_each_other() -> None:
    # "two pieces of the same color on consecutive squares being considered to be protecting
    # each other, with neither being able to be knocked off"
    position = pos([8, 1, 3, 5, 20], [11, 12, 2, 4, 6])
    assert "8-11" not in moves(rules, position, 3)
    assert "8-12" not in moves(rules, position, 4)


def test_three_in_a_row_may_not_be_passed() -> None:
    # "Three enemy pieces on consecutive squares may not be passed by the opponent."
    position = pos([9, 1, 3, 5, 7], [10, 11, 12, 2, 4])
    assert "9-13" not in moves(rules, position, 4)


def test_26_must_be_reached_exactly_and_5_leaves_from_it() -> None:
    # "26: You may not move beyond this square until you have landed there by an exact throw,
    # or you may exit directly if you throw a score of 5."
    position = pos([24, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    assert "24-27" not in moves(rules, position, 3)
    assert "24-26" in moves(rules, position, 2)
    assert "26-off" in moves(rules, pos([26, 1, 3, 5, 7], [2, 4, 6, 8, 10]), 5)


def test_27_sends_the_piece_back_to_15() -> None:
    # "27: ... any piece that lands here must go back to the 15th square."
    position = pos([26, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    t = rules.play(position, 1, Move(26, 27))
    assert t.effects & Effect.WATER
    assert squares(t.after)[0] == [1, 3, 5, 7, 15]


def test_water_with_15_taken_goes_on_to_the_next_free_square() -> None:
    position = pos([26, 15, 16, 5, 7], [2, 4, 6, 8, 10])
    t = rules.play(position, 1, Move(26, 27))
    assert squares(t.after)[0] == [5, 7, 15, 16, 17]


@pytest.mark.parametrize(("square", "exact"), [(28, 3), (29, 2), (30, 1)])
def test_exits_from_the_last_squares_are_exact(square: int, exact: int) -> None:
    # "28: Must throw a 3 to exit. 29: Must throw a 2 to exit. 30: Must throw a 1 to exit."
    position = pos([square, 20, 21, 22, 23], [2, 4, 6, 8, 10])
    assert f"{square}-off" in moves(rules, position, exact)
    for throw in set(range(1, 6)) - {exact}:
        assert f"{square}-off" not in moves(rules, position, throw)


def test_26_is_protected_even_alone() -> None:
    # "On square 26 a piece is protected, even if it is alone."
    position = pos([24, 1, 3, 5, 7], [26, 2, 4, 6, 8])
    assert "24-26" not in moves(rules, position, 2)


def test_28_to_30_are_never_protected() -> None:
    # "On squares 28, 29 and 30 yours pieces are never protected."
    position = pos([26, 1, 3, 5, 7], [28, 29, 2, 4, 6])
    t = rules.play(position, 2, Move(26, 28))
    # The captured piece, pushed back out of the last squares, falls into the water.
    assert t.after.at(28) is Player.W
    assert t.after.at(26) is None and t.after.at(15) is Player.B


def test_falling_back_from_the_last_squares_lands_in_the_water() -> None:
    # "If you move backward from one of those square (if it is your only legal move ...) you
    # fall in water and return to the 15th square."
    position = pos([29, 26, 30, 22, 23], [2, 4, 6, 8, 10])
    # 26-22 and 30-26 land on own pieces; 29-25 falls into the water.
    assert set(moves(rules, position, 4)) == {"22-18", "23-19", "29-25"}
    t = rules.play(position, 4, Move(29, 25))
    assert t.effects & Effect.WATER and t.effects & Effect.BACKWARD
    assert t.after.at(15) is Player.W and t.after.at(25) is None
