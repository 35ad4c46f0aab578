"""Rollouts of the PettingZoo env for the adapter tests: recording, comparing, digesting, restoring.

A trajectory is a list of flat records, one per tick (the reset included), mapping a path such as
`obs/agent_1/text` or `infos/agent_0/reward_breakdown` to a canonical value (arrays as dtype, shape
and raw bytes, so -0.0 and 0.0 differ). `first_difference` names the first differing tick and path.

`snapshot` / `restore` copy a whole live env (its Game, cached per-agent commands, encoder caches)
so a test can try many actions from one state. The env's own pickling rebuilds the env from its
config and a JSON snapshot of the game (about 50 ms, and the cached commands are not carried), so
this pickles the instance dict instead (a few ms), keeping the parts that hold closures (catalogue,
layout, spaces, config) by reference. Those never change without world expansion; with it, their
spare slots follow the world, so snapshots of a growing world are only good within one episode.

Run as a script (`python rollouts.py <world> [<world> ...]`) it prints, as JSON, the per-tick
digests of `reference_trajectory` for each world; it imports only the package, so it runs in a
fresh process without the test harness.
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

import agentodyssey_pz
from agentodyssey_pz.adapter.config import EnvConfig
from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.observe.encode import ObservationLayout

Record = dict[str, Any]

REFERENCE_TICKS = 1000
REFERENCE_SEED = 20240
REFERENCE_AGENTS = 3


# ---------------------------------------------------------------------------- recording
def canonical(value: Any) -> Any:
    """A value that compares equal only when the original is identical (arrays bit for bit)."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, np.generic):
        return ("npscalar", value.dtype.str, value.tobytes())
    if isinstance(value, float):
        return ("float", value.hex())
    if isinstance(value, Mapping):
        return ("dict", tuple((str(k), canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(canonical(v) for v in value))
    return (type(value).__name__, value)


def flatten(prefix: str, value: Any, out: Record) -> None:
    """Nested dicts become `prefix/key/...` paths; anything else is stored canonically."""
    if isinstance(value, Mapping):
        out[f"{prefix}/#keys"] = tuple(str(k) for k in value)
        for key, item in value.items():
            flatten(f"{prefix}/{key}", item, out)
    else:
        out[prefix] = canonical(value)


def record_reset(observations: Mapping, infos: Mapping) -> Record:
    out: Record = {}
    flatten("obs", observations, out)
    flatten("infos", infos, out)
    return out


STEP_PARTS = ("obs", "rewards", "terminations", "truncations", "infos")


def record_step(result: Sequence[Mapping]) -> Record:
    out: Record = {}
    for name, part in zip(STEP_PARTS, result, strict=True):
        flatten(name, part, out)
    return out


def first_difference(a: Sequence[Record], b: Sequence[Record]) -> tuple[int, str] | None:
    """(tick, path) of the first difference of two trajectories, or None when they are equal.

    Tick 0 is the reset. A trajectory that ends early differs at its length, path `<length>`."""
    for tick, (ra, rb) in enumerate(zip(a, b, strict=False)):
        if ra != rb:
            for key in sorted(set(ra) | set(rb)):
                if ra.get(key, "<missing>") != rb.get(key, "<missing>"):
                    return tick, key
    if len(a) != len(b):
        return min(len(a), len(b)), "<length>"
    return None


def tick_digests(trajectory: Sequence[Record]) -> list[str]:
    return [
        hashlib.sha256(repr(sorted(record.items())).encode("utf-8")).hexdigest()
        for record in trajectory
    ]


def trajectory_digest(trajectory: Sequence[Record]) -> str:
    return hashlib.sha256("".join(tick_digests(trajectory)).encode("ascii")).hexdigest()


# ---------------------------------------------------------------------------- acting
def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly random unmasked index."""
    return int(rng.choice(np.flatnonzero(mask)))


def random_actions(env: Any, observations: Mapping, rng: np.random.Generator) -> dict[str, int]:
    return {a: masked_choice(rng, catalogue_mask(observations[a])) for a in env.agents}


def catalogue_mask(observation: dict) -> np.ndarray:
    """The discrete catalogue's mask ("catalogue_mask" when actions are text)."""
    return (
        observation["action_mask"]
        if "action_mask" in observation
        else observation["catalogue_mask"]
    )


def run_trajectory(
    world: str,
    seed: int,
    ticks: int,
    *,
    action_seed: int = 0,
    reset_twice: bool = False,
    **settings: Any,
) -> list[Record]:
    """Reset with `seed`, then up to `ticks` steps of masked random actions (drawn from a generator
    seeded with `action_seed`, so equal observations give equal actions). A garbage text command
    every 7th tick for agent_0 exercises the invalid path. `reset_twice` resets once before (with
    another seed) to expose state leaking between episodes."""
    settings.setdefault("num_agents", REFERENCE_AGENTS)
    env = agentodyssey_pz.parallel_env(world=world, max_cycles=ticks, **settings)
    if reset_twice:
        env.reset(seed=seed + 1)
        env.step(dict.fromkeys(env.agents, "wait"))
    rng = np.random.default_rng(action_seed)
    observations, infos = env.reset(seed=seed)
    trajectory = [record_reset(observations, infos)]
    for tick in range(ticks):
        if not env.agents:
            break
        actions: dict[str, Any] = random_actions(env, observations, rng)
        if tick % 7 == 3:
            actions["agent_0"] = "dance wildly"
        result = env.step(actions)
        observations = result[0]
        trajectory.append(record_step(result))
    return trajectory


def reference_trajectory(world: str) -> list[Record]:
    """The trajectory the determinism tests compare across processes: text observations, so both
    the arrays and the text are covered, and no tutorial, because random agents never leave its
    rooms and the open world (NPCs, combat, loot, respawns) is where randomness is drawn."""
    return run_trajectory(world, REFERENCE_SEED, REFERENCE_TICKS, obs_mode="text", tutorial=False)


# ---------------------------------------------------------------------------- snapshots
_PINNED = (ActionCatalogue, ObservationLayout, spaces.Space, EnvConfig)


_SELF = "the env"  # the persistent id of the env itself (objects of its that refer back to it)


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, pinned: dict[Any, Any], env: Any) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.pinned = pinned
        self.env = env

    def persistent_id(self, obj: Any) -> Any:
        if obj is self.env:
            return _SELF
        if isinstance(obj, _PINNED):
            self.pinned[id(obj)] = obj
            return id(obj)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, pinned: dict[Any, Any], env: Any) -> None:
        super().__init__(file)
        self.pinned = pinned
        self.env = env

    def persistent_load(self, pid: Any) -> Any:
        return self.env if pid == _SELF else self.pinned[pid]


def snapshot(env: Any) -> tuple[type, bytes, dict[Any, Any]]:
    """Everything needed to rebuild this env in its current state, any number of times. What
    refers back to the env (the guard that stops it when a listing raises) is kept as a reference:
    in a restored env it refers to that env, not to a copy rebuilt from the env's pickled form."""
    buffer = io.BytesIO()
    pinned: dict[Any, Any] = {}
    _Pickler(buffer, pinned, env).dump(env.__dict__)
    return type(env), buffer.getvalue(), pinned


def restore(snap: tuple[type, bytes, dict[Any, Any]]) -> Any:
    """A new, independent env in the snapshot's state."""
    cls, blob, pinned = snap
    env = object.__new__(cls)
    env.__dict__ = _Unpickler(io.BytesIO(blob), pinned, env).load()
    return env


def main(worlds: Sequence[str]) -> None:
    out = {world: tick_digests(reference_trajectory(world)) for world in worlds}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
