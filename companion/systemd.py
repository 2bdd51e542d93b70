"""Telling systemd how the service is doing: ready, status, stopping, and the watchdog.

The unit file (``deploy/senet-companion.service``) says ``Type=notify`` and ``WatchdogSec=``:
systemd waits for ``READY=1`` before it calls the service started, and restarts it when the
``WATCHDOG=1`` pings stop. This module speaks that protocol (``sd_notify(3)``) with the standard
library only: each message is one datagram of ``KEY=VALUE`` lines sent to the unix socket named
in ``$NOTIFY_SOCKET``. Outside systemd (no ``$NOTIFY_SOCKET``) every call quietly does nothing,
so the same ``serve`` command runs by hand, in tests and under systemd.

The service wires it like this (``healthy``, optional, says whether pings should go on)::

    server = create_server(app, ...)              # the port is bound: the page is reachable
    with ServiceLink.from_environment(healthy=...) as link:
        link.ready(f"serving {url}")
        server.run()                              # until SIGTERM
    # leaving the block sent STOPPING=1 and stopped the watchdog pings
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType

__all__ = [
    "BadNotifySetting",
    "Notifier",
    "NotifyFailed",
    "ServiceLink",
    "SystemdError",
    "Watchdog",
    "watchdog_interval",
]

log = logging.getLogger(__name__)


class SystemdError(Exception):
    """Base of every error raised while talking to systemd."""


class BadNotifySetting(SystemdError, ValueError):
    """``$NOTIFY_SOCKET`` or ``$WATCHDOG_USEC`` holds something systemd would never set."""


class NotifyFailed(SystemdError, OSError):
    """A message could not be delivered to ``$NOTIFY_SOCKET``."""


def _socket_address(value: str) -> str | bytes:
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        # Linux abstract namespace: a leading NUL byte instead of the '@'.
        return b"\0" + value[1:].encode()
    raise BadNotifySetting(
        f"NOTIFY_SOCKET={value!r} is neither a socket path (/...) nor an abstract name (@...); "
        "unset it to run without systemd"
    )


@dataclass(frozen=True, slots=True)
class Notifier:
    """Sends ``sd_notify`` messages; ``address`` None means "not under systemd": sends nothing."""

    address: str | bytes | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        env = os.environ if environ is None else environ
        value = env.get("NOTIFY_SOCKET", "")
        return cls(_socket_address(value) if value else None)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, **fields: str | int) -> bool:
        """Send one message (``send(READY=1, STATUS="…")``); True if it was sent."""
        if self.address is None:
            return False
        lines = []
        for key, value in fields.items():
            text = str(value)
            if "\n" in text:
                raise BadNotifySetting(f"{key} must be one line, got {text!r}")
            lines.append(f"{key}={text}")
        payload = "\n".join(lines).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(payload, self.address)
        except OSError as exc:
            raise NotifyFailed(
                f"cannot reach systemd at NOTIFY_SOCKET ({exc.strerror or exc}); "
                "is the service manager still running?",
            ) from exc
        return True

    def ready(self, status: str | None = None) -> bool:
        if status is None:
            return self.send(READY=1, MAINPID=os.getpid())
        return self.send(READY=1, MAINPID=os.getpid(), STATUS=status)

    def status(self, text: str) -> bool:
        return self.send(STATUS=text)

    def stopping(self, status: str = "stopping") -> bool:
        return self.send(STOPPING=1, STATUS=status)

    def watchdog(self) -> bool:
        return self.send(WATCHDOG=1)


def watchdog_interval(
    environ: Mapping[str, str] | None = None, pid: int | None = None
) -> float | None:
    """Seconds between watchdog pings, or None when systemd expects none from this process.

    systemd sets ``$WATCHDOG_USEC`` (the ``WatchdogSec=`` of the unit) and ``$WATCHDOG_PID``;
    pinging at half the period leaves room for one late ping, as ``sd_watchdog_enabled(3)``
    advises.
    """
    env = os.environ if environ is None else environ
    usec_text = env.get("WATCHDOG_USEC", "")
    if not usec_text:
        return None
    pid_text = env.get("WATCHDOG_PID", "")
    if pid_text:
        try:
            meant_for = int(pid_text)
        except ValueError:
            raise BadNotifySetting(f"WATCHDOG_PID={pid_text!r} is not a process id") from None
        if meant_for != (os.getpid() if pid is None else pid):
            return None  # set for our parent, e.g. a shell started from the service
    try:
        usec = int(usec_text)
    except ValueError:
        raise BadNotifySetting(
            f"WATCHDOG_USEC={usec_text!r} is not a whole number of microseconds"
        ) from None
    if usec <= 0:
        raise BadNotifySetting(f"WATCHDOG_USEC={usec_text!r} must be positive")
    return usec / 2_000_000


class Watchdog:
    """Pings systemd's watchdog from a thread while ``healthy()`` says the service works.

    ``healthy`` is how the service proves it is alive (the game loop answering, say): when it
    returns False or raises, pings stop and systemd restarts the service once ``WatchdogSec``
    has passed. ``tick()`` is one round, for tests and for callers with their own timer.
    """

    def __init__(
        self,
        notifier: Notifier,
        interval: float,
        healthy: Callable[[], bool] | None = None,
    ) -> None:
        if interval <= 0:
            raise ValueError(f"watchdog interval must be positive, got {interval!r}")
        self.notifier = notifier
        self.interval = interval
        self._healthy = healthy
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unhealthy_reported = False

    def tick(self) -> bool:
        """Ping once if the service is healthy; True when a ping was sent."""
        try:
            ok = True if self._healthy is None else bool(self._healthy())
        except Exception:
            log.exception("the health check raised; withholding the watchdog ping")
            ok = False
        if not ok:
            if not self._unhealthy_reported:
                log.error("service unhealthy: watchdog pings stop, systemd will restart it")
                self._unhealthy_reported = True
            return False
        self._unhealthy_reported = False
        try:
            return self.notifier.watchdog()
        except SystemdError as exc:
            log.warning("watchdog ping failed: %s", exc)
            return False

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="systemd-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop pinging and join the thread; safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            self.tick()
            if self._stop.wait(self.interval):
                return


class ServiceLink:
    """The service's whole conversation with systemd, in one object (see the module docstring).

    ``start()`` (or entering) starts the watchdog pings (when the unit asks for them);
    ``ready()`` says the page is reachable; ``close()`` (or leaving) sends ``STOPPING=1`` and
    stops the pings. Errors reaching systemd are logged, never raised: a lost notification must
    not take the game down.
    """

    def __init__(
        self,
        notifier: Notifier,
        interval: float | None = None,
        healthy: Callable[[], bool] | None = None,
    ) -> None:
        self.notifier = notifier
        self.watchdog = (
            Watchdog(notifier, interval, healthy)
            if interval is not None and notifier.enabled
            else None
        )

    @classmethod
    def from_environment(
        cls,
        healthy: Callable[[], bool] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> ServiceLink:
        try:
            notifier = Notifier.from_environment(environ)
            interval = watchdog_interval(environ)
        except BadNotifySetting as exc:
            log.warning("not talking to systemd: %s", exc)
            return cls(Notifier(None))
        return cls(notifier, interval, healthy)

    def ready(self, status: str | None = None) -> None:
        self._quietly(self.notifier.ready, status)

    def status(self, text: str) -> None:
        self._quietly(self.notifier.status, text)

    def stopping(self, status: str = "stopping") -> None:
        self._quietly(self.notifier.stopping, status)

    def start(self) -> None:
        """Start the watchdog pings (when the unit asks for them)."""
        if self.watchdog is not None:
            self.watchdog.start()

    def close(self, status: str = "stopping") -> None:
        """Say ``STOPPING=1`` and stop the pings; safe to call twice."""
        self.stopping(status)
        if self.watchdog is not None:
            self.watchdog.stop()

    def __enter__(self) -> ServiceLink:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close("stopping" if exc is None else f"stopping after {type(exc).__name__}")

    @staticmethod
    def _quietly(send: Callable[..., bool], *args: object) -> None:
        try:
            send(*args)
        except SystemdError as exc:
            log.warning("could not notify systemd: %s", exc)
