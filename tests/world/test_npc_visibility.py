"""Which NPCs an agent sees in an area: `World.visible_npcs`, kept by owner groups.

Everyone sees the NPCs nobody owns; an agent's personal NPCs (its quest guides, its bosses) are seen
by it alone. The world files each placed NPC under its owner, so an agent's view costs what it sees
and not what a crowd's guides add to the area. These tests hold the groups to the plain definition,
a filter of `Area.npcs` by owner in arrival order, through whole games with crowds, owner changes,
saves and copies.
"""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest
from worlds_helper import bundled_definition, bundled_worlds

import agentodyssey_pz
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World


def by_filter(world: World, area_id: str, viewer: str | None) -> tuple[str, ...]:
    npcs = world.npcs
    return tuple(
        n for n in world.areas[area_id].npcs if npcs[n].owner is None or npcs[n].owner == viewer
    )


def assert_views_hold(world: World, viewers: list[str]) -> int:
    """Every viewer's view of every area (and the view of nobody's NPCs only) equals the filter;
    returns how many of those views held another agent's personal NPC back."""
    hidden = 0
    for area_id in world.areas:
        assert world.visible_npcs(area_id, None) == by_filter(world, area_id, None)
        for viewer in viewers:
            seen = world.visible_npcs(area_id, viewer)
            assert seen == by_filter(world, area_id, viewer), (area_id, viewer)
            assert [n.id for n in world.npcs_seen_by(area_id, viewer)] == list(seen)
            hidden += len(seen) < len(world.areas[area_id].npcs)
    return hidden


@pytest.mark.parametrize("tutorial", [False, True])
@pytest.mark.parametrize("world", bundled_worlds())
def test_views_match_the_filter_through_a_crowded_game(world: str, tutorial: bool) -> None:
    # 12 agents: quest guides that follow each agent (one per quest), bosses in lairs, and with the
    # tutorial its rooms and their NPCs. Every tick, every area, every agent.
    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=12, tutorial=tutorial, max_cycles=400
    )
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    agents = list(env.possible_agents)
    hidden = 0
    for _ in range(150):
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs = env.step(actions)[0]
        hidden += assert_views_hold(env.game.world, agents)
    if not tutorial:  # (the tutorial keeps everyone in its rooms for longer than this)
        assert hidden > 0  # the game did put other agents' personal NPCs in someone's way


def _world_with_npcs() -> tuple[World, str]:
    world = World.generate(bundled_definition("default"), 3)
    area = next(iter(world.areas))
    for npc_id in list(world.areas[area].npcs):
        world.remove_npc_from_map(npc_id)
    proto = next(iter(world.npc_protos.values()))
    for k, owner in enumerate([None, "agent_0", None, "agent_1", "agent_0", None]):
        npc = Npc(
            id=f"test_npc_{k}", def_id=proto.id, name=f"Test {k}", level=1, hp=5, max_hp=5,
            attack_power=1, coins=0, enemy=False, unique=False, role="", owner=owner,
        )  # fmt: skip
        world.add_npc(npc, area)
    return world, area


def test_each_agent_sees_everyones_npcs_and_its_own_in_arrival_order() -> None:
    world, area = _world_with_npcs()
    assert world.visible_npcs(area, None) == ("test_npc_0", "test_npc_2", "test_npc_5")
    assert world.visible_npcs(area, "agent_0") == (
        "test_npc_0",
        "test_npc_1",
        "test_npc_2",
        "test_npc_4",
        "test_npc_5",
    )
    assert world.visible_npcs(area, "agent_1") == (
        "test_npc_0",
        "test_npc_2",
        "test_npc_3",
        "test_npc_5",
    )
    assert world.visible_npcs(area, "agent_9") == world.visible_npcs(area, None)


def test_arrivals_departures_and_owner_changes_show_at_once() -> None:
    world, area = _world_with_npcs()
    other = next(a for a in world.areas if a != area)
    assert "test_npc_1" in world.visible_npcs(area, "agent_0")  # the answer is now remembered
    world.place_npc("test_npc_1", other)  # it walks away ...
    assert "test_npc_1" not in world.visible_npcs(area, "agent_0")
    assert world.visible_npcs(other, "agent_0")[-1] == "test_npc_1"
    world.place_npc("test_npc_1", area)  # ... and back: it arrived last now
    assert world.visible_npcs(area, "agent_0")[-1] == "test_npc_1"
    world.set_npc_owner("test_npc_0", "agent_1")  # everyone's NPC becomes agent_1's
    assert "test_npc_0" not in world.visible_npcs(area, "agent_0")
    assert world.visible_npcs(area, "agent_1")[0] == "test_npc_0"  # its place in line is kept
    world.set_npc_owner("test_npc_3", None)
    assert "test_npc_3" in world.visible_npcs(area, "agent_0")
    world.delete_npc("test_npc_5")
    world.remove_npc_from_map("test_npc_2")
    assert assert_views_hold(world, ["agent_0", "agent_1", "agent_2"]) > 0
    assert world.visible_npcs(area, None) == ("test_npc_3",)


def test_saved_copied_and_reindexed_worlds_keep_the_views() -> None:
    world, _ = _world_with_npcs()
    rng = random.Random(0)
    areas = list(world.areas)
    for _ in range(40):  # shuffle the NPCs around so arrival order differs from creation order
        world.place_npc(f"test_npc_{rng.randrange(6)}", rng.choice(areas))
    viewers = ["agent_0", "agent_1"]
    views = {(a, v): world.visible_npcs(a, v) for a in areas for v in (*viewers, None)}
    rebuilt = World.from_dict(json.loads(json.dumps(world.to_dict())))
    copied = copy.deepcopy(world)
    world.reindex_npcs()
    for other in (rebuilt, copied, world):
        assert {(a, v): other.visible_npcs(a, v) for a in areas for v in (*viewers, None)} == views
        assert_views_hold(other, viewers)
