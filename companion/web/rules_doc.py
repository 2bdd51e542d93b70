"""A ruleset's documentation for its rules page: the project's rules document, ``docs/rules.md``.

Each ruleset has a section there headed with its name in backquotes (``## `isac` — ...``); the
page shows that section, so the page and the document cannot disagree. The package carries the
document (``companion/web/rules.md`` links to it in the source tree). Where it has no section for
a ruleset, the page falls back to the
ruleset class itself: its summary, its source and its docstring, which cites the source and
states every reading the source leaves open.
"""

from __future__ import annotations

import functools
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markdown
from markupsafe import Markup

__all__ = ["RULES_DOCUMENT", "RulesDoc", "document_intro", "ruleset_doc", "section_of"]

# A link to docs/rules.md in the source tree; an installed package carries a copy of it.
RULES_DOCUMENT = Path(__file__).with_name("rules.md")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$", re.M)


@dataclass(frozen=True, slots=True)
class RulesDoc:
    name: str
    title: str
    summary: str
    source: str
    author: str
    year: str
    throws: str
    squares: tuple[tuple[int, str], ...]
    options: tuple[tuple[str, str, tuple[str, ...], str], ...]
    html: Markup  # the ruleset's section of the rules document, else its docstring
    from_document: bool


def section_of(text: str, name: str) -> str | None:
    """The Markdown of the section headed `` `name` `` (without its heading), or None."""
    headings = list(_HEADING.finditer(text))
    for i, h in enumerate(headings):
        if re.match(rf"`{re.escape(name)}`", h.group(2)):
            level = len(h.group(1))
            end = next((n.start() for n in headings[i + 1 :] if len(n.group(1)) <= level), None)
            return text[h.end() : end].strip()
    return None


def document_intro(path: Path | None = None) -> Markup | None:
    """The rules document's opening paragraphs (after its title, before its first section)."""
    text = _read(path or RULES_DOCUMENT)
    headings = list(_HEADING.finditer(text))
    start = headings[0].end() if headings and len(headings[0].group(1)) == 1 else 0
    following = [h.start() for h in headings if h.start() >= start]
    intro = text[start : following[0] if following else len(text)].strip()
    intro = re.sub(r"<!--.*?-->", "", intro, flags=re.S).strip()
    return _html(intro) if intro else None


def _html(text: str) -> Markup:
    # The document is the project's own text, not visitors' input.
    return Markup(markdown.markdown(text, extensions=["tables"], output_format="html"))


@functools.lru_cache(maxsize=4)
def _read_cached(path: Path, mtime: float) -> str:
    return path.read_text(encoding="utf-8")


def _read(path: Path) -> str:
    try:
        return _read_cached(path, path.stat().st_mtime)
    except OSError:
        return ""


def ruleset_doc(cls: Any, path: Path | None = None) -> RulesDoc:
    """The documentation of ruleset class ``cls`` (an entry of ``RULESETS``)."""
    text = _read(path or RULES_DOCUMENT)
    # Variants named "base-option-..." share their base ruleset's section.
    section = section_of(text, cls.name) or section_of(text, cls.name.split("-")[0])
    model = getattr(cls, "throw_model", None)
    return RulesDoc(
        name=cls.name,
        title=cls.title,
        summary=cls.summary,
        source=cls.source,
        author=cls.author,
        year=str(cls.year),
        throws=str(getattr(model, "description", "")),
        squares=tuple(sorted(dict(cls.square_names).items())),
        options=tuple(
            (key, option.default, tuple(option.choices), option.help)
            for key, option in dict(cls.options).items()
        ),
        html=_html(section if section else _docstring(cls)),
        from_document=section is not None,
    )


def _docstring(cls: Any) -> str:
    """The docstring after its title line, with reStructuredText literals made Markdown."""
    text = (inspect.getdoc(cls) or "").partition("\n")[2]
    return text.replace("``", "`")
