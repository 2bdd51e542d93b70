"""Commands from the phone, the admin page and the clock: small immutable values for the loop.

They travel on the game loop's event queue next to the hardware events of
:mod:`hardware.events`; the loop is their only consumer. `encode` and `decode` turn any of them
into a JSON-able dict and back, for the journal and the replay scripts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from companion.errors import EventFormatError
from hardware.events import (
    BoardSnapshot,
    HardwareEvent,
    HardwareFault,
    SquareChanged,
    SquarePressed,
    ThrowRequested,
    ThrowSettled,
)

__all__ = [
    "BotMove",
    "Command",
    "Decide",
    "Event",
    "EventFormatError",
    "Hint",
    "NewGame",
    "PlayMove",
    "SetBot",
    "StillPlaying",
    "Throw",
    "Tick",
    "decode",
    "encode",
    "kind_of",
]


@dataclass(frozen=True, slots=True)
class Throw:
    """An electronic throw: rolled by the loop when both fields are None, else as given."""

    faces: tuple[int, ...] | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class PlayMove:
    """A move tapped on the phone, in the project notation (``9-12``, ``28-off``)."""

    move: str


@dataclass(frozen=True, slots=True)
class Decide:
    """The answer to the pending decision: the ``id`` of one of its choices."""

    choice: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start a new game of ``ruleset`` with its named options."""

    ruleset: str
    options: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class SetBot:
    """Let the computer play ``side`` ("W" or "B") at ``level``; level "none" hands the side
    back to a person, and side None hands both back."""

    side: str | None
    level: str = "none"


@dataclass(frozen=True, slots=True)
class Hint:
    """Ask which move the companion would suggest."""


@dataclass(frozen=True, slots=True)
class StillPlaying:
    """The answer to the idle prompt: the players are still there."""


@dataclass(frozen=True, slots=True)
class BotMove:
    """The computer's choice for the side it plays (made by the loop itself, and kept in the
    journal so a replay follows it); on a physical board a person carries it out."""

    move: str


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: let the loop look at its timers (settling, idle prompts)."""


Command = Throw | PlayMove | Decide | NewGame | SetBot | Hint | StillPlaying | Tick | BotMove
Event = Command | HardwareEvent


_KINDS: dict[str, type[Any]] = {
    "throw": Throw,
    "play-move": PlayMove,
    "decide": Decide,
    "new-game": NewGame,
    "set-bot": SetBot,
    "hint": Hint,
    "still-playing": StillPlaying,
    "tick": Tick,
    "bot-move": BotMove,
    "throw-settled": ThrowSettled,
    "throw-requested": ThrowRequested,
    "square-changed": SquareChanged,
    "square-pressed": SquarePressed,
    "board-snapshot": BoardSnapshot,
    "hardware-fault": HardwareFault,
}
_NAMES = {cls: kind for kind, cls in _KINDS.items()}


def kind_of(event: Event) -> str:
    """The stable name of an event's kind (``throw``, ``square-changed``...)."""
    return _NAMES.get(type(event), type(event).__name__)


def encode(event: Event) -> dict[str, Any]:
    """A JSON-able dict for ``event``: ``{"kind": ..., <fields>}``."""
    data: dict[str, Any] = {"kind": kind_of(event)}
    if not dataclasses.is_dataclass(event):
        return data
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if isinstance(value, (tuple, frozenset)):
            value = sorted(value) if isinstance(value, frozenset) else list(value)
        data[field.name] = value
    return data


def decode(data: dict[str, Any]) -> Event:
    """The event described by ``data`` (as made by `encode`), or `EventFormatError`."""
    if not isinstance(data, dict):
        raise EventFormatError(f"an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventFormatError(f"unknown event kind {kind!r}; known: {', '.join(_KINDS)}")
    kwargs: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        if field.name not in data:
            continue
        value = data[field.name]
        if field.name in ("faces", "squares") and value is not None:
            value = tuple(_int_list(str(kind), field.name, value))
        elif field.name == "occupied" and cls is BoardSnapshot:
            value = frozenset(_int_list(str(kind), field.name, value))
        kwargs[field.name] = value
    try:
        return cls(**kwargs)  # type: ignore[no-any-return]
    except TypeError as exc:
        raise EventFormatError(f"{kind}: {exc}") from None


def _int_list(kind: str, name: str, value: Any) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise EventFormatError(f"{kind}: {name} must be a list of whole numbers, got {value!r}")
    return value
