"""The general Senet ruleset: class-level settings plus a few named hooks.

A concrete ruleset (see `companion.rules.rulesets`) is this class with its settings changed and,
where its source demands, one or two hooks overridden. Every method is a pure function of its
arguments: a throw is an input, never a roll.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar, NamedTuple

from companion.rules.errors import IllegalMove, NotationError
from companion.rules.position import EMPTY, HAND, OFF, SQUARES, Move, Player, Position
from companion.rules.throws import FOUR_STICKS, Chance, ThrowModel

__all__ = ["Effect", "EndReason", "Option", "Outcome", "Refusal", "Ruleset", "Transition"]


class Effect(enum.IntFlag):
    """What a move did besides moving a piece (for announcements and teaching)."""

    NONE = 0
    SWAP = enum.auto()  # an opponent's piece was displaced
    WATER = enum.auto()  # the piece fell into the House of Waters
    REBIRTH = enum.auto()  # the piece was sent on to a rebirth square
    BEAR_OFF = enum.auto()
    BONUS = enum.auto()  # the same player throws again
    BONUS_LOST = enum.auto()  # a throw that usually repeats did not
    BACKWARD = enum.auto()
    ENTER = enum.auto()
    WIN = enum.auto()
    DECISION = enum.auto()  # a choice made without throwing
    CONTINUE = enum.auto()  # the same player goes on with the rest of a split throw


# Plain ints for the hot path: IntFlag arithmetic goes through Python-level enum code.
_SWAP = int(Effect.SWAP)
_WATER = int(Effect.WATER)
_BEAR_OFF = int(Effect.BEAR_OFF)
_BONUS = int(Effect.BONUS)
_BONUS_LOST = int(Effect.BONUS_LOST)
_BACKWARD = int(Effect.BACKWARD)
_WIN = int(Effect.WIN)
_OTHER = {Player.W: Player.B, Player.B: Player.W}
_MOVES = [[Move(start, end) for end in range(OFF + 1)] for start in range(OFF + 1)]
_new = tuple.__new__
_object_new = object.__new__


class EndReason(enum.Enum):
    ALL_BORNE_OFF = "all pieces borne off"
    SCORE = "most pieces borne off"


class Outcome(NamedTuple):
    """How a game ended."""

    winner: Player
    reason: EndReason


class Transition:
    """One legal move together with the position it leads to and what it did.

    Move generation decides legality without carrying out every move; the resulting position
    (and the effects that depend on it) are worked out the first time they are asked for, since
    a game goes on with only one of the moves listed.
    """

    __slots__ = ("_after", "_flags", "_pending", "move")

    move: Move
    _after: Position | None
    _flags: int
    _pending: tuple[Ruleset, Position, int, int, int, int] | None

    def __init__(self, move: Move, after: Position, flags: int = 0) -> None:
        self.move = move
        self._after = after
        self._flags = int(flags)
        self._pending = None

    @classmethod
    def deferred(
        cls, rules: Ruleset, position: Position, start: int, target: int, throw: int, flags: int
    ) -> Transition:
        """A legal move whose result `Ruleset._land` computes when first needed."""
        t = _object_new(cls)
        t.move = _MOVES[start][target]
        t._pending = (rules, position, start, target, throw, flags)
        return t

    def _resolve(self) -> Position:
        assert self._pending is not None
        rules, position, start, target, throw, flags = self._pending
        done = rules._land(position, start, target, throw, flags)
        self._after, self._flags, self._pending = done.after, done.flags, None
        return done.after

    @property
    def after(self) -> Position:
        if self._pending is not None:
            return self._resolve()
        assert self._after is not None
        return self._after

    @property
    def flags(self) -> int:
        if self._pending is not None:
            self._resolve()
        return self._flags

    @property
    def effects(self) -> Effect:
        return Effect(self.flags)

    def __iter__(self) -> Iterator[object]:
        return iter((self.move, self.after, self.flags))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transition):
            return NotImplemented
        return (self.move, self.after, self.flags) == (other.move, other.after, other.flags)

    def __hash__(self) -> int:
        return hash((self.move, self.after, self.flags))

    def __repr__(self) -> str:
        return f"Transition({self.move!r}, {self.after!r}, {self.effects!r})"

    def _replace(self, **changes: Any) -> Transition:
        return Transition(
            changes.get("move", self.move),
            changes.get("after", self.after),
            changes.get("flags", self.flags),
        )


class Refusal(NamedTuple):
    """Why a piece cannot make a move: a stable ``code`` and the squares the reason is about."""

    code: str
    squares: tuple[int, ...] = ()


class Option(NamedTuple):
    """A named choice between readings of a ruleset's source."""

    default: str
    choices: tuple[str, ...]
    help: str


