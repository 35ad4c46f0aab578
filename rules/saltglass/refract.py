"""`refract <glass_object_name>`: hold a glass object up to the light and see this area clearly.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass. Checks in
order: the name is known; that object is in my hands; it is glass-like (`common.is_glass_like`:
paper does not count); my salt glaze is not active (any glazed item, `glaze.py`). Nothing is used
up and nothing drawn. Reveals, in order: every locked way out with its key's name (or a line with
no key), the first three ground entries by sorted id that have a definition (count, name,
category), every merchant here with its stock (definition ids). Event `refracted {area_id,
glass_id, reveals_count}`.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.graph import KEY, LOCKED, OWNER
from agentodyssey_pz.world.world import World

from .common import is_glass_like
from .glaze import glaze_active

MERCHANT = "merchant"
SHOWN_OBJECTS = 3


def refusal(ctx: RuleContext, name: str) -> tuple[str, str] | str:
    """The glass's id, or (feedback key, why not)."""
    world, agent = ctx.world, ctx.actor
    oid = world.obj_name_to_id.get(name)
    if oid is None:
        return "refract.unknown", f"I cannot refract with {name}: I know of no such thing."
    if agent.hands.get(oid, 0) <= 0:
        return "refract.not_held", f"I cannot refract with {name}: I must hold it in my hands."
    if not is_glass_like(world, oid):
        return "refract.not_glass", f"I cannot refract with {name}: it is not glass."
    if glaze_active(agent):
        return (
            "refract.glazed",
            f"Salt glaze scatters the light through {name}: an observatory would clear it.",
        )
    return oid


def reveals(world: World, area_id: str, agent_id: str) -> list[str]:
    lines: list[str] = []
    for to, path in world.graph.neighbors(area_id).items():
        if not path[LOCKED] or path[OWNER] not in (None, agent_id):
            continue
        key_id, name = path[KEY], world.areas[to].name
        if key_id is not None and key_id in world.objects:
            lines.append(
                f"The light bends toward the {name}: its lock wants {world.objects[key_id].name}."
            )
        else:
            lines.append(f"A sealed way toward the {name} glints.")
    area = world.areas[area_id]
    shown = 0
    for oid in sorted(area.objects):
        if shown >= SHOWN_OBJECTS:
            break
        count = area.objects[oid]
        obj = world.find_def(oid)
        if count <= 0 or obj is None:
            continue
        lines.append(f"The light picks out {count} {obj.name} ({obj.category}) here.")
        shown += 1
    for npc_id in area.npcs:
        npc = world.npcs[npc_id]
        if npc.role != MERCHANT:
            continue
        stock = [
            f"{n} {world.objects[i].name}" for i, n in npc.inventory.items() if i in world.objects
        ]
        if stock:
            lines.append(f"Through the glass, {npc.name}'s wares: {', '.join(stock)}.")
    return lines


class Refract(BaseActionRule):
    name = "refract"
    verb = "refract"
    params = ("glass_object_name",)
    param_min = param_max = 1
    description = (
        "Hold a glass object in hand up to the light (not while salt-glazed) to see locked ways "
        "and their keys, what lies here and the merchants' wares."
    )
    catalogue = CatalogueShape("object", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        world, agent = ctx.world, ctx.actor
        name = ctx.params[0]
        found = refusal(ctx, name)
        if isinstance(found, tuple):
            return res.fail(agent.id, *found)
        res.track_utilize(agent.id, found, 1, location("hand", agent.id))
        lines = reveals(world, agent.area_id, agent.id)
        if lines:
            res.say(agent.id, "refract.done", f"I held up {name} to the light. " + " ".join(lines))
        else:
            res.say(agent.id, "refract.nothing", f"I held up {name}: the light shows nothing new.")
        res.emit(
            "refracted",
            agent.id,
            {"area_id": agent.area_id, "glass_id": found, "reveals_count": len(lines)},
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        world, agent = ctx.world, ctx.actor
        if glaze_active(agent):
            return []
        out: list[tuple[Any, tuple[str, ...]]] = []
        seen: set[str] = set()
        for oid, n in agent.hands.items():
            found = world.listing(oid)
            if n <= 0 or found is None or found[1] in seen:
                continue
            seen.add(found[1])
            if not isinstance(refusal(ctx, found[1]), tuple):
                out.append((found[0], (found[1],)))
        return out
