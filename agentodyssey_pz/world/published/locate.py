"""Finding the user's copy of AgentOdyssey and reading its files.

Layer: world core. Where the copy comes from, first match:

1. `AGENTODYSSEY_HOME`: a folder holding AgentOdyssey's `games/` and `assets/` (a checkout, or a
   folder made with `pip install --no-deps --target DIR agentodyssey==0.1.0`);
2. the installed `agentodyssey` distribution, found through `importlib.metadata` (never through
   `import games`: its top-level names are generic and may belong to another distribution).

Known files are compared with the digests of version 0.1.0, the version the importer was written
for, so a different copy is reported instead of being misread.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import os
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import PublishedGameError

DISTRIBUTION = "agentodyssey"
VERSION = "0.1.0"
HOME_VARIABLE = "AGENTODYSSEY_HOME"
HOW_TO_GET = (
    f"pip install --no-deps {DISTRIBUTION}=={VERSION} (its files are enough: --no-deps skips its "
    f"many GB of dependencies), or set {HOME_VARIABLE} to a folder holding its games/ and assets/"
)

# SHA-256 digests (URL-safe base64 without padding, as in a wheel's RECORD) of the files the
# importer reads, in version 0.1.0 (docs/agentodyssey-games.md).
KNOWN_DIGESTS = {
    "assets/world_definitions/base/default.json": "ydUGHJ6qvDOm5NckewtQgjUY7WyOh1fF4qoZOyse5yk",
    "games/base/rules/step_rules/main_quest.py": "WqtE74XQGuwZwEA6FH3owBLCFvpv9b-vguI9-D5KMDk",
    "assets/world_definitions/generated/remnant/default.json": (
        "RHsrMOs0hoveUGxPzioQChQ_v0zPF7Q9gxt8oGTJaHU"
    ),
    "games/generated/remnant/rules/step_rules/main_quest.py": (
        "TEqWV2mD6xWRxq1bLH1F0top3ptq1TaoV0vklP_8JBs"
    ),
    "assets/world_definitions/generated/mark/default.json": (
        "V9wSgsovcR8ys_iZ6NL8TG9pfSHZtHLM8NUYCSqbsSw"
    ),
    "games/generated/mark/rules/step_rules/main_quest.py": (
        "4_dxWriIlpsneMHXuLPvGaNMzkpY97My8EvBY8bBsgs"
    ),
    "assets/world_definitions/generated/metropolis/default.json": (
        "wweIG_brr0Sd3sEdxdhG-DSLSA1oz6nXfYYsyrhxyJ0"
    ),
    "games/generated/metropolis/rules/step_rules/main_quest.py": (
        "rgA7i-pBekaFF45x4QUBpXSsd230wPooM7Hapw1Aq2M"
    ),
    "assets/world_definitions/generated/quarantine/default.json": (
        "xzke1bcf7HMkuPtH5XD-w_6fB06sfUWZRCSwnk5CShU"
    ),
    "games/generated/quarantine/rules/step_rules/main_quest.py": (
        "MS51GucpRJUGR_V4JdNRqFqwQ_rj1udvgw4ozvRMFgU"
    ),
    "assets/world_definitions/generated/robot_kingdom/default.json": (
        "fpTSuZqe6t5JbiPDnoG-DFTNK22DT--EhchOUKcvKJc"
    ),
    "games/generated/robot_kingdom/rules/step_rules/main_quest.py": (
        "bCEuJ9rK6xXtMdQuA18iQaUeaC4jzLhejgW5MRNW7-k"
    ),
    "assets/world_definitions/generated/saltglass/default.json": (
        "VLyI_GrLP3pd7LhNLwmr827AZ-SzOpQqcsH2T2YSW0Y"
    ),
    "games/generated/saltglass/rules/step_rules/main_quest.py": (
        "tTgBICjohtrUK-BYdv_mVMv0i3T978hs7jQzV5EhiFM"
    ),
}


def file_digest(path: Path) -> str:
    """A file's SHA-256 as a wheel's RECORD writes it."""
    raw = hashlib.sha256(path.read_bytes()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@attrs.frozen
class PublishedCopy:
    """One copy of AgentOdyssey: the folder its `games/` and `assets/` are in, and where it was
    found (for messages)."""

    root: Path
    origin: str
    version: str | None = None

    def path(self, rel: str) -> Path:
        """The absolute path of a file of the copy, given as a path relative to its root (the
        form the distribution's RECORD and the file map use)."""
        path = (self.root / rel).resolve()
        if not path.is_relative_to(self.root.resolve()):
            raise PublishedGameError(f"{rel}: not a file inside AgentOdyssey's copy")
        return path

    def has(self, rel: str) -> bool:
        return self.path(rel).is_file()

    def _existing(self, rel: str) -> Path:
        path = self.path(rel)
        if not path.is_file():
            raise PublishedGameError(
                f"{path}: missing from AgentOdyssey's copy ({self.origin}); is it complete?"
            )
        return path

    def read_json(self, rel: str) -> Any:
        path = self._existing(rel)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise PublishedGameError(f"{path}: not readable as JSON ({exc})") from None

    def read_python(self, rel: str) -> ast.Module:
        """A Python file of the copy, parsed (never run)."""
        path = self._existing(rel)
        try:
            return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as exc:
            raise PublishedGameError(f"{path}: not readable as Python source ({exc})") from None

    def changed_files(self, rels: list[str] | None = None) -> list[str]:
        """The known files (or those of `rels` that are known) whose digest differs from
        version 0.1.0's, or which are missing."""
        wanted = KNOWN_DIGESTS if rels is None else {r: KNOWN_DIGESTS[r] for r in rels}
        changed = []
        for rel, digest in wanted.items():
            path = self.path(rel)
            if not path.is_file() or _digest(path) != digest:
                changed.append(rel)
        return changed


@lru_cache(maxsize=64)
def _digest_of(path: str, size: int, mtime: int) -> str:
    return file_digest(Path(path))


def _digest(path: Path) -> str:
    stat = path.stat()
    return _digest_of(str(path), stat.st_size, stat.st_mtime_ns)


def _looks_like_copy(folder: Path) -> bool:
    return (folder / "games").is_dir() and (folder / "assets" / "world_definitions").is_dir()


def find_published(home: str | os.PathLike[str] | None = None) -> PublishedCopy:
    """The user's copy of AgentOdyssey: `home`, else `$AGENTODYSSEY_HOME`, else the installed
    distribution. Raises PublishedGameError (one line, saying how to get one) when none is found."""
    given = home if home is not None else os.environ.get(HOME_VARIABLE) or None
    if given is not None:
        folder = Path(os.fspath(given)).expanduser()
        where = "the given folder" if home is not None else HOME_VARIABLE
        if not _looks_like_copy(folder):
            raise PublishedGameError(
                f"{where} {folder} holds no AgentOdyssey games/ and assets/world_definitions/; "
                f"point it at a copy of AgentOdyssey, or {HOW_TO_GET.split(', or')[0]}"
            )
        return PublishedCopy(folder.resolve(), f"{where}={folder}")
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise PublishedGameError(
            f"AgentOdyssey's games are read from your copy of AgentOdyssey, and none was found: "
            f"{HOW_TO_GET}"
        ) from None
    root = Path(str(dist.locate_file(""))).resolve()
    if not _looks_like_copy(root):
        raise PublishedGameError(
            f"the installed {DISTRIBUTION} {dist.version} at {root} has no games/ and assets/: "
            f"reinstall it ({HOW_TO_GET})"
        )
    return PublishedCopy(root, f"{DISTRIBUTION} {dist.version} installed at {root}", dist.version)
