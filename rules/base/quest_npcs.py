"""Quest NPCs that exist per agent: guides (who publish objectives) and bosses.

Rule pack `base`. Each agent has its own guide instance (fixing the reference, where one shared
guide was renamed and moved between agents;
docs/mechanics/quests.md#quirk-per-agent-guides-and-bosses) and, unless a boss is `shared`, its own
instance of each boss, so agents progress independently. Guides are invincible quest NPCs (non-enemy
+ quest: `attack` refuses them). These NPCs are built directly from their prototypes: no draws from
the game's generator (a shuffled name pool has a generator of its own).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc, npc_instance
from agentodyssey_pz.world.quest_records import BossDef, GuideDef
from agentodyssey_pz.world.world import World

GUIDE_HP = 10**9
GUIDE_ATTACK = 10**6
NAME_SHUFFLE_SALT = 0xA5A5A5A5  # `name_order: shuffled`: Random(episode seed XOR this)


def _instance(
    world: World, proto_id: str, name: str | None, level: int, *, bare: bool = False
) -> Npc:
    """A quest NPC (guide or boss) of `proto_id` at `level`, penniless, with its own loot.
    `bare`: the prototype's own id and name, as synthesis gives a unique NPC (when free)."""
    proto = world.npc_protos[proto_id]
    named = {"name": name} if name else {}  # else the prototype name, numbered unless bare
    loot = dict(proto.loot)
    if bare and proto.id not in world.npcs:
        return npc_instance(proto, None, level, coins=0, inventory=loot, quest=True, **named)
    index = world.take_npc_index(proto_id)
    return npc_instance(proto, index, level, coins=0, inventory=loot, quest=True, **named)


def name_pool(guide: GuideDef, seed: int, agent_ids: Iterable[str], agent_id: str) -> list[str]:
    """The guide names in the order this agent tries them. `listed`: the pool as written (agents
    take the first name left as their quests start). `shuffled`: the pool shuffled by a generator
    of the episode seed's own (never the game's), the agent's own name first: the i-th agent in
    sorted-id order owns the i-th name, whenever its quest starts."""
    if guide.name_order != "shuffled":
        return list(guide.names)
    pool = list(guide.names)
    random.Random(seed ^ NAME_SHUFFLE_SALT).shuffle(pool)
    position = sorted(agent_ids).index(agent_id)
    if position < len(pool):
        pool.insert(0, pool.pop(position))
    return pool


def guide_name(
    world: World, guide: GuideDef, taken: set[str], pool: Sequence[str] | None = None
) -> str | None:
    """The first name of the pool (default: the guide's, as listed) nobody uses yet (None when
    the pool is exhausted)."""
    for name in guide.names if pool is None else pool:
        if name not in taken and name not in world.npc_name_to_id:
            return name
    return None


def ensure_guide(
    world: World,
    agent: AgentState,
    guide: GuideDef,
    progress: dict[str, Any],
    taken: set[str],
    pool: Sequence[str] | None = None,
) -> Npc:
    """This agent's guide, created in its area the first time (invincible, never an enemy), named
    from `pool` (default: the guide's names as listed)."""
    npc = world.npcs.get(progress.get("guide", ""))
    if npc is None:
        npc = _instance(world, guide.npc, guide_name(world, guide, taken, pool), 1)
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


def spawn_boss(world: World, boss: BossDef, area_id: str, owner: str | None) -> Npc:
    """A fresh instance of a boss for one agent (`owner`), or for all (None), in its lair. A
    shared boss of a unique prototype is that NPC itself, by its bare name, as the texts of
    AgentOdyssey's quests name it (`cinder_reaver`)."""
    proto = world.npc_protos[boss.npc]
    bare = owner is None and proto.unique
    npc = _instance(world, boss.npc, None, world.areas[area_id].level, bare=bare)
    npc.quest = False  # bosses are fought: attack must not treat them as protected guides
    npc.owner = owner
    if boss.hp is not None:
        npc.hp = npc.max_hp = boss.hp
    if boss.attack is not None:
        npc.attack_power = boss.attack
    world.add_npc(npc, area_id)
    return npc
