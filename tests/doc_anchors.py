"""Headings and their anchors in the repository's Markdown pages (shared by the docs tests)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MkDocs write it."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """The anchors of every heading of `page` (headings inside code fences are not headings)."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return frozenset(slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M))
