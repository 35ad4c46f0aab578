"""Quest condition evaluation: one small function per condition kind (spec step-rules 8.5).

Rule pack `base`. Used by the main quest, and by the tutorial for its step checks. A condition reads
the state of one agent and the events about that agent in this tick. Parameters that start with `$`
name a quest variable (`QuestScope.resolve`); everything else is a literal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import AgentState, carried_stores, possession
from agentodyssey_pz.world.quest_records import Condition
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


def _normal(text: Any) -> str:
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
    visited = set(s.progress.get("visited", ()))
    k = int(s.resolve(c.params.get("k", 1)))
    return sum(1 for a in _areas(c, s) if a in visited) >= k


def _writable_texts_on_ground(world: World, area_id: str | None) -> list[str]:
    if area_id is None or area_id not in world.areas:
        return []
    writables = world.writables
    return [writables[oid].text for oid in world.areas[area_id].objects if oid in writables]


def _paper_in_area(c: Condition, s: QuestScope) -> bool:
    area = s.resolve(c.params["area"]) if "area" in c.params else s.agent.area_id
    target = _normal(s.resolve(c.params["text"]))
    return any(_normal(t) == target for t in _writable_texts_on_ground(s.world, area))


def _carried_texts(s: QuestScope) -> list[str]:
    writables = s.world.writables
    stores = [s.agent.equipped, *carried_stores(s.world, s.agent)]
    return [writables[oid].text for store in stores for oid in store if oid in writables]


def _paper_carried(c: Condition, s: QuestScope) -> bool:
    target = _normal(s.resolve(c.params["text"]))
    return any(_normal(t) == target for t in _carried_texts(s))


def _boss_defeated(c: Condition, s: QuestScope) -> bool:
    return bool(s.bosses_defeated.get(c.params["boss"]))


def _has_any_of(c: Condition, s: QuestScope) -> bool:
    have = s.possession()
    return any(have.get(oid, 0) > 0 for oid in c.params["objects"])


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


def _has_category(c: Condition, s: QuestScope) -> bool:
    def_of = s.world.def_of
    return any(def_of(oid).category == c.params["category"] for oid in s.possession())


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
    "has_category": _has_category,
    "has_item_count": _has_item_count,
    "killed_n_enemies": _killed_n,
    "killed_one_of_each": _killed_each,
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
