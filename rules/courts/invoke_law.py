"""`invoke law <writable_name>`: read a written law in my hand aloud, spending a statute shard.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. Checks in
order: the name is known; it names a writable instance; it is in my hands; its text is not blank;
no invocation with turns left is active in this area (`active_invocations`); a catalyst
(`obj_statute_shard`) is in my hands, equipped inventory or a held container (the first of them);
the lower-cased text contains a keyword, the first of this table that matches:

* `passage`, `unlock`, `open` -> `unlock_doors`;
* `gravity`, `reveal`, `hidden` -> `reveal_hidden`;
* `nullify`, `silence`, `pacify` -> `pacify_npcs`.

Then one shard is used up and the document's text is erased, and:

* `unlock_doors`: every locked path of this area is unlocked (a path is one edge: both ways); the
  neighbours are saved, for the re-lock at expiry;
* `reveal_hidden`: the pool is the `material` definitions without recipe ingredients, with some
  `areas`, whose level is within 1 of this area's; if it is not empty, `randint(1, max(1, area
  level))` times `choice(pool)`, one unit each on the ground (kept for good);
* `pacify_npcs`: every enemy NPC here has its attack and pattern saved, then attack 0 and no
  pattern; every agent's fights recorded in this area end (an agent left fighting no one rests).

The invocation `inv_<agent id>_<tick>` is recorded with 3 turns; event `law_invoked {writable_id,
effect_type, area_id, duration: 3, invocation_id}`. Expiry: `invoke_law_expiry_step`.

Listing: AgentOdyssey lists every held written writable when a shard is carried; ours lists
exactly what takes effect (keyword and active invocation checked too), as the exact-mask contract
asks. Catalogue: one entry per writable definition.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.world import World

from .common import INVOCATIONS, MATERIAL, SHARD, catalyst_store, rest_if_free, table

DURATION = 3
UNLOCK, REVEAL, PACIFY = "unlock_doors", "reveal_hidden", "pacify_npcs"
KEYWORDS: tuple[tuple[str, str], ...] = (
    ("passage", UNLOCK), ("unlock", UNLOCK), ("open", UNLOCK),
    ("gravity", REVEAL), ("reveal", REVEAL), ("hidden", REVEAL),
    ("nullify", PACIFY), ("silence", PACIFY), ("pacify", PACIFY),
)  # fmt: skip


def effect_of(text: str) -> str | None:
    lowered = text.lower()
    for word, effect in KEYWORDS:
        if word in lowered:
            return effect
    return None


def active_here(world: World, area_id: str) -> bool:
    for inv in table(world, INVOCATIONS).values():
        if inv.get("area_id") == area_id and inv.get("remaining", 0) > 0:
            return True
    return False


def check(world: World, agent: AgentState, name: str) -> tuple[str, str] | tuple[str, str, str]:
    """(writable id, effect) when `invoke law <name>` takes effect, else (key, why not, "")."""
    oid = world.obj_name_to_id.get(name)
    if oid is None or world.find_def(oid) is None:
        return "invoke_law.unknown", f"I cannot invoke {name}: I know of no such document.", ""
    doc = world.writables.get(oid)
    if doc is None:
        return "invoke_law.not_writable", f"I cannot invoke {name}: nothing is written on it.", ""
    if agent.hands.get(oid, 0) <= 0:
        return "invoke_law.not_held", f"I cannot invoke {name}: I must hold it in my hands.", ""
    if not doc.text.strip():
        return "invoke_law.blank", f"I cannot invoke {name}: it is blank.", ""
    if active_here(world, agent.area_id):
        return (
            "invoke_law.active",
            "A law already holds sway here; I must wait for it to lapse.",
            "",
        )
    if catalyst_store(world, agent, SHARD) is None:
        return "invoke_law.no_shard", "I need a statute shard to invoke a law.", ""
    effect = effect_of(doc.text)
    if effect is None:
        return "invoke_law.no_keyword", f"The words on {name} invoke nothing the law knows.", ""
    return oid, effect


class InvokeLaw(BaseActionRule):
    name = "invoke_law"
    verb = "invoke law"
    params = ("writable_name",)
    param_min = param_max = 1
    description = (
        "Invoke the law written on a document in my hand, spending a statute shard: it opens "
        "locked doors, reveals hidden materials or pacifies enemies here for 3 turns."
    )
    catalogue = CatalogueShape("writable", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, game = ctx.actor, ctx.world, ctx.game
        found = check(world, agent, ctx.params[0])
        if len(found) == 3:
            return res.fail(agent.id, found[0], found[1])
        oid, effect = found
        store = catalyst_store(world, agent, SHARD)
        assert store is not None
        remove_count(store, SHARD, 1)
        world.writables[oid].text = ""
        area_id = agent.area_id
        saved: dict[str, Any]
        if effect == UNLOCK:
            opened = []
            for neighbour, path in world.graph.neighbors(area_id).items():
                if path["locked"]:
                    world.graph.set_locked(area_id, neighbour, False)
                    opened.append(neighbour)
            saved = {"unlocked": opened}
            text = f"The law opens the way: {len(opened)} locked path(s) here swing open."
        elif effect == REVEAL:
            level = world.areas[area_id].level
            pool = [
                d.id
                for d in world.objects.values()
                if d.category == MATERIAL and not d.craft.ingredients and d.areas
                and abs(d.level - level) <= 1
            ]  # fmt: skip
            spawned: list[str] = []
            if pool:
                for _ in range(game.rng.randint(1, max(1, level))):
                    def_id = game.rng.choice(pool)
                    world.spawn_on_ground(area_id, def_id, 1)
                    spawned.append(def_id)
            saved = {"spawned": spawned}
            text = f"The law lays bare what was hidden: {len(spawned)} thing(s) appear here."
        else:
            frozen: dict[str, Any] = {}
            for npc_id in world.areas[area_id].npcs:
                npc = world.npcs[npc_id]
                if npc.enemy:
                    frozen[npc_id] = {
                        "attack_power": npc.attack_power,
                        "combat_pattern": list(npc.combat_pattern),
                    }
                    npc.attack_power, npc.combat_pattern = 0, ()
            for other in game.agents.values():
                for npc_id in [n for n, e in other.combats.items() if e.area_id == area_id]:
                    del other.combats[npc_id]
                rest_if_free(other)
            saved = {"npcs": frozen}
            text = f"The law silences violence here: {len(frozen)} foe(s) lower their arms."
        inv_id = f"inv_{agent.id}_{game.tick_index}"
        table(world, INVOCATIONS)[inv_id] = {
            "agent_id": agent.id, "area_id": area_id, "effect_type": effect,
            "remaining": DURATION, "saved_state": saved,
        }  # fmt: skip
        res.say(agent.id, "invoke_law.done", f"I read {ctx.params[0]} aloud as law. {text}")
        res.emit(
            "law_invoked",
            agent.id,
            {
                "writable_id": oid, "effect_type": effect, "area_id": area_id,
                "duration": DURATION, "invocation_id": inv_id,
            },
        )  # fmt: skip
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid in agent.hands:
            doc = world.writables.get(oid)
            if doc is None or world.obj_name_to_id.get(doc.name) != oid:
                continue
            if len(check(world, agent, doc.name)) == 2:
                out.append((doc.def_id, (doc.name,)))
        return out
