"""`side_quest_step` (priority 3): four repeatable errands per agent, published by its own guide.

Rule pack `base`; docs/mechanics/quests.md#side-quests, data in the world's `side_quests` section
(`agentodyssey_pz/world/side_quest_data.py`). Once an agent has explored `unlock_after` areas
besides the spawn area, its guide appears and offers one task per scenario (collect, craft, talk,
trade) drawn from what the agent has seen; a finished task pays coins on the agent's ground and
counts as the `side_quest` reward component. Everything is kept in `agent.progress["side_quest"]`
(current tasks, completed counts) and `world.auxiliary["side_quest"]` (guide names), so it is
saved with the game.

Fixed reference quirks and interpretations:
* one guide instance per agent (docs/mechanics/quests.md#quirk-one-guide-per-agent), named from the
  data's pool: shuffled with `random.Random(seed ^ 0x5A5A5A5A)`, agents by sorted id take the next
  name no NPC uses; agents beyond the pool get the fallback name, numbered from the second one on so
  names stay unique;
* trade tasks only offer priced items (the reference offers items `buy` refuses;
  docs/mechanics/quests.md#quirk-trade-tasks-only-for-priced-items);
* visits are recorded before the step rules, so the side quests unlock on the tick the agent stands
  in its last required area (the reference lags one tick);
* agents who have not passed the tutorial are skipped (per agent, like the main quest);
* the guide is touched every tick, but its ledger (dialogue) is re-rendered only when a task or the
  guide itself changed - the text is a function of those, so agents read the same as if it were
  rewritten every tick, at a fraction of the cost.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import SIDE_QUEST_COMPLETED
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Record
from agentodyssey_pz.world.agents import AgentState, count_carried, possession
from agentodyssey_pz.world.quest_records import GuideDef, fill_placeholders
from agentodyssey_pz.world.side_quest_data import SCENARIOS, SideGuideDef, SideQuestDef
from agentodyssey_pz.world.world import World

from ..carrying import place_on_ground
from ..quest_npcs import bring_guide, ensure_guide
from ..trade import MERCHANT_ROLE, money_name

STATE_KEY = "side_quest"
NAME_SEED_SALT = 0x5A5A5A5A
_TASK = {"scenario": str, "type": str, "reward_coins": int, "description": str}
TASK_SHAPES = {
    "collect": Record({**_TASK, "target": str, "target_count": int}, {"target_name": str}),
    "craft": Record({**_TASK, "target": str}, {"target_name": str}),
    "talk": Record({**_TASK, "target_npc": str}, {"target_name": str, "target_area": str}),
    "trade": Record(
        {**_TASK, "target": str, "target_npc": str},
        {"target_name": str, "npc_name": str, "target_area": str},
    ),
}
PROGRESS_SHAPE = Record(
    {
        "unlocked": bool,
        "guide": (str, None),
        "guide_name": (str, None),
        "tasks": Record({s: (TASK_SHAPES[s], None) for s in SCENARIOS}),
        "completed_count": Record(dict.fromkeys(SCENARIOS, int)),
        "task_published_areas": MapOf(ListOf(str)),
        "last_visited_areas_count": int,
    }
)
STATE_SHAPE = Record({"guide_names": MapOf(str)}, {"run_seed": int}, empty_ok=True)


def assign_guide_names(
    guide: SideGuideDef, agent_ids: list[str], seed: int, taken: set[str]
) -> dict[str, str]:
    """Each agent (sorted by id) takes the next shuffled pool name nobody uses yet."""
    pool = list(guide.names)
    random.Random(seed ^ NAME_SEED_SALT).shuffle(pool)
    used = set(taken)
    names: dict[str, str] = {}
    extra = 1
    for agent_id in sorted(agent_ids):
        name = next((n for n in pool if n not in used), None)
        while name is None or name in used:
            name = guide.fallback_name if extra == 1 else f"{guide.fallback_name}{extra}"
            extra += 1
        used.add(name)
        names[agent_id] = name
    return names


def render(text: str, **values: Any) -> str:
    return fill_placeholders(text, lambda name, raw: str(values.get(name, raw)))


def area_text(world: World, area_id: str) -> str:
    area = world.areas[area_id]
    return f"{world.places[area.place_id].name}, {area.name}"


# ------------------------------------------------------------------ candidates
# G is the area of the agent's guide, V the visited areas (visit order), E = V - {G}.
def collect_candidates(world: World, explored: list[str], guide_area: str) -> list[tuple[str, int]]:
    """Raw, non-quest kinds lying somewhere in E but not on G's ground, with their total in E."""
    totals = world.total_units(world.areas[a] for a in explored)
    on_guide = {world.def_of(oid).id for oid in world.areas[guide_area].objects}
    objects = world.objects
    return [
        (did, n)
        for did, n in totals.items()
        if n > 0
        and did not in on_guide
        and not objects[did].quest
        and not objects[did].is_craftable
    ]


