"""The objects a step reads attributes of keep few enough instance attributes for CPython to keep
them inline.

CPython 3.11 stores an object's attributes in a table shared by its class, and its specialised
attribute reads use it, only while the object has at most 29 of them (and its `__dict__` is never
asked for). A 30th makes every read of every attribute of that object slower: adding one to
`World` once cost 0.6% of a whole vector step. This is a layout rule, not a timing: it keeps the
hot path's objects under the line, also after a snapshot and a pickled copy.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import agentodyssey_pz
from agentodyssey_pz.engine.snapshot import snapshot_text

INLINE_ATTRIBUTES = 29  # CPython 3.11's SHARED_KEYS_MAX_SIZE (30) less one


def hot_objects(env: Any) -> dict[str, Any]:
    game, world = env.game, env.game.world
    found = {
        "env": env,
        "game": game,
        "world": world,
        "encoder": env.encoder,
        "listing cache": env._listings,
        "catalogue": env.catalogue,
        "rule engine": game.engine,
        "reward function": game.reward_function,
        "quests": game.quests,
        "an area": next(iter(world.areas.values())),
        "an NPC": next(iter(world.npcs.values())),
        "an agent": next(iter(game.agents.values())),
    }
    found.update({f"verb {name}": rule for name, rule in game.engine.rules.items()})
    found.update({f"step rule {rule.name}": rule for rule in game.step_rules})
    return found


@pytest.mark.parametrize("obs_mode", ["vector", "text", "text_only"])
def test_hot_objects_keep_their_attributes_inline(obs_mode: str) -> None:
    env = agentodyssey_pz.parallel_env(
        num_agents=3, obs_mode=obs_mode, action_mode="text", valid_actions_in_info=True
    )
    env.reset(seed=0)
    for _ in range(5):
        env.step(dict.fromkeys(env.agents, "wait"))
    snapshot_text(env.game)  # what checkpointing does every few ticks
    copy = pickle.loads(pickle.dumps(env))
    for which, current in (("env", env), ("pickled copy", copy)):
        for name, obj in hot_objects(current).items():
            if not hasattr(obj, "__dict__"):
                continue  # slots: no table to outgrow
            count = len(vars(obj))
            assert count <= INLINE_ATTRIBUTES, (
                f"{which}: {name} ({type(obj).__name__}) has {count} instance attributes: "
                f"{sorted(vars(obj))}"
            )
