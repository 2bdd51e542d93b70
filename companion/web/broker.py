"""Fans the game loop's published states out to the phones following the live updates.

One subscription to the loop, one thread that waits on it, and for every connected phone a slot
holding only the newest state: every state is complete, so a phone that falls behind skips
straight to the latest one and the loop is never held up. Each encoded update is made once per
version and language, however many phones show it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from companion.web.errors import TooManyClients

__all__ = ["Follower", "StateBroker"]

State = dict[str, Any]


class _Subscription(Protocol):
    def get(self, timeout: float | None = None) -> State | None: ...

    def close(self) -> None: ...


class _Loop(Protocol):
    def snapshot(self) -> State: ...

    def subscribe(self) -> _Subscription: ...


class Follower:
    """One phone's place in the fan-out: the newest state it has not been given yet."""

    __slots__ = ("_closed", "_cond", "_state")

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._state: State | None = None
        self._closed = False

    def offer(self, state: State) -> None:
        with self._cond:
            self._state = state
            self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()

    @property
    def closed(self) -> bool:
        return self._closed

    def next(self, timeout: float) -> State | None:
        """The next state, or None after ``timeout`` seconds without one (or once closed)."""
        with self._cond:
            if self._state is None and not self._closed:
                self._cond.wait(timeout)
            state, self._state = self._state, None
            return state


class StateBroker:
    """Follows the loop's states and hands each one to every connected phone.

    The thread starts with the first phone (never at import or app creation) and ends with
    ``stop()``; ``stop`` also wakes every phone's stream so the server can shut down.
    """

    def __init__(self, loop: _Loop, *, max_clients: int = 200, poll: float = 0.5) -> None:
        self._loop = loop
        self._max = max_clients
        self._poll = poll
        self._followers: set[Follower] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._cache: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._cache_lock = threading.Lock()

    @property
    def count(self) -> int:
        return len(self._followers)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def connect(self) -> Follower:
        """A new phone; raises TooManyClients when the configured number is reached."""
        with self._lock:
            if self._stopping.is_set():
                raise TooManyClients("the companion is shutting down")
            if len(self._followers) >= self._max:
                raise TooManyClients(
                    f"{self._max} phones are already following this game; "
                    "close the page on another phone or raise [web] max_clients"
                )
            follower = Follower()
            self._followers.add(follower)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="web-broker", daemon=True)
                self._thread.start()
            return follower

    def disconnect(self, follower: Follower) -> None:
        with self._lock:
            self._followers.discard(follower)
        follower.close()

    def snapshot(self) -> State:
        return self._loop.snapshot()

    def stop(self, timeout: float = 2.0) -> None:
        """End the fan-out and close every phone's stream; safe to call twice."""
        self._stopping.set()
        with self._lock:
            followers, self._followers = list(self._followers), set()
            thread = self._thread
        for follower in followers:
            follower.close()
        if thread is not None:
            thread.join(timeout)

    def encoded(self, key: tuple[Any, ...], make: Callable[[], str]) -> str:
        """``make()``'s result for ``key`` (version, language, ...), computed once."""
        with self._cache_lock:
            found = self._cache.get(key)
            if found is not None:
                return found
        text = make()
        with self._cache_lock:
            self._cache[key] = text
            while len(self._cache) > 32:
                self._cache.popitem(last=False)
        return text

    def _run(self) -> None:
        subscription = self._loop.subscribe()
        try:
            while not self._stopping.is_set():
                state = subscription.get(timeout=self._poll)
                if state is None:
                    continue
                with self._lock:
                    followers = list(self._followers)
                for follower in followers:
                    follower.offer(state)
        finally:
            subscription.close()
