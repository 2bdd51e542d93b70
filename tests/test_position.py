import pytest

from companion.rules import HAND, OFF, Move, NotationError, Player, Position, get_ruleset

START = "WBWBWBWBWB.................... W 0 0"


@pytest.mark.parametrize(
    "text",
    [
        START,
        "..W.BWBB...W.W....W..B...B.... B 2 3",
        "WBWBWBWBWB.................... B 0 0 opening=dark",
        ".............................. W 5 4 a=1 b=two",
    ],
)
def test_notation_round_trips(text: str) -> None:
    position = Position.parse(text)
    assert position.notation() == text
    assert str(position) == text
    assert eval(repr(position)) == position


def test_fields_are_read() -> None:
    position = Position.parse("..W.BWBB...W.W....W..B...B.... B 2 3 k=v")
    assert position.side is Player.B
    assert (position.off_w, position.off_b) == (2, 3)
    assert position.at(3) is Player.W
    assert position.at(1) is None
    assert position.squares_of(Player.B) == [5, 7, 8, 22, 26]
    assert position.extra("k") == "v"
    assert position.extra("missing") is None


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("WBWBWBWBWB...... W 0 0", "board"),
        ("WBWBWBWBWBX................... W 0 0", "board"),
        ("WBWBWBWBWB.................... X 0 0", "side"),
        ("WBWBWBWBWB.................... W x 0", "offW"),
        ("WBWBWBWBWB.................... W 0 -1", "offB"),
        ("WBWBWBWBWB.................... W 0", "position"),
        ("WBWBWBWBWB....................  W 0 0", "position"),
        ("WBWBWBWBWB.................... W 0 0 novalue", "extra"),
        ("WBWBWBWBWB.................... W 0 0 a=1 a=2", "a"),
    ],
)
def test_malformed_positions_name_the_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as exc:
        Position.parse(text)
    assert exc.value.field == field
    assert str(exc.value).startswith(field + ":")
    assert isinstance(exc.value, ValueError)


def test_non_text_position_is_refused() -> None:
    with pytest.raises(NotationError, match="expected text"):
        Position.parse(42)  # type: ignore[arg-type]


def test_validate_counts_pieces() -> None:
    rules = get_ruleset("playpalace")
    with pytest.raises(NotationError, match="more than the 5 pieces"):
        rules.validate(Position.parse("WWWWWWBBBBB................... W 0 0"))
    with pytest.raises(NotationError, match="needs all 5"):
        rules.validate(Position.parse("W.................B........... W 0 0"))
    with pytest.raises(NotationError, match="at most 5"):
        rules.validate(Position.parse(".............................. W 6 5"))
    with pytest.raises(NotationError, match="not a field of playpalace"):
        rules.validate(Position.parse(START + " opening=dark"))
    assert rules.validate(Position.parse(START)) == rules.start()


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("9-12", Move(9, 12)),
        ("12-9", Move(12, 9)),
        ("28-off", Move(28, OFF)),
        ("hand-1", Move(HAND, 1)),
    ],
)
def test_moves_round_trip(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert move.notation() == text
    assert eval(repr(move)) == move


@pytest.mark.parametrize("text", ["", "9", "9-", "0-3", "9-31", "31-off", "a-b", "9-9", "off-3"])
def test_malformed_moves(text: str) -> None:
    with pytest.raises(NotationError) as exc:
        Move.parse(text)
    assert exc.value.field == "move"


def test_with_extra_keeps_keys_sorted() -> None:
    position = Position.parse(START).with_extra("z", "1").with_extra("a", "2")
    assert position.notation() == START + " a=2 z=1"
    assert position.with_extra("z", None).notation() == START + " a=2"
