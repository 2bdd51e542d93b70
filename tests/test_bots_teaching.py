import pytest

from companion.bots.teaching import announce, explain, explain_pass, why_not_lines
from companion.rules import Move, Position, get_ruleset


def test_a_wall_is_named_with_the_move_it_blocks() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.........W.WBBB..W.....B.B. W 0 0")
    lines = why_not_lines(rules, position, 4)
    assert "15-19 is not allowed: 16-17-18 is a wall of three that cannot be passed." in lines


def test_explain_says_what_the_move_did_and_what_else_was_allowed() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.W..B......BB..W.....W.B..B W 0 0")
    lines = explain(rules, position, 3, rules.play(position, 3, Move.parse("5-8")))
    assert lines[0] == (
        "5-8: the piece on 5 moves to 8; it captures: the B piece there goes to 5;"
        " the turn passes to B (dark)."
    )
    assert lines[1] == "Other moves allowed with a 3: 1-4, 3-6, 19-22."
    assert "25-28 is not allowed: every piece must stop on square 26 before going past it." in lines


def test_water_and_bonus_throws_are_explained() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse(
        "W...W..B......BB..W......W.... W 0 0".replace("W....", "W....")[0:30] + " W 0 0"
    )
    position = Position.parse("W.W.W..B......BB..W......W...B W 0 0")
    first = explain(rules, position, 1, rules.play(position, 1, Move.parse("26-27")))[0]
    assert "27, House of Water" in first
    assert "sends it to 14" in first  # 15 is taken by B: the first free square before it
    assert first.endswith("a 1 throws again.")


def test_isac_rebirth_and_decision() -> None:
    rules = get_ruleset("isac")
    position = Position.parse(".W.W.W.......W......BBBBB...W. W 0 0")
    lines = explain(rules, position, 1, rules.play(position, 1, Move.parse("14-15")))
    assert "15, House of Second Life" in lines[0]
    assert "ending on 15 sends it on to 1" in lines[0]
    assert lines[-1] == (
        "The piece on 29 cannot move: a piece on square 29 can only leave the board,"
        " with a throw of 2."
    )
    position = Position.parse(".W.W.W.......W......BBBBB.W... W 0 0")
    decision = rules.decisions(position)[0]
    said = explain(rules, position, None, decision)
    assert said == ["27-15: W (light) chose this instead of throwing; the turn passes to B (dark)."]


def test_backward_moves_in_basic_are_explained() -> None:
    rules = get_ruleset("basic")
    position = Position.parse("...........................WWW W 2 0")
    transitions = rules.transitions(position, 4)
    assert transitions and all(t.move.end < t.move.start for t in transitions)
    line = explain(rules, position, 4, transitions[0])[0]
    assert "moves back" in line
    assert "no piece could move forward" in line


def test_a_pass_is_explained_piece_by_piece() -> None:
    rules = get_ruleset("playpalace")
    stuck = Position.parse("..........................BWWW B 2 4")
    lines = explain(rules, stuck, 2, None)
    assert lines[0] == "B (dark) has no move with a 2."
    assert any(line.startswith("27-29 is not allowed") for line in lines)
    assert lines[-1] == "The turn passes to W (light)."
    again = explain_pass(rules, stuck, 4)
    assert again[-1] == "B (dark) throws again."


def test_explaining_a_pass_that_is_not_one_is_refused() -> None:
    rules = get_ruleset("playpalace")
    with pytest.raises(ValueError, match="no pass"):
        explain_pass(rules, rules.start(), 1)
    with pytest.raises(ValueError, match="needs the throw"):
        explain(rules, rules.start(), None, None)


def test_announcements_tell_a_person_what_to_do_on_the_board() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("W.W.W..B......BB..W.....W.B..B W 0 0")
    capture = rules.play(position, 3, Move.parse("5-8"))
    assert announce(rules, position, 3, capture) == [
        "W (light) plays 5-8. Move the light piece from square 5 to square 8;"
        " the dark piece that was there goes to square 5."
    ]
    water = Position.parse("W.W.W..B......BB..W......W...B W 0 0")
    fall = rules.play(water, 1, Move.parse("26-27"))
    assert announce(rules, water, 1, fall)[0] == (
        "W (light) plays 26-27. Move the light piece from square 26 to square 27,"
        " then on to square 14."
    )
    taught = announce(rules, position, 3, capture, teach=True)
    assert taught[1:] == explain(rules, position, 3, capture)


def test_bearing_off_is_announced() -> None:
    rules = get_ruleset("playpalace")
    position = Position.parse("BBB.B.......W..........B....W. W 3 0")
    done = rules.play(position, 2, Move.parse("29-off"))
    line = announce(rules, position, 2, done)[0]
    assert line == "W (light) plays 29-off. Take the light piece on square 29 off the board."


def test_pieces_refused_for_the_same_reason_share_one_sentence() -> None:
    rules = get_ruleset("kendall")
    lines = why_not_lines(rules, rules.start(), 2)
    assert len(lines) == 1
    assert lines[0].startswith("2-4, 4-6, ")
    assert " and 14-16 are not allowed: the game starts when somebody throws a 1" in lines[0]
