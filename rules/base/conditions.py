"""Quest condition evaluation: one small function per condition kind
(docs/mechanics/quests.md#stages-and-conditions, and the kinds AgentOdyssey's published games need;
docs/world-format.md#111-main-quest).

Rule pack `base`. Used by the main quest, and by the tutorial for its step checks. A condition reads
the state of one agent, the events about that agent in this tick, and what the main quest records
for it (kills, lit areas, talks, purchases: `quest_tracking.py`) or for everyone (shared bosses
beaten, NPCs killed). Parameters that start with `$` name a quest variable (`QuestScope.resolve`);
everything else is a literal. Records a scope lacks (the tutorial keeps none) read as empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import WorldTable
from agentodyssey_pz.world.agents import AgentState, carried_stores, possession
from agentodyssey_pz.world.quest_records import (
    LIGHT_OBJECT,
    TALK_CARRYING_WHERE,
    WHERE_SCOPES,
    Condition,
)
from agentodyssey_pz.world.world import World


@attrs.define
class QuestScope:
    """What a condition is evaluated against."""

    world: World
    agent: AgentState
    res: RuleResult
    variables: dict[str, Any]  # quest variables (areas, NPC instance ids, words)
    progress: dict[str, Any]  # the agent's quest progress (visited areas, completed stages ...)
    bosses_defeated: dict[str, bool] = attrs.Factory(dict)
    # Variables of this agent alone, read before `variables` (the main quest's guide): the shared
    # ones need no per-agent copy each tick.
    own_variables: dict[str, Any] | None = None
    # The main quest's state for everyone (`world.auxiliary["main_quest"]`): shared bosses beaten
    # (`defeated`), NPCs killed by anyone (`killed`). None: nothing of the kind is kept.
    shared: dict[str, Any] | None = None

    def variable(self, name: str, default: Any = None) -> Any:
        """A quest variable: this agent's own first, then the shared ones."""
        own = self.own_variables
        if own is not None and name in own:
            return own[name]
        return self.variables.get(name, default)

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return self.variable(value[1:])
        return value

    def events(self, type_: str) -> list[Any]:
        return self.res.events_of(self.agent.id, type_)

    def possession(self) -> dict[str, int]:
        return possession(self.world, self.agent)


def normal_text(text: Any) -> str:
    return str(text).strip().casefold()


def _any_of(c: Condition, s: QuestScope) -> bool:
    return any(holds(n, s) for n in c.conditions)


def _all_of(c: Condition, s: QuestScope) -> bool:
    return all(holds(n, s) for n in c.conditions)


def _not(c: Condition, s: QuestScope) -> bool:
    """None of the nested conditions holds."""
    return not any(holds(n, s) for n in c.conditions)


def _event(c: Condition, s: QuestScope) -> bool:
    params = c.params
    events = s.events(params["type"])
    if not events:  # most ticks: nothing of the kind happened to the agent
        return False
    npc = s.resolve(params["npc"]) if "npc" in params else None
    wanted = set(params.get("objects", ()))
    category, area = params.get("category"), s.resolve(params.get("area"))
    payload = {k: s.resolve(v) for k, v in params.get("payload", {}).items()}
    def_of = s.world.find_def
    for event in events:
        data = event.data
        if npc is not None and data.get("npc_id") != npc:
            continue
        if any(data.get(k) != v for k, v in payload.items()):
            continue
        if area is not None and data.get("area_id") != area:
            continue
        obj = def_of(data.get("obj_id", "")) if (wanted or category) else None
        if wanted and (obj is None or obj.id not in wanted):
            continue
        if category and (obj is None or obj.category != category):
            continue
        return True
    return False


def _in_area(c: Condition, s: QuestScope) -> bool:
    return s.agent.area_id == s.resolve(c.params["area"])


def _in_area_with_npc(c: Condition, s: QuestScope) -> bool:
    npc = s.resolve(c.params["npc"])
    return npc is not None and npc in s.world.areas[s.agent.area_id].npcs


def _areas(c: Condition, s: QuestScope) -> list[str]:
    value = s.resolve(c.params["areas"])
    return [s.resolve(a) for a in value] if isinstance(value, list) else []


def _visited_k(c: Condition, s: QuestScope) -> bool:
    """`history` "quest": the visits the quest recorded since it started; "episode": every area
    the agent visited since reset. `include_current`: the area it stands in counts too."""
    params = c.params
    if params.get("history", "quest") == "episode":
        visited: Any = s.agent.visited
    else:
        visited = set(s.progress.get("visited", ()))
    here = s.agent.area_id if params.get("include_current") else None
    k = int(s.resolve(params.get("k", 1)))
    return sum(1 for a in _areas(c, s) if a in visited or a == here) >= k


