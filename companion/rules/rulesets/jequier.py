"""Gustave Jéquier's reconstruction, as Ludii gives its rules."""

from __future__ import annotations

from companion.rules.base import Effect, Option, Refusal, Ruleset, Transition
from companion.rules.errors import NotationError
from companion.rules.position import EMPTY, OFF, SQUARES, Move, Player, Position
from companion.rules.throws import FOUR_STICKS_SIX

__all__ = ["Jequier"]

_FRONT = 10
_WATER = 27
_LAST_ROW = 21
_TEMPLATES = {
    "opening": "the game starts when somebody throws a 1 and moves the front dark piece ({0}-{1})",
    "behind": "a piece on its starting square waits until the piece in front of it ({0}) has gone",
    "open-only": "a backward move must end on an empty square",
    "last-row": "pieces bear off only when all of yours are in the last row (21-30)",
}


class Jequier(Ruleset):
    """Gustave Jéquier's rules (Jéquier 1930), as the Ludii portal writes them.

    Source: seed 004 lists them; the rules text is Ludii's (``Senet.lud``, ``Ruleset/Jequier
    (Scholarly)``). Where the text is silent Ludii's code decides; where the code departs from
    the text, the text rules (docs/rules.md lists the cases):

    - Throws: four sticks, no plain side up counts 6 (there is no 5). "Throws of 1, 4, and 6
      grant the player another throw", also when no move is possible.
    - "The first player to throw a 1 plays as black, moves the black piece in front of the line
      of pieces one space, and then continues to play": ``opening=1`` as in Kendall's rules,
      the 1 moves 10-11 and B throws again.
    - "Pieces which are in their starting spots may not move until after the piece immediately
      in front of them has moved": a piece on one of its side's starting squares (W: 1, 3, ...,
      9; B: 2, 4, ..., 10) moves only while the next square is empty.
    - "Pieces may not move past a group of the opponent's pieces which are resting in three
      squares in a row": three opponent pieces in a row strictly between start and end,
      bearing off included.
    - Captures send the opponent's piece "back to the unoccupied space furthest from the end":
      the lowest-numbered empty square, looked for while the capturing piece still stands
      on its start square (as Ludii does). Two pieces
      of one side next to each other in the same board row cannot be sent back, nor a piece on
      26, 28, 29 or 20 (option ``safe_square``: the text prints 20; Ludii codes 15).
    - "If a piece cannot move forward, it must move backward to an open space": backward by
      the whole throw, to an empty square only, when no piece can move forward.
    - "A piece landing in square 27 is sent back to the furthest unoccupied space from the end".
    - "Pieces cannot be borne off until all of the player's pieces are in the last row. Pieces
      moving beyond the final space are borne off": no exact throw needed.
    - The first side to bear off all its pieces wins (Ludii's points for the loser's remaining
      pieces are not kept).
    """

    name = "jequier"
    title = "Jéquier"
    source = "Ludii portal, Senet ruleset Jequier; Jéquier 1930 (seed 004)"
    author = "Gustave Jéquier"
    year = "1930"
    summary = "An early scholar's rules: a blank throw counts 6, captured pieces go back to start."
    reference = "Ludii Senet.lud, Ruleset/Jequier (Scholarly)"
    throw_model = FOUR_STICKS_SIX
    first_side = Player.B
    start_extras = (("opening", "1"),)
    bonus_throws = frozenset({1, 4, 6})
    bonus_on_pass = True
    backward = True
    backward_from_exits = True
    stop_on_26 = False
    extra_keys = {"opening": "1: nobody has thrown the 1 that starts the game yet"}
    square_names = {
        15: "House of Second Life",
        26: "House of Beauty (safe)",
        27: "the Water",
        28: "safe square",
        29: "safe square",
        30: "the last square",
    }
    options = {
        "safe_square": Option(
            "20",
            ("20", "15"),
            "the fourth safe square besides 26, 28 and 29: 20 as the text prints it, 15 as Ludii",
        ),
    }

    def __init__(self, **chosen: str) -> None:
        super().__init__(**chosen)
        self.safe_squares = frozenset({26, 28, 29, int(self.settings["safe_square"])})

    def validate(self, position: Position) -> Position:
        super().validate(position)
        opening = position.extra("opening")
        if opening is not None and (
            opening != "1" or position.at(_FRONT) is not Player.B or position.at(_FRONT + 1)
        ):
            raise NotationError("opening", "must be 1, with B on 10 and square 11 empty")
        return position

    def pass_turn(self, position: Position, throw: int) -> Position:
        if position.extra("opening") is not None:
            return position  # the sticks go round until somebody throws the 1
        return super().pass_turn(position, throw)

    # -- moves ----------------------------------------------------------------------------
    def transitions(self, position: Position, throw: int) -> list[Transition]:
        if position.extra("opening") is None:
            return super().transitions(position, throw)
        if throw != 1 or self.outcome(position) is not None:
            return []
        cells = list(position.board)
        cells[_FRONT - 1], cells[_FRONT] = EMPTY, Player.B.value
        after = Position("".join(cells), Player.B, position.off_w, position.off_b)
        return [Transition(Move(_FRONT, _FRONT + 1), after, Effect.BONUS)]

    def _waiting(self, position: Position, square: int) -> Refusal | None:
        """Why a piece on its starting square may not move yet, if it may not."""
        starts_odd = position.side is Player.W
        if square <= _FRONT and (square % 2 == 1) == starts_odd and position.board[square] != EMPTY:
            return Refusal("behind", (square + 1,))
        return None

    def _forward(
        self, position: Position, square: int, throw: int, p: str, o: str
    ) -> Transition | Refusal:
        return self._waiting(position, square) or super()._forward(position, square, throw, p, o)

    def _backward(
        self, position: Position, square: int, throw: int, p: str, o: str
    ) -> Transition | Refusal:
        waiting = self._waiting(position, square)
        if waiting is not None:
            return waiting
        target = square - throw
        if target >= 1 and position.board[target - 1] != EMPTY:
            return Refusal("open-only", (target,))
        return super()._backward(position, square, throw, p, o)

    def _forward_target(self, position: Position | None, square: int, throw: int) -> int | Refusal:
        assert position is not None  # overridden: never tabulated
        if square + throw <= SQUARES:
            return square + throw
        if position.side.value in position.board[: _LAST_ROW - 1]:
            return Refusal("last-row")
        return OFF

    def _protected(self, board: str, square: int, owner: str) -> bool:
        if square in self.safe_squares:
            return True
        row = (square - 1) // 10
        return any(
            1 <= n <= SQUARES and (n - 1) // 10 == row and board[n - 1] == owner
            for n in (square - 1, square + 1)
        )

    def _displaced_to(self, cells: list[str], start: int, target: int) -> int:
        # Looked for while the capturing piece still stands on its start square.
        return next(i + 1 for i, c in enumerate(cells) if c == EMPTY and i != start - 1)

    def _special(self, cells: list[str], start: int, target: int, flags: int) -> int:
        if target != _WATER:
            return flags
        mover = cells[target - 1]
        cells[target - 1] = EMPTY
        cells[_lowest_empty(cells) - 1] = mover
        return flags | Effect.WATER

    # -- teaching -------------------------------------------------------------------------
    def _restriction(self, position: Position, throw: int, square: int) -> Refusal | None:
        if position.extra("opening") is not None:
            return Refusal("opening", (_FRONT, _FRONT + 1))
        return self._waiting(position, square)

    def explain(self, refusal: Refusal, position: Position) -> str:
        template = _TEMPLATES.get(refusal.code)
        if template is None:
            return super().explain(refusal, position)
        return template.format(*refusal.squares, side=position.side.value)


def _lowest_empty(cells: list[str]) -> int:
    """The empty square furthest from the end (there always is one: 30 squares, 10 pieces)."""
    return cells.index(EMPTY) + 1
