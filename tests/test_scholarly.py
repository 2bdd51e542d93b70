"""Worked examples and random-playout invariants for the scholarly rulesets (seed 004)."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction

import pytest

from companion.commands.rules import batch
from companion.rules import (
    HAND,
    RULESETS,
    Effect,
    IllegalMove,
    Move,
    NotationError,
    Player,
    Position,
    Ruleset,
    get_ruleset,
)

P = Position.parse
SCHOLARLY = ["piccione", "kendall", "kendall-five-pieces", "kendall-all-options", "jequier", "bell"]


def at(squares: dict[int, str], tail: str) -> str:
    """A position from the pieces on given squares, e.g. ``at({26: "W", 28: "B"}, "W 4 3")``."""
    cells = ["."] * 30
    for square, piece in squares.items():
        cells[square - 1] = piece
    return "".join(cells) + " " + tail


def answers(rules: Ruleset, position: str, throw: int) -> dict[str, str]:
    pos = rules.validate(P(position))
    return {str(t.move): str(t.after) for t in rules.transitions(pos, throw)}


def passed(rules: Ruleset, position: str, throw: int) -> str:
    pos = rules.validate(P(position))
    assert rules.transitions(pos, throw) == []
    return str(rules.pass_turn(pos, throw))


# -- Piccione -----------------------------------------------------------------------------
piccione = get_ruleset("piccione")


def test_piccione_pieces_enter_on_a_one_and_move_on_the_next_throw() -> None:
    start = piccione.start()
    assert str(start) == "." * 30 + " W 0 0"
    assert answers(piccione, str(start), 1) == {"hand-1": "W" + "." * 29 + " W 0 0 entered=1"}
    assert passed(piccione, str(start), 2) == "." * 30 + " B 0 0"
    entered = "W" + "." * 29 + " W 0 0 entered=1"
    assert answers(piccione, entered, 3) == {
        "1-2": ".W" + "." * 28 + " W 0 0 rest=2",
        "1-3": "..W" + "." * 27 + " W 0 0 rest=1",
        "1-4": "...W" + "." * 26 + " B 0 0",
    }
    t = piccione.play(P(entered), 3, Move.parse("1-4"))
    assert t.move == Move(1, 4)


def test_piccione_an_entered_piece_that_cannot_move_goes_back_to_hand() -> None:
    assert passed(piccione, "WB" + "." * 28 + " W 0 0 entered=1", 1) == ".B" + "." * 28 + " B 0 0"


def test_piccione_other_pieces_wait_for_the_entered_piece() -> None:
    found = answers(piccione, "W.........W" + "." * 19 + " W 0 0 entered=1", 2)
    assert set(found) == {"1-2", "1-3"}
    refusals = piccione.refusals(P("W.........W" + "." * 19 + " W 0 0 entered=1"), 2)
    assert refusals[11].code == "entered-first"


def test_piccione_split_throw_landing_on_15_earns_a_throw_after_the_rest() -> None:
    found = answers(piccione, "." * 13 + "W" + "." * 16 + " W 0 0", 3)
    assert found["14-15"] == "." * 14 + "W" + "." * 15 + " W 0 0 extra=1 rest=2"
    assert found["14-17"] == "." * 16 + "W" + "." * 13 + " B 0 0"
    rest = P(found["14-15"])
    assert not piccione.needs_throw(rest)
    assert piccione.throws(rest) == ((2, Fraction(1)),)
    after = piccione.play(rest, 2, Move(15, 17))
    assert after.after.side is Player.W and after.effects & Effect.BONUS
    assert after.after.extras == ()


def test_piccione_rest_must_be_played_as_the_throw() -> None:
    with pytest.raises(NotationError, match="remaining 2 steps"):
        piccione.transitions(P("." * 14 + "W" + "." * 15 + " W 0 0 rest=2"), 3)


def test_piccione_water_sends_the_piece_back_to_hand_and_the_rest_goes_on() -> None:
    found = answers(piccione, "." * 24 + "W" + "." * 5 + " W 0 0", 3)
    assert found["25-27"] == "." * 30 + " W 0 0 rest=1"
    assert piccione.in_hand(P(found["25-27"]), Player.W) == 5


def test_piccione_bears_off_by_exact_throw_only_and_five_throws_again() -> None:
    found = answers(piccione, "." * 28 + "W." + " W 4 0", 3)
    assert found == {"29-30": "." * 29 + "W W 4 0 rest=2", "29-off": "." * 30 + " W 5 0"}
    assert piccione.outcome(P("." * 30 + " W 5 0")).winner is Player.W  # type: ignore[union-attr]
    five = answers(piccione, "." * 20 + "W" + "." * 9 + " W 0 0", 5)
    assert five["21-26"] == "." * 25 + "W...." + " W 0 0"
    assert five["21-22"].endswith(" W 0 0 extra=1 rest=4")
    assert (
        passed(piccione, "WBBBBB" + "." * 24 + " W 0 0 entered=1", 5)
        == ".BBBBB" + "." * 24 + " W 0 0"
    )


def test_piccione_backward_only_without_forward_moves_and_never_from_28_to_30() -> None:
    forward = "." * 22 + "WBB..." + "W." + " W 0 0"
    assert set(answers(piccione, forward, 2)) == {"29-30", "29-off"}
    blocked = "." * 20 + "WBB" + "." * 7 + " W 0 0"
    assert answers(piccione, blocked, 2) == {
        "21-20": "." * 19 + "W.BB" + "." * 7 + " W 0 0 dir=back rest=1",
        "21-19": "." * 18 + "W..BB" + "." * 7 + " B 0 0",
    }
    rest = P("." * 19 + "W.BB" + "." * 7 + " W 0 0 dir=back rest=1")
    assert [str(t.move) for t in piccione.transitions(rest, 1)] == ["20-19"]
    assert piccione.refusals(rest, 1) == {}
    last = "." * 27 + "WBB" + " W 4 3"
    assert answers(piccione, last, 2) == {}  # 28 never moves backward; 28+2 is taken
    assert passed(piccione, last, 2) == last.replace(" W 4 3", " B 4 3")


def test_piccione_rejects_malformed_fields() -> None:
    for text, field in [
        ("." * 30 + " W 0 0 rest=9", "rest"),
        ("." * 30 + " W 0 0 dir=back", "rest"),
        ("." * 30 + " W 0 0 entered=1", "entered"),
        ("." * 30 + " W 0 0 colour=red", "colour"),
    ]:
        with pytest.raises(NotationError) as exc:
            piccione.validate(P(text))
        assert exc.value.field == field
    with pytest.raises(IllegalMove, match="fresh throw of 1"):
        piccione.play(P("." * 30 + " W 0 0"), 2, Move(HAND, 1))


# -- Kendall ------------------------------------------------------------------------------
kendall = get_ruleset("kendall")
kendall5 = get_ruleset("kendall", pieces="five")


def test_kendall_opening_needs_a_one_and_moves_the_front_piece() -> None:
    start = str(kendall.start())
    assert start == "WB" * 7 + "." * 16 + " B 0 0 opening=1"
    assert passed(kendall, start, 4) == start
    assert answers(kendall, start, 1) == {"14-15": "WB" * 6 + "W.B" + "." * 15 + " B 0 0"}
    assert answers(kendall5, str(kendall5.start()), 1) == {
        "10-11": "WB" * 4 + "W.B" + "." * 19 + " B 0 0"
    }


def test_kendall_swaps_pairs_protect_and_backward_when_stuck() -> None:
    lone = at({11: "W", 13: "B", 1: "B", 2: "B", 3: "B", 4: "B"}, "W 4 0")
    assert answers(kendall5, lone, 2) == {
        "11-13": at({11: "B", 13: "W", 1: "B", 2: "B", 3: "B", 4: "B"}, "B 4 0")
    }
    pair = at({11: "W", 13: "B", 14: "B", 1: "B", 2: "B", 3: "B"}, "W 4 0")
    assert answers(kendall5, pair, 2) == {
        "11-9": at({9: "W", 13: "B", 14: "B", 1: "B", 2: "B", 3: "B"}, "B 4 0")
    }


def test_kendall_squares_26_to_30_and_the_water() -> None:
    pos = at({26: "W", 28: "B", 1: "B", 2: "B"}, "W 4 2")
    found = answers(kendall5, pos, 2)
    assert found["26-28"] == at({27: "B", 28: "W", 1: "B", 2: "B"}, "B 4 2")
    assert answers(kendall5, pos, 5)["26-off"] == at({28: "B", 1: "B", 2: "B"}, "W 5 2")
    guarded = at({26: "W", 27: "B", 28: "B", 1: "B"}, "W 4 2")
    assert "26-28" not in answers(kendall5, guarded, 2)
    water = at({27: "W", 29: "B", 1: "B", 2: "B"}, "W 4 2")
    assert answers(kendall5, water, 4)["27-off"] == at({29: "B", 1: "B", 2: "B"}, "W 5 2")
    assert passed(kendall5, water, 1) == water.replace(" W 4 2", " B 4 2")  # no throw again
    (rescue,) = kendall5.decisions(P(water))
    assert str(rescue.move) == "27-15" and rescue.effects & Effect.DECISION
    assert str(rescue.after) == at({15: "W", 29: "B", 1: "B", 2: "B"}, "B 4 2 rescued=W")
    back = P(at({15: "W", 29: "B", 1: "B", 2: "B"}, "W 4 2 rescued=W"))
    assert [str(t.move) for t in kendall5.transitions(back, 2)] == ["15-17"]
    assert kendall5.transitions(back, 2)[0].after.extras == ()
    taken = P(at({27: "W", 15: "W", 14: "B", 1: "B"}, "W 3 3"))
    (elsewhere,) = kendall5.decisions(taken)
    assert str(elsewhere.move) == "27-13" and elsewhere.after.extras == ()


def test_kendall_options() -> None:
    trap = get_ruleset("kendall", pieces="five", trap="on")
    pos = at({24: "W", 1: "B", 2: "B", 3: "B"}, "W 4 2")
    assert answers(trap, pos, 4) == {"24-27": at({27: "W", 1: "B", 2: "B", 3: "B"}, "W 4 2")}
    assert answers(kendall5, pos, 4) == {  # without the trap: stuck, so backward
        "24-20": at({20: "W", 1: "B", 2: "B", 3: "B"}, "W 4 2")
    }
    home = get_ruleset("kendall", pieces="five", home_row="on")
    assert set(answers(home, at({1: "W", 26: "W", 2: "B"}, "W 3 4"), 5)) == {"1-6"}
    assert "26-off" in answers(kendall5, at({1: "W", 26: "W", 2: "B"}, "W 3 4"), 5)
    waiting = get_ruleset("kendall-all-options")
    assert waiting.settings == {
        "pieces": "five",
        "starting_throw": "on",
        "trap": "on",
        "home_row": "on",
    }
    early = "WBWBWBWBW.B" + "." * 19 + " W 0 0 waiting=W"
    assert passed(waiting, early, 4) == early  # 4 still throws again
    assert passed(waiting, early, 2) == early.replace(" W 0 0", " B 0 0")
    assert answers(waiting, early, 1)["9-10"] == "WBWBWBWB.WB" + "." * 19 + " W 0 0"


def test_kendall_aliases_cover_all_of_ludiis_option_rulesets() -> None:
    names = [n for n in RULESETS if n.startswith("kendall-")]
    assert len(names) == 15 and "kendall-five-pieces-starting-throw-trap-home-row" not in names
    assert "kendall-all-options" in names and "kendall-starting-throw-trap-home-row" in names


# -- Jéquier ------------------------------------------------------------------------------
jequier = get_ruleset("jequier")


def test_jequier_throws_and_opening() -> None:
    assert jequier.throw_model.values == (1, 2, 3, 4, 6)
    start = str(jequier.start())
    assert answers(jequier, start, 1) == {"10-11": "WBWBWBWBW.B" + "." * 19 + " B 0 0"}


def test_jequier_starting_pieces_wait_for_the_piece_in_front() -> None:
    found = answers(jequier, "WBWBWBWBW.B" + "." * 19 + " W 0 0", 2)
    assert set(found) == {"9-11"}


def test_jequier_captures_send_back_to_the_first_free_square() -> None:
    pos = at({1: "W", 2: "B", 13: "W", 16: "B", 20: "B"}, "W 3 2")
    found = answers(jequier, pos, 3)
    # The captured piece goes to square 3: square 13 still holds the capturing piece.
    assert found["13-16"] == at({1: "W", 2: "B", 3: "B", 16: "W", 20: "B"}, "B 3 2")
    pair = at({1: "W", 2: "B", 13: "W", 16: "B", 17: "B"}, "W 3 2")
    assert "13-16" not in answers(jequier, pair, 3)
    water = at({1: "W", 2: "B", 25: "W", 16: "B", 17: "B"}, "W 3 2")
    assert answers(jequier, water, 2)["25-27"] == at(
        {1: "W", 2: "B", 3: "W", 16: "B", 17: "B"}, "B 3 2"
    )


def test_jequier_safe_squares_and_bearing_off() -> None:
    on_20 = at({18: "W", 20: "B", 1: "W"}, "W 3 4")
    assert "18-20" not in answers(jequier, on_20, 2)  # 20 is safe as the text prints it
    ludii_safe = get_ruleset("jequier", safe_square="15")
    assert ludii_safe.safe_squares == frozenset({15, 26, 28, 29})
    assert "18-20" in answers(ludii_safe, on_20, 2)
    home = at({26: "W", 22: "W", 2: "B"}, "W 3 4")
    assert answers(jequier, home, 6)["26-off"] == at({22: "W", 2: "B"}, "W 4 4")
    assert "26-off" not in answers(jequier, at({26: "W", 12: "W", 2: "B"}, "W 3 4"), 6)


def test_jequier_backward_only_to_an_empty_square() -> None:
    pos = "." * 20 + "BW" + "BB.B" + "BB" + ".." + " W 4 0"
    found = jequier.transitions(P(pos), 2)
    assert all(t.effects & Effect.BACKWARD for t in found)
    assert {str(t.move) for t in found} == {"22-20"}


# -- Bell ---------------------------------------------------------------------------------
bell = get_ruleset("bell")


def test_bell_rolloff_decides_who_starts() -> None:
    start = bell.start()
    assert str(start) == "WB" * 10 + "." * 10 + " W 0 0 rolloff=W"
    first = bell.pass_turn(start, 2)
    assert str(first).endswith(" B 0 0 rolloff=2")
    assert bell.pass_turn(first, 3).side is Player.B
    assert bell.pass_turn(first, 2).side is Player.W


def test_bell_captures_remove_pieces_and_marked_squares_go_first() -> None:
    pos = "WB" * 10 + "." * 10 + " W 0 0"
    found = answers(bell, pos, 3)
    assert set(found) == {"15-18"}  # the piece on the marked square 15 must leave it
    after = P(found["15-18"])
    assert bell.taken(after, Player.B) == 1
    assert answers(bell, "." * 25 + "W..." + "W" + " W 5 4", 4) == {}


def test_bell_bears_off_exactly_and_counts_the_most_pieces_borne_off() -> None:
    found = answers(bell, "." * 29 + "W" + " W 5 3", 1)
    t = bell.transitions(P("." * 29 + "W" + " W 5 3"), 1)[0]
    assert found == {"30-off": "." * 30 + " B 6 3"} and t.effects & Effect.WIN
    outcome = bell.outcome(P("." * 30 + " B 6 3"))
    assert outcome is not None and outcome.winner is Player.W


# -- every scholarly ruleset --------------------------------------------------------------
@pytest.mark.parametrize("name", SCHOLARLY)
@pytest.mark.parametrize("seed", range(4))
def test_random_playouts_keep_the_invariants_and_end(name: str, seed: int) -> None:
    rules = get_ruleset(name)
    rng = random.Random(f"{name}-{seed}")
    position = rules.start()
    pieces = rules.pieces
    for _ply in range(20000):
        if rules.outcome(position) is not None:
            break
        rules.validate(position)
        assert P(str(position)) == position
        for player in Player:
            assert position.board.count(player.value) + position.off(player) <= pieces
        choices = rules.decisions(position)
        if choices and rng.random() < 0.3:
            position = rng.choice(choices).after
            continue
        chances = rules.throws(position)
        assert sum(c.probability for c in chances) == 1
        throw = rng.choices([c.value for c in chances], [float(c.probability) for c in chances])[0]
        found, after = rules.after_throw(position, throw)
        if found:
            t = rng.choice(found)
            assert rules.play(position, throw, t.move) == t
            after = t.after
        assert after.off_w >= position.off_w and after.off_b >= position.off_b
        position = after
    else:
        pytest.fail(f"{name} seed {seed} did not end in 20000 plies: {position!r}")
    outcome = rules.outcome(position)
    assert outcome is not None


def test_refusals_say_why_in_words() -> None:
    water = P("B.B.B....W.W.W.....W......W..B W 0 1")
    assert "dealt with first" in kendall5.why_not(water, 3, Move(10, 13))
    assert "throw of 4" in kendall5.why_not(water, 3, Move(27, 30))
    entered = P(at({1: "W", 11: "W"}, "W 0 0 entered=1"))
    assert "just entered" in piccione.why_not(entered, 2, Move(11, 13))
    waiting = P("WBWBWBWBW.B" + "." * 19 + " W 0 0")
    assert "piece in front" in jequier.why_not(waiting, 2, Move(1, 3))
    full = P(at({1: "W", 2: "W", 3: "W", 4: "W", 5: "W"}, "W 0 0"))
    assert "no piece in hand" in piccione.why_not(full, 1, Move(HAND, 1))
    home = P(at({1: "W", 27: "W", 2: "B"}, "W 3 4"))
    home_row = get_ruleset("kendall", pieces="five", home_row="on")
    assert "squares 1-10" in home_row.why_not(home, 4, Move(27, 31))
    marked = P("WB" * 10 + "." * 10 + " W 0 0")
    assert "marked square (15)" in bell.why_not(marked, 3, Move(1, 4))


def test_a_split_throw_is_played_step_by_step_through_the_batch_interface() -> None:
    first = "." * 13 + "W" + "." * 16 + " W 0 0"
    lines = [json.dumps({"position": first, "throw": 3})]
    out = io.StringIO()
    assert batch(piccione, lines, out) == 0
    (answer,) = [json.loads(line) for line in out.getvalue().splitlines()]
    rest = next(m["position"] for m in answer["moves"] if m["move"] == "14-15")
    assert rest.endswith(" W 0 0 extra=1 rest=2")
    assert piccione.pending_throw(P(rest)) == 2 and not piccione.needs_throw(P(rest))
    out = io.StringIO()
    wrong = json.dumps({"position": rest, "throw": 3})
    assert batch(piccione, [json.dumps({"position": rest, "throw": 2}), wrong], out) == 1
    second, error = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {m["move"] for m in second["moves"]} == {"15-16", "15-17"}
    assert "remaining 2 steps" in error["error"]


def test_rules_list_names_source_author_and_year(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["rules", "list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["piccione"]["author"] == "Peter A. Piccione" and rows["piccione"]["year"] == "1977"
    assert rows["jequier"]["year"] == "1930" and rows["bell"]["author"] == "R. C. Bell"
    assert rows["kendall"]["options"]["pieces"] == ["standard", "five"]
    assert all(rows[name]["summary"] and rows[name]["source"] for name in SCHOLARLY)
