"""Worked examples from the ISAC museum handout "How to play Senet" (seed 002)."""

import pytest
from positions import moves, pos, squares

from companion.rules import Effect, Move, Player, get_ruleset

rules = get_ruleset("isac")


def test_the_game_waits_for_somebody_to_throw_a_1() -> None:
    # "The first player to throw a '1' plays with the dark tokens; players may need to toss the
    # sticks multiple times until one of them has thrown a '1.'"
    start = rules.start()
    assert start.notation() == "WBWBWBWBWB.................... B 0 0 opening=dark"
    for throw in (2, 3, 4, 5):
        assert moves(rules, start, throw) == {}
        assert rules.pass_turn(start, throw) == start


def test_the_1_moves_10_to_11_and_throws_again() -> None:
    # "That player moves their dark token from square 10 to square 11 and gets to toss again,
    # and this time may select any of their dark tokens to move."
    found = moves(rules, rules.start(), 1)
    assert set(found) == {"10-11"}
    after = found["10-11"]
    assert after.notation() == "WBWBWBWBW.B................... B 0 0 opening=light"
    assert set(moves(rules, after, 2)) == {"8-10", "11-13"}


def test_light_must_start_with_the_piece_on_9() -> None:
    # "The second player can toss any number ... but must move the token that starts on square
    # 9 first."
    position = pos([1, 3, 5, 7, 9], [2, 4, 6, 8, 13], side="W", extra="opening=light")
    assert set(moves(rules, position, 3)) == {"9-12"}
    after = moves(rules, position, 3)["9-12"]
    assert after.extras == ()
    assert "piece on square 9" in rules.why_not(position, 3, Move(7, 10))


def test_light_moves_another_piece_when_9_cannot_move() -> None:
    position = pos([1, 3, 5, 7, 9], [2, 4, 6, 12, 13], side="W", extra="opening=light")
    found = moves(rules, position, 3)  # 9-12 would capture a protected pair
    assert "9-12" not in found and "7-10" in found
    assert found["7-10"].extras == ()


def test_landing_on_an_opponent_sends_it_back() -> None:
    # "If your token ends its move on the same space as one of your opponent's tokens, send your
    # opponent's token back to the space your token occupied at the start of its movement."
    position = pos([8, 1, 3, 5, 20], [11, 2, 4, 6, 22])
    t = rules.play(position, 3, Move(8, 11))
    assert t.after.at(8) is Player.B and t.after.at(11) is Player.W


def test_no_walls_in_these_rules() -> None:
    position = pos([9, 1, 3, 5, 7], [10, 11, 12, 2, 4])
    assert "9-13" in moves(rules, position, 4)


def test_pairs_protect_around_the_corner_but_not_across() -> None:
    # "This also works for squares around the corner from each other, such as squares 20 and 21,
    # but not on spaces across from each other, such as squares 18 and 23."
    corner = pos([17, 1, 3, 5, 7], [20, 21, 2, 4, 6])
    assert "17-20" not in moves(rules, corner, 3)
    across = pos([15, 1, 3, 5, 7], [18, 23, 2, 4, 6])
    assert "15-18" in moves(rules, across, 3)


def test_backward_when_forward_is_impossible_loses_the_extra_throw() -> None:
    # "If you cannot, you must move a token backwards instead, and you lose any extra turns"
    position = pos([24, 25, 26, 29, 30], [2, 4, 6, 8, 10], side="W")
    found = moves(rules, position, 4)  # 30 leaves with any throw, so it moves forward
    assert set(found) == {"30-off"}  # 26-30 would land on its own piece
    # 20-24 lands on its own piece, 21-25 on a protected pair, 23 and 24 would pass 26,
    # 28 leaves only with a 3.
    stuck = pos([20, 21, 23, 24, 28], [25, 26, 2, 4, 6])
    back = moves(rules, stuck, 4)
    assert set(back) == {"20-16", "21-17", "23-19"}
    t = rules.play(stuck, 4, Move(20, 16))
    assert t.effects & Effect.BACKWARD and t.effects & Effect.BONUS_LOST
    assert t.after.side is Player.B


