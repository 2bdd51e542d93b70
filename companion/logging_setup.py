"""Logging for the service: one handler on standard error, which systemd puts in its journal.

Under systemd, standard error is a stream into journald (the unit file leaves it so). Each line
then starts with a syslog priority such as ``<4>`` so ``journalctl -p warning`` filters by level,
and carries no timestamp of its own because the journal stamps every line. Run by hand, lines
carry the time and the level name instead. journald rotates and caps its files itself
(``SystemMaxUse=``, see ``deploy/journald-senet-companion.conf``): the service writes no log
files and needs no logrotate.

The level comes from ``$SENET_LOG_LEVEL`` when set (to look closer without editing the
configuration), else from the configuration's ``[logging] level``, else INFO.
"""

from __future__ import annotations

import logging
import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

__all__ = [
    "LEVELS",
    "JournalFormatter",
    "configure_logging",
    "level_from_config",
    "parse_level",
    "stream_is_journal",
]

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
ENV_LEVEL = "SENET_LOG_LEVEL"

# syslog priorities (sd-daemon(3)): what journald reads from a "<N>" line prefix.
_PRIORITY = {
    logging.DEBUG: 7,
    logging.INFO: 6,
    logging.WARNING: 4,
    logging.ERROR: 3,
    logging.CRITICAL: 2,
}


def level_from_config(path: str | Path | None) -> str | int | None:
    """``[logging] level`` of a configuration file, or None (unreadable files are doctor's)."""
    if path is None:
        return None
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    table = data.get("logging")
    level = table.get("level") if isinstance(table, dict) else None
    return level if isinstance(level, str | int) and not isinstance(level, bool) else None


def parse_level(text: str | int) -> int:
    """A logging level from its name (any case) or number; ValueError naming the choices."""
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"log level must not be negative, got {text}")
        return text
    name = text.strip().upper()
    if name == "WARN":
        name = "WARNING"
    if name not in LEVELS:
        raise ValueError(f"unknown log level {text!r}: choose one of {', '.join(LEVELS)}")
    return int(getattr(logging, name))


def _priority(levelno: int) -> int:
    for threshold in (logging.CRITICAL, logging.ERROR, logging.WARNING, logging.INFO):
        if levelno >= threshold:
            return _PRIORITY[threshold]
    return _PRIORITY[logging.DEBUG]


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message``, every line of a multi-line record prefixed alike."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).split("\n"))


def stream_is_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is systemd's journal stream (``$JOURNAL_STREAM`` = device:inode)."""
    env = os.environ if environ is None else environ
    expected = env.get("JOURNAL_STREAM", "")
    device, _, inode = expected.partition(":")
    try:
        stat = os.fstat(stream.fileno())
        return (stat.st_dev, stat.st_ino) == (int(device), int(inode))
    except (OSError, ValueError, AttributeError):
        return False


class _ServiceHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler this module installed, so configuring again replaces it."""


def configure_logging(
    level: str | int | None = None,
    *,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> logging.Handler:
    """Send the root logger to ``stream`` (standard error) at the chosen level.

    ``level`` is the configuration's value; ``$SENET_LOG_LEVEL`` overrides it. A level that
    cannot be read falls back to INFO with a warning in the log rather than stopping the
    service (``senet-companion doctor`` reports it as a configuration error). Calling again
    replaces the handler, it never adds a second one.
    """
    env = os.environ if environ is None else environ
    out = sys.stderr if stream is None else stream
    problems = []
    chosen = logging.INFO
    for source, value in (("configuration", level), (ENV_LEVEL, env.get(ENV_LEVEL))):
        if value is None or value == "":
            continue
        try:
            chosen = parse_level(value)
        except ValueError as exc:
            problems.append(f"{source}: {exc}")

    handler = _ServiceHandler(out)
    if stream_is_journal(out, env):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _ServiceHandler)]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(chosen)
    # Library warnings (gpiozero's pin factory fall-backs among them) belong in the journal.
    logging.captureWarnings(True)
    for problem in problems:
        logging.getLogger(__name__).warning("ignoring log level from %s", problem)
    return handler
