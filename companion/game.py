"""The table: one game in progress, and how each event changes it.

`Table` is the state machine the game loop drives. It is single-threaded and has no clock of
its own: every call gets ``now`` from the loop's injected clock, and randomness comes from the
injected ``rng``. It asks the rules engine, follows a presence board through the tracker, and
keeps the announcements. What it did during one call is left in ``steps`` (moves for the
journal), ``records`` (the events as the journal should keep them) and ``finished``.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from companion import actions as act
from companion import published
from companion.announce import kind_of, render
from companion.journal import Step
from companion.published import Choice, Decision, effect_names, end_name
from companion.rules import (
    HAND,
    OFF,
    Effect,
    Move,
    NotationError,
    Outcome,
    Player,
    Position,
    Ruleset,
    SenetError,
    Transition,
    UnknownRuleset,
    get_ruleset,
)
from companion.tracker import (
    Ambiguous,
    Matches,
    Mismatch,
    Recognised,
    TrackerSettings,
    Watch,
    board_fix,
    judge,
    occupancy,
    refusal,
)
from hardware import events as hw

__all__ = ["Bot", "BotFactory", "Table", "TableSettings", "effect_names"]

log = logging.getLogger(__name__)

BOARD_KINDS = ("presence", "buttons", "none")
MAX_ANNOUNCEMENTS = 20


class Bot(Protocol):
    def choose(self, position: Position, throw: int) -> Transition: ...


BotFactory = Callable[[str, Ruleset, random.Random], Bot]


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Timings of the table, in seconds of the injected clock."""

    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    idle_after: float = 600.0  # no event for this long: "still playing?"
    idle_reset: float = 180.0  # no answer for this long: a new game waits
    bot_delay: float = 1.0  # the computer waits this long before each throw or move