def _area_list(value: Any, s: QuestScope) -> list[str]:
    """An `area` parameter that may be one area or a variable holding a list of areas."""
    value = s.resolve(value)
    if isinstance(value, list):
        return [a for a in value if isinstance(a, str)]
    return [value] if isinstance(value, str) else []


def _text_target(c: Condition, s: QuestScope) -> tuple[str, bool, str | None]:
    """(the wanted text normalised, whether containing it is enough, the writable definition
    required or None)."""
    params = c.params
    return (
        normal_text(s.resolve(params["text"])),
        params.get("match") == "contains",
        params.get("object"),
    )


def any_text(
    world: World, stores: Any, target: str, contains: bool, object_id: str | None = None
) -> bool:
    """Some writable instance in `stores` (of definition `object_id`, if given) bears `target`
    (equal after normalising, or containing it)."""
    writables = world.writables
    for store in stores:
        for oid in store:
            writable = writables.get(oid)
            if writable is None or (object_id is not None and writable.def_id != object_id):
                continue
            text = normal_text(writable.text)
            if (target in text) if contains else (text == target):
                return True
    return False


def _paper_in_area(c: Condition, s: QuestScope) -> bool:
    area = s.resolve(c.params["area"]) if "area" in c.params else s.agent.area_id
    if area is None or area not in s.world.areas:
        return False
    ground = s.world.areas[area].objects
    if s.world.writables.keys().isdisjoint(ground):  # nothing writable there: most ticks
        return False
    target, contains, object_id = _text_target(c, s)
    return any_text(s.world, (ground,), target, contains, object_id)


def stores_in(world: World, agent: AgentState, where: str) -> list[dict[str, int]]:
    """The stores (id -> count) a `where` scope searches (`WHERE_SCOPES`)."""
    parts = WHERE_SCOPES[where]
    stores = [agent.hands]
    if "equipped" in parts:
        stores.append(agent.equipped)
    containers = world.containers
    if "inventory" in parts and agent.inventory_id is not None:
        stores.append(containers[agent.inventory_id].items)
    if "held" in parts:
        for oid in agent.hands:  # containers held in hand, in hand order
            held = containers.get(oid)
            if held is not None:
                stores.append(held.items)
    return stores


def _paper_carried(c: Condition, s: QuestScope) -> bool:
    where = c.params.get("where")
    # Most ticks the agent carries nothing writable: then neither the stores' list nor the wanted
    # text is worked out.
    if not _carries_writable(s.world, s.agent, WHERE_SCOPES[where or "carried"]):
        return False
    if where is None:  # `carried`, the kinds' first scope
        stores = [s.agent.equipped, *carried_stores(s.world, s.agent)]
    else:
        stores = stores_in(s.world, s.agent, where)
    target, contains, object_id = _text_target(c, s)
    return any_text(s.world, stores, target, contains, object_id)


def _carries_writable(world: World, agent: AgentState, parts: tuple[str, ...]) -> bool:
    """Some entry of the stores `parts` names (as `stores_in`) is a writable instance."""
    writables, containers = world.writables, world.containers
    for oid in agent.hands:
        if oid in writables:
            return True
    if "equipped" in parts:
        for oid in agent.equipped:
            if oid in writables:
                return True
    if "inventory" in parts and agent.inventory_id is not None:
        for oid in containers[agent.inventory_id].items:
            if oid in writables:
                return True
    if "held" in parts:
        for held in agent.hands:
            container = containers.get(held)
            if container is not None:
                for oid in container.items:
                    if oid in writables:
                        return True
    return False


def _boss_defeated(c: Condition, s: QuestScope) -> bool:
    """This agent's own instance of the boss is dead, or the boss is shared and anyone beat it."""
    key = c.params["boss"]
    if s.bosses_defeated.get(key):
        return True
    shared = s.shared
    return bool(shared and shared.get("defeated", {}).get(key))


class DefinitionIds(WorldTable):
    """Per object id (an instance's too): its definition's id, a lookup away."""

    def work_out(self, oid: str) -> str:
        return self.world.def_of(oid).id


def _has_any_of(c: Condition, s: QuestScope) -> bool:
    """A unit of one of the objects (instances by their definition) is carried: what
    `possession` counts, without building its table (stage conditions are checked for every agent
    on every tick, and an agent carries a few things)."""
    wanted, agent = c.params["objects"], s.agent
    definition_ids = DefinitionIds.of(s.world)
    for store in (agent.equipped, *carried_stores(s.world, agent)):
        for oid, n in store.items():
            if n > 0 and definition_ids[oid] in wanted:
                return True
    return False