def craft_candidates(
    world: World, agent: AgentState, visited: list[str], guide_area: str
) -> list[str]:
    """Uncrafted non-quest products whose ingredients are all carried or lying in V, and at least
    one raw ingredient of which is short at G (the task needs travel)."""
    have = possession(world, agent)
    in_visited = world.total_units(world.areas[a] for a in visited)
    at_guide = world.total_units([world.areas[guide_area]])
    out = []
    for obj in world.objects.values():
        if obj.quest or not obj.is_craftable or obj.id in agent.crafted:
            continue
        needs = obj.craft.ingredients.items()
        if all(have.get(i, 0) + in_visited.get(i, 0) >= req for i, req in needs) and any(
            _is_raw(world, i) and have.get(i, 0) + at_guide.get(i, 0) < req for i, req in needs
        ):
            out.append(obj.id)
    return out


def _is_raw(world: World, def_id: str) -> bool:
    obj = world.objects.get(def_id)
    return obj is not None and not obj.is_craftable


def talk_candidates(world: World, explored: list[str], guide_npc: str) -> list[tuple[str, str]]:
    """(NPC id, area) of every friendly, non-quest NPC in E other than a side-quest guide."""
    out = []
    for area_id in explored:
        for npc_id in world.areas[area_id].npcs:
            npc = world.npcs[npc_id]
            if not (npc.quest or npc.enemy or npc.def_id == guide_npc or npc.hp <= 0):
                out.append((npc_id, area_id))
    return out


def trade_candidates(world: World, explored: list[str]) -> list[tuple[str, str, str]]:
    """(item, merchant, area): each stocked, defined, priced, non-quest item of a merchant in E."""
    out = []
    for area_id in explored:
        for npc_id in world.areas[area_id].npcs:
            npc = world.npcs[npc_id]
            if npc.role != MERCHANT_ROLE or npc.enemy or npc.quest:
                continue
            for oid, count in npc.inventory.items():
                obj = world.objects.get(oid)
                if count > 0 and obj is not None and not obj.quest and obj.value is not None:
                    out.append((oid, npc_id, area_id))
    return out


@functools.lru_cache(maxsize=4096)  # asked every tick per agent; the record is immutable
def guide_def(npc: str, name: str) -> GuideDef:
    return GuideDef(npc=npc, names=(name,))


class SideQuest(BaseStepRule):
    name = "side_quest_step"
    priority = 3
    description = "Side quests: each agent's guide offers collect, craft, talk and trade errands."
    state_key = STATE_KEY  # what it keeps in a saved game, checked on load
    progress_shape = PROGRESS_SHAPE
    state_shape = STATE_SHAPE

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        data = game.quests.side_quests  # None when the world or config leaves them off
        if data is None:
            return
        state = world.auxiliary.setdefault(STATE_KEY, {})
        if "guide_names" not in state:
            state["run_seed"] = game.seed
            taken = set(world.npc_name_to_id)
            state["guide_names"] = assign_guide_names(
                data.guide, list(game.agents), game.seed, taken
            )
        for agent in game.agents.values():
            if agent.tutorial_passed:
                Errands(game, data, state, agent, res).advance()


