"""No comment, docstring, test or page of the repository cites a document that is not in it.

The game's rules are written down in docs/mechanics/ (and the published games, rule packs, world
format and layering in docs/agentodyssey-games.md, docs/rule-packs.md, docs/world-format.md and
docs/architecture.md). Code cites those pages as `docs/<page>.md#<anchor>`; a quirk is cited by
its name (the heading on its page) and, where one exists, the setting that switches it. This test
fails on the old citation forms (section numbers of outside documents, bare quirk numbers, "the
spec"), on absolute paths and paths outside the repository, and on a cited anchor that no heading
of its page has."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from doc_anchors import anchors

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = {".py", ".md", ".toml", ".cfg", ".yml", ".yaml", ".json"}
PROSE_SUFFIXES = SUFFIXES - {".json"}  # data files are searched for paths only
# Outside documents: the behaviour notes the mechanics pages replace, and AgentOdyssey's own files.
OUTSIDE = (
    r"actions|step-rules|rule-framework|rewards-and-progression|observations-and-loop"
    r"|dependency-tracker|world-synthesis|world-definition|quest-conditions|STYLE|ARCHITECTURE"
)
OLD_FORMS = {
    "a section number of an outside document": re.compile(
        rf"(?<![\w/#-])(?i:{OUTSIDE})(?:\.md)?\s+(?:sections?\s+)?(?:\d|§|[CS]\d)"
    ),
    "an outside behaviour document": re.compile(
        r"(?<![\w/#-])(?:actions|step-rules|rule-framework|dependency-tracker|quest-conditions"
        r"|world-definition|robot_kingdom|quarantine|metropolis)\.md(?![#)\w])"
        r"|(?<![\w/#-])(?:rule-framework|observations-and-loop|rewards-and-progression"
        r"|dependency-tracker|quest-conditions)\b"
    ),
    "the spec": re.compile(
        r"\bSpec:|\(spec:\s+[a-z]+[-.]|\b[Ss]pec(?:'s\b|\s+(?:\d|§|quirk|sections?\b|[a-z-]+\.md|step-rules|actions"
        r"|rule-|world-|synthesis|dependency|observations|rewards|metropolis"
        r"|robot_kingdom|quarantine))|\b[Tt]he spec\b|\b(?:synthesis|world-definition) spec\b"
        r"|\b(?:[Ii]ts|their) spec\b|\b[Ss]pec (?:recommends|says|gives|obs|prescribes)\b"
    ),
    "a quirk number": re.compile(r"\b[Qq]uirks? \d"),
    "a section sign": re.compile("\u00a7"),
    "a style or architecture note": re.compile(r"\b(?:STYLE|ARCHITECTURE)\b|README section"),
    "a section number instead of an anchor": re.compile(r"(?<![\w-])[\w-]+\.md,?\s+(?:\d|§)"),
    "a quoted heading instead of an anchor": re.compile(r'docs/[\w/-]+\.md "'),
    "an item of the published games' quest notes": re.compile(r"\([BCSE]\d{1,2}(?:\)|: )"),
}
SECTION_NEXT_LINE = re.compile(r"\s*(?:#\s*)?\d+(?:\.\d+)*\b")
# Bare "section 7" means a section of an outside document in code; pages number their own.
CODE_FORMS = {"a bare section number": re.compile(r"\b[Ss]ections? \d")}
PATHS = re.compile(
    r"(?<![\w.~/:-])/(?:work|home|tmp|Users|mnt|opt|root|srv|scratch|shared)(?:/|\b)"
    r"|\.\./shared\b|[A-Za-z]:\\\\[A-Za-z]"
)
CITED = re.compile(r"(?<![\w/.-])(docs/[\w/-]+\.md)#([\w-]+)")
SKIP = {"tests/test_citations.py"}  # its own examples of the old forms


def repository_files() -> list[Path]:
    """The repository's files (git's list, untracked ones included; a plain walk outside git)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        skipped = {".git", ".venv", "build", "dist", "site", "__pycache__", "node_modules"}
        listed = [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if not skipped & set(p.relative_to(ROOT).parts)
        ]
    return sorted(
        ROOT / f
        for f in listed
        if Path(f).suffix in SUFFIXES and f not in SKIP and (ROOT / f).is_file()
    )


