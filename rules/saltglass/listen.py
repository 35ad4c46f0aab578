"""`listen <target>`: listen to the saltglass for one hint about this area (no draw).

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass. Checks in
order: the target, trimmed and lower-cased, is `saltglass`; I stand in an observatory or hold a
listen-glass (`common.is_listen_glass`: glass-like, or a writable naming paper, lens or glass).

Hint candidates, in this order, each only when it applies: the ground entry with the smallest id
(`nearby_object`); the locked neighbour with the smallest id, with its key's name or "a key"
(`locked_path`); the enemy here with a non-empty combat pattern and the smallest id, its first four
actions (`enemy_rhythm`). None: event `saltglass_listened {area_id, hint_type: "none",
used_observatory, used_glass_object_ids}`. Else candidate number `(tick + sum of the code points of
my id + ground entries + NPCs here) mod candidates`, told in one of three phrasings chosen by the
sum of the code points of the hinted id mod 3; event `saltglass_listened {area_id, used_observatory,
used_glass_object_ids, hint_type, ...}` with `obj_id` (nearby_object), `to_area`, `from_area`,
`key_id` (locked_path) or `npc_id`, `rhythm` (the whole pattern; enemy_rhythm). An active salt
mirage here counts as a ground entry (it lies there in the published game), never as a hint.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.graph import KEY, LOCKED, OWNER
from agentodyssey_pz.world.world import World

from .common import OBSERVATORY, is_glass_like, is_listen_glass, is_observatory, ord_sum
from .mirage import phantom_count

TARGET = "saltglass"


def listen_glass(world: World, agent: AgentState) -> list[str]:
    return [oid for oid, n in agent.hands.items() if n > 0 and is_listen_glass(world, oid)]


def _object_hint(world: World, area_id: str) -> tuple[str, dict[str, Any]] | None:
    ground = world.areas[area_id].objects
    known = sorted(oid for oid, n in ground.items() if n > 0 and world.find_def(oid) is not None)
    if not known:
        return None
    oid = known[0]
    obj = world.def_of(oid)
    name, area = world.name_of(oid), world.areas[area_id].name
    lines = (
        f"The saltglass rings over the {area}: {name} lies somewhere under the salt here.",
        f"A thin tone in the glass leans toward {name}, a {obj.category} the salt half hides.",
        f"The glass remembers a shape close by: {name}, "
        f"left here like a lost {obj.usage or obj.category}.",
    )
    return lines[ord_sum(oid) % 3], {"hint_type": "nearby_object", "obj_id": oid}


def _path_hint(world: World, area_id: str, agent_id: str) -> tuple[str, dict[str, Any]] | None:
    locked = sorted(
        (to, path)
        for to, path in world.graph.neighbors(area_id).items()
        if path[LOCKED] and path[OWNER] in (None, agent_id)
    )
    if not locked:
        return None
    to, path = locked[0]
    key_id = path[KEY]
    key = world.objects[key_id].name if key_id in world.objects else "a key"
    name = world.areas[to].name
    lines = (
        f"The saltglass hums toward the {name}: that way is sealed, and {key} would wake it.",
        f"A brittle note in the glass: the road to the {name} is still shut.",
        f"The tone bends toward the {name}; the salt keeps a locked way there, shaped for {key}.",
    )
    data = {"hint_type": "locked_path", "to_area": to, "from_area": area_id, "key_id": key_id}
    return lines[ord_sum(to) % 3], data


def _rhythm_hint(world: World, area_id: str) -> tuple[str, dict[str, Any]] | None:
    found = sorted(
        npc_id
        for npc_id in world.areas[area_id].npcs
        if world.npcs[npc_id].enemy and world.npcs[npc_id].combat_pattern
    )
    if not found:
        return None
    npc = world.npcs[found[0]]
    rhythm = list(npc.combat_pattern)
    beat = ", ".join(rhythm[:4])
    lines = (
        f"The saltglass clicks in {npc.name}'s measure: {beat}.",
        f"A dry chime carries how {npc.name} fights: {beat}. Strike between the beats.",
        f"The glass has caught {npc.name}'s rhythm: {beat}.",
    )
    data = {"hint_type": "enemy_rhythm", "npc_id": npc.id, "rhythm": rhythm}
    return lines[ord_sum(npc.id) % 3], data


class Listen(BaseActionRule):
    name = "listen"
    verb = "listen"
    params = ("target",)
    param_min = param_max = 1
    description = (
        "Listen to the saltglass (`listen saltglass`) in an observatory, or holding glass or "
        "paper, for a hint about an object, a locked way or an enemy's rhythm here."
    )
    catalogue = CatalogueShape("none")  # one entry, carried out as `listen saltglass`
    valid_params_from_mask = True
    settings = {"observatory_names": list(OBSERVATORY)}

    def usable(self, ctx: RuleContext) -> tuple[bool, list[str]]:
        """(in an observatory, the listen-glass in hand); listening works when either holds."""
        world, agent = ctx.world, ctx.actor
        area = world.areas.get(agent.area_id)
        return is_observatory(area, self.settings["observatory_names"]), listen_glass(world, agent)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        world, agent = ctx.world, ctx.actor
        target = ctx.params[0]
        if target.strip().lower() != TARGET:
            return res.fail(
                agent.id, "listen.target", f"I cannot listen to {target}: only to the saltglass."
            )
        observatory, glass = self.usable(ctx)
        if not observatory and not glass:
            return res.fail(
                agent.id,
                "listen.no_glass",
                "I cannot hear the saltglass here: I need an observatory or glass in my hands.",
            )
        area_id = agent.area_id
        payload: dict[str, Any] = {
            "area_id": area_id,
            "used_observatory": observatory,
            "used_glass_object_ids": glass,
        }
        hints = [
            h
            for h in (
                _object_hint(world, area_id),
                _path_hint(world, area_id, agent.id),
                _rhythm_hint(world, area_id),
            )
            if h is not None
        ]
        if not hints:
            payload["hint_type"] = "none"
            res.say(agent.id, "listen.hush", "I listened to the saltglass: only a long hush.")
            res.emit("saltglass_listened", agent.id, payload)
            return None
        area = world.areas[area_id]
        entries = len(area.objects) + phantom_count(world, area_id)
        index = (ctx.game.tick_index + ord_sum(agent.id) + entries + len(area.npcs)) % len(hints)
        text, data = hints[index]
        payload.update(data)
        res.say(agent.id, "listen.hint", f"I listened to the saltglass. {text}")
        res.emit("saltglass_listened", agent.id, payload)
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        observatory, glass = self.usable(ctx)
        return [(None, (TARGET,))] if observatory or glass else []


def listed_as_published(world: World, agent: AgentState, observatory: bool) -> bool:
    """Whether the published game lists `listen saltglass` (glass-like in hand by the plain test,
    paper not counted): kept for reference by the tests."""
    return observatory or any(n > 0 and is_glass_like(world, o) for o, n in agent.hands.items())
