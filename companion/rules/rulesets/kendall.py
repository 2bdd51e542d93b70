"""Timothy Kendall's reconstruction and its options, as Ludii plays them."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import ClassVar

from companion.rules.base import Effect, Option, Refusal, Ruleset, Transition
from companion.rules.errors import NotationError
from companion.rules.position import EMPTY, OFF, SQUARES, Move, Player, Position

__all__ = ["KENDALL_ALIASES", "Kendall"]

_REBIRTH = 15
_BEAUTY = 26
_WATER = 27
_LAST = frozenset({28, 29, 30})
_ON = "on"
_OFF = "off"
_TEMPLATES = {
    "opening": "the game starts when somebody throws a 1 and moves the front dark piece ({0}-{1})",
    "waiting": "the light side needs a throw of 1 before its pieces may move",
    "rescued-first": "the piece brought back to {0} from the water must move first",
    "water-first": "the piece in the water (27) must be dealt with first",
    "water-taken": "the water (27) is taken",
    "home-row": "no piece may bear off while one of yours is still on squares 1-10",
}


class Kendall(Ruleset):
    """Timothy Kendall's rules (Kendall 1979, the rules book of "Passing through the Netherworld").

    Source: seed 004 lists them; the rules text is Ludii's (``Senet.lud``, ``Ruleset/Kendall
    (Scholarly)`` and its option rulesets), and where the text is silent Ludii's code decides:

    - Seven pieces each on 1-14, alternating ("standard"), or five on 1-10 (option ``pieces``).
    - "the first one to throw 1 plays as white and moves the white piece in front": the game
      starts with ``opening=1``; until a 1 is thrown the sticks go round and nothing moves (side
      ``B`` means whoever will play the pieces on the even squares, Kendall's "white"). The 1
      moves the front piece (14-15, or 10-11 with five pieces) and that side throws again.
    - "Throws of 1, 4, and 5 grant the player another throw", also when no move is possible.
    - Swaps: a piece landing on an opponent sends it to the square the move began from, unless
      the opponent has another piece next to it in track order (around the corners too). No
      walls: the text has none. "If a player cannot use a throw to move a piece forward, it
      must be used to move a piece backward", by the whole throw, swapping the same way.
    - "To move beyond square 26, the player must first land on it with an exact throw". From
      26: 5 bears off, 4 goes to 30, 3 to 29, 2 to 28, 1 into the water (27). 28 leaves only
      with a 3, 29 only with a 2, 30 with any throw; pieces on 27-30 never move backward.
    - "When a player lands on squares 28-30 and an opponent's piece is already there, the
      opponent's piece is sent to square 27 instead": only while 27 is empty ("Pieces in squares
      28-30 are safe as long as a piece is in square 27"); nothing can land on a taken 27.
    - The water (27): the piece stays there and no other piece of its side moves. Before
      throwing, its owner may bring it back to 15 (decision ``27-15``), which ends the turn
      ("lose one turn"); the next time that side moves, the piece on 15 must move first
      (``rescued=W`` or ``rescued=B``). Ludii offers this only while 15 is empty; when it is
      taken the piece goes to the first free square before 15, with no obligation, so that a
      piece in the water can never block its side for good (with the home row option it
      could). Otherwise they throw: a 4 bears it off, anything else ends the turn (with no
      extra throw, as Ludii plays it).
    - Option ``starting_throw`` ("Each player must throw a 1 to begin play"): the side that did
      not make the opening move (``waiting=W``) may move only once it has thrown a 1.
    - Option ``trap`` ("A roll greater than that required to land exactly on square 26 causes
      the player to fall into square 27"): a throw that would take a piece from below 26 past
      26 drops it into the water if 27 is empty, and is not possible otherwise.
    - Option ``home_row`` ("A player must move all of their pieces out of the home row before
      bearing pieces off"): no bearing off while one of the side's pieces is on 1-10.
    """

    name = "kendall"
    title = "Kendall"
    source = "Ludii portal, Senet rulesets Kendall; Kendall 1979, rules book (seed 004)"
    author = "Timothy Kendall"
    year = "1979"
    summary = "Seven pieces each: swaps, pairs protect, stop on 26, the water holds until a 4."
    reference = "Ludii Senet.lud, Ruleset/Kendall (Scholarly) and its option rulesets"
    first_side = Player.B
    pieces = 7
    backward = True
    wall = 0
    exits = {
        _WATER: frozenset({4}),
        28: frozenset({3}),
        29: frozenset({2}),
        30: frozenset({1, 2, 3, 4, 5}),
    }
    bonus_on_pass = True
    extra_keys = {
        "opening": "1: nobody has thrown the 1 that starts the game yet",
        "waiting": "W: that side has not yet thrown the 1 it needs to begin (starting_throw)",
        "rescued": "W or B: that side's piece on 15 came back from the water and moves first",
    }
    square_names = {
        15: "Ankh Waset (House of Rebirth)",
        26: "Neferu (House of Beauty)",
        27: "the Water",
        28: "House of the Ba",
        29: "House of the Two Men",
        30: "House of Horus",
    }
    options: ClassVar[Mapping[str, Option]] = {
        "pieces": Option(
            "standard", ("standard", "five"), "seven pieces each (standard) or five each"
        ),
        "starting_throw": Option(
            _OFF, (_OFF, _ON), "each side needs a throw of 1 before its pieces may move"
        ),
        "trap": Option(_OFF, (_OFF, _ON), "a throw that overshoots 26 falls into the water (27)"),
        "home_row": Option(
            _OFF, (_OFF, _ON), "no bearing off while a piece of yours is still on squares 1-10"
        ),
    }

    def __init__(self, **chosen: str) -> None:
        super().__init__(**chosen)
        self.pieces = 7 if self.settings["pieces"] == "standard" else 5
        self.trap = self.settings["trap"] == _ON
        self.home_row = self.settings["home_row"] == _ON
        self.starting_throw = self.settings["starting_throw"] == _ON

    # -- the frame ------------------------------------------------------------------------
    def start(self) -> Position:
        board = "WB" * self.pieces + EMPTY * (SQUARES - 2 * self.pieces)
        extras = [("opening", "1")]
        if self.starting_throw:
            extras.append(("waiting", Player.W.value))
        return Position(board, self.first_side, 0, 0, tuple(sorted(extras)))

    def validate(self, position: Position) -> Position:
        super().validate(position)
        for key, allowed in (("opening", ("1",)), ("waiting", ("W",)), ("rescued", ("W", "B"))):
            value = position.extra(key)
            if value is not None and value not in allowed:
                raise NotationError(key, f"must be {' or '.join(allowed)}, got {value!r}")
        if position.extra("opening") is not None:
            front = 2 * self.pieces
            if position.at(front) is not Player.B or position.at(front + 1) is not None:
                raise NotationError(
                    "opening", f"the opening move needs B on {front} and {front + 1} empty"
                )
        rescued = position.extra("rescued")
        if rescued is not None and position.board[_REBIRTH - 1] != rescued:
            raise NotationError(
                "rescued", f"square 15 must hold the {rescued} piece that was rescued"
            )
        return position

    def decisions(self, position: Position) -> list[Transition]:
        side = position.side
        if (
            self.outcome(position) is not None
            or position.extra("opening") is not None
            or position.at(_WATER) is not side
        ):
            return []
        cells = list(position.board)
        cells[_WATER - 1] = EMPTY
        home = self._first_free(cells, range(_REBIRTH, 0, -1), _WATER)
        cells[home - 1] = side.value
        extras = position.with_extra("rescued", side.value if home == _REBIRTH else None).extras
        after = Position("".join(cells), side.other, position.off_w, position.off_b, extras)
        return [Transition(Move(_WATER, home), after, Effect.DECISION | Effect.WATER)]

    def pass_turn(self, position: Position, throw: int) -> Position:
        if position.extra("opening") is not None:
            return position  # the sticks go round until somebody throws the 1
        side = position.side
        if position.extra("waiting") == side.value and throw == 1:
            position = position.with_extra("waiting", None)
        if position.at(_WATER) is side and throw != 4 and not self._rescued(position):
            return position._replace(side=side.other)
        return super().pass_turn(position, throw)

    # -- moves ----------------------------------------------------------------------------
    def transitions(self, position: Position, throw: int) -> list[Transition]:
        if self.outcome(position) is not None:
            return []
        if position.extra("opening") is not None:
            return [self._opening(position)] if throw == 1 else []
        side = position.side
        if position.extra("waiting") == side.value and throw != 1:
            return []
        if self._rescued(position):
            return self._only(position, _REBIRTH, throw)
        if position.at(_WATER) is side:
            return self._only(position, _WATER, throw)
        return super().transitions(position, throw)

    def _rescued(self, position: Position) -> bool:
        side = position.side
        return position.extra("rescued") == side.value and position.at(_REBIRTH) is side

    def _only(self, position: Position, square: int, throw: int) -> list[Transition]:
        """The moves of the one piece that must move: forward if it can, else backward."""
        p = position.side.value
        o = position.side.other.value
        found = self._forward(position, square, throw, p, o)
        if type(found) is not Transition:
            found = self._backward(position, square, throw, p, o)
        return [found] if type(found) is Transition else []

    def _opening(self, position: Position) -> Transition:
        front = 2 * self.pieces
        cells = list(position.board)
        cells[front - 1], cells[front] = EMPTY, Player.B.value
        after = Position(
            "".join(cells),
            Player.B,
            position.off_w,
            position.off_b,
            position.with_extra("opening", None).extras,
        )
        return Transition(Move(front, front + 1), after, Effect.BONUS)

    def _forward_target(self, position: Position | None, square: int, throw: int) -> int | Refusal:
        assert position is not None  # overridden: never tabulated
        if square < _BEAUTY < square + throw:
            if not self.trap:
                return Refusal("stop-26", (_BEAUTY,))
            if position.board[_WATER - 1] != EMPTY:
                return Refusal("water-taken", (_WATER,))
            return _WATER
        target = super()._forward_target(position, square, throw)
        if target == OFF and self.home_row and position.side.value in position.board[:10]:
            return Refusal("home-row")
        return target

    def _check_path(self, board: str, start: int, target: int, p: str, o: str) -> Refusal | None:
        if target == _WATER and board[_WATER - 1] != EMPTY:
            return Refusal("water-taken", (_WATER,))
        if target in _LAST and board[target - 1] == o and board[_WATER - 1] != EMPTY:
            return Refusal("protected", (target,))
        return super()._check_path(board, start, target, p, o)

    def _displaced_to(self, cells: list[str], start: int, target: int) -> int:
        return _WATER if target in _LAST else start

    def _special(self, cells: list[str], start: int, target: int, flags: int) -> int:
        return flags | Effect.WATER if target == _WATER else flags

    def _extras_after(
        self, position: Position, move: Move, flags: int
    ) -> tuple[tuple[str, str], ...]:
        if position.extra("waiting") == position.side.value:
            position = position.with_extra("waiting", None)  # only a 1 lets it move
        if _REBIRTH in (move.start, move.end):
            position = position.with_extra("rescued", None)
        return position.extras

    # -- teaching -------------------------------------------------------------------------
    def _restriction(self, position: Position, throw: int, square: int) -> Refusal | None:
        side = position.side
        if position.extra("opening") is not None:
            front = 2 * self.pieces
            return Refusal("opening", (front, front + 1))
        if position.extra("waiting") == side.value and throw != 1:
            return Refusal("waiting")
        if self._rescued(position) and square != _REBIRTH:
            return Refusal("rescued-first", (_REBIRTH,))
        if position.at(_WATER) is side and not self._rescued(position) and square != _WATER:
            return Refusal("water-first", (_WATER,))
        return None

    def refusals(self, position: Position, throw: int) -> dict[int, Refusal]:
        reasons = super().refusals(position, throw)
        p, o = position.side.value, position.side.other.value
        for square, refusal in reasons.items():
            if refusal.code == "no-backward":
                # Pieces on 27-30 never move backward: why they cannot go on says more.
                found = self._forward(position, square, throw, p, o)
                if type(found) is Refusal:
                    reasons[square] = found
        return reasons

    def explain(self, refusal: Refusal, position: Position) -> str:
        template = _TEMPLATES.get(refusal.code)
        if template is None:
            return super().explain(refusal, position)
        return template.format(*refusal.squares, side=position.side.value)


def _alias(name: str, title: str, summary: str, **chosen: str) -> type[Kendall]:
    """A registered name for one of Ludii's Kendall option rulesets."""
    defaults: Mapping[str, Option] = {
        key: (opt._replace(default=chosen[key]) if key in chosen else opt)
        for key, opt in Kendall.options.items()
    }

    class Alias(Kendall):
        options = defaults

    Alias.name = name
    Alias.title = title
    Alias.summary = summary
    Alias.__name__ = Alias.__qualname__ = "Kendall_" + name.replace("-", "_")
    Alias.__doc__ = f"{title}: Kendall's rules with these options chosen: {chosen}."
    return Alias


def _aliases() -> tuple[type[Kendall], ...]:
    """Ludii's fifteen named combinations of the four options, in the portal's order."""
    labels = {
        "pieces": ("Five Pieces", "five pieces each"),
        "starting_throw": ("Starting Throw", "a 1 to begin"),
        "trap": ("Trap", "overshooting 26 falls into the water"),
        "home_row": ("Home Row", "no bearing off from the home row"),
    }
    found = []
    for size in range(1, 5):
        for keys in itertools.combinations(labels, size):
            chosen = {key: ("five" if key == "pieces" else _ON) for key in keys}
            label = "All Options" if size == 4 else " ".join(labels[k][0] for k in keys)
            name = "kendall-" + label.lower().replace(" ", "-")
            summary = "Kendall's rules: " + "; ".join(labels[k][1] for k in keys) + "."
            found.append(_alias(name, f"Kendall {label}", summary, **chosen))
    return tuple(found)


KENDALL_ALIASES = _aliases()
