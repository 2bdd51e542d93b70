"""The web page's exceptions: one tree, each class also a built-in."""

from __future__ import annotations

import math

__all__ = ["NotAllowed", "TooManyAttempts", "TooManyClients", "WebConfigError", "WebError"]


class WebError(Exception):
    """Something the phone page cannot do; the message says what to change."""


class WebConfigError(WebError, ValueError):
    """The ``[web]`` table of the configuration file is not usable."""


class NotAllowed(WebError, PermissionError):
    """A request this phone may not make (spectator, no PIN session, bad CSRF token)."""


class TooManyAttempts(WebError, RuntimeError):
    """Too many wrong PINs (or actions): the next is accepted after ``retry_after`` seconds."""

    def __init__(self, retry_after: float, what: str = "wrong PINs") -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"too many {what}; wait {self.retry_after} seconds before trying again")


class TooManyClients(WebError, ConnectionError):
    """The live-update stream already serves as many phones as the configuration allows."""
