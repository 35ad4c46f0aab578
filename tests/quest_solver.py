"""A scripted player that completes a world's main quest with legal text commands only.

Test helper. `QuestSolver` reads the game state - its agent, the world graph and grounds, the quest
data, the agent's quest progress (`agent.progress["main_quest"]`) and the quest variables
(`world.auxiliary["main_quest"]["vars"]`) - and answers one text command per tick; the game changes
only through `Game.tick`. It names no world's content: it interprets the quest's conditions (spec
step-rules 8.5) and plans over the world's own tables: where things lie, who sells them, what they
are crafted from, which enemy carries them. The engine's own condition evaluator and constants are
borrowed from the base rule pack as the game loaded it.

Plans are generators: each yields one command, the runner ticks the game, and the generator resumes
with `self.last` holding that tick's result. A death restarts the plan, beginning with fetching
back what fell where the agent died. Fights follow the enemy's rhythm: defend on its attack turns,
strike when it waits (or, against enemies that never wait, trade blows while health allows).
"""

from __future__ import annotations

import heapq
import math
import sys
from collections.abc import Callable, Generator, Iterable
from typing import Any

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import container_load, possession
from agentodyssey_pz.world.quests import Condition, StageDef
from agentodyssey_pz.world.schema import ObjectDef

Plan = Generator[str, None, Any]

LOCK_COST = 40  # route cost of a locked path I cannot open yet (its key must be fetched first)
INFINITE = 10**9
SAFE_SHARE = 0.45  # against enemies that never wait: trade blows only above this share of max HP
MAX_DEPTH = 4  # crafting chains planned at most this deep
OPENER_USAGES = ("unlock", "lockpick")


class Stuck(RuntimeError):
    """The solver found no way to make progress (a quest, world or solver bug)."""


class Replan(Exception):
    """The world changed under a plan (another agent took what I was after): plan afresh."""


MAX_REPLANS = 30  # fresh plans in a row without quest progress before the solver gives up


