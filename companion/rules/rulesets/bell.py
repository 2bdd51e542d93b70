"""R. C. Bell's suggested rules: ten pieces, a four-sided die, captured pieces leave the game."""

from __future__ import annotations

from companion.rules.base import Effect, EndReason, Outcome, Refusal, Ruleset, Transition
from companion.rules.errors import NotationError
from companion.rules.position import EMPTY, Player, Position
from companion.rules.throws import D4

__all__ = ["Bell"]

_MARKED = frozenset({15, 26, 27, 28, 29})
_FIRST = "W"  # rolloff=W: the light side throws first for the right to start
_TEMPLATES = {
    "marked-first": "a piece on a marked square ({0}) must leave it first",
    "rolloff": "the players are still throwing to see who starts",
}


class Bell(Ruleset):
    """R. C. Bell's suggested rules (Bell 1979: 27-28), as the Ludii portal writes them.

    Source: seed 004 lists them; the rules text is Ludii's (``Senet.lud``, ``Ruleset/Bell
    (Suggested)``), and where the text is silent Ludii's code decides:

    - "Each player has ten pieces ... alternating ... on the first and second rows": W on the
      odd squares 1-19, B on the even squares 2-20. "One four-sided die": throws 1-4, and no
      throw is repeated.
    - "Players throw the die and whoever rolls the higher score plays first": ``rolloff=W``
      means W throws for the start; then ``rolloff=N`` (W threw N) and B throws: B starts if it
      threw more, W otherwise (a tie goes to W, as Ludii plays it). These throws move nothing.
    - "Pieces may move to an empty space or to a space containing the opponent's piece ... the
      opponent's piece is taken": a taken piece leaves the game. Pieces neither on the board
      nor borne off are the ones taken. No walls, no protection by neighbours.
    - "A piece resting on a marked square cannot be captured": 15, 26, 27, 28 and 29 are
      marked; a marked square that is taken cannot be landed on. Square 30 is not marked.
    - "It also must move off the board with an exact throw": every piece bears off by landing
      exactly one past 30; 27 is an ordinary marked square (no water).
    - "The player must vacate a marked square at the first possible throw": when a piece on a
      marked square can move, only such pieces may move.
    - "The player who removes the most pieces from the board wins": the game ends when no piece
      is left on the board and the side with more pieces borne off wins. On equal numbers the
      side that cleared the board's last piece wins (Ludii calls it a draw; the engine's
      outcome always has a winner).
    """

    name = "bell"
    title = "Bell"
    source = "Ludii portal, Senet ruleset Bell (Suggested); Bell 1979: 27-28 (seed 004)"
    author = "R. C. Bell"
    year = "1979"
    summary = (
        "Ten pieces and one four-sided die: taken pieces leave the game, marked squares are safe."
    )
    reference = "Ludii Senet.lud, Ruleset/Bell (Suggested)"
    throw_model = D4
    first_side = Player.W
    pieces = 10
    start_board = "WB" * 10 + EMPTY * 10
    start_extras = (("rolloff", _FIRST),)
    bonus_throws = frozenset()
    stop_on_26 = False
    wall = 0
    water = 0  # 27 is an ordinary marked square
    pairs_protect = False
    safe = _MARKED
    extra_keys = {
        "rolloff": "W: W throws for the right to start; 1-4: W threw that, B throws now",
    }
    square_names = {
        15: "marked square",
        26: "marked square",
        27: "marked square",
        28: "marked square",
        29: "marked square",
    }

    def allows_hand(self, position: Position) -> bool:
        # Pieces missing from the board and from the borne-off count were taken.
        return position.extra("rolloff") is None

    def taken(self, position: Position, player: Player) -> int:
        """How many of ``player``'s pieces the opponent has taken."""
        return self.in_hand(position, player)

    def validate(self, position: Position) -> Position:
        super().validate(position)
        rolloff = position.extra("rolloff")
        if rolloff is None:
            return position
        if rolloff == _FIRST and position.side is not Player.W:
            raise NotationError("rolloff", "rolloff=W needs side W: W throws first")
        if rolloff != _FIRST and (rolloff not in ("1", "2", "3", "4") or position.side is Player.W):
            raise NotationError(
                "rolloff", f"must be W, or W's throw 1-4 with side B, got {rolloff!r}"
            )
        return position

    def outcome(self, position: Position) -> Outcome | None:
        if "W" in position.board or "B" in position.board or position.extra("rolloff"):
            return None
        if position.off_w != position.off_b:
            winner = Player.W if position.off_w > position.off_b else Player.B
        else:
            winner = position.side.other  # the side that cleared the last piece
        return Outcome(winner, EndReason.SCORE)

    def pass_turn(self, position: Position, throw: int) -> Position:
        rolloff = position.extra("rolloff")
        if rolloff == _FIRST:
            return position._replace(side=Player.B, extras=(("rolloff", str(throw)),))
        if rolloff is not None:
            first = Player.B if throw > int(rolloff) else Player.W
            return position._replace(side=first, extras=())
        return super().pass_turn(position, throw)

    # -- moves ----------------------------------------------------------------------------
    def transitions(self, position: Position, throw: int) -> list[Transition]:
        if position.extra("rolloff") is not None:
            return []
        return super().transitions(position, throw)

    def _restrict(
        self, position: Position, throw: int, found: list[Transition]
    ) -> list[Transition]:
        marked = [t for t in found if t.move.start in _MARKED]
        return marked or found

    def _displaced_to(self, cells: list[str], start: int, target: int) -> int | None:
        return None  # a captured piece is taken out of the game

    def _land(
        self, position: Position, start: int, target: int, throw: int, flags: int
    ) -> Transition:
        t = super()._land(position, start, target, throw, flags)
        if "W" not in t.after.board and "B" not in t.after.board:
            return t._replace(flags=t.flags | Effect.WIN)
        return t

    # -- teaching -------------------------------------------------------------------------
    def _restriction(self, position: Position, throw: int, square: int) -> Refusal | None:
        if position.extra("rolloff") is not None:
            return Refusal("rolloff")
        if square in _MARKED:
            return None
        moving = sorted(
            t.move.start for t in self.transitions(position, throw) if t.move.start in _MARKED
        )
        return Refusal("marked-first", (moving[0],)) if moving else None

    def explain(self, refusal: Refusal, position: Position) -> str:
        template = _TEMPLATES.get(refusal.code)
        if template is None:
            return super().explain(refusal, position)
        return template.format(*refusal.squares, side=position.side.value)
