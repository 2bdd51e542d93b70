"""A ruleset's documentation for its rules page, from the ruleset itself.

The text comes from the ruleset class: its one-line summary, its source, and its docstring,
which cites the source and states every reading the source leaves open. The rules document of
the project is written from the same docstrings, so the page and the document cannot disagree.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

__all__ = ["RulesDoc", "ruleset_doc"]


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
    blocks: tuple[tuple[str, tuple[str, ...]], ...]  # ("p", (text,)) or ("ul", items)


def ruleset_doc(cls: Any) -> RulesDoc:
    """The documentation of ruleset class ``cls`` (an entry of ``RULESETS``)."""
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
        blocks=_blocks(inspect.getdoc(cls) or ""),
    )


def _blocks(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Paragraphs and bullet lists of a docstring (its first line is the title, left out)."""
    blocks: list[tuple[str, tuple[str, ...]]] = []
    paragraph: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(("p", (" ".join(paragraph),)))
            paragraph.clear()
        if items:
            blocks.append(("ul", tuple(items)))
            items.clear()

    for line in text.splitlines()[1:]:
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("- "):
            if paragraph:
                flush()
            items.append(stripped[2:])
        elif items and line.startswith("  "):
            items[-1] += " " + stripped
        else:
            if items:
                flush()
            paragraph.append(stripped)
    flush()
    return tuple(blocks)
