"""Languages: the visitor's language from the browser or their choice, and the catalogues.

The ``.po`` catalogues are the source (``translations/<code>/LC_MESSAGES/messages.po``); the
``.mo`` files gettext reads are compiled from them with Babel's API when the app starts, next
to the ``.po`` files when the package directory is writable, else in a cache directory.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import current_app, request, session

__all__ = ["TRANSLATIONS", "compile_catalogues", "select_locale"]

TRANSLATIONS = Path(__file__).parent / "translations"
_LANG = "lang"


def compile_catalogues(source: Path = TRANSLATIONS) -> Path:
    """Compile every out-of-date ``.po`` to ``.mo``; returns the directory gettext should read."""
    target = source if os.access(source, os.W_OK) else _cache_dir()
    for po in sorted(source.glob("*/LC_MESSAGES/messages.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with open(po, "rb") as handle:
            catalogue = read_po(handle, locale=po.parent.parent.name)
        partial = mo.with_suffix(f".{os.getpid()}.tmp")
        with open(partial, "wb") as handle:
            write_mo(handle, catalogue)
        partial.replace(mo)  # atomic: two processes starting together never read half a file
    return target


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(tempfile.gettempdir(), "senet-cache")
    return Path(base) / "senet-companion" / "translations"


def select_locale() -> str:
    """The language chosen on this phone, else the browser's best match, else the default."""
    config = current_app.extensions["senet"].config
    chosen = session.get(_LANG)
    if isinstance(chosen, str) and chosen in config.languages:
        return chosen
    best = request.accept_languages.best_match(config.languages)
    return best or config.default_language


def choose_locale(code: str) -> None:
    session[_LANG] = code
