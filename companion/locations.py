"""Where the installed companion keeps things on a Raspberry Pi (see docs/install-pi.md).

The service's units, the install script and ``doctor`` agree on these. The units hand ``serve``
and ``games clean`` the journal as ``--journal %S/senet-companion/journal.sqlite3``, which is
:func:`journal_path` under systemd.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

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


def journal_path(environ: Mapping[str, str] | None = None) -> Path:
    """The installed service's game journal, in its state directory."""
    return state_directory(environ) / JOURNAL_FILE
