"""Issue 35's spike: compile the hot path with mypyc, in place (the .so files land beside the
sources and win over them on import; delete them, or run with --clean, for the pure build).

Usage (from the repository root, in a venv with mypy, setuptools and a C compiler):
    python scripts/build_mypyc.py          # build the modules below in place
    python scripts/build_mypyc.py --pack   # round 3: the modules below and the base rule pack
    python scripts/build_mypyc.py --clean  # remove the build outputs: back to the pure package

Round 3 (--pack): the base rule pack `rules/base/` is not a package, and a compiled module is bound
to the module name it was compiled under. So it is compiled as `_agentodyssey_pack_base.*` (through
a symlink `_agentodyssey_pack_base -> rules/base` at the root, module names from paths with mypy's
--explicit-package-bases, no `__init__.py` needed), its .so files land beside its sources, and
`rules.packs.load_pack` imports the bundled base pack under that fixed namespace when it finds them
(`COMPILED_BASE_NAMESPACE`). Other packs stay interpreted, loaded by path.

Not part of the package: nothing imports it, `pip install .` never runs it. The .so, .c and
build/ outputs are ignored by git.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# What one env step touches most (benchmarks/profile_hot_path.py). Round 1: the first nine.
MODULES = [
    "agentodyssey_pz/engine/tick.py",
    "agentodyssey_pz/rules/dispatch.py",
    "agentodyssey_pz/rules/parse.py",
    "agentodyssey_pz/rules/context.py",
    "agentodyssey_pz/observe/masks.py",
    "agentodyssey_pz/observe/encode.py",
    "agentodyssey_pz/observe/listing_cache.py",
    "agentodyssey_pz/world/world.py",
    "agentodyssey_pz/world/agents.py",
    # round 2
    "agentodyssey_pz/rules/base.py",
    "agentodyssey_pz/engine/game.py",
    "agentodyssey_pz/observe/text.py",
    "agentodyssey_pz/rules/rewards.py",
    "agentodyssey_pz/world/darkness.py",
    "agentodyssey_pz/world/graph.py",
    "agentodyssey_pz/world/entities.py",
    "agentodyssey_pz/rules/events.py",
    "agentodyssey_pz/engine/result.py",
    "agentodyssey_pz/rules/targets.py",
    "agentodyssey_pz/rules/kills.py",
    # round 4 (adapter/parallel.py compiled, but its env's reset() raised SystemError from
    # dictobject.c: left out)
    "agentodyssey_pz/observe/slots.py",
    "agentodyssey_pz/observe/catalogue.py",
    "agentodyssey_pz/world/sealed.py",
]
# Round 3 (--pack): the bundled base rule pack, every module, under its fixed compiled name.
PACK_LINK = "_agentodyssey_pack_base"  # = rules.packs.COMPILED_BASE_NAMESPACE
PACK_DIR = "rules/base"


def pack_modules() -> list[str]:
    return sorted(
        f"{PACK_LINK}/{f.relative_to(ROOT / PACK_DIR).as_posix()}"
        for f in (ROOT / PACK_DIR).rglob("*.py")
        if "__pycache__" not in f.parts
    )


# Not compiled: adapter/parallel.py (mypyc: "Multiple assignment in class bodies not supported",
# the read-only dict's `__setitem__ = __delitem__ = _refuse`), the rule packs under rules/ (loaded
# by path; but the base pack with --pack, see above), observe/catalogue.py (built once per env).


def clean() -> None:
    for pattern in ("*.so", "*.c"):
        for path in ROOT.glob(pattern):
            path.unlink()
    for folder in ("agentodyssey_pz", PACK_DIR):
        for path in (ROOT / folder).rglob("*.so"):
            path.unlink()
    if (ROOT / PACK_LINK).is_symlink():
        (ROOT / PACK_LINK).unlink()
    shutil.rmtree(ROOT / "build", ignore_errors=True)


def build(modules: list[str], *, pack: bool = False) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    flags = ["--follow-imports=silent", "--ignore-missing-imports"]
    if pack:
        link = ROOT / PACK_LINK
        if not link.is_symlink():
            link.symlink_to(PACK_DIR, target_is_directory=True)
        flags.append("--explicit-package-bases")  # pack module names from their paths

    ext_modules = mypycify([*flags, *modules], opt_level="3")
    setup(
        name="agentodyssey-pz-mypyc-spike",
        packages=[],
        py_modules=[],
        ext_modules=ext_modules,
        script_args=["build_ext", "--inplace"],
    )


def patch_mypyc() -> None:
    """Round 3's hack on mypyc itself. mypyc checks an argument typed as a compiled class whose
    subclasses it knows all of against those classes' exact types (`Py_TYPE(x) == T || ...`). For
    a non-native class (`mypyc_attr(native_class=False)`) it counts only the compiled subclasses
    (`allow_interpreted_subclasses` is ignored there), so an inherited compiled method called on
    another pack's interpreted subclass raised TypeError (`self`), and so did an interpreted
    `RewardFunction` once the base pack's compiled one existed. Patched: a non-native class has
    unknown subclasses (isinstance checks). The installed mypyc is compiled, so its functions
    cannot be patched: the build runs a copy of its pure-Python sources (no .so), in build/."""
    import importlib.util

    target = ROOT / "build" / "pure_mypy"
    if not target.is_dir():
        spec = importlib.util.find_spec("mypy")
        assert spec is not None and spec.origin is not None
        site = Path(spec.origin).parent.parent
        for name in ("mypy", "mypyc"):
            ignore = shutil.ignore_patterns("*.so", "__pycache__")
            shutil.copytree(site / name, target / name, ignore=ignore)
    sys.path.insert(0, str(target))
    from mypyc.ir import class_ir

    assert not class_ir.__file__.endswith(".so"), class_ir.__file__
    original = class_ir.ClassIR.subclasses

    def subclasses(self: Any) -> Any:
        return original(self) if self.is_ext_class else None

    class_ir.ClassIR.subclasses = subclasses  # type: ignore[method-assign]


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    if "--clean" in sys.argv[1:]:
        clean()
    else:
        pack = "--pack" in sys.argv[1:]
        if pack:
            patch_mypyc()  # before anything imports mypyc
        chosen = [a for a in sys.argv[1:] if a.endswith(".py")] or MODULES
        build(chosen + (pack_modules() if pack else []), pack=pack)
