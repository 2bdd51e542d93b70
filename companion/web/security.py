"""Who may do what from a phone: the PIN gate, PIN sessions and CSRF tokens.

Spectators' phones can look but not act. Administrative requests need a PIN session and the
session's CSRF token; wrong PINs slow down further attempts, per phone and for everybody.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from flask import request, session
from flask_babel import gettext as _

from companion.web.errors import NotAllowed, TooManyAttempts

__all__ = [
    "ActionLimiter",
    "PinGate",
    "check_csrf",
    "csrf_token",
    "end_admin",
    "is_admin",
    "start_admin",
]

_CSRF = "csrf"
_ADMIN = "admin"


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0


class PinGate:
    """Checks PINs; after ``free`` wrong ones the wait doubles with each further mistake.

    The wait is kept per client address and, with a higher threshold, for all clients together,
    so a room full of phones cannot share out the guessing. ``clock`` is monotonic seconds.
    """

    def __init__(
        self,
        pin: str | None,
        clock: Callable[[], float],
        *,
        free: int = 3,
        base_delay: float = 2.0,
        max_delay: float = 300.0,
        global_free: int = 20,
        remembered: int = 1024,
    ) -> None:
        self._pin = pin
        self._clock = clock
        self._free = free
        self._base = base_delay
        self._max = max_delay
        self._global_free = global_free
        self._remembered = remembered
        self._clients: OrderedDict[str, _Failures] = OrderedDict()
        self._everyone = _Failures()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self._pin is not None

    def check(self, client: str, attempt: str) -> bool:
        """True when ``attempt`` is the PIN; raises TooManyAttempts while ``client`` must wait."""
        if self._pin is None:
            raise NotAllowed(
                "administration is switched off: set a pin in the [web] table of the "
                "configuration file"
            )
        with self._lock:
            now = self._clock()
            mine = self._clients.get(client)
            wait = max(mine.locked_until - now if mine else 0.0, self._everyone.locked_until - now)
            if wait > 0:
                raise TooManyAttempts(wait)
            if hmac.compare_digest(attempt.encode(), self._pin.encode()):
                self._clients.pop(client, None)
                return True
            if mine is None:
                mine = self._clients[client] = _Failures()
                while len(self._clients) > self._remembered:
                    self._clients.popitem(last=False)
            self._clients.move_to_end(client)
            self._fail(mine, self._free, now)
            self._fail(self._everyone, self._global_free, now)
            return False

    def _fail(self, record: _Failures, free: int, now: float) -> None:
        record.count += 1
        if record.count >= free:
            delay = min(self._max, self._base * 2 ** (record.count - free))
            record.locked_until = now + delay


class ActionLimiter:
    """A token bucket per client: ``burst`` actions at once, then ``rate`` per second.

    Players tap a few times a minute; a phone (or script) sending dozens a second is refused
    before it reaches the game loop's queue.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        rate: float = 4.0,
        burst: float = 12.0,
        remembered: int = 1024,
    ) -> None:
        self._clock = clock
        self._rate = rate
        self._burst = burst
        self._remembered = remembered
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Spend one action of ``client``; raises TooManyAttempts when none is left."""
        with self._lock:
            now = self._clock()
            tokens, then = self._buckets.pop(client, (self._burst, now))
            tokens = min(self._burst, tokens + (now - then) * self._rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                raise TooManyAttempts((1 - tokens) / self._rate, what="actions")
            self._buckets[client] = (tokens - 1, now)
            while len(self._buckets) > self._remembered:
                self._buckets.popitem(last=False)


def csrf_token() -> str:
    """The session's CSRF token (made on first use); forms and scripts send it back."""
    token = session.get(_CSRF)
    if not isinstance(token, str):
        token = session[_CSRF] = secrets.token_urlsafe(24)
    return token


def check_csrf() -> None:
    """Refuse a state-changing request that lacks the session's token or comes from elsewhere."""
    origin = request.headers.get("Origin")
    if origin and origin not in (request.host_url.rstrip("/"), "null"):
        raise NotAllowed(_("this request came from another site and was refused"))
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    expected = session.get(_CSRF)
    if not isinstance(expected, str) or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise NotAllowed(
            _("the page's security token is missing or old: reload the page and retry")
        )


def start_admin(boot: str, now: float) -> None:
    session[_ADMIN] = {"boot": boot, "seen": now}
    session[_CSRF] = secrets.token_urlsafe(24)  # a fresh token for the privileged session


def end_admin() -> None:
    session.pop(_ADMIN, None)


def is_admin(boot: str, now: float, timeout: float) -> bool:
    """True inside a PIN session of this process that has not been idle for ``timeout``."""
    record = session.get(_ADMIN)
    if not isinstance(record, dict) or record.get("boot") != boot:
        return False
    seen = record.get("seen")
    if not isinstance(seen, int | float) or not 0 <= now - seen <= timeout:
        session.pop(_ADMIN, None)
        return False
    return True


def touch_admin(now: float) -> None:
    record = session.get(_ADMIN)
    if isinstance(record, dict):
        session[_ADMIN] = {**record, "seen": now}
