"""The bots' exceptions: each is also the built-in a caller would expect."""

from __future__ import annotations

__all__ = ["BotError", "NoChoice", "UnknownBot", "UnplayableRuleset"]


class BotError(Exception):
    """Base of every error the bots raise."""


class UnknownBot(BotError, LookupError):
    """A bot level that does not exist."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown bot level"


class NoChoice(BotError, ValueError):
    """A bot was asked to move when the position offers no move to choose."""


class UnplayableRuleset(BotError, RuntimeError):
    """The ruleset does not say which throw continues a turn, so a game cannot be played on."""
