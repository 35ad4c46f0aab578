"""AgentOdyssey's own world synthesis, run as a black box in a separate process, for parity tests.

The user's copy of AgentOdyssey (tests/published_copy.py) is run, never imported here: a child
Python process (`agentodyssey_pz.integrations.published_engine.run_child`: this interpreter,
working directory and first `sys.path` entry = the copy's root, as AgentOdyssey expects) reads one
JSON request on stdin, calls only the documented
`World.generate(definition, seed=seed)` of `games.base.world` or `games.generated.<game>.world` for
every seed of every definition it is given (on a fresh copy each time, since AgentOdyssey's
generator edits the definition it is given), and, when asked, builds the game's environment
(`AgentOdysseyEnv(seed, agents, world_definition_path, run_dir, config_path,
enable_obs_valid_actions)`) to return the definition it holds. It prints one JSON document. Only
data attributes are read (areas, paths, NPC instances, the definition), nothing of its code.

The per-seed summary, also built for our worlds by `summarise_ours`, has the same shape on both
sides so that a test compares them with `==`:

    {"areas": {area id: {"level", "light", "objects": {id: count}, "npcs": [ids in order],
                         "neighbors": [[area id, locked, key] in path order]}},
     "npcs": {instance id: {"level", "hp", "attack", "coins", "inventory", "pattern"}}}
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.integrations.published_engine import (
    EngineUnavailable,
    engine_package,
    run_child,
)
from agentodyssey_pz.world.world import World

__all__ = ["EngineRun", "EngineUnavailable", "run_engine", "summarise_ours"]

# The child's program, after `CHILD_PRELUDE` (`request`, `out`, `load`).
_CHILD = r"""
import copy, shutil, tempfile

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

package = request["package"]
World = load(package + ".world").World
result = {"worlds": [], "env_definition": None}
with contextlib.redirect_stdout(io.StringIO()):
    for job in request["jobs"]:
        worlds = []
        for seed in job["seeds"]:
            worlds.append(summary(World.generate(copy.deepcopy(job["definition"]), seed=seed)))
        result["worlds"].append(worlds)
env_request = request["env"]
if env_request is not None:
    Env, Agent = load(package + ".env").AgentOdysseyEnv, load(package + ".agent").Agent
    run_dir = tempfile.mkdtemp(prefix="agentodyssey-env-")
    try:
        config = os.path.join(run_dir, "config.json")
        shutil.copy(env_request["config"], config)
        with contextlib.redirect_stdout(io.StringIO()):
            env = Env(
                seed=0,
                agents=[Agent("agent_0", "agent_0")],
                world_definition_path=env_request["world"],
                run_dir=run_dir,
                config_path=config,
                enable_obs_valid_actions=False,
            )
        result["env_definition"] = env.world_definition
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
out.write(json.dumps(result))
"""


def game_folder(game: str) -> str:
    return "base" if game == "base" else f"generated/{game}"


@attrs.frozen
class EngineRun:
    """What one child process returned: per job, the summary of each seed's world (in seed
    order); and, when asked for, the definition AgentOdyssey's environment holds once built
    (after it added its quests' entities, before any reset)."""

    worlds: list[list[dict[str, Any]]]
    env_definition: dict[str, Any] | None


def run_engine(
    root: Path,
    game: str,
    jobs: Sequence[tuple[dict[str, Any], Sequence[int]]],
    *,
    env_definition: bool = False,
    timeout: float = 600,
) -> EngineRun:
    """Run AgentOdyssey's `World.generate` of `game` on each job's definition for each of its
    seeds, all in one child process. Raises EngineUnavailable when its modules cannot be
    imported, RuntimeError when it fails."""
    folder = game_folder(game)
    package = engine_package(folder)
    request = {
        "package": package,
        "jobs": [{"definition": d, "seeds": list(seeds)} for d, seeds in jobs],
        "env": {
            "world": f"assets/world_definitions/{folder}/default.json",
            "config": f"assets/env_configs/{folder}/initial.json",
        }
        if env_definition
        else None,
    }
    result = run_child(root, _CHILD, request, what=package, timeout=timeout)
    return EngineRun(result["worlds"], result["env_definition"])


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