class Errands:
    """One agent's side quests for one tick."""

    def __init__(
        self,
        game: Any,
        data: SideQuestDef,
        state: dict[str, Any],
        agent: AgentState,
        res: RuleResult,
    ) -> None:
        self.game, self.world, self.data, self.state = game, game.world, data, state
        self.agent, self.res = agent, res
        self.changed = False  # whether the guide's ledger (its dialogue) must be rewritten
        self.progress: dict[str, Any] = agent.progress.get(STATE_KEY) or self.fresh()

    def fresh(self) -> dict[str, Any]:
        progress = {
            "unlocked": False,
            "guide": None,  # the guide's NPC instance id
            "guide_name": self.state["guide_names"].get(self.agent.id),
            "tasks": dict.fromkeys(SCENARIOS),
            "completed_count": dict.fromkeys(SCENARIOS, 0),
            "task_published_areas": {},  # scenario -> areas visited when its task was issued
            "last_visited_areas_count": 0,
        }
        self.agent.progress[STATE_KEY] = progress
        return progress

    # ---------------------------------------------------------------- the tick
    def advance(self) -> None:
        progress, visited = self.progress, self.agent.visited
        if not progress["unlocked"]:
            explored = len(visited) - (self.world.spawn_area in visited)
            if explored < self.data.unlock_after:
                return
            self.unlock()
        if len(visited) > progress["last_visited_areas_count"]:
            progress["last_visited_areas_count"] = len(visited)
            self.offer_where_new()
        self.check_completions()
        guide = self.guide()  # touched every tick: re-created if it vanished, kept invincible
        if self.changed:  # the ledger is a function of the tasks and the guide: skip if unchanged
            self.write_dialogue(guide)

    def unlock(self) -> None:
        self.progress["unlocked"] = True
        self.progress["last_visited_areas_count"] = len(self.agent.visited)
        guide = self.guide()
        bring_guide(self.world, self.res, self.agent, guide, "side_quest.guide_arrives")
        for scenario in SCENARIOS:
            self.publish(scenario)
        text = render(self.data.texts.unlocked, guide=guide.name)
        self.res.say(self.agent.id, "side_quest.unlocked", text)

    def offer_where_new(self) -> None:
        tasks, published = self.progress["tasks"], self.progress["task_published_areas"]
        for scenario in SCENARIOS:
            if tasks[scenario] is not None:
                continue
            seen = set(published.get(scenario, ()))
            if seen and all(a in seen for a in self.agent.visited):
                continue
            self.publish(scenario)

    def guide(self) -> Any:
        """The agent's guide (created, or re-created if it vanished, in the agent's area)."""
        proto = guide_def(self.data.guide.npc, self.progress["guide_name"])
        before = self.progress["guide"]
        npc = ensure_guide(self.world, self.agent, proto, self.progress, set())
        self.changed |= npc.id != before
        if npc.name != self.progress["guide_name"]:  # the name was taken by another NPC meanwhile
            self.progress["guide_name"] = self.state["guide_names"][self.agent.id] = npc.name
        return npc

    # ---------------------------------------------------------------- tasks
    def publish(self, scenario: str) -> None:
        guide_area = self.world.npcs[self.progress["guide"]].area_id
        visited = list(self.agent.visited)
        explored = [a for a in visited if a != guide_area]
        task = getattr(self, f"new_{scenario}")(visited, explored, guide_area)
        if task is None:
            return
        low, high = self.data.reward_range(scenario)
        task.update(scenario=scenario, type=scenario, reward_coins=self.game.rng.randint(low, high))
        self.progress["tasks"][scenario] = task
        self.changed = True
        self.progress["task_published_areas"][scenario] = visited

    def describe(self, scenario: str, **values: Any) -> str:
        return render(self.data.texts.tasks.get(scenario), **values)

    def new_collect(self, visited: list[str], explored: list[str], guide_area: str) -> dict | None:
        candidates = collect_candidates(self.world, explored, guide_area)
        if not candidates:
            return None
        did, total = self.game.rng.choice(candidates)
        count = possession(self.world, self.agent).get(did, 0) + max(1, total // 2)
        name = self.world.objects[did].name
        text = self.describe("collect", count=count, object=name)
        return {"target": did, "target_name": name, "target_count": count, "description": text}

    def new_craft(self, visited: list[str], explored: list[str], guide_area: str) -> dict | None:
        candidates = craft_candidates(self.world, self.agent, visited, guide_area)
        if not candidates:
            return None
        did = self.game.rng.choice(candidates)
        name = self.world.objects[did].name
        return dict(target=did, target_name=name, description=self.describe("craft", object=name))

    def new_talk(self, visited: list[str], explored: list[str], guide_area: str) -> dict | None:
        candidates = talk_candidates(self.world, explored, self.data.guide.npc)
        if not candidates:
            return None
        npc_id, area_id = self.game.rng.choice(candidates)
        name = self.world.npcs[npc_id].name
        text = self.describe("talk", npc=name, area=area_text(self.world, area_id))
        return dict(target_npc=npc_id, target_name=name, target_area=area_id, description=text)

    def new_trade(self, visited: list[str], explored: list[str], guide_area: str) -> dict | None:
        candidates = trade_candidates(self.world, explored)
        if not candidates:
            return None
        did, npc_id, area_id = self.game.rng.choice(candidates)
        name, npc_name = self.world.objects[did].name, self.world.npcs[npc_id].name
        area = area_text(self.world, area_id)
        text = self.describe("trade", object=name, npc=npc_name, area=area)
        task = dict(target=did, target_name=name, target_npc=npc_id, npc_name=npc_name)
        return {**task, "target_area": area_id, "description": text}

    # ---------------------------------------------------------------- completion
    def is_done(self, scenario: str, task: dict[str, Any], mine: Sequence[Any]) -> bool:
        """Whether a task is done; `mine` is this tick's events about the agent."""
        if scenario == "collect":
            return count_carried(self.world, self.agent, task["target"]) >= task["target_count"]
        # The other scenarios complete on this tick's events about me.
        if scenario == "talk":
            wanted = task["target_npc"]
            for event in mine:  # a plain loop, cheaper than any() over a generator
                if event.type == "npc_talked_to" and event.data.get("npc_id") == wanted:
                    return True
            return False
        kind = "object_crafted" if scenario == "craft" else "object_bought"
        npc = task.get("target_npc")  # a craft task names no NPC
        for event in mine:
            if event.type != kind:
                continue
            obj = self.world.find_def(event.data.get("obj_id", ""))
            if (
                obj is not None
                and obj.id == task["target"]
                and npc in (None, event.data.get("npc_id"))
            ):
                return True
        return False

    def check_completions(self) -> None:
        tasks = self.progress["tasks"]
        mine = self.res.by_agent.get(self.agent.id, ())
        done = []
        for scenario in SCENARIOS:  # a plain loop, not a comprehension: every agent, every tick
            task = tasks[scenario]
            if task is not None and self.is_done(scenario, task, mine):
                done.append(scenario)
        if not done:
            return
        guide = self.guide()
        bring_guide(self.world, self.res, self.agent, guide, "side_quest.guide_arrives")
        for scenario in done:
            self.complete(scenario, guide.name)

    def complete(self, scenario: str, guide_name: str) -> None:
        world, agent, progress = self.world, self.agent, self.progress
        task = progress["tasks"][scenario]
        progress["tasks"][scenario] = None
        self.changed = True
        progress["completed_count"][scenario] += 1
        coins, currency = task["reward_coins"], world.currency_id
        if currency is not None:
            place_on_ground(world, agent, currency, coins, self.res)
        values = self.task_values(scenario, task)
        text = render(self.data.texts.completed, guide=guide_name, **values)
        self.res.say(agent.id, "side_quest.completed", text)
        payload = {"task_type": scenario, "reward_coins": coins, "description": task["description"]}
        self.res.emit(SIDE_QUEST_COMPLETED, agent.id, payload)
        seen = set(progress["task_published_areas"].get(scenario, ()))
        if any(a not in seen for a in agent.visited):
            self.publish(scenario)

    # ---------------------------------------------------------------- the guide's ledger
    def write_dialogue(self, guide: Any) -> None:
        """One line per scenario: its task and pay, or that there is none for now."""
        texts = self.data.texts
        lines = [render(texts.dialogue_header, guide=guide.name)]
        for scenario in SCENARIOS:
            task = self.progress["tasks"][scenario]
            template = texts.dialogue_empty if task is None else texts.dialogue_task
            lines.append(render(template, **self.task_values(scenario, task)))
        guide.dialogue = "\n".join(lines)

    def task_values(self, scenario: str, task: dict[str, Any] | None) -> dict[str, Any]:
        values = {"scenario": self.data.texts.scenario_names.get(scenario)}
        if task is not None:
            values.update(
                description=task["description"],
                coins=task["reward_coins"],
                currency=money_name(self.world),
            )
        return values
