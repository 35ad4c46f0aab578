"""Quest NPCs that exist per agent: guides (who publish objectives) and bosses.

Rule pack `base`. Each agent has its own guide instance (fixing the reference, where one shared
guide was renamed and moved between agents, spec step-rules 6.5 and 8.6) and its own instance of
each boss, so agents progress independently. Guides are invincible quest NPCs (non-enemy + quest:
`attack` refuses them). These NPCs are built directly from their prototypes: no random draws.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc, npc_instance
from agentodyssey_pz.world.quest_records import BossDef, GuideDef
from agentodyssey_pz.world.world import World

GUIDE_HP = 10**9
GUIDE_ATTACK = 10**6


def _instance(world: World, proto_id: str, name: str | None, level: int) -> Npc:
    """A quest NPC (guide or boss) of `proto_id` at `level`, penniless, with its own loot."""
    proto = world.npc_protos[proto_id]
    named = {"name": name} if name else {}  # else the numbered prototype name
    index, loot = world.take_npc_index(proto_id), dict(proto.loot)
    return npc_instance(proto, index, level, coins=0, inventory=loot, quest=True, **named)


def guide_name(world: World, guide: GuideDef, taken: set[str]) -> str | None:
    """The first pool name nobody uses yet (None when the pool is exhausted)."""
    for name in guide.names:
        if name not in taken and name not in world.npc_name_to_id:
            return name
    return None


def ensure_guide(
    world: World, agent: AgentState, guide: GuideDef, progress: dict[str, Any], taken: set[str]
) -> Npc:
    """This agent's guide, created in its area the first time (invincible, never an enemy)."""
    npc = world.npcs.get(progress.get("guide", ""))
    if npc is None:
        npc = _instance(world, guide.npc, guide_name(world, guide, taken), 1)
        npc.owner = agent.id
        world.add_npc(npc, agent.area_id)
        progress["guide"] = npc.id
    npc.enemy, npc.quest = False, True
    if npc.hp < GUIDE_HP:
        npc.hp = GUIDE_HP
    if npc.attack_power < GUIDE_ATTACK:
        npc.attack_power = GUIDE_ATTACK
    if npc.area_id is None:
        world.place_npc(npc.id, agent.area_id)
    return npc


def bring_guide(world: World, res: RuleResult, agent: AgentState, npc: Npc, key: str) -> None:
    """Teleport the guide to the agent, announcing it when it came from elsewhere."""
    if npc.area_id != agent.area_id:
        world.place_npc(npc.id, agent.area_id)
        res.say(agent.id, key, f"{npc.name} arrives to guide me.")


def spawn_boss(world: World, boss: BossDef, area_id: str, owner: str) -> Npc:
    """A fresh instance of a boss for one agent, in its lair."""
    npc = _instance(world, boss.npc, None, world.areas[area_id].level)
    npc.quest = False  # bosses are fought: attack must not treat them as protected guides
    npc.owner = owner
    if boss.hp is not None:
        npc.hp = npc.max_hp = boss.hp
    if boss.attack is not None:
        npc.attack_power = boss.attack
    world.add_npc(npc, area_id)
    return npc