def old_citations(path: str, text: str) -> list[str]:
    """`path:line: what` for every old citation form and every outside path in `text`."""
    suffix = Path(path).suffix
    forms = {**OLD_FORMS, **CODE_FORMS} if suffix in {".py", ".toml", ".cfg", ".yml"} else OLD_FORMS
    found = []
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        wrapped = number < len(lines) and SECTION_NEXT_LINE.match(lines[number])
        if suffix in PROSE_SUFFIXES and line.endswith(".md") and wrapped:  # `page.md` / `11.1`
            found.append(f"{path}:{number}: a section number instead of an anchor")
        if suffix in PROSE_SUFFIXES:
            found += [
                f"{path}:{number}: {what}" for what, form in forms.items() if form.search(line)
            ]
        if PATHS.search(line):
            found.append(f"{path}:{number}: a path outside the repository")
    return found


def broken_anchors(path: str, text: str) -> list[str]:
    """`path:line: target` for every cited `docs/<page>.md#<anchor>` that is not a heading there."""
    broken = []
    for number, line in enumerate(text.splitlines(), 1):
        for page, anchor in CITED.findall(line):
            target = ROOT / page
            if not target.is_file() or anchor not in anchors(target):
                broken.append(f"{path}:{number}: {page}#{anchor}")
    return broken


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8", errors="replace")
        for p in repository_files()
    }


def test_no_file_cites_an_outside_document_or_path(texts: dict[str, str]) -> None:
    found = [hit for path, text in texts.items() for hit in old_citations(path, text)]
    assert not found, f"{len(found)} old citations or outside paths:\n" + "\n".join(found)


def test_every_cited_docs_anchor_is_a_heading(texts: dict[str, str]) -> None:
    broken = [hit for path, text in texts.items() for hit in broken_anchors(path, text)]
    assert not broken, "cited anchors no heading has:\n" + "\n".join(broken)


@pytest.mark.parametrize(
    "planted",
    [
        "# spec actions.md section 14",
        "# see actions.md 7.4 for the clamp",
        '"""Rule pack `base`; spec step-rules.md 8.8."""',
        "# step-rules 8 and quirk 18",
        "# fixed (quirk 4)",
        "# (spec 0.4 holds it back)",
        "# observations-and-loop 10",
        "# rewards-and-progression 7.3",
        "# rule-framework section 5",
        "# dependency-tracker 2.1",
        "# world-synthesis section 9",
        '"""World-definition 4.2, the instance form."""',
        "# the world-definition spec",
        "# \u00a7 8",
        "# STYLE section 2",
        '"""Import direction (ARCHITECTURE "Layers")."""',
        "# as the spec recommends",
        "# run; its spec recommends this order.",
        "# spec obs 10 recommends listing it",
        "# robot_kingdom.md 6.5's table",
        "# quarantine.md 3.2",
        "# quest-conditions.md S4",
        "# each at its area's level (S1); moved (S2: a second NPC)",
        "# docs/world-format.md 11.1",
        '# docs/rule-packs.md "The courts pack"',
        "# (see docs/world-format.md\n# 11.1 for it)",
        "# refers to section 3",
        'PATH = "/work/main/worlds"',
        "# from ../shared/notes",
    ],
)
def test_the_search_finds_a_planted_citation(planted: str) -> None:
    assert old_citations("planted.py", f"x = 1\n{planted}\n") != []


@pytest.mark.parametrize(
    "clean",
    [
        "# docs/mechanics/verbs.md#craft: the product appears on the ground",
        "# the expansion spec (`places`, `objects`, `npcs`)",
        "spec = importlib.util.spec_from_file_location(name, path)",
        "# see README.md and docs/world-format.md#111-main-quest",
        "PROMPT_STYLES = ('native', 'reference')",
        "link = '[step rules](step-rules.md#main-quest)'",
    ],
)
def test_the_search_passes_ours(clean: str) -> None:
    assert old_citations("clean.py", clean) == []


def test_a_planted_broken_anchor_is_found() -> None:
    good = "# docs/mechanics/verbs.md#craft"
    assert broken_anchors("x.py", good) == []
    assert broken_anchors("x.py", "# docs/mechanics/verbs.md#no-such-heading") != []
    assert broken_anchors("x.py", "# docs/mechanics/nowhere.md#craft") != []
