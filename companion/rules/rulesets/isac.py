"""The ISAC museum's "Make Your Own Senet Game" rules."""

from __future__ import annotations

from companion.rules.base import Effect, Option, Refusal, Ruleset, Transition
from companion.rules.position import EMPTY, Move, Player, Position

_WATER = 27
_DARK_OPENING = "dark"  # nobody has thrown the 1 that starts the game yet
_LIGHT_OPENING = "light"  # the light pieces have not made their first move yet


class Isac(Ruleset):
    """The University of Chicago ISAC museum's handout, "How to play Senet" (seed 002).

    No reference implementation exists; these are the readings of the text:

    - Opening ("The first player to throw a '1' plays with the dark tokens ... moves their dark
      token from square 10 to square 11 and gets to toss again"): the game starts with the extra
      field ``opening=dark``; until a 1 is thrown nothing moves and the sticks pass between the
      players without changing sides in the notation (side ``B`` means "whoever will be dark").
      The 1 moves 10-11 and throws again.
    - "The second player ... must move the token that starts on square 9 first": while
      ``opening=light``, the light side's first move must be made from square 9 when the throw
      allows a move from there; if it does not, any legal move may be made. The field is gone
      after the light side's first move.
    - "you must try to move forward. If you cannot, you must move a token backwards instead, and
      you lose any extra turns": backward by the whole throw, with no repeat throw.
    - No walls: the handout has none. Two pieces side by side protect each other, around the
      corners too, but not on the last four squares, which neither are protected nor protect.
    - "If your token ends its move on square 15 ... immediately place that token on square 1":
      option ``rebirth_taken`` says what happens when square 1 is taken: ``next-free`` (the first
      free square after 1, the default) or ``stay`` (the piece stays on 15). A piece sent back by
      a swap does not end *its* move on 15 and stays there.
    - "No token may proceed past this square until it has first landed here": pieces below 26
      must stop on 26. From 26 a 5 bears off ("passed square 30").
    - House of Waters: landing on 27 ends the turn (extra throws lost); the piece stays on 27.
      On its owner's next turn, before throwing, the owner may return it to 15 (the first free
      square before 15 if 15 is taken) and end the turn: move ``27-15`` as a decision. Or they
      throw: a 4 bears it off with an extra throw; anything else ends the turn. While a piece
      is in the water, no other piece moves.
    - 28 leaves only with a 3, 29 only with a 2, 30 with any throw; all bear off. Pieces on 28-30
      never move backward.
    """

    name = "isac"
    title = "ISAC museum handout"
    source = "How to play Senet, ISAC museum, University of Chicago (seed 002)"
    author = "Institute for the Study of Ancient Cultures, University of Chicago"
    year = "2020"
    summary = "The museum's family rules: throw a 1 to start, 15 sends you back to 1, 27 traps."
    reference = "none: the handout's text"
    first_side = Player.B
    start_extras = (("opening", _DARK_OPENING),)
    extra_keys = {
        "opening": "dark: throwing for a 1 to start; light: the light side's first move is due",
    }
    backward = True
    backward_keeps_bonus = False
    wall = 0
    exits = {
        27: frozenset({4}),
        28: frozenset({3}),
        29: frozenset({2}),
        30: frozenset({1, 2, 3, 4, 5}),
    }
    unsafe = frozenset({27, 28, 29, 30})
    square_names = {
        15: "House of Second Life",
        26: "House of Beauty",
        27: "House of Waters",
        28: "House of Three Judges",
        29: "House of Two Judges",
        30: "House of Horus",
    }
    options = {
        "rebirth_taken": Option(
            "next-free",
            ("next-free", "stay"),
            "where a piece ending on 15 goes when square 1 is taken",
        ),
    }

    def decisions(self, position: Position) -> list[Transition]:
        if self.outcome(position) is not None or position.at(_WATER) is not position.side:
            return []
        cells = list(position.board)
        cells[_WATER - 1] = EMPTY
        home = self._first_free(cells, range(15, 0, -1), _WATER)
        cells[home - 1] = position.side.value
        after = position._replace(board="".join(cells), side=position.side.other)
        return [Transition(Move(_WATER, home), after, Effect.DECISION)]

    def _special(self, cells: list[str], start: int, target: int, flags: int) -> int:
        if target == _WATER:
            return flags | Effect.WATER | Effect.BONUS_LOST
        if target == 15:
            mover = cells[14]
            if self.settings["rebirth_taken"] == "stay" and cells[0] != EMPTY:
                return flags
            home = self._first_free(cells, range(1, 15), start) if cells[0] != EMPTY else 1
            cells[14] = EMPTY
            cells[home - 1] = mover
            return flags | Effect.REBIRTH
        return flags

    def _restrict(
        self, position: Position, throw: int, found: list[Transition]
    ) -> list[Transition]:
        opening = position.extra("opening")
        if opening == _DARK_OPENING:
            return [t for t in found if t.move == _OPENING_MOVE and throw == 1]
        if position.at(_WATER) is position.side:
            return [t for t in found if t.move.start == _WATER]
        if opening == _LIGHT_OPENING and position.side is Player.W:
            from_nine = [t for t in found if t.move.start == 9]
            return from_nine or found
        return found

    def _restriction(self, position: Position, throw: int, square: int) -> Refusal | None:
        if position.extra("opening") == _DARK_OPENING:
            return Refusal("opening-dark", (10, 11))
        if position.at(_WATER) is position.side and square != _WATER:
            return Refusal("deal-with-water", (_WATER,))
        first_light_move = position.extra("opening") == _LIGHT_OPENING and position.side is Player.W
        nine_can_move = any(t.move.start == 9 for t in self.transitions(position, throw))
        if first_light_move and square != 9 and nine_can_move:
            return Refusal("opening-9", (9,))
        return None

    def pass_turn(self, position: Position, throw: int) -> Position:
        if position.extra("opening") == _DARK_OPENING:
            return position  # the sticks go round until somebody throws the 1
        return super().pass_turn(position, throw)

    def _extras_after(
        self, position: Position, move: Move, flags: int
    ) -> tuple[tuple[str, str], ...]:
        opening = position.extra("opening")
        if opening == _DARK_OPENING:
            return position.with_extra("opening", _LIGHT_OPENING).extras
        if opening == _LIGHT_OPENING and position.side is Player.W:
            return position.with_extra("opening", None).extras
        return position.extras


_OPENING_MOVE = Move(10, 11)