def test_no_valid_move_ends_the_turn() -> None:
    # "If after tossing the sticks you have no valid moves, your turn ends immediately."
    blocked = pos([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert moves(rules, blocked, 4) == {}
    assert rules.pass_turn(blocked, 4).side is Player.B


def test_15_sends_the_piece_to_square_1() -> None:
    # "If your token ends its move on square 15, the House of Second Life, immediately place
    # that token on square 1 at the start of the game board."
    position = pos([12, 3, 5, 7, 9], [2, 4, 6, 8, 10])
    t = rules.play(position, 3, Move(12, 15))
    assert t.effects & Effect.REBIRTH
    assert squares(t.after)[0] == [1, 3, 5, 7, 9]


@pytest.mark.parametrize(("option", "lands"), [("next-free", 3), ("stay", 15)])
def test_when_square_1_is_taken_the_option_decides(option: str, lands: int) -> None:
    chosen = get_ruleset("isac", rebirth_taken=option)
    position = pos([12, 1, 5, 7, 9], [2, 4, 6, 8, 10])
    t = chosen.play(position, 3, Move(12, 15))
    assert t.after.at(lands) is Player.W


def test_last_four_squares_give_no_protection() -> None:
    # "On the last 4 squares, tokens do not protect each other"
    position = pos([26, 1, 3, 5, 7], [28, 29, 2, 4, 6])
    assert "26-28" in moves(rules, position, 2)


def test_26_must_be_reached_by_an_exact_throw() -> None:
    # "No token may proceed past this square until it has first landed here"
    position = pos([24, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    assert "24-27" not in moves(rules, position, 3)
    assert "24-26" in moves(rules, position, 2)


def test_landing_in_the_water_loses_the_extra_throw() -> None:
    # "Square 27: ... If a token lands here, you lose any additional turns you gained"
    position = pos([26, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    t = rules.play(position, 1, Move(26, 27))
    assert t.effects & Effect.WATER and t.effects & Effect.BONUS_LOST
    assert t.after.side is Player.B and t.after.at(27) is Player.W


def test_water_option_one_returns_to_15_without_throwing() -> None:
    # "Option one: You can choose to return your token to square 15 ... and end your turn
    # without throwing."
    position = pos([27, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    (choice,) = rules.decisions(position)
    assert choice.move == Move(27, 15)
    assert choice.after.at(15) is Player.W and choice.after.side is Player.B
    assert rules.play(position, None, Move(27, 15)) == choice


def test_water_option_two_leaves_only_on_a_4() -> None:
    # "Option two: You can toss the throwing sticks. If you throw a '4,' your token leaves the
    # House of Waters; you successfully remove the token from the board, and gain an extra
    # turn. If you do not throw a '4,' the token remains ... and your turn ends immediately"
    position = pos([27, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    t = rules.play(position, 4, Move(27, 31))
    assert t.after.off_w == 1 and t.after.side is Player.W
    for throw in (1, 2, 3, 5):
        assert moves(rules, position, throw) == {}
        assert rules.pass_turn(position, throw).side is Player.B
    assert "House of Waters" in rules.why_not(position, 2, Move(1, 3))


@pytest.mark.parametrize(("square", "throws"), [(28, {3}), (29, {2}), (30, {1, 2, 3, 4, 5})])
def test_last_squares(square: int, throws: set[int]) -> None:
    # "Square 28 ... until you toss an exact throw of 3" ... "Square 30 ... with a throw of '1'
    # or greater."
    position = pos([square, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    leaving = {t for t in range(1, 6) if f"{square}-off" in moves(rules, position, t)}
    assert leaving == throws


def test_26_bears_off_with_a_5() -> None:
    position = pos([26, 1, 3, 5, 7], [2, 4, 6, 8, 10])
    assert "26-off" in moves(rules, position, 5)
