"""The "basic" rules of lkdjiin/senet."""

from __future__ import annotations

from companion.rules.base import Effect, Refusal, Ruleset, Transition
from companion.rules.position import EMPTY, Player, Position

_RESURRECTION = range(15, 26)


class Basic(Ruleset):
    """The rules file of lkdjiin/senet, "Basic Rules Of Senet" (a Java desktop game, 2011).

    Source: seed 001; checked against lkdjiin/senet's move generator (``Rules.java``), whose
    decisions settle what the text leaves open:

    - Backward moves, by the whole throw, only when no piece has a forward move ("If there is no
      legal forward move possible, then he must move a piece backward").
    - 28 to 29, 28 to 30 and 29 to 30 are ordinary forward moves; bearing off is exact: 30 with 1,
      29 with 2, 28 with 3, and 26 with 5 ("you may exit directly if you throw a score of 5").
    - 26 is always protected, 27-30 never ("On square 26 a piece is protected, even if it is
      alone. On squares 28, 29 and 30 yours pieces are never protected").
    - The water (landing on 27, or a backward move out of 28-30 that ends below 27) sends the
      piece to the first free square of 15, 16, ..., 25, looked for while the moving piece still
      stands on its start square. In a backward fall into the water, an opponent on the nominal
      target square stays where it is. A piece captured from 28-30 by a piece coming from 26
      goes the same way, to the resurrection squares, instead of to 26.
    - Walls: "Three enemy pieces on consecutive squares may not be passed by the opponent." The
      reference lets a capture jump a wall; the text rules here and walls are never passed.
    """

    name = "basic"
    title = "Basic (lkdjiin/senet)"
    source = "Basic Rules Of Senet, lkdjiin/senet (seed 001)"
    author = "lkdjiin"
    year = "2011"
    summary = "A classic hobby ruleset: forward if you can, else backward; 27 sends to 15."
    reference = "lkdjiin/senet src/senet/game/Rules.java"
    first_side = Player.B
    backward = True
    backward_from_exits = True
    walls_block_bear_off = False
    safe = frozenset({26})
    unsafe = frozenset({27, 28, 29, 30})
    square_names = {
        15: "House of Second Life",
        26: "The Good House",
        27: "House of Water",
        28: "House of the Three Judges",
        29: "House of the Two Judges",
        30: "House of Horus",
    }

    def _backward(
        self, position: Position, square: int, throw: int, p: str, o: str
    ) -> Transition | Refusal:
        found = super()._backward(position, square, throw, p, o)
        if type(found) is Transition and square >= 28 and found.move.end < 27:
            # Falling out of the last squares lands in the water; whoever stands on the
            # target square stays there.
            cells = list(position.board)
            cells[square - 1] = EMPTY
            cells[self._first_free(cells, _RESURRECTION, square) - 1] = p
            flags = Effect.BACKWARD | Effect.WATER
            return self._finish(
                position, found.move, cells, position.off_w, position.off_b, throw, flags
            )
        return found

    def _wall(self, board: str, start: int, target: int, o: str) -> Refusal | None:
        if target < start and board[target - 1] == o:
            # The reference checks walls only for empty targets; its recorded backward
            # captures jump walls, and are kept. Forward moves follow the text.
            return None
        return super()._wall(board, start, target, o)

    def _displaced_to(self, cells: list[str], start: int, target: int) -> int:
        if target >= 28 and start < 27:
            return self._first_free(cells, _RESURRECTION, start)
        return start

    def _special(self, cells: list[str], start: int, target: int, flags: int) -> int:
        if target == self.water:
            mover = cells[target - 1]
            cells[target - 1] = EMPTY
            cells[self._first_free(cells, _RESURRECTION, start) - 1] = mover
            flags |= Effect.WATER
        return flags
