"""`tutorial_room_step` (priority 1): every agent learns the verbs in a tutorial room of its own.

Rule pack `base`; docs/mechanics/tutorial.md. The steps, their setups and completion conditions are
data (the world's `tutorial` quest section, `world/tutorial_data.py`); this rule runs them. On its
first tick the rule gives each agent that has not passed a room: one place (`place_tutorial`, named
from the data) holds one area per agent, linked to the spawn area by a personal path only its agent
sees and uses, locked with the KEY role. The agent's BAG and NOTE instances and its merchant and
raider live in that room. Per tick and agent: emit `dep_tracker_hint` and check the current step's
conditions (this tick's events of the agent, or state): done -> `tutorial_stage_advanced`, the next
step's setup (docs/mechanics/tutorial.md#setups) and instruction; not done -> the step's setup again
and its instruction, with a warning from the second miss in a row. (The reference applies the setup
before the check; the order only matters for what the right action used up, which is then not handed
out again.) Leaving the room after the last-but-one step (entering spawn with the key) completes the
tutorial (`tutorial_completed`; the completion text may list the verbs the game's packs add beyond
the base pack's, `{extra_verbs}`); leaving any other way passes it without completion. With the rule
set switched on but no tutorial to play (the default one switched off in a world it cannot serve,
docs/world-format.md#113-tutorial), every agent simply passes.

Fixed multi-agent and resume quirks
(docs/mechanics/tutorial.md#quirk-one-room-and-one-exit-per-agent): one room and exit per agent, so
no agent's key opens another's way and a finished agent cannot walk back in; an agent that leaves
gets its room removed at once (its NPCs, leftover tutorial instances, its path and area; the place
with the last room) and only what the tutorial handed that agent is taken back - units placed by
setups, bought from or paid by its merchant, or crafted in the room, up to the recorded counts, and
its BAG/NOTE by instance id, and only of the kinds the data's `take_back` lists if it has one - so
nothing from the real world is confiscated; agents who finish early play normally at once (kills,
crafts and trades are tracked per agent). The tutorial's NPCs are quest NPCs, so an agent's merchant
cannot be attacked (the reference's merchant, non-quest with 1 HP, can be killed mid-tutorial, and
that kill even completes step 22): step 22 wants the raider. Everything is recorded in
`world.auxiliary["tutorial_room"]` and `agent.progress["tutorial_room"]`, so a resumed game
re-creates nothing.

State: `world.auxiliary["tutorial_room"] = {"place_id", "rooms": {agent_id: {"area_id", "instances":
{role: id}, "npcs": {role: id}, "created": [instance and NPC ids], "given": {def_id: units},
"ensured": {npc role: [step indices]}, "misses": n}}}` (plus `"removed": True` once the place is
gone); `agent.progress["tutorial_room"] = {"stage", "passed"}`, mirrored to `agent.tutorial_stage`
and `agent.tutorial_passed`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.packs import load_pack
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Record
from agentodyssey_pz.world.agents import (
    AgentState,
    carried_stores,
    inventory_of,
    possession,
    remove_count,
)
from agentodyssey_pz.world.entities import Area, Npc, Place, npc_instance
from agentodyssey_pz.world.quest_records import fill_placeholders
from agentodyssey_pz.world.tutorial_data import (
    EXTRA_VERBS,
    NPC_ROLES,
    SetupDef,
    TutorialDef,
    TutorialNpc,
    TutorialStep,
)
from agentodyssey_pz.world.tutorial_roles import INSTANCE_ROLES

from ..carrying import area_loc, equip_loc, store_loc
from ..conditions import QuestScope, stage_done

STATE_KEY = "tutorial_room"
PROGRESS_SHAPE = Record({"stage": int, "passed": bool})
ROOM_SHAPE = Record(
    {
        "area_id": str, "instances": MapOf(str), "npcs": MapOf(str), "created": ListOf(str),
        "given": MapOf(int), "ensured": MapOf(ListOf(int)), "misses": int,
    }
)  # fmt: skip
STATE_SHAPE = Record({"rooms": MapOf(ROOM_SHAPE)}, {"place_id": (str, None), "removed": bool})
PLACE_ID, AREA_ID = "place_tutorial", "area_tutorial_room"  # `_1`, `_2` ... when taken
ROOM_LEVEL = 1
WARN_AFTER_MISSES = 1  # the warning comes with every miss after this many in a row
EXTRA_VERBS_PLACEHOLDER = "{" + EXTRA_VERBS + "}"
BASE_PACK_FOLDER = Path(__file__).resolve().parents[1]  # this rule's own pack: the base pack


def free_id(base: str, taken: Mapping[str, Any]) -> str:
    """`base`, else `base_1`, `base_2` ... whichever is free first."""
    if base not in taken:
        return base
    n = 1
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def render(text: str, values: Mapping[str, Any]) -> str:
    return fill_placeholders(text, lambda name, raw: str(values.get(name, raw)))


@mypyc_attr(native_class=False)  # spike: packs subclass it
class TutorialRoom(BaseStepRule):
    name = "tutorial_room_step"
    priority = 1
    description = "Runs each agent's tutorial room: instructions, setups, checks, leaving."
    state_key = STATE_KEY  # what it keeps in a saved game, checked on load
    progress_shape = PROGRESS_SHAPE
    state_shape = STATE_SHAPE

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game = ctx.game
        for agent in game.agents.values():  # a plain loop first: once all have passed, every tick
            if not agent.tutorial_passed:
                break
        else:
            return
        pending = [agent for agent in game.agents.values() if not agent.tutorial_passed]
        tutorial = game.quests.tutorial  # None when the world or config leaves it off
        if tutorial is None:
            if game.is_enabled("tutorial"):
                # Switched on, but the default tutorial cannot be played in this world (its
                # loader warned): there is nothing to pass.
                for agent in pending:
                    agent.tutorial_passed = True
            return
        state = ctx.world.auxiliary.setdefault(STATE_KEY, {"place_id": None, "rooms": {}})
        for agent in pending:
            Lesson(game, tutorial, state, agent, res).run()


def extra_verb_usages(game: Any) -> list[str]:
    """How each verb of the game's rule packs that the base pack lacks (by name) is written,
    `throw <obj_name> <npc_name>`, in name order: what the completion text's `{extra_verbs}`
    lists."""
    base = {rule.name for rule in load_pack(BASE_PACK_FOLDER).action_rules}
    rules = sorted(game.rule_set.action_rules, key=lambda rule: rule.name)
    return [rule.usage() for rule in rules if rule.name not in base]


def current_instruction(game: Any, agent: AgentState) -> str | None:
    """The instruction of the step an agent is on in its tutorial room, as the rule gives it
    (None: not in a tutorial room). For players that follow the tutorial, e.g. scripted ones."""
    tutorial = game.quests.tutorial
    state = game.world.auxiliary.get(STATE_KEY)
    progress = agent.progress.get(STATE_KEY)
    if tutorial is None or state is None or not progress or agent.tutorial_passed:
        return None
    stage = progress["stage"]
    if stage >= len(tutorial.steps) or agent.id not in state["rooms"]:
        return None
    lesson = Lesson(game, tutorial, state, agent, RuleResult(()))
    return render(tutorial.steps[stage].instruction, lesson.variables())


class Lesson:
    """One agent's tutorial for one tick."""

    def __init__(
        self,
        game: Any,
        tutorial: TutorialDef,
        state: dict[str, Any],
        agent: AgentState,
        res: RuleResult,
    ) -> None:
        self.game, self.world, self.tutorial, self.state = game, game.world, tutorial, state
        self.agent, self.res = agent, res
        self.steps = tutorial.steps

    # ---------------------------------------------------------------- the tick
    def run(self) -> None:
        agent = self.agent
        if STATE_KEY not in agent.progress:
            self.open_room()
        progress = agent.progress[STATE_KEY]
        room = self.state["rooms"].get(agent.id)
        if room is None or room["area_id"] not in self.world.areas:
            self.finish(None, completed=False)  # the room is gone (not by this rule): let it go
            return
        self.room = room
        stage = progress["stage"]
        if stage >= len(self.steps):  # saved progress beyond the data's steps: nothing left to do
            self.finish(room, completed=False)
            return
        if agent.area_id != room["area_id"]:
            last = stage == len(self.steps) - 1 and self.is_done(self.steps[stage])
            if last:
                self.advance(stage)
            self.finish(room, completed=last)
            return
        self.record_handouts()
        step = self.steps[stage]
        self.res.emit("dep_tracker_hint", agent.id, {"hint": step.hint or step.id})
        # Checked before this tick's setup runs again, so what the right action used up (the bar a
        # craft consumed) is not handed out once more; setups never touch what conditions read.
        if self.is_done(step):
            room["misses"] = 0
            self.advance(stage)
            if stage + 1 < len(self.steps):
                self.apply_setup(self.steps[stage + 1], stage + 1)
                self.instruct(stage + 1)
            else:
                self.finish(room, completed=True)
            return
        self.apply_setup(step, stage)
        room["misses"] += 1
        if room["misses"] > WARN_AFTER_MISSES:
            self.say("tutorial.warning", self.tutorial.texts.warning)
        self.instruct(stage)

    def say(self, key: str, text: str, **extra: Any) -> None:
        self.res.say(self.agent.id, key, render(text, {**self.variables(), **extra}))

    def instruct(self, stage: int) -> None:
        step = self.steps[stage]
        instruction = render(step.instruction, self.variables())
        self.say(
            "tutorial.instruction",
            self.tutorial.texts.instruction,
            step=stage + 1,
            steps=len(self.steps),
            instruction=instruction,
        )

    def advance(self, stage: int) -> None:
        self.set_progress(stage=stage + 1)
        self.say(
            "tutorial.step_done",
            self.tutorial.texts.step_done,
            step=stage + 1,
            steps=len(self.steps),
        )
        self.res.emit("tutorial_stage_advanced", self.agent.id, {"from": stage, "to": stage + 1})

    def set_progress(self, **changes: Any) -> None:
        progress = self.agent.progress[STATE_KEY]
        progress.update(changes)
        self.agent.tutorial_stage = progress["stage"]
        self.agent.tutorial_passed = progress["passed"]

    def is_done(self, step: TutorialStep) -> bool:
        scope = QuestScope(self.world, self.agent, self.res, self.variables(), {})
        return stage_done(step.done_all, step.done_any, scope)

    def variables(self) -> dict[str, Any]:
        """Every `$name` / `{name}` of the data, for this agent now."""
        world, room = self.world, self.state["rooms"].get(self.agent.id, {})
        spawn = world.spawn_area
        values: dict[str, Any] = {
            "spawn": spawn,
            "spawn_name": world.areas[spawn].name,
            "room": room.get("area_id"),
        }
        for role, oid in self.tutorial.roles.items():
            obj = world.objects[oid]
            values.update({role: oid, f"{role}_name": obj.name, f"{role}_value": obj.value or 0})
        for role, iid in room.get("instances", {}).items():
            values[f"{role}_instance"] = iid
            if world.find_def(iid) is not None:
                values[f"{role}_name"] = world.name_of(iid)
        for role in NPC_ROLES:
            npc = world.npcs.get(room.get("npcs", {}).get(role, ""))
            values[role] = npc.id if npc is not None else None
            values[f"{role}_name"] = npc.name if npc is not None else role
        return values

    # ---------------------------------------------------------------- the room
    def open_room(self) -> None:
        world, state, agent = self.world, self.state, self.agent
        place_id = state.get("place_id")
        if place_id not in world.places:
            place_id = free_id(PLACE_ID, world.places)
            world.add_place(Place(place_id, self.tutorial.place_name, True))
            state["place_id"] = place_id
            state.pop("removed", None)
        area_id = free_id(AREA_ID, world.areas)
        world.add_area(Area(area_id, self.tutorial.room_name, ROOM_LEVEL, True, place_id))  # type: ignore[arg-type]
        world.connect(
            area_id, world.spawn_area, locked=True, key=self.tutorial.roles["key"], owner=agent.id
        )
        instances = {role: world.new_instance(self.tutorial.roles[role]) for role in INSTANCE_ROLES}
        state["rooms"][agent.id] = {
            "area_id": area_id,
            "instances": instances,
            "npcs": {},
            "created": list(instances.values()),
            "given": {},
            "ensured": {},
            "misses": 0,
        }
        self.game.move_agent(agent, area_id)
        agent.progress[STATE_KEY] = {"stage": 0, "passed": False}
        self.set_progress()
        self.say("tutorial.intro", self.tutorial.texts.intro)

    def record_handouts(self) -> None:
        """What the agent got this tick by trading or crafting in its room counts as handed out."""
        given, world, currency = self.room["given"], self.world, self.world.currency_id
        for event in self.res.events_of(self.agent.id):
            data = event.data
            if event.type in ("object_bought", "object_crafted"):
                oid, n = world.def_of(data["obj_id"]).id, int(data["amount"])
            elif event.type == "object_sold" and currency is not None:
                oid, n = currency, int(data["amount"]) * int(data["unit_price"])
            else:
                continue
            given[oid] = given.get(oid, 0) + n

    # ---------------------------------------------------------------- setups
    def apply_setup(self, step: TutorialStep, index: int) -> None:
        for setup in step.setup:
            SETUPS[setup.kind](self, setup, index)

    def number(self, count: Any) -> int:
        if isinstance(count, str):
            return int(self.variables().get(count[1:]) or 0)
        return int(count)

    def ground_units(self, def_id: str) -> int:
        def_of = self.world.def_of
        return sum(n for oid, n in self.room_area.objects.items() if def_of(oid).id == def_id)

    @property
    def room_area(self) -> Area:
        return self.world.areas[self.room["area_id"]]

    def hand_out(self, def_id: str, count: int) -> None:
        """`count` new units on the room's floor, recorded as handed to this agent (instances by
        id, so no other instance of the kind is ever taken for them)."""
        if count <= 0:
            return
        area_id, given = self.room["area_id"], self.room["given"]
        for oid, n in self.world.spawn_on_ground(area_id, def_id, count):
            if self.world.is_instance(oid):
                self.room["created"].append(oid)
            else:
                given[def_id] = given.get(def_id, 0) + n
            self.res.track_spawn(self.agent.id, oid, n, area_loc(area_id))

    def instance_on_ground(self, setup: SetupDef, index: int) -> None:
        """The agent's own BAG/NOTE on the floor, unless it is here or carried already (in hand,
        worn, or inside a carried container or one on this floor)."""
        iid = self.room["instances"][setup.role or ""]
        world, agent, floor = self.world, self.agent, self.room_area.objects
        places = [agent.hands, agent.equipped, floor, *carried_stores(self.world, agent)]
        places += [world.containers[oid].items for oid in floor if oid in world.containers]
        if any(iid in store for store in places):
            return
        if world.find_def(iid) is None:  # the instance vanished: a fresh one replaces it
            iid = world.new_instance(self.tutorial.roles[setup.role or ""])
            self.room["instances"][setup.role or ""] = iid
            self.room["created"].append(iid)
        self.room_area.add_objects(iid, 1)
        self.res.track_spawn(agent.id, iid, 1, area_loc(self.room["area_id"]))

    def top_up(self, setup: SetupDef, index: int) -> None:
        have = possession(self.world, self.agent)
        for def_id, count in setup.objects.items():
            need, held, lying = self.number(count), have.get(def_id, 0), self.ground_units(def_id)
            if setup.kind == "give_if_lacking":
                target = need if held == 0 and lying == 0 else 0
            elif setup.kind == "give_up_to":
                target = need - held
            else:  # ground_at_least
                target = need
            self.hand_out(def_id, target - lying)

    def ensure_npc(self, setup: SetupDef, index: int) -> None:
        """Once per step: the agent's merchant or raider (created if missing), stocked and tuned."""
        role = setup.npc or ""
        done = self.room["ensured"].setdefault(role, [])
        if index in done:
            return
        done.append(index)
        config: TutorialNpc = getattr(self.tutorial, role)
        npc = self.world.npcs.get(self.room["npcs"].get(role, ""))
        if npc is None or not npc.is_alive:
            npc = self.create_npc(config)
            self.room["npcs"][role] = npc.id
            self.room["created"].append(npc.id)
        for def_id, count in setup.stock.items():
            npc.inventory[def_id] = npc.inventory.get(def_id, 0) + self.number(count)
        if config.hp is not None:
            npc.hp = npc.max_hp = config.hp
        if config.attack is not None:
            npc.attack_power = config.attack
        values = self.variables()
        if config.description:
            npc.description = render(config.description, values)
        if config.dialogue:
            npc.dialogue = render(config.dialogue, values)

    def create_npc(self, config: TutorialNpc) -> Npc:
        world = self.world
        proto = world.npc_protos[config.npc]
        npc = npc_instance(
            proto,
            world.take_npc_index(proto.id),
            ROOM_LEVEL,
            coins=config.coins,
            inventory=dict(proto.loot),
            unique=False,
            quest=True,
            combat_pattern=(),  # tutorial NPCs never fight in rhythm
        )
        world.add_npc(npc, self.room["area_id"])
        return npc

    def lock_exit(self, setup: SetupDef, index: int) -> None:
        room_id, spawn = self.room["area_id"], self.world.spawn_area
        if self.world.graph.path(room_id, spawn) is not None:
            self.world.graph.set_locked(room_id, spawn, True)

    # ---------------------------------------------------------------- leaving
    def finish(self, room: dict[str, Any] | None, *, completed: bool) -> None:
        spawn = self.world.spawn_area
        self.set_progress(passed=True)
        if completed:
            self.say_completed()
            self.res.emit("tutorial_completed", self.agent.id, {"spawn_area_id": spawn})
        else:
            self.say("tutorial.left_early", self.tutorial.texts.left_early)
        if room is not None:
            self.take_back(room)
            self.remove_room(room)

    def say_completed(self) -> None:
        """The completion text; `{extra_verbs}` lists the verbs the game's packs add, one per
        line, and the line holding it is left out when there are none."""
        text = self.tutorial.texts.completed
        if EXTRA_VERBS_PLACEHOLDER not in text:
            self.say("tutorial.completed", text)
            return
        usages = extra_verb_usages(self.game)
        if not usages:
            text = "\n".join(
                line for line in text.split("\n") if EXTRA_VERBS_PLACEHOLDER not in line
            )
        self.say("tutorial.completed", text, extra_verbs="".join(f"\n- {u}" for u in usages))

    def take_back(self, room: dict[str, Any]) -> None:
        """Only what the tutorial handed out: its instances by id, other units up to `given`;
        with a `take_back` list, only of the kinds it names."""
        world, agent = self.world, self.agent
        kinds = self.tutorial.take_back
        owed = {d: n for d, n in room["given"].items() if kinds is None or d in kinds}
        created = set(room["created"])
        kept = set()  # instances the tutorial made that the agent keeps (kinds not taken back)
        if kinds is not None:
            kept = {
                oid
                for oid in created
                if world.is_instance(oid) and world.def_of(oid).id not in kinds
            }
        stores = [agent.hands, agent.equipped, *carried_stores(world, agent)[1:]]
        inventory = inventory_of(world, agent)
        taken: dict[str, int] = {}
        for store in stores:
            for oid in list(store):
                if oid in kept:
                    continue
                did = world.def_of(oid).id
                n = store[oid] if oid in created else min(store[oid], owed.get(did, 0))
                if n <= 0:
                    continue
                if oid not in created:
                    owed[did] -= n
                remove_count(store, oid, n)
                where = (
                    equip_loc(agent) if store is agent.equipped else store_loc(world, agent, store)
                )
                self.res.track_consume(agent.id, oid, n, where)
                taken[world.name_of(oid)] = taken.get(world.name_of(oid), 0) + n
                if world.is_instance(oid):
                    created.add(oid)
        if inventory is not None and inventory.id in created and inventory.id not in kept:
            agent.inventory_id = None
        for def_id in owed:
            agent.craft_credit.pop(def_id, None)  # fractions of tutorial units paid for earlier
        self.drop_leftovers(created - kept)
        room["created"] = sorted(created - self.carried_instances(kept))
        if taken:
            items = ", ".join(f"{n} {name}" for name, n in taken.items())
            self.say("tutorial.taken_back", self.tutorial.texts.taken_back, items=items)

    def carried_instances(self, instances: set[str]) -> set[str]:
        """Those of `instances` the agent carries (worn, in hand, or in a carried container)."""
        world, agent = self.world, self.agent
        stores = [agent.hands, agent.equipped, *carried_stores(world, agent)[1:]]
        return {oid for oid in instances if any(oid in store for store in stores)}

    def drop_leftovers(self, created: set[str]) -> None:
        """Anything else inside a container taken back stays with the agent: on its floor."""
        world, here = self.world, self.world.areas[self.agent.area_id]
        for cid in sorted(created):  # sorted: what lands first never follows string hashing
            box = world.containers.get(cid)
            if box is None or cid in self.room_area.objects:
                continue
            for oid, n in list(box.items.items()):
                if oid not in created:
                    here.add_objects(oid, n)
                    del box.items[oid]

    def remove_room(self, room: dict[str, Any]) -> None:
        world, game = self.world, self.game
        area = world.areas[room["area_id"]]
        for other in list(game.agents_in(area.id)):  # nobody else can be here; never strand anyone
            game.move_agent(other, world.spawn_area)
        doomed = set(room["created"]) | set(area.objects)
        for oid in list(area.objects):
            if oid in world.containers:
                doomed |= set(world.containers[oid].items)
        for oid in sorted(doomed):
            if oid in world.npcs:
                world.delete_npc(oid)
                self.agent.combats.pop(oid, None)
            elif world.is_instance(oid):
                world.delete_instance(oid)
        world.graph.remove_area(area.id)  # its personal path goes with it
        del world.areas[area.id]
        place = world.places[area.place_id]
        place.area_ids.remove(area.id)
        del self.state["rooms"][self.agent.id]
        if not place.area_ids:
            del world.places[place.id]
            for other in world.places.values():
                if place.id in other.neighbors:
                    other.neighbors.remove(place.id)
            self.state["removed"] = True
        self.res.emit(
            "tutorial_room_removed", WORLD_AGENT, {"area_id": area.id, "place_id": place.id}
        )


SETUPS: dict[str, Callable[[Lesson, SetupDef, int], None]] = {
    "instance_on_ground": Lesson.instance_on_ground,
    "give_if_lacking": Lesson.top_up,
    "give_up_to": Lesson.top_up,
    "ground_at_least": Lesson.top_up,
    "ensure_npc": Lesson.ensure_npc,
    "lock_exit": Lesson.lock_exit,
}
