"""`salt_glaze_step` (priority 4): under the open salt sky, glass in hand may glaze one item.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass.
Per agent, in agent order, each agent's record
`agent.progress["salt_glaze"] = {active, obj_id, stat, amount}`:

1. HP 0 or less: clear (reason `death`), next agent.
2. In an observatory: clear (reason `observatory`), next agent.
3. Already active, not in an open-salt area, or no glass-like item in hand: next agent.
4. Candidates, hand items then equipped items: `(id, "attack", a)` when the definition's attack
   a > 0, `(id, "defense", d)` when its defense d > 0. None: next agent.
5. `rng.random() >= chance` (0.2): next agent. `rng.choice(candidates)`; `reduction = max(1,
   ceil(value x fraction))` (0.25); the stat of the definition becomes `max(0, current -
   reduction)`; no actual reduction: next. Record it, a line, event `salt_glaze_formed {area_id,
   obj_id, stat, amount}`.

Clearing an active record adds `amount` back to that definition's stat, resets the record, tells
the agent and emits `salt_glaze_cleared {reason, obj_id, stat, amount}`.

Setting `on_definition` (true, as published) says where the glaze lands. True: as below. False
(the cleaner design; docs/rule-packs.md#the-saltglass-pack): no definition changes; the record also
keeps `applied` and `deaths` (the agent's death count when it formed), and the glaze weakens its
holder only: `amount` off the defense while the item is worn, or off the attack while it is in hand,
settled each tick at this rule (`hold`); an agent that died since (an ambush, after this rule) loses
the glaze with its gear, without a give-back (the respawn reset its stats). The draws, events and
lines are the same in both.

As published, the glaze edits the shared definition: every copy of that object (other agents',
merchants', the ground's) is weaker until it clears, and equipping or unequipping a glazed armour
moves the wearer's defense by the definition's current value, so it stays off by the amount. A
chosen container or writable instance is left as it is (the published rule finds no such stat on
an instance) and nothing is recorded. Definitions are not part of a saved world, so the original
values are kept in `world.auxiliary["salt_glaze"]` (definition id -> stat -> value) and the glazed
definitions are rebuilt from them and the agents' records whenever a state is installed.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import GameView, RuleContext
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .common import OBSERVATORY, OPEN_SALT, held_glass, is_observatory, is_open_salt

STATE_KEY = "salt_glaze"
STATS = ("attack", "defense")


def empty_record() -> dict[str, Any]:
    return {"active": False, "obj_id": None, "stat": None, "amount": 0}


def glaze_active(agent: AgentState) -> bool:
    record = agent.progress.get(STATE_KEY)
    return bool(record and record.get("active"))


def set_stat(world: World, def_id: str, stat: str, value: int) -> None:
    world.objects[def_id] = attrs.evolve(world.objects[def_id], **{stat: value})
    world.reindex_objects()


def rebuild_definitions(game: GameView) -> None:
    """Each glazed definition's stat: its original value less every active glaze on it."""
    world = game.world
    originals = world.auxiliary.get(STATE_KEY) or {}
    for def_id, stats in originals.items():
        if def_id not in world.objects:
            continue
        for stat, value in stats.items():
            taken = sum(
                r["amount"]
                for a in game.agents.values()
                if (r := a.progress.get(STATE_KEY))
                and r["active"]
                and r["stat"] == stat
                and world.def_of(r["obj_id"]).id == def_id
            )
            if getattr(world.objects[def_id], stat) != value - taken:
                set_stat(world, def_id, stat, value - taken)


