"""The web page's exceptions: one tree, each class also a built-in."""

from __future__ import annotations

__all__ = ["NotAllowed", "TooManyAttempts", "TooManyClients", "WebConfigError", "WebError"]


class WebError(Exception):
    """Something the phone page cannot do; the message says what to change."""


class WebConfigError(WebError, ValueError):
    """The ``[web]`` table of the configuration file is not usable."""


class NotAllowed(WebError, PermissionError):
    """A request this phone may not make (spectator, no PIN session, bad CSRF token)."""


class TooManyAttempts(WebError, RuntimeError):
    """Too many wrong PINs: the next attempt is accepted after ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, round(retry_after + 0.5))
        super().__init__(
            f"too many wrong PINs; wait {self.retry_after} seconds before trying again"
        )


class TooManyClients(WebError, ConnectionError):
    """The live-update stream already serves as many phones as the configuration allows."""
