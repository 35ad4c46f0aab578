"""AgentOdyssey's own world synthesis, run as a black box in a separate process, for parity tests.

The user's copy of AgentOdyssey (tests/published_copy.py) is run, never imported here: a child
Python process (this interpreter, working directory and first `sys.path` entry = the copy's root,
as AgentOdyssey expects) reads one JSON request on stdin, calls only the documented
`World.generate(definition, seed=seed)` of `games.base.world` or `games.generated.<game>.world` for
every seed (on a fresh copy of the definition each time, since AgentOdyssey's generator edits the
definition it is given), and prints one JSON line per seed. Only the world's data attributes are
read (areas, paths, NPC instances), nothing of its code.

The per-seed summary, also built for our worlds by `summarise_ours`, has the same shape on both
sides so that a test compares them with `==`:

    {"areas": {area id: {"level", "light", "objects": {id: count}, "npcs": [ids in order],
                         "neighbors": [[area id, locked, key] in path order]}},
     "npcs": {instance id: {"level", "hp", "attack", "coins", "inventory", "pattern"}}}
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from agentodyssey_pz.world.world import World

# The child's program. Its output goes to the real stdout only at the end: AgentOdyssey prints and
# logs while it works, and that must not mix with the JSON lines.
_CHILD = r"""
import contextlib, copy, io, json, logging, os, sys
request = json.load(sys.stdin)
root = request["root"]
sys.path.insert(0, root)
os.chdir(root)
logging.disable(logging.CRITICAL)
out = sys.stdout
try:
    with contextlib.redirect_stdout(io.StringIO()):
        import importlib
        module = importlib.import_module(request["module"])
except Exception as exc:
    print(f"cannot import AgentOdyssey's {request['module']}: {exc!r}", file=sys.stderr)
    sys.exit(2)

def summary(world):
    areas = {}
    for aid, area in world.area_instances.items():
        areas[aid] = {
            "level": area.level,
            "light": bool(area.light),
            "objects": dict(area.objects),
            "npcs": list(area.npcs),
            "neighbors": [
                [to, bool(path.locked), path.object_to_unlock]
                for to, path in area.neighbors.items()
            ],
        }
    npcs = {}
    for nid, npc in world.npc_instances.items():
        npcs[nid] = {
            "level": npc.level,
            "hp": npc.hp,
            "attack": npc.attack_power,
            "coins": npc.coins,
            "inventory": dict(npc.inventory),
            "pattern": list(npc.combat_pattern or []),
        }
    return {"areas": areas, "npcs": npcs}

lines = []
with contextlib.redirect_stdout(io.StringIO()):
    for seed in request["seeds"]:
        world = module.World.generate(copy.deepcopy(request["definition"]), seed=seed)
        lines.append(json.dumps(summary(world)))
out.write("\n".join(lines) + "\n")
"""

# Exit status of the child when AgentOdyssey cannot be imported (a missing dependency ...).
CANNOT_IMPORT = 2


class EngineUnavailable(Exception):
    """AgentOdyssey's engine could not be run (the message says why and what to install)."""


def world_module(game: str) -> str:
    return "games.base.world" if game == "base" else f"games.generated.{game}.world"


def run_engine(
    root: Path, game: str, definition: dict[str, Any], seeds: list[int], timeout: float = 600
) -> list[dict[str, Any]]:
    """AgentOdyssey's world for each seed, summarised (module docstring), in seed order: one
    child process for all seeds. Raises EngineUnavailable when its module cannot be imported,
    RuntimeError when it fails on the definition."""
    request = {
        "root": str(root),
        "module": world_module(game),
        "definition": definition,
        "seeds": list(seeds),
    }
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=root,
        timeout=timeout,
        check=False,
    )
    if done.returncode == CANNOT_IMPORT:
        raise EngineUnavailable(
            f"{done.stderr.strip()} (it needs gymnasium, numpy, termcolor and psutil installed "
            f"beside it: pip install gymnasium numpy termcolor psutil)"
        )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"AgentOdyssey's {world_module(game)} failed:\n{tail}")
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(results) != len(seeds):
        raise RuntimeError(f"expected {len(seeds)} worlds from AgentOdyssey, got {len(results)}")
    return results


def summarise_ours(world: World) -> dict[str, Any]:
    """Our world in the engine summary's shape. Container and writable instances have the same
    ids on both sides (`<definition id>_<n>`), so no object id needs translating."""
    areas = {}
    for aid, area in world.areas.items():
        areas[aid] = {
            "level": area.level,
            "light": area.light,
            "objects": dict(area.objects),
            "npcs": list(area.npcs),
            "neighbors": [
                [to, bool(path["locked"]), path["key"]]
                for to, path in world.graph.neighbors(aid).items()
            ],
        }
    npcs = {
        nid: {
            "level": npc.level,
            "hp": npc.max_hp,
            "attack": npc.attack_power,
            "coins": npc.coins,
            "inventory": dict(npc.inventory),
            "pattern": list(npc.combat_pattern),
        }
        for nid, npc in world.npcs.items()
    }
    return {"areas": areas, "npcs": npcs}
