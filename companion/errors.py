"""The game loop's exceptions: one tree, each class also the built-in a caller would expect.

The rules engine has its own tree (`companion.rules.SenetError`); these are about running a
game: the journal on disk, the loop, events and replay scripts.
"""

from __future__ import annotations

__all__ = [
    "CompanionError",
    "EventFormatError",
    "GameRecordError",
    "JournalError",
    "LoopError",
    "ReplayError",
]


class CompanionError(Exception):
    """Base of every error of the game loop, the journal and the replay."""


class JournalError(CompanionError, OSError):
    """The journal file cannot be used; the message says which file and what to do."""


class GameRecordError(JournalError, ValueError):
    """A text game record that is malformed or describes an illegal game."""


class LoopError(CompanionError, RuntimeError):
    """The game loop cannot start or go on; the message says why and what to do."""


class EventFormatError(CompanionError, ValueError):
    """A journal row or script event that does not describe a known event."""


class ReplayError(CompanionError, ValueError):
    """A replay script line or file that cannot be used; the message names it."""
