"""`file objection <npc_name>`: object to a foe's way of fighting, citing the laws I carry.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. Checks in
order: the name is known; I am fighting that NPC (any area); it exists with HP above 0.

My carried writables that are written (hands, inventory, held containers) are read in order. With
none, I lose my next turn (`objection_skip_turn`), no event. Otherwise, for each document in
order and each keyword of this ordered table found in its lower-cased text, the NPC's current
pattern is tested; the first (document, keyword) whose test holds wins:

* `consecutive attack`, `no consecutive`, `ban consecutive`: two adjacent attacks (no wrap);
* `must defend`, `mandatory defend`, `require defend`: no defend;
* `no first attack`, `cannot open with`: the pattern opens with an attack;
* `must wait`, `mandatory wait`, `require wait`: no wait;
* `no aggression`, `ban attack`, `prohibit attack`, `peaceful conduct`: any attack.

Sustained: the NPC stops being an enemy for 5 turns (attack 0, no pattern; its enemy flag, attack
and pattern saved in `pacified_npcs`), my fight with it ends, and every fight with it recorded in
this area ends (an agent left fighting no one rests); event `objection_sustained {npc_id,
document, keyword, pacify_duration: 5, area_id}`. Expiry: `objection_effects_step`. Overruled
(no test holds): I lose my next turn; event `objection_overruled {npc_id}`.

A lost turn needs the environment (AgentOdyssey replaces the next command with `wait`); this pack
records the flag only (docs/rule-packs.md#the-courts-pack).

Every NPC I fight that still exists is listed: any objection takes effect. Catalogue: one entry
per NPC prototype.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

from .common import PACIFIED, SKIP_TURN, carried_writables, rest_if_free, table, written

PACIFY_TURNS = 5
ATTACK, DEFEND, WAIT = "attack", "defend", "wait"


def adjacent_attacks(p: Sequence[str]) -> bool:
    return any(p[i] == ATTACK and p[i + 1] == ATTACK for i in range(len(p) - 1))


LAWS = (
    (("consecutive attack", "no consecutive", "ban consecutive"), adjacent_attacks),
    (("must defend", "mandatory defend", "require defend"), lambda p: DEFEND not in p),
    (("no first attack", "cannot open with"), lambda p: bool(p) and p[0] == ATTACK),
    (("must wait", "mandatory wait", "require wait"), lambda p: WAIT not in p),
    (
        ("no aggression", "ban attack", "prohibit attack", "peaceful conduct"),
        lambda p: ATTACK in p,
    ),
)


def ruling(world: World, docs: list[str], pattern: Sequence[str]) -> tuple[str, str] | None:
    """(document name, keyword) of the first law the pattern breaks, else None."""
    for oid in docs:
        lowered = world.writables[oid].text.lower()
        for words, broken in LAWS:
            for word in words:
                if word in lowered and broken(pattern):
                    return world.writables[oid].name, word
    return None


def target(world: World, agent: AgentState, name: str) -> Npc | tuple[str, str]:
    npc_id = world.npc_name_to_id.get(name)
    if npc_id is None:
        return "file_objection.unknown", f"I cannot object to {name}: I know no one of that name."
    if npc_id not in agent.combats:
        return "file_objection.not_fighting", f"I cannot object to {name}: we are not fighting."
    npc = world.npcs.get(npc_id)
    if npc is None or npc.hp <= 0:
        return "file_objection.gone", f"I cannot object to {name}: they are no more."
    return npc


class FileObjection(BaseActionRule):
    name = "file_objection"
    verb = "file objection"
    params = ("npc_name",)
    param_min = param_max = 1
    description = (
        "Object to a foe I fight, citing a law I carry that its way of fighting breaks: if "
        "sustained it stops fighting for 5 turns; otherwise I lose my next turn."
    )
    catalogue = CatalogueShape("npc", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, game = ctx.actor, ctx.world, ctx.game
        npc = target(world, agent, ctx.params[0])
        if not isinstance(npc, Npc):
            return res.fail(agent.id, *npc)
        docs = written(world, carried_writables(world, agent))
        if not docs:
            table(world, SKIP_TURN)[agent.id] = True
            res.say(
                agent.id,
                "file_objection.no_documents",
                f"I object to {npc.name} with no law to cite; the court is not amused and I "
                "will lose my next turn.",
            )
            return None
        found = ruling(world, docs, npc.combat_pattern)
        if found is None:
            table(world, SKIP_TURN)[agent.id] = True
            res.say(
                agent.id,
                "file_objection.overruled",
                f"Overruled: {npc.name} breaks none of the laws I carry. I will lose my next turn.",
            )
            res.emit("objection_overruled", agent.id, {"npc_id": npc.id})
            return None
        document, keyword = found
        area_id = agent.area_id
        del agent.combats[npc.id]
        rest_if_free(agent)
        table(world, PACIFIED)[npc.id] = {
            "remaining": PACIFY_TURNS,
            "original_enemy": npc.enemy,
            "original_attack_power": npc.attack_power,
            "original_combat_pattern": list(npc.combat_pattern),
            "area_id": area_id,
            "agent_id": agent.id,
        }
        npc.enemy, npc.attack_power, npc.combat_pattern = False, 0, ()
        for other in game.agents.values():
            engagement = other.combats.get(npc.id)
            if engagement is not None and engagement.area_id == area_id:
                del other.combats[npc.id]
            rest_if_free(other)
        res.say(
            agent.id,
            "file_objection.sustained",
            f"Sustained: {document} forbids '{keyword}', and {npc.name} must stand down for "
            f"{PACIFY_TURNS} turns.",
        )
        res.emit(
            "objection_sustained",
            agent.id,
            {
                "npc_id": npc.id, "document": document, "keyword": keyword,
                "pacify_duration": PACIFY_TURNS, "area_id": area_id,
            },
        )  # fmt: skip
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for npc_id in agent.combats:
            npc = world.npcs.get(npc_id)
            if npc is None or npc.hp <= 0 or world.npc_name_to_id.get(npc.name) != npc_id:
                continue
            out.append((npc.def_id, (npc.name,)))
        return out
