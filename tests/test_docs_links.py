"""The README is a front door (short, its commands first, its snippets run) and every relative link
in it and in docs/ leads to a file of the repository, and to a heading of that file where it names
one. (The documentation site's build checks the same with warnings as errors: `.ci/run`.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from doc_anchors import FENCE, anchors

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [a or b for a, b in LINK.findall(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_no_page_links_outside_the_repository() -> None:
    for page in PAGES:
        for target in links(page):
            if not re.match(r"[a-z]+:", target):
                dest = (page.parent / target.partition("#")[0]).resolve()
                assert dest.is_relative_to(ROOT), f"{page}: {target} leaves the repository"


def test_the_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 160, f"README.md has {len(lines)} lines: details belong in docs/"


def test_the_readme_python_snippets_run(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    snippets = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(snippets) >= 2
    script = tmp_path / "snippets.py"
    script.write_text("\n".join(snippets), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Current Location" in done.stdout
