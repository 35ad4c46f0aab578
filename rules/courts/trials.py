"""`trial_proceedings_step` (5): every kill is tried at once; a written justification earns an
upgrade, none a curse on the killer's base attack.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. State
`trial_proceedings[agent] = {active_trials, attack_curse}`. Each tick:

1. every `npc_killed` by an agent whose NPC is not a quest NPC (flagged, or of a quest's
   prototype: our quest bosses drop the flag to be fought) nor a judge summons a judge: an
   instance of `npc_spectral_judge` at the area's level (the prototype's next index; its coins
   drawn as for any NPC), then not an enemy, HP 10^9, attack 0, placed in the kill's area; the trial
   `{area_id, npc_id, judge_inst_id, step_initiated, resolved}` is opened; the killer is told;
   event `trial_proceedings_initiated {area_id, killed_npc_id, judge_inst_id}`. A world without
   that prototype holds no trials;
2. every open trial of every agent (agent order) is decided in the same tick. Justified when a
   written writable on the trial area's ground, in the agent's hands, inventory or held containers
   holds one of `JUSTIFICATIONS` (lower-cased): one carried item is upgraded (below), or if none
   can be, `max(5, randint(5, 15))` coins go to the ground where the agent stands; event
   `trial_justified {area_id, killed_npc_id, judge_inst_id}`. Guilty: a curse with turns left
   gains a level and 4 turns again, else a new one `{remaining: 4, original_min_attack,
   curse_level: 1}`; event `trial_guilty {area_id, killed_npc_id, judge_inst_id, curse_level,
   curse_duration: 4}`. Then the judge is deleted;
3. every agent's curse: with no turns left, its base attack comes back and the curse goes; else
   base attack `max(1, original // 2^level)` and one turn spent; at 0 the base attack comes back,
   the curse goes, event `trial_curse_expired {}`. (`agent_attack_update_step` applies the base
   attack the next tick; a level gained meanwhile is lost when the saved value comes back, as
   published; the setting `keep_level_ups` adds the attack gained under the curse back.)

Upgrade: the candidates are the entries in hands, inventory and held containers whose definition
is not currency, station or container and not writable, and for which some other non-quest
definition of the same category has a higher level; `choice` of one; its replacement is that
category's lowest such level (definition order among equals); one unit is swapped in place. A
replacement that is a container or writable is a fresh instance (AgentOdyssey makes one only in
hand, and puts the bare definition id elsewhere, which our model has no room for).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Record
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.entities import Npc, definition_id
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc
from agentodyssey_pz.world.world import World

from .common import CONTAINER, CURRENCY, STATION, TRIALS, coin_id, table

JUDGE = "npc_spectral_judge"
JUDGE_HP = 10**9
CURSE_TURNS = 4
JUSTIFICATIONS = (
    "authorize killing", "lethal force", "execution order", "death warrant", "capital punishment",
    "terminate hostile", "sanctioned elimination", "lawful execution", "justified force",
    "right to kill", "self defense", "self-defense", "deadly force authorized", "kill order",
    "sentence of death", "combat authorization", "license to kill", "warrant of execution",
    "eliminate threat", "neutralize enemy",
)  # fmt: skip


def justified(world: World, agent: AgentState, area_id: str) -> bool:
    """A written writable on the trial area's ground or carried holds a justification."""
    writables = world.writables
    ids = list(world.areas[area_id].objects) if area_id in world.areas else []
    ids += list(agent.hands)
    if agent.inventory_id is not None and agent.inventory_id in world.containers:
        ids += list(world.containers[agent.inventory_id].items)
    for oid in agent.hands:
        held = world.containers.get(oid)
        if held is not None:
            ids += list(held.items)
    for oid in ids:
        doc = writables.get(oid)
        if doc is not None and doc.text.strip():
            lowered = doc.text.lower()
            if any(word in lowered for word in JUSTIFICATIONS):
                return True
    return False