class QuestSolver:
    """Plays one agent through the main quest; `command()` gives the next command."""

    def __init__(self, game: Game, agent_id: str) -> None:
        self.game, self.aid = game, agent_id
        self.last: TickResult | None = None
        self.log: list[str] = []
        self.deaths = self.agent.deaths
        self.belongings: set[str] = set()  # what I held and wore after my last tick
        self.died_in: str | None = None
        self.reserved: list[tuple[str, int]] = []  # (definition, units) running plans still need
        self.rewards: dict[str, int] = {}  # quest rewards dropped at my feet, to pick up
        self.fetching_key = 0  # > 0 while getting a key: sources behind locks are out of reach
        self.earning = False  # while short of coins, loot that sells is worth carrying
        self._route_cache: Any = None
        self.replans, self._replan_key = 0, None
        self._base = _base_pack(game)
        self._quest_objects = self.quest_objects()
        self._plan = self.play()

    # ------------------------------------------------------------------ state views
    @property
    def world(self) -> Any:
        return self.game.world

    @property
    def agent(self) -> Any:
        return self.game.agents[self.aid]

    @property
    def progress(self) -> dict[str, Any]:
        return self.agent.progress.get("main_quest") or {}

    @property
    def variables(self) -> dict[str, Any]:
        return {**self.world.auxiliary["main_quest"]["vars"], "guide": self.progress.get("guide")}

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return self.variables.get(value[1:])
        return value

    def have(self, did: str) -> int:
        return possession(self.world, self.agent).get(did, 0)

    def coins(self) -> int:
        return self.have(self.world.currency_id)

    def ok(self) -> bool:
        """Whether my last command took effect."""
        return bool(self.last is not None and self.last.action_ok.get(self.aid))

    def matches(self, oid: str, what: str) -> bool:
        """`oid` is `what` (an instance id) or an instance or unit of `what` (a definition)."""
        return oid == what or self.world.def_of(oid).id == what

    # ------------------------------------------------------------------ driving
    def command(self) -> str:
        """The next command. After a death the plan restarts with fetching my things back."""
        if self.agent.deaths != self.deaths:
            self.deaths = self.agent.deaths
            self._plan.close()
            self.reserved.clear()
            self._plan = self.play()
        while True:  # a plan that keeps failing ends in Stuck (MAX_REPLANS)
            try:
                cmd = next(self._plan)
                break
            except StopIteration:
                cmd = "wait"
                break
            except Replan:
                self.replans = self.replans + 1 if self.stage_key() == self._replan_key else 1
                self._replan_key = self.stage_key()
                if self.replans > MAX_REPLANS:
                    raise Stuck("plans keep failing without progress") from None
                self.reserved.clear()
                self._plan = self.play()
        self.log.append(cmd)
        return cmd

    def observe(self, result: TickResult, *, acted: bool = True) -> None:
        """Take in a tick's result (`acted`: the tick ran my last command, not a pause)."""
        if acted:
            self.last = result
        for event in result.events_of(self.aid, "agent_died"):
            self.died_in = event.data["area_id"]
        if self.died_in is None:
            self.belongings = set(self.agent.hands) | set(self.agent.equipped)
        for event in result.events_of(self.aid, "quest_spawn"):
            oid = event.data["obj_id"]
            self.rewards[oid] = self.rewards.get(oid, 0) + event.data["count"]

    def play(self) -> Plan:
        if self.died_in is not None:
            yield from self.recover(self.died_in)
            self.died_in = None
        while not self.progress.get("complete"):
            if not self.progress:
                yield "wait"  # the quest starts for me at my first tick
                continue
            if self.agent.inventory_id is None:
                key = self.deaths, len(self.log)
                yield from self.ensure_inventory()
                if (self.deaths, len(self.log)) != key:
                    continue
            if self.rewards:
                rewards, self.rewards = self.rewards, {}
                yield from self.stow_loot(rewards)
                yield from self.ensure_inventory()
                continue
            stage = self.next_stage()
            if stage is None:
                yield "wait"
                continue
            yield from self.achieve(stage)

    # ------------------------------------------------------------------ quest reading
    def next_stage(self) -> StageDef | None:
        """The current stage (linear chapter), or the first active one with conditions (goal
        graph)."""
        quest = self.game.quests.main_quest
        progress = self.progress
        chapter = quest.chapters[min(progress["chapter"], len(quest.chapters) - 1)]
        if not chapter.is_goal_graph:
            index = progress["stage"]
            return chapter.stages[index] if index < len(chapter.stages) else None
        done = set(progress["completed"])
        for stage in chapter.stages:
            if stage.id in done or not all(r in done for r in stage.requires or ()):
                continue
            if stage.has_conditions:
                return stage
        return None

    def stage_key(self) -> tuple[Any, ...]:
        """Changes whenever a stage completes."""
        progress = self.progress
        return (progress.get("chapter"), progress.get("stage"), len(progress.get("completed", ())))

    def achieve(self, stage: StageDef) -> Plan:
        """Satisfy a stage's conditions (things first, places last), then let the quest see them."""
        key = self.stage_key()
        if stage.done_all is not None:
            conditions = list(stage.done_all)
        else:
            options = list(stage.done_any or ())
            conditions = [] if any(map(self.holds, options)) else [min(options, key=self.estimate)]
        for cond in sorted(conditions, key=self.order_of):
            if self.stage_key() != key:
                return
            if not self.holds(cond):
                yield from self.satisfy(cond)
        if self.stage_key() == key:
            yield "wait"  # everything holds now: the quest checks it at the end of this tick

    def order_of(self, cond: Condition) -> int:
        """Things to fetch first, then places to see, then where to stand, then notes to leave."""
        kind = cond.kind
        if kind == "visited_k_of_area_set":
            return 1
        if kind in ("in_area", "in_area_with_npc"):
            return 2
        if kind in ("paper_text_equals_in_area", "paper_with_text_in_area"):
            return 3
        if kind == "holding":
            return 4  # last: walking through locks may take the thing out of my hand
        return 0

    def holds(self, cond: Condition) -> bool:
        """Whether a condition holds now, judged by the quest engine's own evaluator (event
        conditions never hold between ticks: no events are passed)."""
        conditions = self._base("conditions")
        scope = conditions.QuestScope(
            self.world,
            self.agent,
            RuleResult(self.game.agent_ids),
            self.variables,
            self.progress,
            self.progress.get("bosses_defeated", {}),
        )
        return bool(conditions.holds(cond, scope))

    def quest_objects(self) -> dict[str, int]:
        """Objects the quest asks me to carry (possession conditions, boss modifiers), with the
        most units any of them asks for: those I keep and never sell."""
        quest = self.game.quests.main_quest
        wanted: dict[str, int] = {}

        def want(did: str, count: int) -> None:
            if did in self.world.objects:
                wanted[did] = max(wanted.get(did, 0), count)

        for chapter in quest.chapters:
            for stage in chapter.stages:
                for cond in _walk((*(stage.done_all or ()), *(stage.done_any or ()))):
                    if cond.kind in ("has_any_of", "holding", "equipped_any_of"):
                        for did in cond.params["objects"]:
                            want(did, 1)
                    elif cond.kind == "has_item_count":
                        count = self.resolve(cond.params.get("count", 1))
                        want(cond.params["object"], int(count) if str(count).isdigit() else 1)
        for boss in quest.bosses.values():
            for mod in boss.modifiers:
                for did in mod.when_held:
                    want(did, 1)
        return wanted

    # ------------------------------------------------------------------ conditions
    def satisfy(self, cond: Condition) -> Plan:
        kind, p = cond.kind, cond.params
        if kind == "any_of":
            choice = next((c for c in cond.conditions if self.holds(c)), None)
            yield from self.satisfy(choice or min(cond.conditions, key=self.estimate))
        elif kind == "all_of":
            for nested in sorted(cond.conditions, key=self.order_of):
                yield from self.satisfy(nested)
        elif kind == "in_area":
            yield from self.goto(self.resolve(p["area"]))
        elif kind == "in_area_with_npc":
            yield from self.goto(self.world.npcs[self.resolve(p["npc"])].area_id)
        elif kind == "visited_k_of_area_set":
            yield from self.visit_some(self.area_set(p["areas"]), int(self.resolve(p.get("k", 1))))
        elif kind in ("paper_text_equals_in_area", "paper_with_text_in_area"):
            area = self.resolve(p["area"]) if "area" in p else self.agent.area_id
            yield from self.leave_note(str(self.resolve(p["text"])), area)
        elif kind in ("paper_text_equals_in_hands", "writable_text_equals_in_inventory"):
            yield from self.write_note(str(self.resolve(p["text"])))
        elif kind in ("has_any_of", "holding", "equipped_any_of"):
            did = min(p["objects"], key=lambda d: self.cost(d, 1))
            yield from self.obtain(did, 1)
            if kind == "holding":
                yield from self.hold(did)
            elif kind == "equipped_any_of":
                yield from self.equip(did)
        elif kind == "has_category":
            ids = [o.id for o in self.world.objects.values() if o.category == p["category"]]
            yield from self.obtain(min(ids, key=lambda d: self.cost(d, 1)), 1)
        elif kind == "has_item_count":
            yield from self.obtain(p["object"], int(self.resolve(p.get("count", 1))))
        elif kind == "killed_n_enemies":
            while self.agent.kills < int(self.resolve(p["n"])):
                yield from self.hunt(None)
        elif kind == "killed_one_of_each":
            for ref in p["npcs"]:
                yield from self.fight(self.resolve(ref))
        elif kind == "boss_already_defeated":
            boss = self.progress["bosses"].get(p["boss"])
            if boss is None:
                raise Stuck(f"boss {p['boss']} was never spawned")
            yield from self.fight(boss)
        elif kind == "event":
            yield from self.cause_event(cond)
        elif kind == "stage_completed":
            yield "wait"  # the goal graph's `requires` orders stages; nothing to do
        else:
            raise Stuck(f"the solver cannot satisfy condition kind {kind!r}")

    def estimate(self, cond: Condition) -> float:
        """A rough cost, for choosing between alternatives (`done_any`, `any_of`)."""
        p = cond.params
        if cond.kind in ("has_any_of", "holding", "equipped_any_of"):
            return min(self.cost(d, 1) for d in p["objects"])
        if cond.kind == "event" and p["type"] == "object_bought":
            return 5 + min((self.cost(d, 1) for d in p.get("objects", ())), default=0)
        if cond.kind == "event" and p["type"] == "object_crafted":
            return 10
        return 50

    def area_set(self, ref: Any) -> list[str]:
        value = self.resolve(ref)
        return [self.resolve(a) for a in value] if isinstance(value, list) else []

    def cause_event(self, cond: Condition) -> Plan:
        p = cond.params
        kind, key = p["type"], self.stage_key()
        if kind == "object_crafted":
            wanted = list(p.get("objects", ())) or [
                o.id
                for o in self.world.objects.values()
                if o.craft.ingredients and p.get("category") in (None, o.category)
            ]
            yield from self.craft(min(wanted, key=lambda d: self.craft_cost(d, 1)), 1)
        elif kind == "object_bought":
            yield from self.buy_any(list(p.get("objects", ())), self.resolve(p.get("npc")))
        elif kind == "npc_killed":
            if "npc" in p:
                yield from self.fight(self.resolve(p["npc"]))
            else:
                yield from self.hunt(self.resolve(p.get("area")))
        else:
            raise Stuck(f"the solver cannot cause event {kind!r}")
        if self.stage_key() == key:
            yield "wait"  # (a store after the event already gave the quest its look)

    # ------------------------------------------------------------------ moving
    def _routes(self) -> tuple[dict[str, int], dict[str, str]]:
        """Dijkstra from here over the paths I may use: costs and predecessors (cached per tick).
        A locked path I cannot open costs LOCK_COST more (its key must be fetched first)."""
        start = self.agent.area_id
        openers = frozenset(d for d in possession(self.world, self.agent) if self.is_opener(d))
        key = (self.game.tick_index, start, openers)
        if self._route_cache is not None and self._route_cache[0] == key:
            return self._route_cache[1]
        graph = self.world.graph
        best, prev = {start: 0}, {}
        queue = [(0, start)]
        while queue:
            d, area = heapq.heappop(queue)
            if d > best.get(area, INFINITE):
                continue
            for nxt in graph.visible_neighbors(area, self.aid):
                path = graph.path(area, nxt)
                step = 1 if not path["locked"] or self.opener(path["key"]) else 1 + LOCK_COST
                if d + step < best.get(nxt, INFINITE):
                    best[nxt], prev[nxt] = d + step, area
                    heapq.heappush(queue, (d + step, nxt))
        self._route_cache = (key, (best, prev))
        return best, prev

    def route(self, target: str) -> list[str] | None:
        best, prev = self._routes()
        if target not in best:
            return None
        path = [target]
        while path[-1] != self.agent.area_id:
            path.append(prev[path[-1]])
        return path[::-1]

    def distance(self, target: str | None) -> int:
        """Route cost to an area; INFINITE behind a lock while I am fetching a key."""
        if target is None:
            return INFINITE
        d = self._routes()[0].get(target, INFINITE)
        return INFINITE if self.fetching_key and d >= LOCK_COST else d

    def is_opener(self, did: str) -> bool:
        return self.world.objects[did].usage in OPENER_USAGES

    def opener(self, key: str | None) -> str | None:
        """A carried definition that opens a path locked with `key` (the enter rule's choice)."""
        have = possession(self.world, self.agent)
        wanted = key or self._base("verbs.enter").FALLBACK_KEY
        if have.get(wanted):
            return wanted
        lockpick = self._base("verbs.enter").LOCKPICK_USAGE
        return next(
            (d for d, n in have.items() if n and self.world.objects[d].usage == lockpick), None
        )

    def goto(self, target: str) -> Plan:
        world = self.world
        while self.agent.area_id != target:
            path = self.route(target)
            if path is None:
                raise Stuck(f"no path to {target}")
            edge = world.graph.path(path[0], path[1])
            if edge["locked"]:
                opener = self.opener(edge["key"])
                if opener is None:
                    yield from self.obtain_opener(edge["key"])
                    continue
                weapon = self.best_weapon()
                yield from self.hold(opener, keep=[weapon] if weapon else [])
            yield f"enter {world.areas[path[1]].name}"
            if not self.ok() and self.agent.combats:
                yield from self.finish_fights()

    def obtain_opener(self, key: str | None) -> Plan:
        """A key for this lock, or any lockpick, from sources I can reach without locks."""
        enter = self._base("verbs.enter")
        options = [key or enter.FALLBACK_KEY] + [
            o.id for o in self.world.objects.values() if o.usage == enter.LOCKPICK_USAGE
        ]
        self.fetching_key += 1
        try:
            best = min(options, key=lambda d: self.cost(d, 1))
            if self.cost(best, 1) >= INFINITE:
                raise Stuck(f"no way to get a key for a path locked with {key}")
            yield from self.obtain(best, 1)
        finally:
            self.fetching_key -= 1

    def visit_some(self, areas: list[str], k: int) -> Plan:
        while sum(1 for a in areas if a in self.progress["visited"]) < k:
            left = [a for a in areas if a not in self.progress["visited"]]
            yield from self.goto(min(left, key=self.distance))

    # ------------------------------------------------------------------ hands and inventory
    def inventory(self) -> Any:
        inv = self.agent.inventory_id
        return self.world.containers[inv] if inv is not None else None

    def free_space(self) -> int:
        inv = self.inventory()
        if inv is None:
            return 0
        return (self.world.def_of(inv.id).capacity or 0) - container_load(self.world, inv)

    def ensure_inventory(self) -> Plan:
        """Equip a container as my inventory: one in hand or lying here, else the cheapest to
        get. Without one in reach I carry on with my two hands (a quest reward may bring one)."""
        world, agent = self.world, self.agent
        if agent.inventory_id is not None:
            return
        held = next((o for o in agent.hands if o in world.containers), None)
        if held is None:
            here = [o for o in world.areas[agent.area_id].objects if o in world.containers]
            if not here:
                kinds = [o.id for o in world.objects.values() if o.is_container]
                best = min(kinds, key=lambda d: self.cost(d, 1), default=None)
                if best is None or self.cost(best, 1) >= LOCK_COST:
                    return
                yield from self.obtain(best, 1)
                here = [o for o in world.areas[agent.area_id].objects if o in world.containers]
            held = next((o for o in agent.hands if o in world.containers), None)
            if held is None and here:
                yield from self.hold(here[0])
                held = here[0]
        if held is not None and held in agent.hands:
            yield f"equip {world.name_of(held)}"

    def needed(self) -> set[str]:
        """Definitions I never sell or leave behind: what plans need, quest things, tools,
        weapons and openers."""
        keep = {did for did, _ in self.reserved} | set(self._quest_objects)
        for did, obj in self.world.objects.items():
            if (
                obj.quest
                or obj.category == "weapon"
                or obj.usage in (*OPENER_USAGES, "write", "writable")
            ):
                keep.add(did)
        return keep

    def spare(self) -> list[tuple[str, int]]:
        """Inventory entries I can do without, most dispensable first: things no plan needs,
        written-on writables and blank ones beyond one, openers beyond the locks still shut,
        writing tools beyond one, weapons other than my best."""
        world, inv = self.world, self.inventory()
        if inv is None:
            return []
        best = self.best_weapon()
        wanted = dict(self._quest_objects)
        for did, units in self.reserved:
            wanted[did] = max(wanted.get(did, 0), units)
        locks = sum(1 for _, _, d in world.graph.nx.edges(data=True) if d["locked"])
        ranked: list[tuple[int, str, int]] = []
        blanks = openers = tools = 0
        for oid, n in inv.items.items():
            obj = world.def_of(oid)
            if not obj.size or obj.is_container:
                continue
            if obj.id in wanted:  # units beyond what the plans need can go
                extra = self.have(obj.id) - wanted[obj.id]
                if extra > 0:
                    ranked.append((0, oid, min(n, extra)))
                continue
            if oid in world.writables:
                blank = world.writables[oid].text == ""
                blanks += blank
                if not blank or blanks > 1:
                    ranked.append((1, oid, n))
            elif obj.usage in OPENER_USAGES:
                extra = max(0, min(n, openers + n - locks))
                openers += n
                if extra:
                    ranked.append((2, oid, extra))
            elif obj.usage == "write":
                tools += n
                if tools > 1:
                    ranked.append((3, oid, min(n, tools - 1)))
            elif obj.category == "weapon":
                if obj.id != best:
                    ranked.append((4, oid, n))
            else:  # while earning, what sells goes last
                ranked.append((5 if self.earning and (obj.value or 0) >= 2 else 0, oid, n))
        ranked.sort(key=lambda r: (r[0], -(world.def_of(r[1]).size or 0)))
        return [(oid, n) for _, oid, n in ranked]

    def make_room(self, size: int) -> Plan:
        """Discard what I can spare from the inventory until `size` fits."""
        world = self.world
        for oid, n in self.spare():
            if self.free_space() >= size:
                return
            per = world.def_of(oid).size or 1
            count = min(n, math.ceil((size - self.free_space()) / per))
            yield f"discard {count} {world.name_of(oid)} inventory"

    def free_hand(self, keep: Iterable[str] = ()) -> Plan:
        """Empty one hand of something not in `keep` (ids): into the inventory, else the ground."""
        agent, world = self.agent, self.world
        if not agent.hands_full:
            return
        keep = set(keep)
        for oid in [o for o in agent.hands if o not in keep]:
            size = world.def_of(oid).size
            if oid not in world.containers and size is not None and self.inventory() is not None:
                if self.free_space() < size:
                    yield from self.make_room(size)
                if self.free_space() >= size:
                    yield f"store 1 {world.name_of(oid)} inventory"
                    if self.ok():
                        return
            yield f"drop {world.name_of(oid)}"
            return

    def hold(self, what: str, keep: Iterable[str] = ()) -> Plan:
        """Get one unit of a definition (or an instance) into my hands from my inventory or the
        ground, keeping held things whose definitions (or ids) are in `keep`."""
        world, agent = self.world, self.agent
        keep = set(keep)
        for _ in range(4):
            if any(self.matches(o, what) for o in agent.hands):
                return
            inv = self.inventory()
            inside = next((o for o in inv.items if self.matches(o, what)), None) if inv else None
            ground = next(
                (o for o in world.areas[agent.area_id].objects if self.matches(o, what)), None
            )
            if inside is None and ground is None:
                raise Replan(f"{what} is gone")
            yield from self.free_hand(
                keep=[o for o in agent.hands if o in keep or world.def_of(o).id in keep]
            )
            if inside is not None:
                yield f"take out {world.name_of(inside)} inventory"
            else:
                yield f"pick up {world.name_of(ground)}"
        if not any(self.matches(o, what) for o in agent.hands):
            raise Stuck(f"cannot get {what} into my hands")

    def equip(self, did: str) -> Plan:
        if any(self.matches(o, did) for o in self.agent.equipped):
            return
        yield from self.hold(did)
        oid = next(o for o in self.agent.hands if self.matches(o, did))
        yield f"equip {self.world.name_of(oid)}"

    def stow(self, did: str, count: int, *, force: bool = True) -> Plan:
        """Take up to `count` units of a definition lying here: into my inventory, making room
        if I must, else (when `force`) into my hands."""
        world = self.world
        here = world.areas[self.agent.area_id].objects
        obj = world.objects[did]
        for oid in [o for o in here if self.matches(o, did)]:
            n = min(here.get(oid, 0), count)
            if n <= 0:
                continue
            if obj.is_container or obj.size is None or self.inventory() is None:
                for _ in range(min(n, 2)):  # two hands at most
                    keep = self.needed()
                    yield from self.free_hand(
                        keep=[o for o in self.agent.hands if world.def_of(o).id in keep]
                    )
                    yield f"pick up {world.name_of(oid)}"
                    if not self.ok():
                        return
                    count -= 1
                continue
            if self.free_space() < obj.size * n:
                yield from self.make_room(obj.size * n)
            fit = n if not obj.size else min(n, self.free_space() // obj.size)
            if fit > 0:
                yield f"store {fit} {world.name_of(oid)} inventory"
                if not self.ok():  # someone else took it first
                    raise Replan(f"could not store {did}: {self.last.feedback(self.aid)}")
                count -= fit
                continue
            if not force:
                return
            keep = self.needed()
            yield from self.free_hand(
                keep=[o for o in self.agent.hands if world.def_of(o).id in keep]
            )
            yield f"pick up {world.name_of(oid)}"
            if not self.ok():
                raise Stuck(f"no room for {did}")
            count -= 1

    # ------------------------------------------------------------------ getting things
    def obtain(self, did: str, count: int) -> Plan:
        """Carry at least `count` units of a definition, from its cheapest sources."""
        self.reserved.append((did, count))
        try:
            for _ in range(40):
                need = count - self.have(did)
                if need <= 0:
                    return
                options = self.sources(did, need)
                if not options:
                    raise Stuck(f"no source for {did}")
                yield from min(options, key=lambda o: o[0])[2]()
            raise Stuck(f"could not obtain {count} {did}")
        finally:
            self.reserved.remove((did, count))

    def sources(
        self, did: str, need: int, depth: int = 0
    ) -> list[tuple[float, int, Callable[[], Plan]]]:
        """(cost, units it can give, plan) for every way to get units of `did`: from a ground,
        from a merchant, by crafting, from an enemy's loot."""
        world = self.world
        out: list[tuple[float, int, Callable[[], Plan]]] = []
        obj = world.objects[did]
        for area in world.areas.values():
            n = sum(c for o, c in area.objects.items() if self.matches(o, did) and self.blank(o))
            d = self.distance(area.id) if n > 0 else INFINITE
            if d < INFINITE:
                out.append((d + 1, n, self.plan_pick(area.id, did, need)))
        for npc in world.npcs.values():
            stock = npc.inventory.get(did, 0) if npc.role == "merchant" and npc.area_id else 0
            d = self.distance(npc.area_id) if stock > 0 and obj.value is not None else INFINITE
            if d < INFINITE:
                short = max(0, obj.value * min(need, stock) - self.coins())
                out.append((d + 2 + short * 0.7, stock, self.plan_buy(npc.id, did, need)))
        if obj.craft.ingredients and depth < MAX_DEPTH:
            cost = self.craft_cost(did, need, depth)
            if cost < INFINITE:
                out.append((cost, need, lambda: self.craft(did, need)))
        for npc in world.npcs.values():
            if not (npc.enemy and npc.hp > 0 and npc.area_id and npc.inventory.get(did, 0) > 0):
                continue
            if npc.owner not in (None, self.aid):
                continue
            d, risk = self.distance(npc.area_id), self.fight_cost(npc)
            if risk < INFINITE and d < INFINITE:
                out.append((d + risk, npc.inventory[did], self.plan_loot(npc.id, did)))
        return out

    def blank(self, oid: str) -> bool:
        writable = self.world.writables.get(oid)
        return writable is None or writable.text == ""

    def cost(self, did: str, need: int, depth: int = 0) -> float:
        """What getting `need` units costs, filling from the cheapest sources first; INFINITE
        when all sources together cannot give that many."""
        need -= self.have(did)
        if need <= 0:
            return 0
        total = 0.0
        for cost, units, _ in sorted(self.sources(did, need, depth + 1), key=lambda o: o[0]):
            total += cost
            need -= units
            if need <= 0:
                return total
        return INFINITE

    def craft_cost(self, did: str, need: int, depth: int = 0) -> float:
        world = self.world
        obj = world.objects[did]
        if self.bulk(obj, need) > self.carrying_room():
            return INFINITE  # the ingredients of one batch would not fit in my hands and bag
        total = 3.0
        for ing, q in obj.craft.ingredients.items():
            units = self.units_needed(ing, q * need)
            if units > 0:
                total += self.cost(ing, units, depth + 1)
        for dep in obj.craft.dependencies:
            where = self.station_area(dep)
            if where is not None:
                total += self.distance(where)
            elif dep == did or depth + 1 > MAX_DEPTH:
                return INFINITE
            else:
                total += self.craft_cost(dep, 1, depth + 1)
        return min(total, INFINITE)

    def bulk(self, obj: ObjectDef, count: int) -> int:
        """Inventory space the ingredients of `count` crafts take beyond what I carry (the two
        biggest units ride in my hands)."""
        sizes = []
        for ing, q in obj.craft.ingredients.items():
            units = max(0, self.units_needed(ing, q * count) - self.have(ing))
            sizes += [self.world.objects[ing].size or 0] * units
        sizes.sort(reverse=True)
        return sum(sizes[2:])

    def carrying_room(self) -> int:
        """Inventory space I could free: what is free plus what I can spare."""
        spare = sum((self.world.def_of(o).size or 0) * n for o, n in self.spare())
        return self.free_space() + spare

    def units_needed(self, ing: str, amount: float) -> int:
        """Whole units a recipe takes, after my fractional crafting credit."""
        credit = self.agent.craft_credit.get(ing, 0.0)
        return max(0, math.ceil(round(amount - credit, 9)))

    def station_area(self, dep: str) -> str | None:
        world = self.world
        areas = [
            a.id
            for a in world.areas.values()
            if any(self.matches(o, dep) for o in a.objects) and self.distance(a.id) < INFINITE
        ]
        return min(areas, key=self.distance) if areas else None

    def plan_pick(self, area: str, did: str, need: int) -> Callable[[], Plan]:
        def plan() -> Plan:
            yield from self.goto(area)
            yield from self.stow(did, need)

        return plan

    def plan_buy(self, npc_id: str, did: str, need: int) -> Callable[[], Plan]:
        return lambda: self.buy(npc_id, did, need)

    def plan_loot(self, npc_id: str, did: str) -> Callable[[], Plan]:
        def plan() -> Plan:
            self.reserved.append((did, 1))
            try:
                yield from self.fight(npc_id)
            finally:
                self.reserved.remove((did, 1))

        return plan

    def craft(self, did: str, count: int) -> Plan:
        """Craft `count` units: gather the ingredients, find or build the stations, craft there;
        the products are stowed (stations stay where they were built)."""
        world = self.world
        obj = world.objects[did]
        needs = [
            (ing, self.units_needed(ing, q * count)) for ing, q in obj.craft.ingredients.items()
        ]
        self.reserved.extend(needs)
        try:
            for ing, q in obj.craft.ingredients.items():
                units = self.units_needed(ing, q * count)
                if units:
                    yield from self.obtain(ing, units)
            where = None
            for dep in obj.craft.dependencies:
                where = self.station_area(dep)
                if where is None:
                    yield from self.craft(dep, 1)
                    where = self.station_area(dep)
            for dep in obj.craft.dependencies:  # several stations: build the others there too
                if where is not None and not any(
                    self.matches(o, dep) for o in world.areas[where].objects
                ):
                    yield from self.goto(where)
                    yield from self.craft(dep, 1)
            if where is not None:
                yield from self.goto(where)
            yield f"craft {count} {obj.name}"
            if not self.ok():
                raise Stuck(f"craft {obj.name} failed: {self.last.feedback(self.aid)}")
        finally:
            for entry in needs:
                self.reserved.remove(entry)
        if not obj.is_station:
            yield from self.stow(did, count)

    def buy(self, npc_id: str, did: str, count: int) -> Plan:
        world = self.world
        npc, obj = world.npcs[npc_id], world.objects[did]
        count = min(count, npc.inventory.get(did, 0))
        yield from self.earn(obj.value * count)
        yield from self.goto(npc.area_id)
        yield f"buy {count} {obj.name} {npc.name}"
        if not self.ok():  # (someone bought it first, or my coins went)
            raise Replan(f"buy failed: {self.last.feedback(self.aid)}")
        yield from self.stow(did, count)
        yield from self.stow(world.currency_id, 10**6)

    def buy_any(self, wanted: list[str], npc_id: str | None) -> Plan:
        """Buy one of `wanted` (anything, if empty) from `npc_id` (any merchant, if None)."""
        world = self.world
        merchants = (
            [world.npcs[npc_id]]
            if npc_id
            else [n for n in world.npcs.values() if n.role == "merchant" and n.area_id]
        )
        options = [
            (self.distance(npc.area_id) + world.objects[did].value, npc.id, did)
            for npc in merchants
            for did, stock in npc.inventory.items()
            if stock > 0
            and did in world.objects
            and world.objects[did].value is not None
            and (not wanted or did in wanted)
        ]
        if not options:
            raise Stuck(f"nobody sells any of {wanted}")
        _, npc, did = min(options)
        yield from self.buy(npc, did, 1)

    # ------------------------------------------------------------------ money
    def earn(self, amount: int) -> Plan:
        """Carry at least `amount` coins: pick up coins lying around, sell spare things, hunt."""
        world = self.world
        currency = world.currency_id
        for _ in range(30):
            if self.coins() >= amount:
                return
            ground = [
                a.id
                for a in world.areas.values()
                if a.objects.get(currency, 0) > 0 and self.distance(a.id) < LOCK_COST
            ]
            if ground:
                yield from self.goto(min(ground, key=self.distance))
                yield from self.stow(currency, 10**6)
                continue
            sale = self.best_sale(amount - self.coins())
            if sale is not None:
                npc, oid, n = sale
                yield from self.goto(world.npcs[npc].area_id)
                yield f"sell {n} {world.name_of(oid)} {world.npcs[npc].name}"
                yield from self.stow(currency, 10**6)
                continue
            self.earning = True
            try:
                yield from self.hunt(None, for_loot=True)
            finally:
                self.earning = False
        raise Stuck(f"could not earn {amount} coins")

    def best_sale(self, short: int) -> tuple[str, str, int] | None:
        """(merchant, object, units) to sell for about `short` coins, from what I can spare."""
        world = self.world
        merchants = [
            n
            for n in world.npcs.values()
            if n.role == "merchant"
            and n.area_id
            and n.coins > 0
            and self.distance(n.area_id) < LOCK_COST
        ]
        inv = self.inventory()
        if not merchants or inv is None:
            return None
        npc = min(merchants, key=lambda n: self.distance(n.area_id))
        keep = self.needed()
        factor = self._base("trade").SELL_PRICE_FACTOR
        for oid, n in inv.items.items():
            obj = world.def_of(oid)
            price = math.floor((obj.value or 0) * factor)
            if obj.id in keep or price <= 0 or world.is_instance(oid):
                continue
            return npc.id, oid, min(n, max(1, math.ceil(short / price)))
        return None

    def stow_loot(self, loot: dict[str, int]) -> Plan:
        """Take what a fallen enemy (or the quest) left here, when I need it or it sells."""
        world = self.world
        here = world.areas[self.agent.area_id].objects
        keep = self.needed()
        for did, dropped in loot.items():
            obj = world.objects.get(did)
            if obj is None or obj.is_station or obj.is_instanced:
                continue
            count = min(dropped, sum(n for o, n in here.items() if self.matches(o, did)))
            wanted = obj.quest or did in keep or did == world.currency_id
            if count and wanted:
                yield from self.stow(did, count)
            elif count and self.earning and (obj.value or 0) >= 2:
                yield from self.stow(did, count, force=False)

    # ------------------------------------------------------------------ writing
    def leave_note(self, text: str, area: str) -> Plan:
        """Write `text` on a blank writable (where I am: dangerous places stay short visits),
        carry it to `area` and drop it there."""
        note = yield from self.write_note(text)
        yield from self.goto(area)
        yield from self.hold(note)
        yield f"drop {self.world.name_of(note)}"

    def write_note(self, text: str) -> Plan:
        world = self.world
        tool = next(
            (d for d, o in world.objects.items() if o.usage == "write" and self.have(d)), None
        )
        if tool is None:
            tools = [d for d, o in world.objects.items() if o.usage == "write"]
            tool = min(tools, key=lambda d: self.cost(d, 1))
            yield from self.obtain(tool, 1)
        note = self.blank_note()
        if note is None:
            kinds = [d for d, o in world.objects.items() if o.is_writable and not o.text]
            did = min(kinds, key=lambda d: self.cost(d, self.have(d) + 1))
            yield from self.obtain(did, self.have(did) + 1)
            note = self.blank_note()
        if note is None:
            raise Stuck("no blank writable")
        yield from self.hold(tool)
        yield from self.hold(note, keep=[tool])
        yield f'write "{text}" {world.name_of(note)}'
        if not self.ok():
            raise Stuck(f"write failed: {self.last.feedback(self.aid)}")
        return note

    def blank_note(self) -> str | None:
        world, agent, inv = self.world, self.agent, self.inventory()
        for store in [agent.hands] + ([inv.items] if inv else []):
            for oid in store:
                if oid in world.writables and world.writables[oid].text == "":
                    return oid
        return None

    # ------------------------------------------------------------------ fighting
    def best_weapon(self) -> str | None:
        world = self.world
        weapons = [d for d in possession(world, self.agent) if world.objects[d].attack > 0]
        return max(weapons, key=lambda d: world.objects[d].attack) if weapons else None

    def my_attack(self) -> int:
        best = self.best_weapon()
        return self.agent.min_attack + (self.world.objects[best].attack if best else 0)

    def fight_cost(self, npc: Any, hp: int | None = None) -> float:
        """Ticks a fight takes with guard timing, or INFINITE when I would not survive it with
        `hp` (default: my health now)."""
        guard = self._base("steps.combat_rhythm").DEFEND_FACTOR
        pattern = list(npc.combat_pattern) or ["attack"]
        hit = max(0, npc.attack_power - self.agent.defense)
        waits, attack = pattern.count("wait"), self.my_attack()
        if waits:
            cycles = math.ceil(npc.hp / max(1, attack * waits))
            taken = hit + cycles * pattern.count("attack") * int(hit * guard)
            ticks = cycles * len(pattern)
        else:
            blows = math.ceil(npc.hp / max(1, attack))
            taken = hit * blows
            ticks = blows * len(pattern) / max(1, pattern.count("attack"))
        if taken >= (self.agent.hp if hp is None else hp) * 0.8:
            return INFINITE
        return ticks + taken / 4

    def fight(self, npc_id: str) -> Plan:
        """Fight an NPC to its death: defend when it attacks, strike when it waits (trading blows
        with enemies that never wait while my health allows); then take its loot."""
        world = self.world
        npc = world.npcs[npc_id]
        loot = dict(npc.inventory)
        if npc.owner == self.aid and self.best_weapon() is None:
            yield from self.get_weapon()
        for _ in range(600):
            if npc.hp <= 0 or npc.area_id is None:
                break
            engaged = self.agent.combats.get(npc_id)
            if engaged is None:
                yield from self.arm(npc_id)  # before walking in: dangerous places stay short visits
                yield from self.goto(npc.area_id)
                yield from self.arm(npc_id)
                yield f"attack {npc.name}"
                continue
            pattern = npc.combat_pattern
            action = pattern[engaged.rhythm_index % len(pattern)] if pattern else "wait"
            hit = max(0, npc.attack_power - self.agent.defense)
            trade = "wait" not in pattern and self.agent.hp - hit > self.agent.max_hp * SAFE_SHARE
            if action == "wait" or (action == "attack" and trade):
                yield f"attack {npc.name}"
            else:
                yield "defend"
        else:
            raise Stuck(f"the fight with {npc.name} does not end")
        if self.agent.area_id == self.kill_area(npc):
            yield from self.stow_loot(loot)

    def kill_area(self, npc: Any) -> str | None:
        """Where the NPC fell this tick (its loot lies there), if it did."""
        for event in self.last.events if self.last is not None else ():
            if event.type == "npc_killed" and event.data.get("npc_id") == npc.id:
                return event.data.get("area_id")
        return None

    def get_weapon(self) -> Plan:
        """The cheapest weapon there is, before a boss fight, unless it is far out of reach."""
        weapons = [o.id for o in self.world.objects.values() if o.category == "weapon"]
        best = min(weapons, key=lambda d: self.cost(d, 1), default=None)
        if best is not None and self.cost(best, 1) < 2 * LOCK_COST:
            yield from self.obtain(best, 1)

    def arm(self, npc_id: str) -> Plan:
        """My best weapon in hand, and what weakens my boss (its modifiers) in the other."""
        best = self.best_weapon()
        if best is not None:
            yield from self.hold(best)
        for did in self.weakeners(npc_id)[:1]:
            yield from self.hold(did, keep=[best] if best else [])

    def weakeners(self, npc_id: str) -> list[str]:
        """Things I carry that weaken this boss of mine while I hold them."""
        owners = self.world.auxiliary["main_quest"].get("boss_owner", {})
        if npc_id not in owners or owners[npc_id][0] != self.aid:
            return []
        boss = self.game.quests.main_quest.bosses[owners[npc_id][1]]
        return [d for mod in boss.modifiers for d in mod.when_held if self.have(d)]

    def finish_fights(self) -> Plan:
        for npc_id in list(self.agent.combats):
            yield from self.fight(npc_id)

    def hunt(self, area: str | None, *, for_loot: bool = False) -> Plan:
        """Kill the easiest enemy I can reach (in `area` if given; rich ones when `for_loot`)."""
        world = self.world
        candidates: list[tuple[float, str]] = []
        # Too weak for every enemy now? Then one I could beat at full health: a death sends me
        # back whole, and my things wait where I fell.
        for hp in (None, self.agent.max_hp):
            for npc in world.npcs.values():
                if not npc.enemy or npc.hp <= 0 or npc.area_id is None or npc.owner is not None:
                    continue
                if area is not None and npc.area_id != area:
                    continue
                risk, d = self.fight_cost(npc, hp), self.distance(npc.area_id)
                if risk < INFINITE and d < INFINITE:
                    worth = sum((world.objects[o].value or 0) * n for o, n in npc.inventory.items())
                    candidates.append((d + risk - (worth / 10 if for_loot else 0), npc.id))
            if candidates:
                break
        if not candidates:
            raise Stuck(f"no enemy I can beat{' in ' + area if area else ''}")
        yield from self.fight(min(candidates)[1])

    # ------------------------------------------------------------------ after a death
    def recover(self, area: str) -> Plan:
        """Walk back to where I fell and take up my inventory, armour and things again."""
        world = self.world
        yield from self.goto(area)
        here = world.areas[area].objects
        for oid in [o for o in here if o in self.belongings and o in world.containers]:
            yield from self.hold(oid)
            if self.agent.inventory_id is None:
                yield f"equip {world.name_of(oid)}"
        for oid in [o for o in list(here) if o in self.belongings and o not in world.containers]:
            obj = world.def_of(oid)
            if obj.category == "armor" and not any(
                world.def_of(e).category == "armor" for e in self.agent.equipped
            ):
                yield from self.equip(oid)
            elif obj.size is not None and self.inventory() is not None:
                yield from self.stow(obj.id, here.get(oid, 0))


def _walk(conditions: Iterable[Condition]) -> Iterable[Condition]:
    """Conditions with their nested ones."""
    for cond in conditions:
        yield cond
        yield from _walk(cond.conditions)


def _base_pack(game: Game) -> Callable[[str], Any]:
    """A lookup of the base rule pack's modules as this game loaded them (packs are imported
    under a private namespace, found here through the main quest rule's own module)."""
    rule = next(r for r in game.step_rules if r.name == "main_quest_step")
    package = type(rule).__module__.rsplit(".", 2)[0]
    return lambda name: sys.modules[f"{package}.{name}"]


def run(game: Game, solvers: dict[str, QuestSolver | None], max_ticks: int) -> list[TickResult]:
    """Tick the game with the solvers' commands (None: that agent waits) until the episode ends
    or `max_ticks` have passed; returns every tick's result."""
    results = []
    for _ in range(max_ticks):
        actions = {aid: (s.command() if s is not None else "wait") for aid, s in solvers.items()}
        result = game.tick(actions)
        results.append(result)
        for solver in solvers.values():
            if solver is not None:
                solver.observe(result)
        if result.terminated:
            break
    return results
