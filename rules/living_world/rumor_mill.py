"""`rumor_mill_step` (priority 5): news travels; merchants leave rumour notes that pay to read and
hush an area where they are dropped.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). Skipped during the tutorial
phase (common.py). State: `world.auxiliary["rumor_mill"]["notes"][note id] = {born_step,
origin_area, lifetime, tip_given}`. Per tick:

1. Spawn: when this tick already holds an `npc_killed`, `merchant_arrived`, `path_unlocked`,
   `time_period_changed` or `quest_stage_advanced` event, each area with a merchant (world order)
   gets a note with chance 0.12 (`random()`): a fresh `obj_paper` (else the world's first writable)
   reading "rumor: " and a tip, cut to the writable's text limit (200 without one). The tip is a
   `choice` among: the afternoon calm (only then), one of the first stocked merchant's goods there
   (its own `choice`, drawn while the tips are gathered), where the note lies, and where the
   main quest's chronicler, tide merchant, anvil judge, shrine and engine are (each when the quest
   has that variable). Then `lifetime = randint(6, 12)`; `rumor_spawned {obj_id, area_id}`.
2. Reading: an agent inspecting a note it holds in hand, whose tip was not given yet, finds
   `randint(1, 2)` coins at its feet (`rumor_read {obj_id, area_id, coins}`).
3. Quiet drop: a note dropped within its lifetime in another area than its origin lowers that
   area's noise by 0.8 (not below 0) and this tick's ambush chance by 0.02 for everyone
   (`rumor_quiet_drop {obj_id, area_id}`).
4. Expiry: an older note lying on a ground (the first area in world order holding it) is gone,
   instance and name (`rumor_despawned {obj_id, area_id}`); one held or stored lives on until it is
   put down again.

(Of the spawn triggers only `npc_killed`, `path_unlocked` and `quest_stage_advanced` can be there:
merchants arrive later in the tick and no rule announces a period change with an event, as in
AgentOdyssey.) Tip texts are ours; none contains "quiet", which would make a dropped rumour a quiet
note for the soundscape.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT, location
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.world import World

from .common import (
    MERCHANT_ROLE,
    add_to_ambush_chance,
    derived,
    drop_units,
    has_merchant,
    soundscape_state,
    tell_area,
    tutorial_phase,
)

STATE_KEY = "rumor_mill"
TRIGGERS = frozenset(
    ("npc_killed", "merchant_arrived", "path_unlocked", "time_period_changed",
     "quest_stage_advanced")
)  # fmt: skip
NOTE_CHANCE = 0.12
PAPER = "obj_paper"
PREFIX = "rumor: "
DEFAULT_TEXT_LIMIT = 200
LIFETIME = (6, 12)
READING_COINS = (1, 2)
QUIET_DROP_NOISE = 0.8
QUIET_DROP_AMBUSH = -0.02
DAY_CYCLE_KEY, CALM_PERIOD = "day_cycle", "afternoon_calm"
QUEST_KEY = "main_quest"  # the base main quest keeps its variables in world.auxiliary[...]["vars"]
# Quest variable -> tip, in the order tips are offered (remnant's quest variables).
QUEST_TIPS = (
    ("ch1_guide_area", "a chronicler keeps her records near {area}"),
    ("ch2_merchant_area", "a trader in sea treasures sells near {area}"),
    ("ch3_smith_area", "a stern judge of smithing waits near {area}"),
    ("ch1_shrine_area", "an old shrine stands near {area}"),
    ("ch5_engine_area", "something vast hums and turns near {area}"),
)
CALM_TIP = "afternoons are calm here, the safest time to travel"
NOTE_SHAPE = Record({"born_step": int, "origin_area": str, "lifetime": int, "tip_given": bool})


def note_paper(world: World) -> str | None:
    """What notes are written on: `obj_paper`, else the first writable definition."""
    paper = world.objects.get(PAPER)
    if paper is not None and paper.is_writable:
        return PAPER
    return next((o.id for o in world.objects.values() if o.is_writable), None)


def where(world: World, area_id: str) -> str:
    area = world.areas[area_id]
    return f"{world.places[area.place_id].name}, {area.name}"


class RumorMill(BaseStepRule):
    name = "rumor_mill_step"
    priority = 5
    description = "Merchants leave rumour notes after news; reading pays, dropping one hushes."
    state_key = STATE_KEY
    state_shape = Record({"notes": MapOf(NOTE_SHAPE)})

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        if tutorial_phase(game):
            return
        state = self.world_state(world, lambda: {"notes": {}})
        notes = state["notes"]
        news = False
        for event in res.events:
            if event.type in TRIGGERS:
                news = True
                break
        if news:
            for area in list(world.areas.values()):
                if has_merchant(world, area) and game.rng.random() < NOTE_CHANCE:
                    self.spawn_note(ctx, res, notes, area)
        if notes:
            self.read_and_drop(ctx, res, notes)
            self.expire(ctx, res, notes)

    # ------------------------------------------------------------------ 1. spawn
    def spawn_note(
        self, ctx: RuleContext, res: RuleResult, notes: dict[str, Any], area: Area
    ) -> None:
        game, world = ctx.game, ctx.world
        paper = derived(world, note_paper)
        if paper is None:
            return
        hint = game.rng.choice(self.tips(ctx, area))
        limit = world.objects[paper].max_text_length
        text = (PREFIX + hint)[: DEFAULT_TEXT_LIMIT if limit is None else limit]
        lifetime = game.rng.randint(*LIFETIME)
        note_id = world.new_instance(paper)
        world.writables[note_id].text = text
        area.add_objects(note_id, 1)
        res.track_spawn(WORLD_AGENT, note_id, 1, location("area", area.id))
        notes[note_id] = {
            "born_step": game.tick_index, "origin_area": area.id, "lifetime": lifetime,
            "tip_given": False,
        }  # fmt: skip
        tell_area(
            game,
            res,
            area.id,
            "rumor.spawned",
            f"Someone has left a folded note here: {world.name_of(note_id)}.",
        )
        res.emit("rumor_spawned", WORLD_AGENT, {"obj_id": note_id, "area_id": area.id})

    @staticmethod
    def tips(ctx: RuleContext, area: Area) -> list[str]:
        """What a new note may say, in the order the choice is made from."""
        world = ctx.world
        tips = []
        day = world.auxiliary.get(DAY_CYCLE_KEY) or {}
        if day.get("current_period") == CALM_PERIOD:
            tips.append(CALM_TIP)
        for npc_id in area.npcs:
            npc = world.npcs[npc_id]
            if npc.role != MERCHANT_ROLE:
                continue
            stock = [oid for oid, n in npc.inventory.items() if n > 0]
            if stock:
                good = ctx.game.rng.choice(stock)
                tips.append(f"{npc.name} has {world.name_of(good)} for sale")
                break
        tips.append(f"there is more to find near {where(world, area.id)}")
        variables = (world.auxiliary.get(QUEST_KEY) or {}).get("vars") or {}
        for var, tip in QUEST_TIPS:
            value = variables.get(var)
            if isinstance(value, str) and value in world.areas:
                tips.append(tip.format(area=where(world, value)))
        return tips

    # ------------------------------------------------------------------ 2-3. reading, dropping
    @staticmethod
    def read_and_drop(ctx: RuleContext, res: RuleResult, notes: dict[str, Any]) -> None:
        game, world = ctx.game, ctx.world
        step = game.tick_index
        for event in list(res.events):
            kind = event.type
            if kind not in ("object_inspected", "object_dropped"):
                continue
            note_id = event.data.get("obj_id")
            note = notes.get(note_id)
            if note is None:
                continue
            agent = game.agents.get(event.agent_id or "")
            if kind == "object_inspected":
                if agent is None or note["tip_given"] or note_id not in agent.hands:
                    continue
                coins = game.rng.randint(*READING_COINS)
                currency = world.currency_id
                if currency is not None:
                    drop_units(world, res, agent.area_id, currency, coins, agent.id)
                note["tip_given"] = True
                res.say(
                    agent.id,
                    "rumor.read",
                    f"Following the rumor, I find {coins} coin{'s' if coins > 1 else ''} "
                    "tucked away at my feet.",
                )
                res.emit(
                    "rumor_read",
                    agent.id,
                    {"obj_id": note_id, "area_id": agent.area_id, "coins": coins},
                )
                continue
            area_id = event.data.get("area_id")
            fresh = step - note["born_step"] <= note["lifetime"]
            if not fresh or area_id == note["origin_area"] or area_id not in world.areas:
                continue
            noise = soundscape_state(world)["noise"]
            noise[area_id] = max(0.0, noise.get(area_id, 0.0) - QUIET_DROP_NOISE)
            add_to_ambush_chance(world, QUIET_DROP_AMBUSH)
            if agent is not None:
                res.say(
                    agent.id,
                    "rumor.quiet_drop",
                    "I leave the rumor here for others to find; the chatter around me dies down.",
                )
            res.emit("rumor_quiet_drop", event.agent_id, {"obj_id": note_id, "area_id": area_id})

    # ------------------------------------------------------------------ 4. expiry
    @staticmethod
    def expire(ctx: RuleContext, res: RuleResult, notes: dict[str, Any]) -> None:
        world, step = ctx.world, ctx.game.tick_index
        for note_id, note in list(notes.items()):
            if step - note["born_step"] <= note["lifetime"]:
                continue
            if world.find_def(note_id) is None:
                del notes[note_id]  # gone some other way
                continue
            lying = next((a for a in world.areas.values() if note_id in a.objects), None)
            if lying is None:
                continue  # held or stored: it lives on until put down
            lying.remove_objects(note_id, 1)
            res.track_consume(WORLD_AGENT, note_id, 1, location("area", lying.id))
            world.delete_instance(note_id)
            del notes[note_id]
            tell_area(
                ctx.game, res, lying.id, "rumor.despawned", "A weathered rumor note crumbles away."
            )
            res.emit("rumor_despawned", WORLD_AGENT, {"obj_id": note_id, "area_id": lying.id})