class Table:
    """One game at the table and its rules, sensors, bots and announcements."""

    def __init__(
        self,
        rules: Ruleset,
        *,
        board_kind: str = "presence",
        phone_input: bool = True,
        rng: random.Random | None = None,
        settings: TableSettings | None = None,
        bot_factory: BotFactory | None = None,
        wall_clock: Callable[[], datetime] | None = None,
    ) -> None:
        if board_kind not in BOARD_KINDS:
            raise ValueError(f"board_kind must be one of {', '.join(BOARD_KINDS)}")
        self.rules = rules
        self.board_kind = board_kind
        self.phone_input = phone_input
        self.rng = rng or random.Random()
        self.settings = settings or TableSettings()
        self.bot_factory = bot_factory or _default_bot_factory
        self.wall_clock = wall_clock or (lambda: datetime.now(UTC))
        # the game
        self.game_id = ""
        self.started = ""
        self.position = rules.start()
        self.phase = "setup"
        self.throw: dict[str, Any] | None = None
        self.legal: tuple[Transition, ...] = ()
        self.decision: Decision | None = None
        self.last_move: dict[str, Any] | None = None
        self.hint: dict[str, Any] | None = None
        self.selected: int | None = None
        self.bot_move: Transition | None = None
        self.bots: dict[str, str | None] = {"W": None, "B": None}
        self.bots_act = True  # False while a journal is replayed: its events hold their moves
        self._bot_players: dict[str, Bot] = {}
        self.announcements: list[dict[str, Any]] = []
        self.next_announcement = 1
        self.resume_phase: str | None = None
        self.throw_source = "electronic"  # of the throw being played (its rest, when split)
        # the room
        self.watch = Watch(frozenset())
        self.board_seen = False  # no sensor report yet: nothing to judge
        self.reported: frozenset[int] | None = None
        self.faults: dict[str, hw.HardwareFault] = {}
        self.last_activity = 0.0
        self.phase_since = 0.0
        self.last_step_at = 0.0
        # what one call did, for the journal
        self.steps: list[Step] = []
        self.records: list[dict[str, Any]] = []
        self.finished: tuple[str, str, str] | None = None
        self.new_game_started = False

    # -- the frame of a game ------------------------------------------------------------------
    def new_game(self, rules: Ruleset, now: float) -> None:
        wall = self.wall_clock()
        self.rules = rules
        self.game_id = f"{wall:%Y-%m-%dT%H-%M-%S}-{self.rng.getrandbits(16):04x}"
        self.started = f"{wall:%Y-%m-%dT%H-%M-%S}"
        self.position = rules.start()
        self.throw = None
        self.legal = ()
        self.decision = None
        self.last_move = None
        self.hint = None
        self.selected = None
        self.bot_move = None
        self.resume_phase = None
        self.reported = None
        self.watch = self.watch.fresh(now)
        self.new_game_started = True
        self._set_phase("setup" if self.board_kind == "presence" else "throw", now)
        params = {"title": rules.title, "side": self.position.side.value}
        self.say("new-game", **params)
        if rules.throw_model.sticks == 0:
            self.say("throw-electronic", model=rules.throw_model.description)
        if self.phase == "setup":
            light = ", ".join(map(str, self.position.squares_of(Player.W)))
            dark = ", ".join(map(str, self.position.squares_of(Player.B)))
            if light or dark:
                self.say("setup", title=rules.title, light=light, dark=dark)
            else:
                self.say("setup-empty", title=rules.title)
        else:
            self._turn_begins(now)

    def set_up(self, position: Position, now: float) -> None:
        """Go on from ``position`` in this game (a teacher's puzzle, a test): the board is
        then checked against it like after a restart."""
        self.position = self.rules.validate(position)
        self.throw = None
        self.decision = None
        self.reported = None
        self._turn_begins(now)

    def _set_phase(self, phase: str, now: float) -> None:
        self.phase = phase
        self.phase_since = now

    def begin(self, now: float) -> None:
        """Forget what the previous call did (the loop calls this before each event)."""
        self.steps = []
        self.records = []
        self.finished = None
        self.new_game_started = False

    # -- announcements ------------------------------------------------------------------------
    def say(self, key: str, **params: Any) -> None:
        self.announcements.append(
            {
                "id": self.next_announcement,
                "kind": kind_of(key),
                "key": key,
                "params": params,
                "text": render(key, params),
            }
        )
        self.next_announcement += 1
        del self.announcements[:-MAX_ANNOUNCEMENTS]

    # -- events -------------------------------------------------------------------------------
    def handle(self, event: act.Event, now: float, *, by_bot: bool = False) -> None:
        """Let ``event`` change the game (every refusal becomes a "mistake" announcement).

        ``by_bot`` marks a throw or move the computer made (a replayed journal's)."""
        self.records.append(act.encode(event))
        if by_bot:
            self.records[-1]["by"] = "bot"
        if not isinstance(event, (hw.HardwareFault, act.Tick)):
            self.last_activity = now
            if self.phase == "idle-check":
                self._set_phase(self.resume_phase or "throw", now)
                self.resume_phase = None
            elif self.phase == "attract":
                self._set_phase("setup" if self.board_kind == "presence" else "throw", now)
                if self.phase == "throw":
                    self._turn_begins(now)
        try:
            self._dispatch(event, now, by_bot)
        except _Refused as refused:
            self.say(refused.key, **refused.params)
        if self.board_kind == "presence" and not isinstance(event, act.Tick):
            self._track(now)

    def _dispatch(self, event: act.Event, now: float, by_bot: bool = False) -> None:
        match event:
            case hw.SquareChanged(square=square, occupied=occupied):
                square = _square(square)
                sensed = self.watch.sensed - {square} | ({square} if occupied else set())
                self.watch = self.watch.see(frozenset(sensed), now)
                self.board_seen = True
            case hw.BoardSnapshot(occupied=occupied):
                squares = frozenset(_square(s) for s in occupied)
                self.watch = self.watch.see(squares, now)
                self.board_seen = True
            case hw.SquarePressed(square=square):
                self._press(_square(square), now)
            case hw.ThrowSettled(faces=faces):
                if self.rules.throw_model.sticks == 0:
                    raise _Refused("mistake-electronic-only", model=self._model())
                try:
                    value = self.rules.throw_model.from_faces(faces)
                except NotationError as exc:
                    raise _Refused("mistake-bad-input", problem=str(exc)) from None
                self._throw(value, tuple(faces), "sticks", now)
            case hw.ThrowRequested():
                self._electronic_throw(now)
            case hw.HardwareFault():
                self._fault(event)
            case act.Throw(faces=None, value=None):
                self._electronic_throw(now, by_bot)
            case act.Throw(faces=faces, value=value):
                self._given_throw(faces, value, now, by_bot)
            case act.PlayMove(move=text):
                if not self.phone_input and not by_bot:
                    raise _Refused("mistake-phone-disabled")
                self._play_move(text, now, by_bot)
            case act.BotMove(move=text):
                if not by_bot or self.phase != "move" or self.throw is None:
                    raise _Refused("mistake-bad-input", problem="only the computer moves so")
                chosen = [t for t in self.legal if str(t.move) == text]
                if not chosen:
                    raise _Refused("mistake-bad-input", problem=f"{text} is not legal here")
                self._carry_out_bot_move(chosen[0], now)
            case act.Decide(choice=choice):
                self._decide(str(choice), now)
            case act.NewGame(ruleset=name, options=options):
                if options is not None and not isinstance(options, Mapping):
                    raise _Refused("mistake-bad-input", problem="options must be key: value pairs")
                self._new_game_command(name, options or {}, now)
            case act.SetBot(side=side, level=level):
                self._set_bot(side, level)
            case act.Hint():
                self._hint()
            case act.StillPlaying():
                pass
            case act.Tick():
                self.records.pop()
                self._tick(now)
            case _:
                raise _Refused("mistake-bad-input", problem=f"unknown event {event!r}")

    # -- throwing -----------------------------------------------------------------------------
    def _model(self) -> str:
        return self.rules.throw_model.description

    def _electronic_throw(self, now: float, by_bot: bool = False) -> None:
        model = self.rules.throw_model
        faces: tuple[int, ...] | None = None
        if model.sticks:
            faces = tuple(self.rng.getrandbits(1) for _ in range(model.sticks))
            value = model.from_faces(faces)
        else:
            value = self.rng.choice(model.values)
        self._throw(value, faces, "electronic", now, by_bot=by_bot)
        record = act.encode(act.Throw(faces=faces, value=None if faces else value))
        if by_bot:
            record["by"] = "bot"
        self.records[-1:] = [record]

    def _given_throw(
        self, faces: tuple[int, ...] | None, value: int | None, now: float, by_bot: bool = False
    ) -> None:
        model = self.rules.throw_model
        try:
            if faces is not None:
                number = model.from_faces(tuple(faces))
                if value is not None and value != number:
                    raise NotationError("throw", f"faces {list(faces)} make {number}, not {value}")
            else:
                number = model.check(value)
        except (NotationError, TypeError) as exc:
            raise _Refused("mistake-bad-input", problem=str(exc)) from None
        self._throw(number, tuple(faces) if faces else None, "electronic", now, by_bot=by_bot)

    def _throw(
        self,
        value: int,
        faces: tuple[int, ...] | None,
        source: str,
        now: float,
        *,
        by_bot: bool = False,
    ) -> None:
        if self.phase == "over":
            raise _Refused("mistake-game-over")
        if self.phase == "move" and self.board_kind == "presence":
            self._end_of_turn(now)
        if self.phase == "move":
            raise _Refused("mistake-finish-move", fix=self._move_fix())
        if self.phase == "decide":
            if self.decision is None or not any(c.id == "throw" for c in self.decision.choices):
                raise _Refused("mistake-finish-move", fix=[])
            self.decision = None
            self._set_phase("throw", now)
        if self.phase == "setup":
            raise _Refused("mistake-fix-board", fix=self.board_fix_steps())
        if self.phase != "throw":
            raise _Refused("mistake-no-throw")
        side = self.position.side.value
        if self.bots.get(side) and not by_bot:
            raise _Refused("mistake-bot-turn")
        if self.board_kind == "presence" and not self._board_matches():
            raise _Refused("mistake-fix-board", fix=self.board_fix_steps())
        if not self.rules.needs_throw(self.position):
            raise _Refused("mistake-finish-move", fix=[])
        bonus = bool(self.last_move and self.last_move["by"] == side and self.last_move_bonus)
        self.throw = {
            "value": value,
            "faces": list(faces) if faces else None,
            "source": source,
            "bonus": bonus,
            "rest": False,
        }
        self.throw_source = source
        self.hint = None
        self.last_step_at = now
        moves, after = self.rules.after_throw(self.position, value)
        if not moves:
            self.steps.append(Step(side, value, None, after.notation()))
            if self.position.extra("opening") == "dark":
                self.say("pass-opening", value=value)
            else:
                key = "pass-bonus" if after.side.value == side else "pass"
                self.say(key, side=side, value=value)
            self.position = after
            self.throw = None
            self._turn_begins(now)
            return
        self.say("throw-move", side=side, value=value)
        self.legal = tuple(moves)
        self.watch = self.watch.fresh(now)
        self.reported = None
        self._set_phase("move", now)

    @property
    def last_move_bonus(self) -> bool:
        return bool(self.last_move and "bonus" in self.last_move["effects"])

    def _turn_begins(self, now: float) -> None:
        """Throw or decide: the position is the start of a turn."""
        self.legal = ()
        self.selected = None
        self.bot_move = None
        self.watch = self.watch.fresh(now)
        if self.rules.outcome(self.position) is not None:
            self._set_phase("over", now)
            return
        if not self.rules.needs_throw(self.position) and self._rest_of_throw(now):
            return
        decisions = self.rules.decisions(self.position)
        if decisions and not self.bots.get(self.position.side.value):
            t = decisions[0]
            choices = [
                Choice(str(d.move), "choice-water", {"to": d.move.end, "from": d.move.start})
                for d in decisions
            ]
            choices.append(Choice("throw", "choice-throw", {}))
            exits = sorted(self.rules.exits.get(t.move.start, ()))
            params: dict[str, Any] = {"to": t.move.end}
            key = "decide-water-throw"
            if exits:
                key, params["throw"] = "decide-water", " / ".join(map(str, exits))
            self.decision = Decision(key, params, tuple(choices))
            self._set_phase("decide", now)
            self.say(key, **params)
            return
        self.decision = None
        self._set_phase("throw", now)

    def _rest_of_throw(self, now: float) -> bool:
        """Go on with the rest of a split throw; True if a move with it is due now."""
        pending = getattr(self.rules, "pending_throw", None)
        while not self.rules.needs_throw(self.position) and pending is not None:
            rest = pending(self.position)
            if rest is None or self.rules.outcome(self.position) is not None:
                return False
            side = self.position.side.value
            moves = self.rules.transitions(self.position, rest)
            if moves:
                self.throw = {
                    "value": rest,
                    "faces": None,
                    "source": self.throw_source,
                    "bonus": False,
                    "rest": True,
                }
                self.legal = tuple(moves)
                self.say("rest", side=side, value=rest)
                self._set_phase("move", now)
                return True
            after = self.rules.pass_turn(self.position, rest)
            self.steps.append(Step(side, rest, None, after.notation()))
            self.say("rest-lost", side=side, value=rest)
            self.position = after
        return False

    # -- moving -------------------------------------------------------------------------------
    def _apply(self, t: Transition, now: float, throw: int | None) -> None:
        before = self.position
        side = before.side
        start, end = t.move
        effects = t.effects
        self.steps.append(
            Step(side.value, throw, str(t.move), t.after.notation(), tuple(effect_names(t.flags)))
        )
        moved = _arrived(before, t.after, side)
        if effects & Effect.DECISION:
            self.say("decided", side=side.value, label=f"{start}-{end}")
        elif start == HAND:
            self.say("entered", side=side.value, to=end)
        elif effects & Effect.BEAR_OFF:
            self.say("bear-off", side=side.value, **{"from": start})
        elif effects & Effect.SWAP:
            back = _arrived(before, t.after, side.other)
            self.say("swap", side=side.value, back=back or start, **{"from": start, "to": end})
        else:
            self.say("moved", side=side.value, **{"from": start, "to": end})
        if effects & Effect.WATER:
            if moved is not None and moved != end:
                self.say("water", landing=end, to=moved)
            elif t.after.board.count(side.value) < before.board.count(side.value) + (start == HAND):
                self.say("water-hand", landing=end)
            else:
                self.say("water-stays", to=end)
        elif effects & Effect.REBIRTH and moved is not None:
            self.say("rebirth", landing=end, to=moved)
        if effects & Effect.BONUS:
            self.say("bonus", side=side.value)
        elif effects & Effect.BONUS_LOST and throw in self.rules.bonus_throws:
            self.say("bonus-lost")
        self.position = t.after
        self.last_move = {
            "move": str(t.move),
            "from": start,
            "to": "off" if end == OFF else end,
            "by": side.value,
            "effects": effect_names(t.flags),
        }
        self.throw = None
        self.decision = None
        self.hint = None
        self.last_step_at = now
        # What the board still has to do (a piece left on its landing square) is not news.
        self.reported = self.watch.sensed
        self._turn_begins(now)
        outcome = self.rules.outcome(self.position)
        if outcome is not None:
            self._finish(outcome)

    def _finish(self, outcome: Outcome) -> None:
        reason = outcome.reason.name.lower().replace("_", "-")
        self.say("win", side=outcome.winner.value, reason="end-" + reason)
        self.finished = (
            f"{self.wall_clock():%Y-%m-%dT%H-%M-%S}",
            outcome.winner.value,
            outcome.reason.value,
        )

    def _candidates(self) -> tuple[Transition, ...]:
        return (self.bot_move,) if self.bot_move is not None else self.legal

    def _play_move(self, text: str, now: float, by_bot: bool = False) -> None:
        try:
            move = Move.parse(text)
        except NotationError as exc:
            raise _Refused("mistake-bad-input", problem=str(exc)) from None
        if self.phase == "decide":
            self._decide(str(move), now)
            return
        if self.phase == "over":
            raise _Refused("mistake-game-over")
        if self.phase != "move" or self.throw is None:
            raise _Refused("mistake-no-throw")
        if self.bots.get(self.position.side.value) and self.bot_move is None and not by_bot:
            raise _Refused("mistake-bot-turn")
        for t in self._candidates():
            if t.move == move:
                self._apply(t, now, self.throw["value"])
                return
        why = refusal(self.rules, self.position, self.throw["value"], move)
        raise _Refused(
            "mistake-illegal", move=str(move), reason=why.code, squares=list(why.squares)
        )

    def _decide(self, choice: str, now: float) -> None:
        if self.phase != "decide" or self.decision is None:
            raise _Refused("mistake-no-decision")
        ids = [c.id for c in self.decision.choices]
        if choice not in ids:
            raise _Refused("mistake-bad-choice", choice=choice, choices=", ".join(ids))
        if choice == "throw":
            self.decision = None
            self._set_phase("throw", now)
            return
        if choice == "none":
            self.decision = None
            self.watch = self.watch.fresh(now)
            self._set_phase("move", now)
            return
        if self.throw is None:
            for t in self.rules.decisions(self.position):
                if str(t.move) == choice:
                    self._apply(t, now, None)
                    return
        for t in self.legal:
            if str(t.move) == choice:
                self._apply(t, now, self.throw["value"] if self.throw else None)
                return
        raise _Refused("mistake-bad-choice", choice=choice, choices=", ".join(ids))

    def _ask(self, transitions: tuple[Transition, ...], now: float) -> None:
        choices = [
            Choice(str(t.move), "choice-move", {"from": t.move.start, "to": t.move.end})
            for t in transitions
        ]
        choices.append(Choice("none", "choice-none", {}))
        swap = all(t.effects & Effect.SWAP for t in transitions)
        key = "decide-swap" if swap else "decide-move"
        self.decision = Decision(key, {}, tuple(choices))
        self._set_phase("decide", now)
        self.say(key)

    # -- buttons ------------------------------------------------------------------------------
    def _press(self, square: int, now: float) -> None:
        if self.phase == "decide" and self.decision is not None:
            for choice in self.decision.choices:
                if choice.params.get("to") == square:
                    self._decide(choice.id, now)
                    return
            return
        if self.board_kind != "buttons":
            return
        if self.phase == "over":
            raise _Refused("mistake-game-over")
        if self.phase != "move" or self.throw is None:
            raise _Refused("mistake-no-throw")
        candidates = self._candidates()
        if self.selected is not None:
            for t in candidates:
                if t.move.start == self.selected and square in (t.move.end, _end(t)):
                    self._apply(t, now, self.throw["value"])
                    return
        if self.bot_move is not None and square == self.bot_move.move.end:
            self._apply(self.bot_move, now, self.throw["value"])
            return
        for t in candidates:
            if t.move.start == HAND and t.move.end == square:
                self._apply(t, now, self.throw["value"])  # a piece put on the board: done
                return
        for t in candidates:
            if t.move.start == square:
                self.selected = square
                params = {"from": square, "to": t.move.end}
                if t.move.end == OFF:
                    self.say("selected-off", **params)
                elif t.effects & Effect.SWAP:
                    self.say("selected-swap", **params)
                else:
                    self.say("selected", **params)
                return
        side = self.position.side
        if self.position.at(square) is not side:
            raise _Refused("mistake-press-empty", side=side.value, square=square)
        why = refusal(self.rules, self.position, self.throw["value"], Move(square, OFF))
        raise _Refused(
            "mistake-press", reason=why.code, squares=list(why.squares), **{"from": square}
        )

    # -- the presence board -------------------------------------------------------------------
    def ignored_squares(self) -> frozenset[int]:
        return frozenset(s for f in self.faults.values() for s in f.squares)

    def expected_board(self) -> frozenset[int]:
        position = self.rules.start() if self.phase == "setup" else self.position
        return occupancy(position) - self.ignored_squares()

    def _board_matches(self) -> bool:
        return self.watch.sensed - self.ignored_squares() == self.expected_board()

    def board_fix_steps(self) -> list[dict[str, Any]]:
        position = self.rules.start() if self.phase == "setup" else self.position
        return board_fix(
            position, self.watch.sensed - self.ignored_squares(), self.expected_board()
        )

    def _move_fix(self) -> list[dict[str, Any]]:
        if self.board_kind != "presence" or not self.legal:
            return []
        t = self._candidates()[0] if len(self._candidates()) == 1 else None
        if t is None:
            return []
        return [{"key": "fix-move", "params": {"from": t.move.start, "to": t.move.end}}]

    def _judge(self, now: float, force: bool = False) -> Any:
        in_move = self.phase == "move"
        return judge(
            self.watch,
            now,
            self.position,
            self._candidates() if in_move else (),
            rules=self.rules,
            throw=self.throw["value"] if in_move and self.throw else None,
            settings=self.settings.tracker,
            ignored=self.ignored_squares(),
            force=force,
        )

    def _end_of_turn(self, now: float) -> None:
        """A throw came while a move was under way: read the board as it is now."""
        verdict = self._judge(now, force=True)
        if isinstance(verdict, Recognised) and self.throw is not None:
            self._apply(verdict.transition, now, self.throw["value"])

    def _track(self, now: float) -> None:
        if not self.board_seen:
            return
        if self.phase == "setup":
            if (
                self._board_matches()
                and now - self.watch.changed_at >= self.settings.tracker.settle
            ):
                self.say("setup-done", side=self.position.side.value)
                self._turn_begins(now)
            return
        if self.phase in ("over", "idle-check", "attract"):
            return
        if self.phase == "decide":
            self._track_decision(now)
            return
        verdict = self._judge(now)
        if isinstance(verdict, Recognised) and self.throw is not None:
            self._apply(verdict.transition, now, self.throw["value"])
        elif isinstance(verdict, Ambiguous):
            self._ask(verdict.transitions, now)
        elif isinstance(verdict, Matches):
            if self.reported is not None and self.reported != self.watch.sensed:
                self.say("board-fixed")
            self.reported = None
        elif isinstance(verdict, Mismatch) and self.reported != self.watch.sensed:
            self.reported = self.watch.sensed
            if self.bot_move is not None and self.phase == "move":
                # Another move than the computer's: say which one it chose.
                start, end = self.bot_move.move
                fix = verdict.params.get("fix") or self.board_fix_steps()
                self.say("mistake-bot-move", fix=fix, **{"from": start, "to": end_name(end)})
            else:
                self.say(verdict.key, **verdict.params)

    def _track_decision(self, now: float) -> None:
        """A choice made instead of throwing, answered on the board: the piece was moved as
        the choice says. (When several moves fit the board, only a person can say which.)"""
        if self.decision is None or self.throw is not None:
            return
        if now - self.watch.changed_at < self.settings.tracker.settle:
            return
        sensed = self.watch.sensed - self.ignored_squares()
        for t in self.rules.decisions(self.position):
            if (
                occupancy(t.after) - self.ignored_squares() == sensed
                and sensed != self.expected_board()
            ):
                self._apply(t, now, None)
                return

    # -- hardware faults ----------------------------------------------------------------------
    def _fault(self, fault: hw.HardwareFault) -> None:
        if fault.cleared:
            if self.faults.pop(fault.code, None) is not None:
                self.say("fault-cleared", message=fault.message)
            return
        known = self.faults.get(fault.code)
        self.faults[fault.code] = fault
        if known is None or known.message != fault.message:
            self.say("fault", message=fault.message, code=fault.code)

    # -- games, bots and hints ----------------------------------------------------------------
    def _new_game_command(self, name: str, options: Mapping[str, str], now: float) -> None:
        from companion.rules import RULESETS

        try:
            rules = get_ruleset(str(name), **{str(k): str(v) for k, v in options.items()})
        except UnknownRuleset:
            raise _Refused(
                "mistake-unknown-ruleset", name=str(name), known=", ".join(RULESETS)
            ) from None
        except (SenetError, TypeError) as exc:
            raise _Refused("mistake-bad-input", problem=str(exc)) from None
        self.new_game(rules, now)

    def _set_bot(self, side: str | None, level: str) -> None:
        sides = ["W", "B"] if side is None else [side]
        if side not in (None, "W", "B"):
            raise _Refused("mistake-bad-input", problem=f"side must be W or B, got {side!r}")
        if side is None or level in ("none", "", None):
            for s in sides:
                if self.bots.get(s):
                    self.say("bot-removed", side=s)
                self.bots[s] = None
                self._bot_players.pop(s, None)
            self.bot_move = None
            return
        try:
            bot = self.bot_factory(str(level), self.rules, self.rng)
        except Exception as exc:  # an absent or broken bot package must not stop the game
            log.warning("cannot make a %s bot: %s", level, exc)
            raise _Refused(
                "mistake-bot-unavailable", problem=str(exc) or type(exc).__name__
            ) from None
        self.bots[side] = str(level)
        self._bot_players[side] = bot
        self.say("bot-set", side=side, level=str(level))

    def _bot(self, side: str) -> Bot | None:
        level = self.bots.get(side)
        if level is None:
            return None
        if side not in self._bot_players:
            try:
                self._bot_players[side] = self.bot_factory(level, self.rules, self.rng)
            except Exception as exc:
                log.warning("cannot make a %s bot after a restart: %s", level, exc)
                self.bots[side] = None
                return None
        return self._bot_players[side]

    def _bot_turn(self, now: float) -> bool:
        """Let the computer throw or choose its move, one step per call; True if it acted."""
        side = self.position.side.value
        bot = self._bot(side)
        if not self.bots_act or bot is None or now - self.last_step_at < self.settings.bot_delay:
            return False
        if self.phase == "throw":
            if self.board_kind == "presence" and not self._board_matches():
                return False
            try:
                self._electronic_throw(now, by_bot=True)
            except _Refused as refused:
                self.say(refused.key, **refused.params)
            return True
        if self.phase == "move" and self.throw is not None and self.bot_move is None:
            try:
                choice = bot.choose(self.position, self.throw["value"])
            except Exception as exc:  # a broken bot hands its side back to a person
                log.exception("the %s bot failed", self.bots[side])
                self.bots[side] = None
                self._bot_players.pop(side, None)
                self.say("mistake-bot-unavailable", problem=str(exc) or type(exc).__name__)
                return True
            if choice not in self.legal:
                log.error("the %s bot chose %s, which is not legal", self.bots[side], choice)
                choice = self.legal[0]
            self.records.append({**act.encode(act.BotMove(str(choice.move))), "by": "bot"})
            self._carry_out_bot_move(choice, now)
            return True
        return False

    def _carry_out_bot_move(self, choice: Transition, now: float) -> None:
        """Make the computer's move, or on a physical board ask a person to make it."""
        if self.board_kind == "none":
            assert self.throw is not None
            self._apply(choice, now, self.throw["value"])
            return
        self.bot_move = choice
        params = {"from": choice.move.start, "to": end_name(choice.move.end)}
        self.say("bot-move", side=self.position.side.value, **params)

    def _suggest(self) -> Transition:
        """The move to suggest: the "simple" computer player's choice if there is one."""
        assert self.throw is not None
        try:
            bot = self.bot_factory("simple", self.rules, random.Random(0))
            choice = bot.choose(self.position, self.throw["value"])
            if choice in self.legal:
                return choice
        except Exception as exc:  # no bots: a plain rule of thumb will do
            log.info("hints without a computer player: %s", exc)
        return max(self.legal, key=_hint_rank)

    def _hint(self) -> None:
        if self.phase != "move" or not self.legal:
            self.hint = None
            self.say("hint-none")
            return
        t = self._suggest()
        self.hint = {
            "move": str(t.move),
            "from": t.move.start,
            "to": end_name(t.move.end),
            "effects": effect_names(t.flags),
        }
        self.say("hint", **{"from": t.move.start, "to": end_name(t.move.end)})

    # -- the clock ----------------------------------------------------------------------------
    def _tick(self, now: float) -> None:
        before = self.next_announcement, self.phase, self.position
        self._timers(now)
        if not self.records and (self.next_announcement, self.phase, self.position) != before:
            self.records.append(act.encode(act.Tick()))  # a replay must tick here too

    def _timers(self, now: float) -> None:
        settings = self.settings
        quiet = now - self.last_activity
        if self.phase == "idle-check":
            if now - self.phase_since >= settings.idle_reset:
                self.new_game(self.rules, now)
                self._set_phase("attract", now)
                self.say("attract", title=self.rules.title)
            return
        if self.phase == "attract":
            return
        if quiet >= settings.idle_after:
            self.resume_phase = self.phase
            self._set_phase("idle-check", now)
            self.say("idle-check")
            return
        before = self.next_announcement, self.phase, self.position
        if self.board_kind == "presence":
            self._track(now)
        if (self.next_announcement, self.phase, self.position) == before:
            self._bot_turn(now)

    # -- saving, restoring, publishing (companion.published) ----------------------------------
    def checkpoint(self) -> dict[str, Any]:
        """Everything needed to resume the game after a restart (JSON-able)."""
        return published.checkpoint(self)

    def restore(self, state: Mapping[str, Any], now: float) -> None:
        """Take up the game of a checkpoint (the loop checks the board against it next)."""
        published.restore(self, state, now)

    def view(self) -> dict[str, Any]:
        """The published state without its version (see the web contract)."""
        return published.view(self)


class _Refused(Exception):
    """An event the table will not act on; becomes a "mistake" announcement."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def _square(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 30:
        raise _Refused("mistake-bad-input", problem=f"a square must be 1..30, got {value!r}")
    return value


def _end(t: Transition) -> int:
    return t.move.start if t.move.end == OFF else t.move.end


def _arrived(before: Position, after: Position, player: Player) -> int | None:
    new = set(after.squares_of(player)) - set(before.squares_of(player))
    return new.pop() if len(new) == 1 else None


def _hint_rank(t: Transition) -> tuple[int, int, int, int]:
    e = t.effects
    return (
        bool(e & Effect.WIN),
        bool(e & Effect.BEAR_OFF),
        bool(e & Effect.SWAP) - bool(e & Effect.WATER) * 2,
        t.move.end,
    )


def _default_bot_factory(level: str, rules: Ruleset, rng: random.Random) -> Bot:
    # Imported late: the bots are optional, and a missing package refuses SetBot only.
    bots = importlib.import_module("companion.bots")
    bot: Bot = bots.get_bot(level, rules, rng=rng)
    return bot
