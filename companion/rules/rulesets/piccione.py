"""Peter Piccione's reconstruction: pieces enter from the hand and throws may be split."""

from __future__ import annotations

from fractions import Fraction

from companion.rules.base import Effect, Refusal, Ruleset, Transition
from companion.rules.errors import NotationError
from companion.rules.position import EMPTY, HAND, OFF, SQUARES, Move, Player, Position
from companion.rules.throws import Chance

__all__ = ["Piccione"]

_ENTRY = 1
_WATER = 27
_EXTRA_THROW_SQUARES = frozenset({15, 26})
_NO_BACKWARD = frozenset({28, 29, 30})
_BACK = "back"
_TEMPLATES = {
    "entered-first": "the piece that has just entered on square {0} must move first",
    "same-direction": "every part of a split throw goes the same way: this one goes backward",
    "blocked": "every square the piece could reach is taken or past the end",
    "enter-one": "a piece enters only with a fresh throw of 1 onto an empty square 1",
    "no-hand": "{side} has no piece in hand to enter",
}


class Piccione(Ruleset):
    """Peter Piccione's rules for CADACO's "King Tut's Game", as Ludii's portal gives them.

    Source: seed 004 (Ludii portal, "Senet, Ruleset: Piccione"; "Piccione 1977, King Tut's Game
    rules"). Checked against Ludii's ``Senet.lud`` (``Ruleset/Piccione (Scholarly)``) where the
    text is silent; where Ludii's code departs from the text, the text rules (see docs/rules.md).

    - "Players may enter a piece onto the board with a throw of 1": all pieces start in hand;
      a fresh throw of 1 (never the rest of a split throw: "Splitting throws in this way cannot
      be used to enter a piece") may enter a piece on an empty square 1, move ``hand-1``.
      Entering does not stop the pieces on the board from using the 1 instead.
    - "When a piece is entered, another throw is granted which must be used to move that
      piece ... as long as the entered piece moves at least one space": after ``hand-1`` the same
      side throws again with the extra field ``entered=1``; the first part of that throw moves
      the piece on 1. "If it is impossible for a piece to move from square 1, it must be removed
      from the board and entered again": then the throw passes and the piece goes back to hand.
    - "Throws may be divided among the pieces on the board as a player sees fit": a move takes
      one piece 1 to N squares for a throw (or rest) of N. After a partial move the side keeps
      the turn and the position carries ``rest=K``, the steps still to play; ``needs_throw`` is
      then False and ``transitions(position, K)`` plays them. A rest that cannot be used is
      lost (``pass_turn``).
    - "Pieces cannot land on the same space": no captures, no protection, no walls.
    - "If a throw does not allow a piece to move forward, it must move backward. All pieces must
      move in the same direction during a turn": a throw is played backward only when no piece
      can move forward at all; the rest of a throw keeps the direction of its first part
      (``dir=back`` while a backward throw is being split). A turn here is one throw.
    - "Pieces may not move backwards from squares 28, 29, or 30."
    - "Squares 15 and 26 grant the player an extra throw. If pieces land on these squares as a
      result of splitting a throw, that throw must be fully used before the new throw is taken":
      landing there mid-throw writes ``extra=1``; the extra throw comes when the rest is played
      or lost. "A throw of 5 grants the player another throw", also when it cannot be used.
      One throw earns at most one extra throw, whatever the reasons.
    - "A piece which lands on square 27 is removed from the board and must enter again".
    - "Players must bear off the board by an exact throw": square 30 needs 1, 29 needs 2, ...
      Bearing off is never compulsory while another move exists.
    """

    name = "piccione"
    title = "Piccione (King Tut's Game)"
    source = "Ludii portal, Senet ruleset Piccione; Piccione 1977, King Tut's Game rules (seed 004)"
    author = "Peter A. Piccione"
    year = "1977"
    summary = "Pieces enter on a 1 and throws may be split; 15 and 26 throw again, 27 sends home."
    reference = "Ludii Senet.lud, Ruleset/Piccione (Scholarly)"
    first_side = Player.W
    start_board = EMPTY * SQUARES
    bonus_throws = frozenset({5})
    wall = 0
    pairs_protect = False
    extra_keys = {
        "rest": "1-4: steps of a split throw still to play by the same side",
        "dir": "back: the split throw is being played backward",
        "extra": "1: an extra throw is due once the rest of this throw is played",
        "entered": "1: the piece on square 1 has just entered and must use this throw",
    }
    square_names = {
        15: "Ankh Waset (another throw)",
        26: "Neferu (another throw)",
        27: "the Water",
        28: "House of the Ba",
        29: "House of the Two Men",
        30: "House of Horus",
    }

    # -- the frame ------------------------------------------------------------------------
    def allows_hand(self, position: Position) -> bool:
        return True

    def validate(self, position: Position) -> Position:
        super().validate(position)
        rest = position.extra("rest")
        if rest is not None and rest not in ("1", "2", "3", "4"):
            raise NotationError("rest", f"must be 1, 2, 3 or 4 steps still to play, got {rest!r}")
        direction = position.extra("dir")
        if direction is not None and direction != _BACK:
            raise NotationError(
                "dir", f"must be 'back' (leave it out for forward), got {direction!r}"
            )
        extra = position.extra("extra")
        if extra is not None and extra != "1":
            raise NotationError("extra", f"must be 1 (an extra throw is due), got {extra!r}")
        if rest is None and (direction is not None or extra is not None):
            raise NotationError("rest", "dir= and extra= belong to a split throw: add rest=N")
        entered = position.extra("entered")
        if entered is not None:
            if entered != "1":
                raise NotationError("entered", f"must be 1, got {entered!r}")
            if rest is not None:
                raise NotationError(
                    "entered", "an entered piece moves with a fresh throw: no rest="
                )
            if position.at(_ENTRY) is not position.side:
                raise NotationError("entered", "square 1 must hold the piece that has just entered")
        return position

    def throws(self, position: Position | None = None) -> tuple[Chance, ...]:
        rest = None if position is None else position.extra("rest")
        if rest is not None:
            return (Chance(int(rest), Fraction(1)),)
        return self.throw_model.chances

    def needs_throw(self, position: Position) -> bool:
        return self.outcome(position) is None and position.extra("rest") is None

    def pending_throw(self, position: Position) -> int | None:
        rest = position.extra("rest")
        return None if rest is None or self.outcome(position) is not None else int(rest)

    # -- moves ----------------------------------------------------------------------------
    def transitions(self, position: Position, throw: int) -> list[Transition]:
        if self.outcome(position) is not None:
            return []
        fresh = self._fresh(position, throw)
        side = position.side
        entered = position.extra("entered") is not None
        found: list[Transition] = []
        if (
            fresh
            and not entered
            and throw == 1
            and position.board[_ENTRY - 1] == EMPTY
            and self.in_hand(position, side) > 0
        ):
            found.append(self._enter(position))
        starts = [_ENTRY] if entered else position.squares_of(side)
        if position.extra("dir") == _BACK:
            return found + self._parts(position, starts, throw, fresh, backward=True)
        moves = self._parts(position, starts, throw, fresh, backward=False)
        if not moves and fresh:
            moves = self._parts(position, starts, throw, fresh, backward=True)
        return found + moves

    def pass_turn(self, position: Position, throw: int) -> Position:
        if self.outcome(position) is not None:
            return position
        side = position.side
        if position.extra("entered") is not None:
            # The entered piece cannot move: it goes back to hand.
            board = EMPTY + position.board[1:]
            again = throw in self.bonus_throws
            return Position(board, side if again else side.other, position.off_w, position.off_b)
        if position.extra("rest") is not None:
            again = position.extra("extra") is not None
        else:
            again = throw in self.bonus_throws
        return position._replace(side=side if again else side.other, extras=())

    def _fresh(self, position: Position, throw: int) -> bool:
        """True for a new throw; for the rest of a split throw, check it is what is played."""
        rest = position.extra("rest")
        if rest is None:
            return True
        if throw != int(rest):
            raise NotationError(
                "throw", f"this position continues a split throw: play the remaining {rest} steps"
            )
        return False

    def _enter(self, position: Position) -> Transition:
        board = position.side.value + position.board[1:]
        after = Position(board, position.side, position.off_w, position.off_b, (("entered", "1"),))
        return Transition(Move(HAND, _ENTRY), after, Effect.ENTER | Effect.BONUS)

    def _parts(
        self, position: Position, starts: list[int], throw: int, fresh: bool, backward: bool
    ) -> list[Transition]:
        found = []
        for start in starts:
            for steps in range(1, throw + 1):
                t = self._part(position, start, steps, throw, fresh, backward)
                if t is not None:
                    found.append(t)
        return found

    def _part(
        self, position: Position, start: int, steps: int, throw: int, fresh: bool, backward: bool
    ) -> Transition | None:
        """One piece moved ``steps`` squares of a throw (or rest) of ``throw``, if allowed."""
        if backward:
            target = start - steps
            if start in _NO_BACKWARD or target < 1:
                return None
        else:
            target = start + steps
            if target > OFF:
                return None
        if target <= SQUARES and position.board[target - 1] != EMPTY:
            return None
        cells = list(position.board)
        mover = cells[start - 1]
        cells[start - 1] = EMPTY
        off_w, off_b = position.off_w, position.off_b
        flags = Effect.BACKWARD if backward else Effect.NONE
        if target == OFF:
            flags |= Effect.BEAR_OFF
            off_w, off_b = (off_w + 1, off_b) if mover == "W" else (off_w, off_b + 1)
        elif target == _WATER:
            flags |= Effect.WATER  # the piece goes back to hand: its square stays empty
        else:
            cells[target - 1] = mover
        earned = (
            target in _EXTRA_THROW_SQUARES
            or position.extra("extra") is not None
            or (fresh and throw in self.bonus_throws)
        )
        remaining = throw - steps
        side = position.side
        extras: tuple[tuple[str, str], ...] = ()
        if off_w >= self.pieces or off_b >= self.pieces:
            flags |= Effect.WIN
        elif remaining:
            flags |= Effect.CONTINUE
            fields = {"rest": str(remaining)}
            if backward:
                fields["dir"] = _BACK
            if earned:
                fields["extra"] = "1"
            extras = tuple(sorted(fields.items()))
        elif earned:
            flags |= Effect.BONUS
        else:
            side = side.other
        after = Position("".join(cells), side, off_w, off_b, extras)
        return Transition(Move(start, target), after, flags)

    # -- teaching -------------------------------------------------------------------------
    def refusals(self, position: Position, throw: int) -> dict[int, Refusal]:
        legal = {t.move.start for t in self.transitions(position, throw)}
        fresh = position.extra("rest") is None
        reasons: dict[int, Refusal] = {}
        for square in position.squares_of(position.side):
            if square in legal:
                continue
            if position.extra("entered") is not None and square != _ENTRY:
                reasons[square] = Refusal("entered-first", (_ENTRY,))
            elif position.extra("dir") == _BACK and any(
                self._part(position, square, k, throw, fresh, False) for k in range(1, throw + 1)
            ):
                reasons[square] = Refusal("same-direction")
            elif any(
                self._part(position, square, k, throw, fresh, True) for k in range(1, throw + 1)
            ):
                reasons[square] = Refusal("forward-first")
            else:
                reasons[square] = Refusal("blocked", (square,))
        return reasons

    def why_not(self, position: Position, throw: int, move: Move) -> str:
        if move.start == HAND and self.outcome(position) is None:
            if self.in_hand(position, position.side) == 0:
                return self.explain(Refusal("no-hand"), position)
            return self.explain(Refusal("enter-one", (_ENTRY,)), position)
        return super().why_not(position, throw, move)

    def explain(self, refusal: Refusal, position: Position) -> str:
        template = _TEMPLATES.get(refusal.code)
        if template is None:
            return super().explain(refusal, position)
        return template.format(*refusal.squares, side=position.side.value)
