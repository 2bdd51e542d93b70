"""The rules engine's exceptions: each is also the built-in a caller would expect."""

from __future__ import annotations

__all__ = ["IllegalMove", "NotationError", "SenetError", "UnknownRuleset"]


class SenetError(Exception):
    """Base of every error the rules engine raises."""


class NotationError(SenetError, ValueError):
    """Text that is not a valid position, move or throw; the message names the faulty field."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class IllegalMove(SenetError, ValueError):
    """A well-formed move that the ruleset does not allow in this position for this throw."""


class UnknownRuleset(SenetError, LookupError):
    """A ruleset name the engine does not know."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown ruleset"