class SaltGlaze(BaseStepRule):
    name = "salt_glaze_step"
    priority = 4
    description = "Glass held under the open salt sky may glaze an item until an observatory."
    state_key = STATE_KEY
    progress_shape = Record(
        {"active": bool, "obj_id": (str, None), "stat": (str, None), "amount": int},
        {"applied": int, "deaths": int},  # the on-agent glaze (`on_definition` false) only
    )
    state_shape = MapOf(MapOf(int))
    settings = {
        "chance": 0.2,
        "fraction": 0.25,
        "on_definition": True,  # as published; false: the glaze weakens only its holder
        "open_salt_names": list(OPEN_SALT),
        "observatory_names": list(OBSERVATORY),
    }

    def reset(self, game: Any) -> None:
        rebuild_definitions(game)

    def clear(
        self, world: World, agent: AgentState, res: RuleResult, reason: str, restore: bool = True
    ) -> None:
        """End an active glaze and give back what it took (`restore` false: a respawn already
        reset the agent's stats, on-agent glaze only)."""
        record = agent.progress.get(STATE_KEY)
        if not record or not record["active"]:
            return
        oid, stat, amount = record["obj_id"], record["stat"], record["amount"]
        if "applied" in record:  # on the agent: only its defense still carries the glaze here
            if restore and stat == "defense":
                agent.defense += record["applied"]
        else:
            obj = world.find_def(oid)
            if obj is not None and amount > 0:
                set_stat(world, obj.id, stat, getattr(obj, stat) + amount)
        agent.progress[STATE_KEY] = empty_record()
        text = {
            "death": "Death broke the salt glaze on my gear.",
            "observatory": "Out of the open sky, the salt glaze flakes off my gear.",
        }[reason]
        res.say(agent.id, f"salt_glaze.cleared_{reason}", text)
        res.emit(
            "salt_glaze_cleared",
            agent.id,
            {"reason": reason, "obj_id": oid, "stat": stat, "amount": amount},
        )

    @staticmethod
    def hold(agent: AgentState, record: dict[str, Any]) -> None:
        """The on-agent glaze's effect now: a defense glaze takes `amount` off the wearer's
        defense while the item is worn (equip and unequip move the full, unglazed value, so the
        difference is settled here each tick); an attack glaze takes it off the attack, which
        `agent_attack_update_step` works out afresh every tick (priority 1), while the item is
        in hand."""
        oid, amount = record["obj_id"], record["amount"]
        if record["stat"] == "defense":
            want = amount if agent.equipped.get(oid, 0) > 0 else 0
            agent.defense += record["applied"] - want
        else:
            want = min(amount, agent.attack) if agent.hands.get(oid, 0) > 0 else 0
            agent.attack -= want
            want = 0  # nothing to give back: the next tick's attack is worked out afresh
        record["applied"] = want

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, rng = ctx.game, ctx.world, ctx.game.rng
        settings = self.settings
        for agent in game.agents.values():
            if STATE_KEY not in agent.progress:
                agent.progress[STATE_KEY] = empty_record()
            area = world.areas.get(agent.area_id)
            if area is None:
                continue
            if agent.hp <= 0:
                self.clear(world, agent, res, "death")
                continue
            record = agent.progress[STATE_KEY]
            if record["active"] and "deaths" in record and record["deaths"] != agent.deaths:
                # On the agent: it died since (an ambush, after this rule), its gear fell and its
                # stats were reset at respawn; the glaze went with them.
                self.clear(world, agent, res, "death", restore=False)
                continue
            if is_observatory(area, settings["observatory_names"]):
                self.clear(world, agent, res, "observatory")
                continue
            if record["active"]:
                if "applied" in record:
                    self.hold(agent, record)
                continue
            if not is_open_salt(area, settings["open_salt_names"]) or not held_glass(world, agent):
                continue
            candidates: list[tuple[str, str, int]] = []
            for store in (agent.hands, agent.equipped):
                for oid, n in store.items():
                    obj = world.find_def(oid)
                    if n <= 0 or obj is None:
                        continue
                    for stat in STATS:
                        if getattr(obj, stat) > 0:
                            candidates.append((oid, stat, getattr(obj, stat)))
            if not candidates:
                continue
            if rng.random() >= settings["chance"]:
                continue
            oid, stat, value = rng.choice(candidates)
            if world.is_instance(oid):
                continue  # the published rule finds no such stat on an instance
            obj = world.objects[oid]
            reduction = max(1, math.ceil(value * settings["fraction"]))
            current = getattr(obj, stat)
            amount = current - max(0, current - reduction)
            if amount <= 0:
                continue
            if not settings["on_definition"]:
                record = {"active": True, "obj_id": oid, "stat": stat, "amount": amount}
                record.update(applied=0, deaths=agent.deaths)
                self.hold(agent, record)
                agent.progress[STATE_KEY] = record
                self.formed(agent, res, obj, stat, amount)
                continue
            originals = world.auxiliary.setdefault(STATE_KEY, {}).setdefault(oid, {})
            if stat not in originals:
                originals[stat] = current + sum(
                    r["amount"]
                    for a in game.agents.values()
                    if (r := a.progress.get(STATE_KEY))
                    and r["active"]
                    and r["obj_id"] == oid
                    and r["stat"] == stat
                )
            set_stat(world, oid, stat, current - amount)
            agent.progress[STATE_KEY] = {
                "active": True,
                "obj_id": oid,
                "stat": stat,
                "amount": amount,
            }
            self.formed(agent, res, obj, stat, amount)

    @staticmethod
    def formed(agent: AgentState, res: RuleResult, obj: ObjectDef, stat: str, amount: int) -> None:
        res.say(
            agent.id,
            "salt_glaze.formed",
            f"Salt glaze creeps over {obj.name} under the open sky: its {stat} drops by "
            f"{amount} until I reach an observatory.",
        )
        data = {"area_id": agent.area_id, "obj_id": obj.id, "stat": stat, "amount": amount}
        res.emit("salt_glaze_formed", agent.id, data)
