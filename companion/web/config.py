"""The ``[web]`` table of the configuration file: PIN, phone input, languages, idle times.

    [web]
    pin = "2468"             # administration PIN (4 to 12 digits); no PIN: no administration
    phone_input = true       # phones may throw, move and answer decisions
    languages = ["en", "pt", "fr"]
    default_language = "en"  # when the browser asks for none of them
    admin_timeout = 900      # idle seconds before the administration PIN is asked again
    idle_after = 600         # seconds without play before the page asks "Still playing?"
    idle_reset = 180         # seconds without an answer before a new game waits
    max_clients = 200        # phones following the live updates at once
    secret_key = "..."       # keeps PIN sessions across restarts; random per process if absent

The hardware layer validates the other tables of the same file and ignores this one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from companion.web.errors import WebConfigError

__all__ = ["LANGUAGES", "WebConfig"]

# The languages the page has catalogues for: code -> name in that language.
LANGUAGES = {"en": "English", "pt": "Português", "fr": "Français"}


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The phone page's settings, validated."""

    pin: str | None = None
    phone_input: bool = True
    languages: tuple[str, ...] = ("en", "pt", "fr")
    default_language: str = "en"
    admin_timeout: float = 900.0
    idle_after: float = 600.0
    idle_reset: float = 180.0
    max_clients: int = 200
    secret_key: str | None = None

    def __post_init__(self) -> None:
        if self.pin is not None and not (self.pin.isdigit() and 4 <= len(self.pin) <= 12):
            raise WebConfigError("[web] pin must be 4 to 12 digits, written as a string")
        unknown = [code for code in self.languages if code not in LANGUAGES]
        if unknown or not self.languages:
            raise WebConfigError(
                f"[web] languages must be a non-empty list of {sorted(LANGUAGES)}, "
                f"got {list(self.languages)}"
            )
        if self.default_language not in self.languages:
            raise WebConfigError(
                f"[web] default_language {self.default_language!r} is not one of languages"
            )
        for name in ("admin_timeout", "idle_after", "idle_reset"):
            if getattr(self, name) <= 0:
                raise WebConfigError(f"[web] {name} must be a positive number of seconds")
        if not 1 <= self.max_clients <= 1000:
            raise WebConfigError("[web] max_clients must be between 1 and 1000")

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any]) -> WebConfig:
        """Build from the ``[web]`` table as parsed from TOML, naming any wrong key."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in table.items():
            if key not in known:
                raise WebConfigError(
                    f"[web] has an unknown key {key!r}; known keys: {', '.join(sorted(known))}"
                )
            values[key] = _convert(key, value)
        return cls(**values)

    @classmethod
    def from_file(cls, path: str | Path) -> WebConfig:
        """Read the ``[web]`` table of a TOML configuration file (defaults if it has none)."""
        try:
            with open(path, "rb") as handle:
                data = tomllib.load(handle)
        except OSError as exc:
            raise WebConfigError(f"cannot read configuration {path}: {exc.strerror}") from exc
        except tomllib.TOMLDecodeError as exc:
            raise WebConfigError(f"configuration {path} is not valid TOML: {exc}") from exc
        table = data.get("web", {})
        if not isinstance(table, dict):
            raise WebConfigError(f"configuration {path}: [web] must be a table")
        return cls.from_mapping(table)


def _convert(key: str, value: Any) -> Any:
    if key in ("pin", "secret_key", "default_language"):
        if isinstance(value, int) and not isinstance(value, bool) and key == "pin":
            raise WebConfigError('[web] pin must be a string in quotes, e.g. pin = "2468"')
        if not isinstance(value, str):
            raise WebConfigError(f"[web] {key} must be a string")
        return value
    if key == "phone_input":
        if not isinstance(value, bool):
            raise WebConfigError("[web] phone_input must be true or false")
        return value
    if key == "languages":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise WebConfigError('[web] languages must be a list of codes, e.g. ["en", "pt"]')
        return tuple(value)
    if key == "max_clients":
        if not isinstance(value, int) or isinstance(value, bool):
            raise WebConfigError("[web] max_clients must be a whole number")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WebConfigError(f"[web] {key} must be a number of seconds")
    return float(value)