def _any_instance_of(world: World, store: dict[str, int], wanted: list[str]) -> bool:
    """Something in `store` is (an instance of) one of the `wanted` definitions. A plain loop, no
    set: stage conditions are checked for every agent on every tick, on a few things at most."""
    if not store:
        return False
    def_of = world.def_of
    for oid in store:  # noqa: SIM110
        if def_of(oid).id in wanted:
            return True
    return False


def _holding(c: Condition, s: QuestScope) -> bool:
    """Something in the agent's hands is (an instance of) one of the listed definitions."""
    return _any_instance_of(s.world, s.agent.hands, c.params["objects"])


def _equipped_any_of(c: Condition, s: QuestScope) -> bool:
    return _any_instance_of(s.world, s.agent.equipped, c.params["objects"])


def _equipped_min_level(c: Condition, s: QuestScope) -> bool:
    """An equipped item of that category whose definition's level is at least `min_level`."""
    category, least = c.params["category"], int(s.resolve(c.params["min_level"]))
    def_of = s.world.def_of
    for oid in s.agent.equipped:
        obj = def_of(oid)
        if obj.category == category and obj.level >= least:
            return True
    return False


def _has_category(c: Condition, s: QuestScope) -> bool:
    def_of = s.world.def_of
    category, where = c.params["category"], c.params.get("where")
    # Every store searched as `possession` would, without building its table (every agent, every
    # tick): an entry's definition is that of its instance.
    if where is None:
        stores = [s.agent.equipped, *carried_stores(s.world, s.agent)]
    else:
        stores = stores_in(s.world, s.agent, where)
    for store in stores:
        for oid in store:
            if def_of(oid).category == category:
                return True
    return False


def _has_item_count(c: Condition, s: QuestScope) -> bool:
    count = int(s.resolve(c.params.get("count", 1)))
    return s.possession().get(c.params["object"], 0) >= count


def _killed_n(c: Condition, s: QuestScope) -> bool:
    return s.agent.kills >= int(s.resolve(c.params["n"]))


def _killed_each(c: Condition, s: QuestScope) -> bool:
    killed = s.agent.killed
    npcs = s.world.npcs
    killed_defs = {npcs[n].def_id for n in killed if n in npcs}
    for ref in c.params["npcs"]:
        npc_id = s.resolve(ref)
        npc = npcs.get(npc_id) if npc_id else None
        if npc_id not in killed and (npc is None or npc.def_id not in killed_defs):
            return False
    return True


def _kill_records(c: Condition, s: QuestScope) -> list[dict[str, Any]]:
    """The agent's kill records since its quest started (`quest_tracking.record_kills`) that pass
    the condition's filters."""
    params = c.params
    enemy_only, dark = params.get("enemy_only", False), params.get("dark_area", False)
    least = int(s.resolve(params.get("min_area_level", 0)))
    roles = params.get("roles")
    kept = []
    for record in s.progress.get("kills", ()):
        if enemy_only and not record["enemy"]:
            continue
        if dark and not record["dark"]:
            continue
        if least and record["level"] < least:
            continue
        if roles is not None and record["role"] not in roles:
            continue
        kept.append(record)
    return kept


def _killed_matching(c: Condition, s: QuestScope) -> bool:
    return sum(r["count"] for r in _kill_records(c, s)) >= int(s.resolve(c.params["n"]))


def _killed_each_role(c: Condition, s: QuestScope) -> bool:
    killed = {r["role"] for r in _kill_records(c, s)}
    return all(role in killed for role in c.params["roles"])


def _lit_dark_areas(c: Condition, s: QuestScope) -> bool:
    lit = s.progress.get("lit", {}).get(c.params.get("light_object", LIGHT_OBJECT), ())
    return len(lit) >= int(s.resolve(c.params["k"]))


def _talked_to(c: Condition, s: QuestScope) -> bool:
    """The agent talked to the NPC at some tick since its quest started; with `area`, it stands
    there now; with `carrying_text`, a writable it carries now bears that text."""
    params = c.params
    if s.resolve(params["npc"]) not in s.progress.get("talked", ()):
        return False
    if "area" in params and s.agent.area_id != s.resolve(params["area"]):
        return False
    if "carrying_text" in params:
        stores = stores_in(s.world, s.agent, params.get("carrying_where", TALK_CARRYING_WHERE))
        return any_text(s.world, stores, normal_text(s.resolve(params["carrying_text"])), False)
    return True


def _bought_from(c: Condition, s: QuestScope) -> bool:
    npc, wanted = s.resolve(c.params["npc"]), c.params.get("objects")
    for seller, obj in s.progress.get("bought", ()):
        if seller == npc and (wanted is None or obj in wanted):
            return True
    return False