def is_quest_npc(world: World, npc: Npc) -> bool:
    """A quest NPC: flagged so, or of a quest's prototype (our quest bosses drop the flag so they
    can be fought; AgentOdyssey's keep it, and their deaths are never tried)."""
    proto = world.npc_protos.get(npc.def_id)
    return npc.quest or (proto is not None and proto.quest)


def upgrade_options(world: World, agent: AgentState) -> list[tuple[dict[str, int], str, ObjectDef]]:
    """(store, id, replacement definition) for every carried entry that can be upgraded."""
    stores = [agent.hands]
    if agent.inventory_id is not None and agent.inventory_id in world.containers:
        stores.append(world.containers[agent.inventory_id].items)
    stores += [world.containers[o].items for o in agent.hands if o in world.containers]
    out = []
    for store in stores:
        for oid, n in store.items():
            d = world.find_def(oid)
            if n <= 0 or d is None or d.category in (CURRENCY, STATION, CONTAINER) or d.is_writable:
                continue
            better = [
                c for c in world.objects.values()
                if c.id != d.id and c.category == d.category and c.level > d.level and not c.quest
            ]  # fmt: skip
            if better:
                out.append((store, oid, min(better, key=lambda c: c.level)))
    return out


class TrialProceedings(BaseStepRule):
    name = "trial_proceedings_step"
    priority = 5
    description = "Each kill is tried at once: a written justification rewards, none curses."
    state_key = TRIALS
    state_shape = MapOf(Record({"active_trials": ListOf(dict), "attack_curse": (dict, None)}))
    settings = {"keep_level_ups": False}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        trials = table(world, TRIALS)
        for ev in [e for e in res.events if e.type == "npc_killed"]:
            self._open(ctx, res, trials, ev)
        if not trials:
            return
        for agent in game.agents.values():
            state = trials.get(agent.id)
            if state and state["active_trials"]:
                for trial in state["active_trials"]:
                    if not trial["resolved"]:
                        self._decide(ctx, res, agent, state, trial)
                state["active_trials"] = []
        for agent in game.agents.values():
            state = trials.get(agent.id)
            if state and state.get("attack_curse"):
                self._curse_tick(res, agent, state)

    def _open(self, ctx: RuleContext, res: RuleResult, trials: dict, ev: Any) -> None:
        world, game = ctx.world, ctx.game
        agent_id, npc_id, area_id = ev.agent_id, ev.data.get("npc_id"), ev.data.get("area_id")
        if not agent_id or not npc_id or not area_id or agent_id not in game.agents:
            return
        killed = world.npcs.get(npc_id)
        if (killed is not None and is_quest_npc(world, killed)) or definition_id(npc_id) == JUDGE:
            return
        state = trials.setdefault(agent_id, {"active_trials": [], "attack_curse": None})
        proto = world.npc_protos.get(JUDGE)
        if proto is None or area_id not in world.areas:
            return
        index = None if proto.unique else world.take_npc_index(proto.id)
        options = SynthesisOptions(
            zero_loot_keeps_prototype_count=game.config.zero_loot_keeps_prototype_count
        )
        judge = create_npc(world, proto, index, world.areas[area_id].level or 1, game.rng, options)
        judge.enemy, judge.hp, judge.max_hp, judge.attack_power = False, JUDGE_HP, JUDGE_HP, 0
        world.add_npc(judge, area_id)
        state["active_trials"].append(
            {
                "area_id": area_id, "npc_id": npc_id, "judge_inst_id": judge.id,
                "step_initiated": game.tick_index, "resolved": False,
            }
        )  # fmt: skip
        who = killed.name if killed is not None else npc_id
        res.say(
            agent_id, "trial.opened",
            f"{judge.name} materialises: I stand accused of slaying {who}, and must show a "
            "written justification or be cursed.",
        )  # fmt: skip
        res.emit(
            "trial_proceedings_initiated",
            agent_id,
            {"area_id": area_id, "killed_npc_id": npc_id, "judge_inst_id": judge.id},
        )

    def _decide(self, ctx, res, agent: AgentState, state: dict, trial: dict) -> None:
        world, rng = ctx.world, ctx.game.rng
        area_id, judge_id = trial["area_id"], trial["judge_inst_id"]
        judge = world.npcs.get(judge_id)
        judge_name = judge.name if judge is not None else "the spectral judge"
        data = {"area_id": area_id, "killed_npc_id": trial["npc_id"], "judge_inst_id": judge_id}
        if justified(world, agent, area_id):
            options = upgrade_options(world, agent)
            if options:
                store, oid, better = rng.choice(options)
                old = world.name_of(oid)
                new = self._swap(world, res, agent, store, oid, better)
                res.say(
                    agent.id, "trial.upgrade",
                    f"{judge_name} finds the killing lawful and turns my {old} into {new}.",
                )  # fmt: skip
            else:
                coins = max(5, rng.randint(5, 15))
                here = agent.area_id
                world.areas[here].add_objects(coin_id(world), coins)
                res.track_spawn(agent.id, coin_id(world), coins, location("area", here))
                res.say(
                    agent.id, "trial.coins",
                    f"{judge_name} finds the killing lawful and rewards me with {coins} coins.",
                )  # fmt: skip
            res.emit("trial_justified", agent.id, data)
        else:
            curse = state.get("attack_curse")
            if curse and curse.get("remaining", 0) > 0:
                curse["curse_level"] += 1
                curse["remaining"] = CURSE_TURNS
            else:
                curse = state["attack_curse"] = {
                    "remaining": CURSE_TURNS, "original_min_attack": agent.min_attack,
                    "curse_level": 1,
                }  # fmt: skip
            level = curse["curse_level"]
            res.say(
                agent.id, "trial.guilty",
                f"{judge_name} finds no law allowing the killing: guilty. My attack is divided "
                f"by {2**level} for {CURSE_TURNS} turns.",
            )  # fmt: skip
            res.emit("trial_guilty", agent.id, {**data, "curse_level": level,
                                                "curse_duration": CURSE_TURNS})  # fmt: skip
        trial["resolved"] = True
        if judge is not None:
            world.delete_npc(judge_id)

    @staticmethod
    def _swap(world, res, agent: AgentState, store, oid: str, better: ObjectDef) -> str:
        """One unit of `oid` out of `store`, one of `better` in; returns the new thing's name."""
        remove_count(store, oid, 1)
        if store is agent.hands:
            where = location("hand", agent.id)
        else:
            box = next(c for c in world.containers.values() if c.items is store)
            where = location("container", box.id)
        res.track_consume(agent.id, oid, 1, where)
        [(new_id, _)] = world.materialise(better.id, 1)
        store[new_id] = store.get(new_id, 0) + 1
        res.track_spawn(agent.id, new_id, 1, where)
        return world.name_of(new_id)

    def _curse_tick(self, res: RuleResult, agent: AgentState, state: dict) -> None:
        curse = state["attack_curse"]
        original = curse["original_min_attack"]
        if curse["remaining"] <= 0:
            agent.min_attack = original
            state["attack_curse"] = None
            return
        cursed = max(1, original // 2 ** curse["curse_level"])
        if self.settings["keep_level_ups"]:
            gained = agent.min_attack - curse.get("applied", agent.min_attack)
            if gained > 0:  # a level-up under the curse: keep its attack
                original = curse["original_min_attack"] = original + gained
                cursed = max(1, original // 2 ** curse["curse_level"])
            curse["applied"] = cursed
        agent.min_attack = cursed
        curse["remaining"] -= 1
        if curse["remaining"] > 0:
            res.say(
                agent.id, "trial.cursed",
                f"The court's curse holds my base attack at {cursed} "
                f"({curse['remaining']} turn(s) left).",
            )  # fmt: skip
            return
        agent.min_attack = original
        state["attack_curse"] = None
        res.say(agent.id, "trial.curse_lifted", "The court's curse lifts; my attack is restored.")
        res.emit("trial_curse_expired", agent.id, {})
