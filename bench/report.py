"""Writing one benchmark's section of docs/benchmarks.md, leaving the other sections alone."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def write_section(title: str, section: str, path: Path = DOC) -> None:
    """Replace the ``## title`` section of ``path`` with ``section`` (which starts with that
    heading), or append it; the file is created with a title if missing."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    body = section.rstrip("\n") + "\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: body + "\n", text, count=1).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + body
    path.write_text(text, encoding="utf-8")
