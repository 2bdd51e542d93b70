"""Worked examples from the PlayPalace rules page (seed 000), one per rule sentence."""

import pytest
from positions import moves, pos, squares

from companion.rules import Effect, EndReason, Move, Player, get_ruleset

rules = get_ruleset("playpalace")


def test_setup_alternates_and_player_1_goes_first() -> None:
    # "Player 1: squares 1, 3, 5, 7, 9 ... Player 1 always goes first."
    assert rules.start().notation() == "WBWBWBWBWB.................... W 0 0"


@pytest.mark.parametrize(
    ("throw", "again"), [(1, True), (2, False), (3, False), (4, True), (5, True)]
)
def test_throws_of_1_4_and_5_throw_again(throw: int, again: bool) -> None:
    # "1 colored up: Move 1 square. Bonus throw!" ... "0 colored up: Move 5 squares. Bonus throw!"
    position = pos([12, 14, 16, 18, 20], [1, 2, 3, 4, 5])
    after = moves(rules, position, throw)[f"20-{20 + throw}"]
    assert (after.side is Player.W) is again


def test_pieces_jump_over_pieces() -> None:
    # "You may jump over any pieces in your way."
    position = pos([9, 1, 3, 5, 7], [10, 11, 2, 4, 6])
    assert "9-12" in moves(rules, position, 3)


def test_no_landing_on_own_piece() -> None:
    # "You cannot land on a square occupied by one of your own pieces."
    position = pos([9, 12, 1, 3, 5], [2, 4, 6, 8, 20])
    assert "9-12" not in moves(rules, position, 3)
    assert rules.why_not(position, 3, Move(9, 12)) == "square 12 is taken by one of your own pieces"


def test_landing_on_a_single_opponent_swaps() -> None:
    # "your piece takes their square, and their piece goes back to where yours came from."
    position = pos([8, 1, 3, 5, 20], [11, 2, 4, 6, 22])
    t = rules.play(position, 3, Move(8, 11))
    assert t.effects & Effect.SWAP
    assert t.after.at(11) is Player.W and t.after.at(8) is Player.B


def test_no_move_loses_the_throw_but_keeps_the_bonus() -> None:
    # "If you have no legal moves for a roll, you lose that move (but still get a bonus throw
    # if the roll was 1, 4, or 5)."
    position = pos([25, 26, 28, 29, 30], [1, 2, 3, 4, 5])
    assert moves(rules, position, 5) == {}
    assert rules.pass_turn(position, 5).side is Player.W
    assert moves(rules, position, 4) == {}
    assert rules.pass_turn(position, 4).side is Player.W
    blocked = pos([24, 25, 26, 29, 30], [1, 2, 3, 4, 5])
    assert moves(rules, blocked, 3) == {}
    assert rules.pass_turn(blocked, 3).side is Player.B


def test_two_adjacent_pieces_cannot_be_captured() -> None:
    # "Protected pieces cannot be captured (swapped)."
    position = pos([8, 1, 3, 5, 20], [11, 12, 2, 4, 6])
    assert "8-11" not in moves(rules, position, 3)
    assert rules.why_not(position, 3, Move(8, 11)).startswith("the piece on square 11 is protected")


def test_protection_runs_around_the_corner_of_the_track() -> None:
    position = pos([7, 1, 3, 5, 25], [10, 11, 2, 4, 6])
    assert "7-10" not in moves(rules, position, 3)


def test_three_in_a_row_block_passage() -> None:
    # "a line of three or more consecutive opponent pieces completely blocks passage."
    position = pos([9, 1, 3, 5, 7], [10, 11, 12, 2, 4])
    assert "9-13" not in moves(rules, position, 4)
    assert "10-11-12 is a wall of three" in rules.why_not(position, 4, Move(9, 13))
    two = pos([9, 1, 3, 5, 7], [10, 11, 2, 4, 6])
    assert "9-12" in moves(rules, two, 3)


def test_square_26_cannot_be_jumped() -> None:
    # "If a roll would carry a piece past square 26 without landing on it, that move is illegal."
    position = pos([24, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    assert "24-26" in moves(rules, position, 2)
    assert "24-27" not in moves(rules, position, 3)
    assert "stop on square 26" in rules.why_not(position, 3, Move(24, 27))


def test_water_sends_the_piece_to_15() -> None:
    # "Your piece is immediately sent back to the House of Rebirth (square 15)."
    position = pos([26, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    t = rules.play(position, 1, Move(26, 27))
    assert t.effects & Effect.WATER
    assert squares(t.after)[0] == [1, 3, 5, 7, 15]


def test_water_with_15_taken_goes_to_the_first_empty_square_before_it() -> None:
    # "If square 15 is occupied, your piece goes to the first empty square before it."
    position = pos([26, 1, 3, 15, 14], [13, 4, 6, 8, 10])
    t = rules.play(position, 1, Move(26, 27))
    assert squares(t.after)[0] == [1, 3, 12, 14, 15]


@pytest.mark.parametrize(("square", "exact"), [(28, 3), (29, 2), (30, 1)])
def test_last_squares_bear_off_only_with_the_exact_throw(square: int, exact: int) -> None:
    # "From square 28: exactly 3 / From square 29: exactly 2 / From square 30: exactly 1"
    position = pos([square, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    for throw in range(1, 6):
        found = {m for m in moves(rules, position, throw) if m.startswith(f"{square}-")}
        assert found == ({f"{square}-off"} if throw == exact else set())


def test_pieces_on_the_last_squares_are_safe() -> None:
    # "Once a piece lands here, it is locked in place and safe from capture."
    position = pos([26, 1, 3, 5, 7], [28, 2, 4, 6, 8])
    assert "26-28" not in moves(rules, position, 2)


def test_bearing_off_all_five_wins() -> None:
    # "The first player to bear off all 5 of their pieces wins the game."
    position = pos([30], [1, 2, 3, 4, 5], off=(4, 0))
    t = rules.play(position, 1, Move(30, 31))
    outcome = rules.outcome(t.after)
    assert outcome is not None and outcome.winner is Player.W
    assert outcome.reason is EndReason.ALL_BORNE_OFF
    assert t.effects & Effect.WIN and t.effects & Effect.BEAR_OFF
    assert rules.transitions(t.after, 1) == []
