"""Where the installed companion keeps things on a Raspberry Pi (see docs/install-pi.md).

The service's unit, the install script, ``doctor`` and ``maintain`` agree on these through this
module; ``serve`` should ask :func:`journal_path` where the journal lives.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_CONFIG",
    "DEFAULT_STATE_DIR",
    "DEPLOYMENT_FILE",
    "JOURNAL_FILE",
    "journal_path",
    "state_directory",
]

DEFAULT_CONFIG = Path("/etc/senet-companion/config.toml")
DEPLOYMENT_FILE = Path("/etc/default/senet-companion")
DEFAULT_STATE_DIR = Path("/var/lib/senet-companion")
JOURNAL_FILE = "journal.sqlite3"


def state_directory(environ: Mapping[str, str] | None = None) -> Path:
    """The service's own writable directory: systemd's ``$STATE_DIRECTORY``, else the default."""
    env = os.environ if environ is None else environ
    first = env.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(first) if first else DEFAULT_STATE_DIR


def journal_path(
    config: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The game journal: ``[journal] path`` of the configuration, else in the state directory."""
    table = (config or {}).get("journal")
    if isinstance(table, Mapping):
        path = table.get("path")
        if isinstance(path, str) and path:
            return Path(path)
    return state_directory(environ) / JOURNAL_FILE