_REFUSALS: Mapping[str, str] = {
    "no-piece": "there is no {side} piece on square {0}",
    "own": "square {0} is taken by one of your own pieces",
    "protected": "the piece on square {0} is protected and cannot be captured",
    "wall": "{0}-{1}-{2} is a wall of three that cannot be passed",
    "stop-26": "every piece must stop on square 26 before going past it",
    "exit-only": "a piece on square {0} can only leave the board, with {1}",
    "overshoot": "that throw takes the piece past the end: bearing off needs the exact throw",
    "too-far-back": "the piece would go back past square 1",
    "forward-first": "a piece may move backward only when no piece can move forward",
    "elsewhere": "with this throw the piece on {0} goes to {1}",
    "deal-with-water": "the piece in the House of Waters (27) must be dealt with first",
    "opening-9": "the light pieces' first move must be made with the piece on square 9",
    "opening-dark": "the game starts when somebody throws a 1 and moves the piece on 10 to 11",
    "game-over": "the game is over",
    "no-backward": "a piece on square {0} never moves backward",
    "locked": "the piece on square {0} cannot move",
}


class Ruleset:
    """A Senet ruleset: the source it follows, its settings, and the hooks that differ.

    Subclasses set the class attributes below and override hooks only where their source needs
    it. Instances are immutable; ``options`` are the named readings chosen for this game.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    source: ClassVar[str] = ""  # the document it follows
    author: ClassVar[str] = ""
    year: ClassVar[str] = ""
    summary: ClassVar[str] = ""  # one line for a museum label
    reference: ClassVar[str] = ""  # the reference implementation it is checked against

    throw_model: ClassVar[ThrowModel] = FOUR_STICKS
    first_side: ClassVar[Player] = Player.W
    pieces: int = 5  # per player; an option of the ruleset may change it for one game
    start_board: ClassVar[str] = "WB" * 5 + EMPTY * 20
    start_extras: ClassVar[tuple[tuple[str, str], ...]] = ()
    extra_keys: ClassVar[Mapping[str, str]] = {}  # documented extra fields: key -> meaning

    bonus_throws: ClassVar[frozenset[int]] = frozenset({1, 4, 5})
    bonus_on_pass: ClassVar[bool] = False  # a repeating throw with no legal move still repeats
    backward: ClassVar[bool] = False  # move backward when no piece can move forward
    backward_keeps_bonus: ClassVar[bool] = True
    backward_from_exits: ClassVar[bool] = False
    stop_on_26: ClassVar[bool] = True  # no piece passes 26 without stopping there
    exact_bear_off: ClassVar[bool] = True  # reaching exactly one past 30 bears off
    exits: ClassVar[Mapping[int, frozenset[int]]] = {}  # squares left only by bearing off
    wall: ClassVar[int] = 3  # this many opponent pieces in a row cannot be passed (0: never)
    walls_block_bear_off: ClassVar[bool] = True
    pairs_protect: ClassVar[bool] = True  # two own pieces side by side cannot be captured
    safe: ClassVar[frozenset[int]] = frozenset()  # squares whose piece is never captured
    unsafe: ClassVar[frozenset[int]] = frozenset()  # squares that neither protect nor are
    water: ClassVar[int] = 27
    square_names: ClassVar[Mapping[int, str]] = {}
    options: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, **chosen: str) -> None:
        settings = {key: opt.default for key, opt in self.options.items()}
        for key, value in chosen.items():
            option = self.options.get(key)
            if option is None:
                known = ", ".join(self.options) or "none"
                raise NotationError("option", f"{self.name} has no option {key!r} (known: {known})")
            if value not in option.choices:
                raise NotationError(key, f"must be one of {', '.join(option.choices)}")
            settings[key] = value
        self.settings: Mapping[str, str] = settings
        # Where each square's piece goes for each throw depends only on the square and the throw
        # unless a ruleset overrides `_forward_target`; then it is asked every time.
        self._targets: dict[int, list[int | Refusal]] | None = None
        cls = type(self)
        self._quick = all(
            getattr(cls, hook) is getattr(Ruleset, hook)
            for hook in ("_forward_target", "_forward", "_check_path", "_wall")
        )
        if cls._forward_target is Ruleset._forward_target:
            self._targets = {
                throw: [
                    Refusal("locked"),
                    *(self._forward_target(None, sq, throw) for sq in range(1, OFF)),
                ]
                for throw in self.throw_model.values
            }

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.settings.items() if v != self.options[k].default}
        args = ", ".join(f"{k}={v!r}" for k, v in changed.items())
        return f"<Ruleset {self.name}{' ' + args if args else ''}>"

    # -- the game's frame -----------------------------------------------------------------
    def start(self) -> Position:
        """The position before the first throw."""
        return Position(self.start_board, self.first_side, 0, 0, self.start_extras)

    def throws(self, position: Position | None = None) -> tuple[Chance, ...]:
        """Every throw that can come next, with its exact probability."""
        return self.throw_model.chances

    def outcome(self, position: Position) -> Outcome | None:
        """The result if the game is over, else None."""
        if position.off_w >= self.pieces:
            return Outcome(Player.W, EndReason.ALL_BORNE_OFF)
        if position.off_b >= self.pieces:
            return Outcome(Player.B, EndReason.ALL_BORNE_OFF)
        return None

    def validate(self, position: Position) -> Position:
        """``position`` if this ruleset can play from it, else a `NotationError`."""
        for player, off_name in ((Player.W, "offW"), (Player.B, "offB")):
            on_board = position.board.count(player.value)
            off = position.off(player)
            if off > self.pieces:
                raise NotationError(off_name, f"at most {self.pieces} pieces can be borne off")
            if on_board + off > self.pieces:
                raise NotationError(
                    "board",
                    f"{player.value} has {on_board} pieces on the board and {off} borne off:"
                    f" more than the {self.pieces} pieces of {self.name}",
                )
            if on_board + off < self.pieces and not self.allows_hand(position):
                raise NotationError(
                    "board",
                    f"{player.value} has {on_board} pieces on the board and {off} borne off;"
                    f" {self.name} needs all {self.pieces} accounted for",
                )
        for key, _ in position.extras:
            if key not in self.extra_keys:
                known = ", ".join(self.extra_keys) or "none"
                raise NotationError(key, f"is not a field of {self.name} (known: {known})")
        return position

    def allows_hand(self, position: Position) -> bool:
        """True if pieces may wait off the board to enter (hook)."""
        return False

    def in_hand(self, position: Position, player: Player) -> int:
        return self.pieces - position.board.count(player.value) - position.off(player)

    def needs_throw(self, position: Position) -> bool:
        """True if the side to move throws next (False while it plays the rest of a throw)."""
        return self.outcome(position) is None

    def pending_throw(self, position: Position) -> int | None:
        """The throw still being played when `needs_throw` is False (hook; split throws)."""
        return None

    # -- moves ----------------------------------------------------------------------------
    def transitions(self, position: Position, throw: int) -> list[Transition]:
        """Every legal move for ``throw`` with the position it leads to."""
        if self.outcome(position) is not None:
            return []
        board = position.board
        p = position.side.value
        o = "B" if p == "W" else "W"
        found: list[Transition] = []
        if self._quick:
            self._quick_forward(position, throw, o, found)
        else:
            i = board.find(p)
            while i >= 0:
                r = self._forward(position, i + 1, throw, p, o)
                if type(r) is Transition:
                    found.append(r)
                i = board.find(p, i + 1)
        if not found and self.backward:
            i = board.find(p)
            while i >= 0:
                r = self._backward(position, i + 1, throw, p, o)
                if type(r) is Transition:
                    found.append(r)
                i = board.find(p, i + 1)
        return self._restrict(position, throw, found)

    def _quick_forward(
        self, position: Position, throw: int, o: str, found: list[Transition]
    ) -> None:
        """`_forward` and `_check_path` for every piece at once, for rulesets that change
        neither: the same rules, inlined, because this is the engine's innermost loop."""
        board = position.board
        assert self._targets is not None
        targets = self._targets[throw]
        wall = o * self.wall if self.wall else ""
        bear_off_walls = wall and self.walls_block_bear_off
        deferred = Transition.deferred
        i = board.find(position.side.value)
        while i >= 0:
            square = i + 1
            target = targets[square]
            if type(target) is int:
                if target < OFF:
                    if not (wall and board.find(wall, square, target - 1) >= 0):
                        occupant = board[target - 1]
                        if occupant == EMPTY or (
                            occupant == o and not self._protected(board, target, o)
                        ):
                            found.append(deferred(self, position, square, target, throw, 0))
                elif not (bear_off_walls and board.find(wall, square, SQUARES) >= 0):
                    found.append(deferred(self, position, square, target, throw, 0))
            i = board.find(position.side.value, i + 1)

    def legal_moves(self, position: Position, throw: int) -> list[Move]:
        return [t.move for t in self.transitions(position, throw)]

    def decisions(self, position: Position) -> list[Transition]:
        """Choices the side to move may make instead of throwing (hook; usually none)."""
        return []

    def play(self, position: Position, throw: int | None, move: Move) -> Transition:
        """The transition of ``move``, or `IllegalMove` saying why it is not allowed."""
        options = self.decisions(position) if throw is None else self.transitions(position, throw)
        for t in options:
            if t.move == move:
                return t
        if throw is None:
            raise IllegalMove(f"{move} is not a choice here: throw the sticks first")
        raise IllegalMove(f"{move} is not allowed: {self.why_not(position, throw, move)}")

    def pass_turn(self, position: Position, throw: int) -> Position:
        """The position after a throw that allows no move."""
        again = self.bonus_on_pass and throw in self.bonus_throws
        return position if again else position._replace(side=position.side.other)

    def after_throw(self, position: Position, throw: int) -> tuple[list[Transition], Position]:
        """The legal moves for ``throw`` and the position if there are none (a pass)."""
        found = self.transitions(position, throw)
        return found, (position if found else self.pass_turn(position, throw))

    # -- teaching -------------------------------------------------------------------------
    def refusals(self, position: Position, throw: int) -> dict[int, Refusal]:
        """For each of the mover's pieces that cannot move with ``throw``: why not."""
        legal = self.transitions(position, throw)
        starts = {t.move.start for t in legal}
        p = position.side.value
        o = "B" if p == "W" else "W"
        any_forward = any(t.move.end > t.move.start for t in legal)
        reasons: dict[int, Refusal] = {}
        for square in position.squares_of(position.side):
            if square in starts:
                continue
            r = self._restriction(position, throw, square)
            if r is None:
                found = self._forward(position, square, throw, p, o)
                if self.backward and not any_forward and type(found) is Refusal:
                    found = self._backward(position, square, throw, p, o)
                r = found if type(found) is Refusal else Refusal("locked", (square,))
            reasons[square] = r
        return reasons

    def why_not(self, position: Position, throw: int, move: Move) -> str:
        """A sentence a player can read: why ``move`` is not allowed."""
        if self.outcome(position) is not None:
            return self.explain(Refusal("game-over"), position)
        if move.start != HAND and position.at(move.start) is not position.side:
            return self.explain(Refusal("no-piece", (move.start,)), position)
        legal = self.transitions(position, throw)
        for t in legal:
            if t.move.start == move.start:
                return self.explain(Refusal("elsewhere", (move.start, t.move.end)), position)
        forward = any(t.move.end > t.move.start for t in legal)
        if self.backward and forward and move.end < move.start:
            return self.explain(Refusal("forward-first"), position)
        refusal = self.refusals(position, throw).get(move.start)
        return self.explain(refusal or Refusal("locked", (move.start,)), position)

    def explain(self, refusal: Refusal, position: Position) -> str:
        template = _REFUSALS.get(refusal.code, refusal.code)
        args = [("off" if s == OFF else str(s)) for s in refusal.squares]
        if refusal.code == "exit-only":
            throws = sorted(self.exits.get(refusal.squares[0], ()))
            args = [args[0], "a throw of " + " or ".join(map(str, throws))]
        return template.format(*args, side=position.side.value)

    # -- hooks ----------------------------------------------------------------------------
    def _restrict(
        self, position: Position, throw: int, found: list[Transition]
    ) -> list[Transition]:
        """Filter the moves found (hook: turn obligations such as an opening move)."""
        return found

    def _restriction(self, position: Position, throw: int, square: int) -> Refusal | None:
        """Why a turn obligation keeps the piece on ``square`` from moving (hook, teaching)."""
        return None

    def _forward_target(self, position: Position | None, square: int, throw: int) -> int | Refusal:
        """Where a forward move of ``throw`` from ``square`` goes, before looking at the pieces
        (hook; ``position`` is None when the answer is tabulated for every position)."""
        exits = self.exits.get(square)
        if exits is not None:
            return OFF if throw in exits else Refusal("exit-only", (square,))
        target = square + throw
        if self.stop_on_26 and square < 26 < target:
            return Refusal("stop-26", (26,))
        if target > OFF or (target == OFF and not self.exact_bear_off):
            return Refusal("overshoot")
        return target

    def _protected(self, board: str, square: int, owner: str) -> bool:
        if square in self.safe:
            return True
        if not self.pairs_protect or square in self.unsafe:
            return False
        unsafe = self.unsafe
        before, after = square - 1, square + 1
        return (before >= 1 and board[before - 1] == owner and before not in unsafe) or (
            after <= SQUARES and board[after - 1] == owner and after not in unsafe
        )

    def _check_path(self, board: str, start: int, target: int, p: str, o: str) -> Refusal | None:
        if self.wall and (target < OFF or self.walls_block_bear_off):
            refusal = self._wall(board, start, target, o)
            if refusal is not None:
                return refusal
        if target < OFF:
            occupant = board[target - 1]
            if occupant == p:
                return Refusal("own", (target,))
            if occupant == o and self._protected(board, target, o):
                return Refusal("protected", (target,))
        return None

    def _wall(self, board: str, start: int, target: int, o: str) -> Refusal | None:
        """A wall of opponent pieces strictly between ``start`` and ``target``, if any."""
        low, high = (start, target) if start < target else (target, start)
        at = board.find(o * self.wall, low, min(high, OFF) - 1)
        if at < 0:
            return None
        return Refusal("wall", tuple(range(at + 1, at + 1 + self.wall)))

    def _forward(
        self, position: Position, square: int, throw: int, p: str, o: str
    ) -> Transition | Refusal:
        targets = self._targets
        if targets is None:
            target = self._forward_target(position, square, throw)
        else:
            target = targets[throw][square]
        if type(target) is Refusal:
            return target
        assert isinstance(target, int)
        refusal = self._check_path(position.board, square, target, p, o)
        if refusal is not None:
            return refusal
        return Transition.deferred(self, position, square, target, throw, 0)

    def _backward(
        self, position: Position, square: int, throw: int, p: str, o: str
    ) -> Transition | Refusal:
        if square in self.exits and not self.backward_from_exits:
            return Refusal("no-backward", (square,))
        target = square - throw
        if target < 1:
            return Refusal("too-far-back")
        refusal = self._check_path(position.board, square, target, p, o)
        if refusal is not None:
            return refusal
        flags = _BACKWARD if self.backward_keeps_bonus else _BACKWARD | _BONUS_LOST
        return Transition.deferred(self, position, square, target, throw, flags)

    def _land(
        self, position: Position, start: int, target: int, throw: int, flags: int
    ) -> Transition:
        """Carry out the move of the piece on ``start`` to ``target`` and what follows it."""
        cells = list(position.board)
        mover = cells[start - 1]
        cells[start - 1] = EMPTY
        off_w, off_b = position.off_w, position.off_b
        if target == OFF:
            flags |= _BEAR_OFF
            if mover == "W":
                off_w += 1
            else:
                off_b += 1
        else:
            victim = cells[target - 1]
            if victim != EMPTY:
                flags |= _SWAP
                home = self._displaced_to(cells, start, target)
                if home is not None:
                    cells[home - 1] = victim
            cells[target - 1] = mover
            flags = self._special(cells, start, target, flags)
        return self._finish(position, _MOVES[start][target], cells, off_w, off_b, throw, flags)

    def _displaced_to(self, cells: list[str], start: int, target: int) -> int | None:
        """Where a captured piece goes (hook; usually the capturer's start square); None when
        it leaves the game."""
        return start

    def _special(self, cells: list[str], start: int, target: int, flags: int) -> int:
        """Effects of the square the piece landed on (hook); the default: the House of Waters
        sends the piece back to the first free square from 15 downward."""
        if target == self.water:
            mover = cells[target - 1]
            cells[target - 1] = EMPTY
            cells[self._first_free(cells, range(15, 0, -1), start) - 1] = mover
            flags |= _WATER
        return flags

    def _first_free(self, cells: list[str], squares: Iterable[int], start: int) -> int:
        # The moving piece is searched for while it still stands on its start square.
        for square in squares:
            if square != start and cells[square - 1] == EMPTY:
                return square
        return start

    def _finish(
        self,
        position: Position,
        move: Move,
        cells: list[str],
        off_w: int,
        off_b: int,
        throw: int,
        flags: int,
    ) -> Transition:
        side = position.side
        if throw not in self.bonus_throws:
            flags &= ~_BONUS_LOST
        if off_w >= self.pieces or off_b >= self.pieces:
            flags |= _WIN
        elif throw in self.bonus_throws and not flags & _BONUS_LOST:
            flags |= _BONUS
        else:
            side = _OTHER[side]
        board = "".join(cells)
        after = _new(
            Position, (board, side, off_w, off_b, self._extras_after(position, move, flags))
        )
        t = _object_new(Transition)
        t.move, t._after, t._flags, t._pending = move, after, flags, None
        return t

    def _extras_after(
        self, position: Position, move: Move, flags: int
    ) -> tuple[tuple[str, str], ...]:
        return position.extras