def _npc_dead(c: Condition, s: QuestScope) -> bool:
    """Anyone's kill of the NPC was recorded, or its instance has no health left."""
    npc_id = s.resolve(c.params["npc"])
    shared = s.shared
    if shared and npc_id in shared.get("killed", ()):
        return True
    npc = s.world.npcs.get(npc_id) if isinstance(npc_id, str) else None
    return npc is not None and npc.hp <= 0


def _npc_coins_at_least(c: Condition, s: QuestScope) -> bool:
    npc_id = s.resolve(c.params["npc"])
    npc = s.world.npcs.get(npc_id) if isinstance(npc_id, str) else None
    return npc is not None and npc.coins >= int(s.resolve(c.params["coins"]))


def _object_on_ground(c: Condition, s: QuestScope) -> bool:
    """A unit of one of the objects (instances by their definition) lies on the ground of the
    area (of any area of a list), whoever put it there."""
    world = s.world
    wanted = []
    for ref in c.params["objects"]:
        value = s.resolve(ref)
        obj = world.find_def(value) if isinstance(value, str) else None
        if obj is not None:
            wanted.append(obj.id)
    def_of = world.def_of
    for area_id in _area_list(c.params["area"], s):
        area = world.areas.get(area_id)
        if area is None:
            continue
        for oid in area.objects:
            if def_of(oid).id in wanted:
                return True
    return False


def _area_clear(c: Condition, s: QuestScope) -> bool:
    """No enemy the agent can see stands in the area (in any area of a list)."""
    world, viewer = s.world, s.agent.id
    npcs = world.npcs
    for area_id in _area_list(c.params["area"], s):
        area = world.areas.get(area_id)
        if area is None:
            continue
        for npc_id in area.npcs:  # not `visible_npcs`: its memo is of the viewer's own area
            npc = npcs[npc_id]
            if npc.enemy and npc.is_visible_to(viewer):
                return False
    return True


def _stamped_in_order(c: Condition, s: QuestScope) -> bool:
    wanted = s.resolve(c.params.get("object"))
    drops = [area for obj, area in s.progress.get("drops", ()) if wanted is None or obj == wanted]
    targets = _areas(c, s)
    position = 0
    for area in drops:
        if position < len(targets) and area == targets[position]:
            position += 1
    return position == len(targets)


def _stage_completed(c: Condition, s: QuestScope) -> bool:
    return c.params["stage"] in s.progress.get("completed", ())


CHECKS: dict[str, Callable[[Condition, QuestScope], bool]] = {
    "any_of": _any_of,
    "all_of": _all_of,
    "not": _not,
    "event": _event,
    "in_area": _in_area,
    "in_area_with_npc": _in_area_with_npc,
    "visited_k_of_area_set": _visited_k,
    "paper_text_equals_in_area": _paper_in_area,
    "paper_with_text_in_area": _paper_in_area,
    "paper_text_equals_in_hands": _paper_carried,
    "writable_text_equals_in_inventory": _paper_carried,
    "boss_already_defeated": _boss_defeated,
    "has_any_of": _has_any_of,
    "holding": _holding,
    "equipped_any_of": _equipped_any_of,
    "equipped_min_level": _equipped_min_level,
    "has_category": _has_category,
    "has_item_count": _has_item_count,
    "killed_n_enemies": _killed_n,
    "killed_one_of_each": _killed_each,
    "killed_matching": _killed_matching,
    "killed_each_role": _killed_each_role,
    "lit_dark_areas": _lit_dark_areas,
    "talked_to": _talked_to,
    "bought_from": _bought_from,
    "npc_dead": _npc_dead,
    "npc_coins_at_least": _npc_coins_at_least,
    "object_on_ground": _object_on_ground,
    "area_clear": _area_clear,
    "stamped_areas_in_order": _stamped_in_order,
    "stage_completed": _stage_completed,
}


def holds(condition: Condition, scope: QuestScope) -> bool:
    return CHECKS[condition.kind](condition, scope)


def stage_done(done_all: Any, done_any: Any, scope: QuestScope) -> bool:
    """`done_all` alone decides when given (empty: true); else any of `done_any` (empty: false)."""
    # `holds` inlined, and plain loops rather than all()/any() over generators (about 8k fewer
    # instructions per env step): this runs for every agent on every tick.
    if done_all is not None:
        for c in done_all:  # noqa: SIM110
            if not CHECKS[c.kind](c, scope):
                return False
        return True
    for c in done_any or ():  # noqa: SIM110
        if CHECKS[c.kind](c, scope):
            return True
    return False
