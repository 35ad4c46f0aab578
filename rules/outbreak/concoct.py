"""`concoct <herb1_name> <herb2_name>`: mix two herbs into a remedy and drink it at once.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine.
Checks in order: both names are known objects; both are herbs (green, red, blue: the `herbs`
setting, by definition id); one unit of herb1, then one of herb2, can be reserved from the
possession sources (hands, the equipped inventory, held containers; a pair of the same herb needs
two units). There is no full-health check: the herbs are used up even at full health.

Potency by unordered pair (the `potency` setting, keyed `green+red` by herb position): green+green
20, green+red 40, red+red 60, green+blue 50, red+blue 70, blue+blue 90; HP becomes
`min(max_hp, hp + potency)`. Event `herbs_concocted {herb1, herb2, potency, actual_heal, area_id}`
(herbs by definition id). Draws nothing.

Listings: the herbs I have, in the `herbs` order (AgentOdyssey iterates a set, so its order
changes from process to process), each pair (h1, h2) with h2 at or after h1 in that order, the same
herb only with 2 units. Catalogue: one entry per object kind, for the first herb; it runs the first
listed pair starting with that herb (so green+green when there are two greens).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores
from agentodyssey_pz.world.world import World

from .common import take_one, units_held

HERBS = ("obj_green_herb", "obj_red_herb", "obj_blue_herb")
POTENCY = {"0+0": 20, "0+1": 40, "1+1": 60, "0+2": 50, "1+2": 70, "2+2": 90}


class Concoct(BaseActionRule):
    name = "concoct"
    verb = "concoct"
    params = ("herb1_name", "herb2_name")
    param_min = param_max = 2
    description = "Mix two herbs I carry into a remedy and drink it (20 to 90 HP by the pair)."
    catalogue = CatalogueShape("object", name=0)
    valid_params_from_mask = True
    # Its listings read only the names and what the agent carries (`reach_key`): kept while the
    # agent's reach is unchanged (docs/rule-packs.md, the exact-mask contract).
    lists_from_reach = True
    listed_after = "write"  # listed after `write`, before `wait`, as AgentOdyssey lists them
    # Its listings read what the agent carries and its own fights, never the ground, NPCs or
    # other agents: offered in quarantine's dark, which hides only those (docs/rule-packs.md).
    dim_safe = True
    settings = {"herbs": list(HERBS), "potency": dict(POTENCY)}

    def herb_index(self, world: World, name: str) -> int | None:
        oid = world.obj_name_to_id.get(name)
        obj = world.find_def(oid) if oid is not None else None
        if obj is None:
            return None
        herbs = self.settings["herbs"]
        return herbs.index(obj.id) if obj.id in herbs else -1

    def potency(self, i: int, j: int) -> int:
        low, high = (i, j) if i <= j else (j, i)
        return int(self.settings["potency"].get(f"{low}+{high}", 0))

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name1, name2 = ctx.params
        i, j = self.herb_index(world, name1), self.herb_index(world, name2)
        if i is None or j is None:
            unknown = name1 if i is None else name2
            return res.fail(agent.id, "concoct.unknown", f"I know of no such thing as {unknown}.")
        if i < 0 or j < 0:
            return res.fail(
                agent.id, "concoct.not_herb", f"I can only concoct herbs, not {name1} and {name2}."
            )
        herbs = self.settings["herbs"]
        h1, h2 = herbs[i], herbs[j]
        need = 2 if h1 == h2 else 1
        if units_held(world, agent, h1) < need or units_held(world, agent, h2) < need:
            return res.fail(
                agent.id, "concoct.missing", f"I do not carry {name1} and {name2} to mix."
            )
        take_one(world, agent, h1, res)
        take_one(world, agent, h2, res)
        potency = self.potency(i, j)
        before = agent.hp
        agent.hp = min(agent.max_hp, before + potency)
        healed = agent.hp - before
        res.say(
            agent.id,
            "concoct.done",
            f"I crushed {name1} with {name2} and drank the mixture: +{healed} HP "
            f"({agent.hp}/{agent.max_hp}).",
        )
        res.emit(
            "herbs_concocted",
            agent.id,
            {
                "herb1": h1,
                "herb2": h2,
                "potency": potency,
                "actual_heal": healed,
                "area_id": agent.area_id,
            },
        )
        return None

    def pairs(self, world: World, agent: AgentState) -> list[tuple[str, str, str]]:
        """(first herb's id, name1, name2) of every pair that can be concocted now."""
        held: dict[str, int] = {}
        herbs = self.settings["herbs"]
        for store in carried_stores(world, agent):  # the possession sources, in order
            for oid, n in store.items():
                if oid in herbs:
                    held[oid] = held.get(oid, 0) + n
        if not held:
            return []
        have = [h for h in self.settings["herbs"] if held.get(h, 0) > 0 and h in world.objects]
        out = []
        for a, h1 in enumerate(have):
            for h2 in have[a:]:
                if h1 == h2 and held[h1] < 2:
                    continue
                out.append((h1, world.objects[h1].name, world.objects[h2].name))
        return out

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        return [(h1, (n1, n2)) for h1, n1, n2 in self.pairs(ctx.world, ctx.actor)]
