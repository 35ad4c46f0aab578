"""`salt_mirage_step` (priority 6): phantom objects shimmer on the open salt and fade.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass. State
`world.auxiliary["salt_mirage"]["active"][area] = {obj_id, fake_name, born_step, lifetime,
on_ground}`.

1. Expire: `tick - born_step >= lifetime` removes the phantom and its record.
2. For each open-salt area (world order; tutorial rooms left alone) without an active mirage:
   `rng.random() < chance` (0.12) makes one: `fake_name = rng.choice(names of the non-quest
   definitions, in definition order)`, id `_mirage_<area id>_<tick>`, one unit;
   `lifetime = rng.randint(8, 18)`.

The published game puts the phantom's id on the area's ground, where no command can name it (it
has no definition): it is seen (`1 <fake_name>` in the area's text), never picked up, never a
quest's object, and its `mirage_dispelled` branch never fires. Here it is kept in the record
alone (`on_ground`: still lying there), since a ground entry must name an object of the world:
`listen` counts it among the ground entries, `collect_unattended_step` may take it (`on_ground`
false, the record lives on until it expires), and the area's text shows it after the ground's
objects (`ground_sights`, read by the text observation). The vector observation does not show it:
its ground segment counts object kinds of the world, and a phantom is none, nor can a discrete
agent do anything with it.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.world import World

from .common import OPEN_SALT, is_open_salt, tutorial_areas

STATE_KEY = "salt_mirage"
PREFIX = "_mirage_"


def active_mirages(world: World) -> dict[str, dict[str, Any]]:
    return (world.auxiliary.get(STATE_KEY) or {}).get("active", {})


def phantom_count(world: World, area_id: str) -> int:
    """1 when a phantom lies on that area's ground now, else 0."""
    record = active_mirages(world).get(area_id)
    return 1 if record is not None and record["on_ground"] else 0


def visible_mirages(world: World, area_id: str) -> list[tuple[str, str]]:
    """(phantom id, fake name) lying on that ground: what the area's text shows as `1 <name>`."""
    record = active_mirages(world).get(area_id)
    return [(record["obj_id"], record["fake_name"])] if record and record["on_ground"] else []


class SaltMirage(BaseStepRule):
    name = "salt_mirage_step"
    priority = 6
    description = "Phantom objects shimmer on the open salt for 8-18 ticks; none can be picked up."
    state_key = STATE_KEY
    state_shape = Record(
        {
            "active": MapOf(
                Record(
                    {
                        "obj_id": str,
                        "fake_name": str,
                        "born_step": int,
                        "lifetime": int,
                        "on_ground": bool,
                    }
                )
            )
        }
    )
    settings = {
        "chance": 0.12,
        "lifetime_min": 8,
        "lifetime_max": 18,
        "open_salt_names": list(OPEN_SALT),
    }

    def ground_sights(self, world: World, area_id: str) -> tuple[tuple[int, str], ...]:
        """The phantom lying there, as the area's text shows it (`1 <fake_name>`): asked for every
        agent's text, every tick, so a plain look-up."""
        state = world.auxiliary.get(STATE_KEY)
        record = state["active"].get(area_id) if state else None
        return ((1, record["fake_name"]),) if record and record["on_ground"] else ()

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, rng, s = ctx.game, ctx.world, ctx.game.rng, ctx.game.tick_index
        active = world.auxiliary.setdefault(STATE_KEY, {"active": {}})["active"]
        for area_id in list(active):
            record = active[area_id]
            if s - record["born_step"] >= record["lifetime"]:
                del active[area_id]
        skip = tutorial_areas(game)
        names: list[str] | None = None
        for area_id, area in world.areas.items():
            if area_id in active or area_id in skip:
                continue
            if not is_open_salt(area, self.settings["open_salt_names"]):
                continue
            if rng.random() >= self.settings["chance"]:
                continue
            if names is None:
                names = [o.name for o in world.objects.values() if not o.quest]
            if not names:
                continue
            fake = rng.choice(names)
            lifetime = rng.randint(self.settings["lifetime_min"], self.settings["lifetime_max"])
            active[area_id] = {
                "obj_id": f"{PREFIX}{area_id}_{s}",
                "fake_name": fake,
                "born_step": s,
                "lifetime": lifetime,
                "on_ground": True,
            }
