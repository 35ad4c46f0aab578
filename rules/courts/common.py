"""What the `courts` rules share: their state in `world.auxiliary`, reading documents, coins,
resting an agent, and telling the agents of an area.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack). AgentOdyssey keeps this state in the
environment's per-agent table; here each key is a `world.auxiliary` entry of the same name (saved
with the world, so checkpoints and resume are exact). "Written" = a writable instance whose text
is not blank once trimmed. "Carried writables" = writable instances in my hands, in my equipped
inventory and in the containers in my hands (in that order), never the ground.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

# world.auxiliary keys (AgentOdyssey's names).
INVOCATIONS = "active_invocations"
PACIFIED = "pacified_npcs"
SKIP_TURN = "objection_skip_turn"
APPEAL_USED = "appeal_verdict_used"
PENDING_DEATH = "pending_death"
DEFEATED_BY = "courts_defeated_by"  # the defeating NPC remembered at a pending death (setting)
NIGHTLY = "nightly_law_rewrite"
PARADOX = "legal_paradox"
CONTEMPT = "contempt_of_court"
PRECEDENTS = "binding_precedents"
CONTRABAND = "contraband_suspicion"
TRIALS = "trial_proceedings"
IDLE = "courts_idle_action"  # agent -> tick of its last wait/defend (or unparsable command)

SHARD = "obj_statute_shard"
COIN = "obj_coin"
FULL_STAMINA = 1.0
STATION, CURRENCY, CONTAINER, MATERIAL = "station", "currency", "container", "material"


def table(world: World, key: str) -> dict[str, Any]:
    """A `world.auxiliary` table, made empty on first use."""
    found = world.auxiliary.get(key)
    if found is None:
        found = world.auxiliary[key] = {}
    return found


def coin_id(world: World) -> str:
    return world.currency_id or COIN


def carried_writables(world: World, agent: AgentState) -> list[str]:
    """Writable instance ids in hands, then the equipped inventory, then held containers."""
    out = [oid for oid in agent.hands if oid in world.writables]
    if agent.inventory_id is not None:
        box = world.containers.get(agent.inventory_id)
        if box is not None:
            out += [oid for oid in box.items if oid in world.writables]
    for oid in agent.hands:
        held = world.containers.get(oid)
        if held is not None:
            out += [i for i in held.items if i in world.writables]
    return out


def written(world: World, ids: Iterable[str]) -> list[str]:
    """The ids among these that are written writables."""
    writables = world.writables
    return [oid for oid in ids if oid in writables and writables[oid].text.strip()]


def ground_writables(world: World, area_id: str) -> list[str]:
    return written(world, world.areas[area_id].objects)


def catalyst_store(world: World, agent: AgentState, def_id: str) -> dict[str, int] | None:
    """The first store holding a unit of `def_id`: hands, equipped inventory, held containers."""
    if agent.hands.get(def_id, 0) > 0:
        return agent.hands
    if agent.inventory_id is not None:
        box = world.containers.get(agent.inventory_id)
        if box is not None and box.items.get(def_id, 0) > 0:
            return box.items
    for oid in agent.hands:
        held = world.containers.get(oid)
        if held is not None and held.items.get(def_id, 0) > 0:
            return held.items
    return None


def coin_stores(world: World, agent: AgentState) -> list[dict[str, int]]:
    """Hands, inventory, held containers (where coins are counted, fined and paid)."""
    stores = [agent.hands]
    if agent.inventory_id is not None and agent.inventory_id in world.containers:
        stores.append(world.containers[agent.inventory_id].items)
    for oid in agent.hands:
        held = world.containers.get(oid)
        if held is not None:
            stores.append(held.items)
    return stores


def coins_of(world: World, agent: AgentState) -> int:
    coin = coin_id(world)
    return sum(store.get(coin, 0) for store in coin_stores(world, agent))


def take_coins(world: World, agent: AgentState, most: int) -> int:
    """Remove up to `most` coins (hands, inventory, held containers); returns how many."""
    coin, taken = coin_id(world), 0
    for store in coin_stores(world, agent):
        have = store.get(coin, 0)
        n = min(have, most - taken)
        if n > 0:
            if have - n > 0:
                store[coin] = have - n
            else:
                del store[coin]
            taken += n
        if taken >= most:
            break
    return taken


def rest_if_free(agent: AgentState) -> None:
    """Stamina 1.0 and no attack streak once an agent fights no one."""
    if not agent.combats:
        agent.stamina = FULL_STAMINA
        agent.consecutive_attacks = 0


def tell_area(game: Any, res: RuleResult, area_id: str, key: str, text: str) -> None:
    if area_id in game.world.areas and game.count_in(area_id):
        for agent in game.agents_in(area_id):
            res.say(agent.id, key, text)


def tell_all(game: Any, res: RuleResult, key: str, text: str) -> None:
    for agent in game.agents.values():
        res.say(agent.id, key, text)


def neighbour_ids(world: World, area_id: str) -> list[str]:
    return list(world.graph.neighbors(area_id)) if area_id in world.graph else []


def category_of(world: World, oid: str) -> str | None:
    found = world.find_def(oid)
    return found.category if found is not None else None
