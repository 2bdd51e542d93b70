"""The game loop: the one thread that owns the game.

Hardware backends, the phone and the clock put events on the loop's queue (`GameLoop.submit`);
a single consumer thread takes them one at a time, lets the `Table` change the game, writes the
event, the moves and the new state to the journal, and only then publishes the state to every
subscriber (the web page, the replay printer). Each published state carries a version number,
one more than the last, so a display that missed some can resynchronise.

Tests and the replay command drive the same code without the thread: `handle` and `tick`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from companion import actions as act
from companion.errors import LoopError
from companion.game import BotFactory, Table, TableSettings
from companion.journal import Journal, JournalError
from companion.rules import Ruleset, get_ruleset
from hardware.backend import Backend
from hardware.events import BoardSnapshot

__all__ = ["GameLoop", "LoopError", "Subscription"]

log = logging.getLogger(__name__)

_STOP = object()


class _Waiter:
    """A command whose submitter waits for the state published after it."""

    def __init__(self, command: act.Event) -> None:
        self.command = command
        self.done = threading.Event()
        self.state: dict[str, Any] | None = None


class Subscription:
    """The published states for one observer: a bounded queue that drops the oldest state
    rather than ever making the loop wait."""

    def __init__(self, owner: GameLoop, size: int) -> None:
        self._owner = owner
        self._states: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=size)

    def put(self, state: dict[str, Any]) -> None:
        while True:
            try:
                self._states.put_nowait(state)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._states.get_nowait()

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next published state, or None if none came within ``timeout`` seconds."""
        try:
            return self._states.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._owner._unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GameLoop:
    """One game at a time, from events to published states; see the web contract."""

    def __init__(
        self,
        ruleset: str | Ruleset,
        backend: Backend | None = None,
        *,
        journal: Journal | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        board_kind: str = "presence",
        phone_input: bool = True,
        settings: TableSettings | None = None,
        bot_factory: BotFactory | None = None,
        wall_clock: Callable[[], datetime] | None = None,
        tick_every: float = 0.2,
        subscriber_queue: int = 64,
        maintain_every: float = 86_400.0,
    ) -> None:
        rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.backend = backend
        self.journal = journal
        self.clock = clock
        self.tick_every = tick_every
        self.maintain_every = maintain_every
        self._last_tick = clock()
        self._last_maintain = clock()
        self._subscriber_queue = subscriber_queue
        self._queue: queue.Queue[Any] = queue.Queue()
        self._lock = threading.Lock()
        self._subscribers: list[Subscription] = []
        self._thread: threading.Thread | None = None
        self._version = 0
        self._published: dict[str, Any] = {}
        self._view: dict[str, Any] = {}
        self.table = Table(
            rules,
            board_kind=board_kind,
            phone_input=phone_input,
            rng=rng,
            settings=settings,
            bot_factory=bot_factory,
            wall_clock=wall_clock,
        )
        self.phone_input = phone_input
        now = clock()
        self.table.last_activity = now
        resumed = journal.active() if journal is not None else None
        if resumed is not None:
            _, state = resumed
            try:
                self.table.restore(state, now)
                self._version = int(state.get("version", 0))
            except (KeyError, ValueError, TypeError) as exc:
                raise LoopError(
                    f"the journal's last game cannot be resumed ({exc}); move the journal"
                    " aside to start afresh"
                ) from exc
            self._save(None, now)
        else:
            self.table.new_game(rules, now)
            self._save(None, now, new_game=True)
        self._publish(force=True)

    # -- the thread ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the consumer thread (and the backend, which feeds the same queue)."""
        if self._thread is not None:
            return
        if self.backend is not None:
            self.backend.start(self._queue)
            try:
                self.submit(BoardSnapshot(self.backend.occupied()))
            except Exception:  # a backend that cannot read the board yet will send it later
                log.warning("the %s backend could not read the board at start", self.backend.name)
        self._thread = threading.Thread(target=self._run, name="game-loop", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the backend and the consumer thread; safe to call twice."""
        if self.backend is not None:
            try:
                self.backend.stop()
            except Exception:
                log.exception("the %s backend did not stop cleanly", self.backend.name)
        thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout)

    def submit(self, command: act.Event) -> None:
        """Queue an event for the loop (thread-safe; never blocks)."""
        self._queue.put(command)

    def result(self, command: act.Event, timeout: float | None = None) -> dict[str, Any] | None:
        """Submit ``command`` and wait until the loop has handled it: the state published
        after it (refusals are "mistake" announcements in it), or None after ``timeout``."""
        waiter = _Waiter(command)
        self._queue.put(waiter)
        if not waiter.done.wait(timeout):
            return None
        return waiter.state

    def _run(self) -> None:
        while True:
            try:
                event = self._queue.get(timeout=self.tick_every)
            except queue.Empty:
                event = act.Tick()
            if event is _STOP:
                return
            try:
                if isinstance(event, _Waiter):
                    self.handle(event.command)
                    event.state = self.snapshot()
                    event.done.set()
                    continue
                self.handle(event)
                if self.clock() - self._last_tick >= self.tick_every:
                    self.handle(act.Tick())  # timers run even while events keep coming
            except Exception:  # the one thread that owns the game must never die
                log.exception("the game loop failed on %r and goes on", event)

    # -- one event ----------------------------------------------------------------------------
    def handle(self, event: act.Event, *, by_bot: bool = False) -> None:
        """Let one event change the game, journal it, then publish (the consumer's work)."""
        now = self.clock()
        table = self.table
        if isinstance(event, act.Tick):
            self._last_tick = now
            self._maintain(now)
        before = table.checkpoint()
        table.begin(now)
        try:
            table.handle(event, now, by_bot=by_bot)
        except Exception:
            # A fault in the companion itself: keep the game as it was, and say so in the log.
            log.exception("the game loop could not handle %r; the game is unchanged", event)
            table.restore(before, now)
            table.announcements.pop()
            table.begin(now)
            table.say("mistake-internal", problem=act.kind_of(event))
        if isinstance(event, act.Tick) and not table.records and table.checkpoint() == before:
            self._publish()  # the board check may have changed; nothing to write
            return
        self._save(table.records, now, new_game=table.new_game_started)
        self._publish()

    def tick(self) -> None:
        """Let the loop look at its timers now (tests and replays call this directly)."""
        self.handle(act.Tick())

    def _maintain(self, now: float) -> None:
        """The journal's daily clean-up, done while nobody is playing."""
        if self.journal is None or now - self._last_maintain < self.maintain_every:
            return
        if self.table.phase not in ("attract", "idle-check", "over", "setup"):
            return
        self._last_maintain = now
        try:
            done = self.journal.maintain()
            log.info("journal clean-up: %s", done)
        except (JournalError, OSError, sqlite3.Error):
            log.exception("the journal clean-up failed; it will be tried again")

    def _begin_in_journal(self) -> None:
        if self.journal is None:
            return
        t = self.table
        self.journal.begin_game(
            t.game_id,
            t.rules.name,
            dict(t.rules.settings),
            t.rules.start(),
            t.started,
            self._checkpoint(),
        )

    def _checkpoint(self) -> dict[str, Any]:
        return {**self.table.checkpoint(), "version": self._version + 1}

    def _save(
        self, records: list[dict[str, Any]] | None, now: float, new_game: bool = False
    ) -> None:
        if self.journal is None:
            return
        t = self.table
        try:
            if new_game:
                self._begin_in_journal()
            self.journal.record(
                t.game_id, records or (), now, t.steps, self._checkpoint(), finished=t.finished
            )
        except (JournalError, OSError, sqlite3.Error) as exc:
            # Never publish what is not on disk: keep playing, but tell the page.
            log.exception("the journal could not be written")
            t.faults["journal"] = _journal_fault(exc)

    # -- publishing ---------------------------------------------------------------------------
    def _publish(self, force: bool = False) -> None:
        view = self.table.view()
        view["hardware"] = self._hardware()
        view["input"] = {"board": self.table.board_kind, "phone": self.phone_input}
        if not force and view == self._view:
            return
        self._view = view
        self._version += 1
        state = {"version": self._version, **view}
        with self._lock:
            self._published = state
            subscribers = list(self._subscribers)
        for sub in subscribers:
            sub.put(state)

    def _hardware(self) -> dict[str, Any]:
        faults = [{"code": f.code, "message": f.message} for f in self.table.faults.values()]
        name = self.backend.name if self.backend is not None else "none"
        return {"backend": name, "faults": faults}

    def snapshot(self) -> dict[str, Any]:
        """The latest published state (thread-safe)."""
        with self._lock:
            return self._published

    def subscribe(self) -> Subscription:
        """A new observer of published states; it receives the current one first."""
        sub = Subscription(self, self._subscriber_queue)
        with self._lock:
            self._subscribers.append(sub)
            current = self._published
        sub.put(current)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    @property
    def version(self) -> int:
        return self._version


def _journal_fault(exc: BaseException) -> Any:
    from hardware.events import HardwareFault

    return HardwareFault("journal", f"the game journal cannot be written: {exc}")
