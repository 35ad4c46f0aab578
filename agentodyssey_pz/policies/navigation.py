"""Moving around: shortest routes over the area graph, opening locked paths, exploring.

Policies layer; a mixin of the planner (`planner.Planner`). Routes are Dijkstra over the paths this
agent can see (`world.graph.visible_neighbors`: another agent's personal paths do not exist for
it), one step per path, plus LOCK_COST for a locked path it cannot open with what it carries (its
key must be fetched first). They are computed once per tick, position and set of openers carried,
and reused by every question asked in that tick. Walking a locked path puts the key in hand first
(the `enter` rule uses only what is held), freeing a hand if both are full. When the key cannot be
had and the game offers a `lockpick` verb (a world pack's, e.g. cinderdeep's), the lock is picked
instead, with one picking tool per try, until it opens.
"""

from __future__ import annotations

import contextlib
import heapq
from typing import Any

from agentodyssey_pz.policies.mechanics import rule_module
from agentodyssey_pz.policies.planning import INFINITE, LOCK_COST, OPENER_USAGES, WAIT, Plan, Stuck

BLOCKED_TICKS = 60  # an area I found no way into is not tried again for this long
PICK_VERB = "lockpick"  # the lockpicking pack's verb: `lockpick <area>` with a tool in hand
SPARE_PICKS = 2  # picking tools worth taking along when they lie in my way
EXTRA_PICK_COST = 10  # what a second or third picking tool may add to the cost of the first
AMBUSH_COST = 3  # route cost of passing an enemy whose ambush would hurt me


def picking_tools(game: Any) -> list[str]:
    """The world's picking tools, the likelier to open first: the rule's own answer (it knows
    its settings: tools by usage or by definition id), else read from the pack's table of tool
    usages and chances (`TOOL_CHANCES`)."""
    rule = game.engine.rules[PICK_VERB]
    if hasattr(rule, "picking_tools"):
        return list(rule.picking_tools(game.world))
    chances = rule_module(game, PICK_VERB).TOOL_CHANCES
    usages = sorted(chances, key=chances.__getitem__, reverse=True)
    return [o.id for u in usages for o in game.world.objects.values() if o.usage == u]


class Navigation:
    """Routes, `goto`, openers and exploration (mixed into the planner)."""

    blocked: dict[str, int]
    _lock_shifters: list[Any] | None = None

    # ------------------------------------------------------------------ routes
    def _routes(self: Any) -> tuple[dict[str, int], dict[str, str]]:
        """Costs and predecessors from here over the paths I may use (cached per tick: my place
        and what I carry change only between my commands)."""
        memo = self.tick_memo()
        if "routes" in memo:
            return memo["routes"]
        start = self.agent.area_id
        graph = self.world.graph
        best, prev = {start: 0}, {}
        queue = [(0, start)]
        while queue:
            d, area = heapq.heappop(queue)
            if d > best.get(area, INFINITE):
                continue
            for nxt in graph.visible_neighbors(area, self.aid):
                path = graph.path(area, nxt)
                locked, reopens = self.lock_state(area, nxt, path)
                if reopens is not None:  # shut for a few ticks: the wait is the cost
                    step = 1 + max(1, reopens - self.game.tick_index)
                elif not locked or self.opener(path["key"]):
                    step = 1
                else:
                    step = 1 + LOCK_COST
                step += self.danger(nxt)
                if d + step < best.get(nxt, INFINITE):
                    best[nxt], prev[nxt] = d + step, area
                    heapq.heappush(queue, (d + step, nxt))
        memo["routes"] = best, prev
        return best, prev

    def danger(self: Any, area_id: str) -> int:
        """Route cost of walking into an area: AMBUSH_COST per enemy there whose ambush would
        hurt me (an enemy strikes whoever stands in its area, docs/rule-packs.md), so routes go
        round the worst places when a way round is not much longer."""
        memo = self.tick_memo()
        costs = memo.get("danger")
        if costs is None:
            costs = memo["danger"] = {}
        if area_id not in costs:
            npcs, defense = self.world.npcs, self.agent.defense
            costs[area_id] = AMBUSH_COST * sum(
                1
                for n in self.world.visible_npcs(area_id, self.aid)
                if npcs[n].enemy and npcs[n].hp > 0 and npcs[n].attack_power // 2 > defense
            )
        return costs[area_id]

    def route(self: Any, target: str) -> list[str] | None:
        best, prev = self._routes()
        if target not in best:
            return None
        path = [target]
        while path[-1] != self.agent.area_id:
            path.append(prev[path[-1]])
        return path[::-1]

    def distance(self: Any, target: str | None) -> int:
        """Route cost to an area; INFINITE behind a lock while I am fetching a key."""
        if target is None:
            return INFINITE
        d = self._routes()[0].get(target, INFINITE)
        return INFINITE if self.fetching_key and d >= LOCK_COST else d

    # ------------------------------------------------------------------ locks
    def lock_state(self: Any, a: str, b: str, path: dict[str, Any]) -> tuple[bool, int | None]:
        """(whether to plan with the path locked, the tick it opens again by itself or None).
        A background rule may shift a path for a few ticks (`shifted_lock`, e.g. the
        shifting_paths pack): a path it shut is waited for; one it opened is planned as locked
        still (it shuts again behind me), though walked through while it is open."""
        for rule in self.lock_shifters():
            shifted = rule.shifted_lock(self.world, a, b)
            if shifted is not None:
                was_locked, back_at = shifted
                if path["locked"] and not was_locked:
                    return True, back_at
                return was_locked, None
        return path["locked"], None

    def lock_shifters(self: Any) -> list[Any]:
        """The game's rules that shift paths for a while and say how (`shifted_lock`)."""
        if self._lock_shifters is None:
            self._lock_shifters = [r for r in self.game.step_rules if hasattr(r, "shifted_lock")]
        return self._lock_shifters

    def is_opener(self: Any, did: str) -> bool:
        return self.world.objects[did].usage in OPENER_USAGES

    def key_for(self: Any, key: str | None) -> str:
        """What opens a path locked with `key`: that key, or `obj_key` for a keyless lock."""
        return key or self._base("verbs.enter").FALLBACK_KEY

    def opener(self: Any, key: str | None) -> str | None:
        """The carried key that opens a path locked with `key` (the enter rule's choice)."""
        wanted = self.key_for(key)
        return wanted if self.carried().get(wanted) else None

    def key_out_of_reach(self: Any, key: str | None) -> bool:
        """Whether the key for this lock cannot be had from sources I reach without locks."""
        wanted = self.key_for(key)
        self.fetching_key += 1
        try:
            return wanted not in self.world.objects or self.cost(wanted, 1) >= INFINITE
        finally:
            self.fetching_key -= 1

    def obtain_opener(self: Any, key: str | None) -> Plan:
        """The key for this lock, from sources I can reach without locks."""
        if self.key_out_of_reach(key):
            raise Stuck(f"no way to get a key for a path locked with {key}")
        self.fetching_key += 1
        try:
            yield from self.obtain(self.key_for(key), 1)
        finally:
            self.fetching_key -= 1

    def opener_need(self: Any, did: str) -> int:
        """Units of `did` worth carrying to open locks: one per locked path it opens, plus
        SPARE_PICKS for a picking tool (tries can fail)."""
        memo = self.tick_memo()
        if "opener_need" not in memo:
            need: dict[str, int] = {}
            for _, _, path in self.world.graph.nx.edges(data=True):
                if path["locked"]:
                    key = self.key_for(path["key"])
                    need[key] = need.get(key, 0) + 1
            if PICK_VERB in self.game.engine.rules:
                for tool in picking_tools(self.game):
                    need[tool] = need.get(tool, 0) + SPARE_PICKS
            memo["opener_need"] = need
        return memo["opener_need"].get(did, 0)

    def take_openers(self: Any) -> Plan:
        """Take the keys (and picking tools) lying where I stand that locks still need, while my
        inventory has room for them: a locked path is cheap to walk with its key in the bag."""
        world = self.world
        if self.inventory() is None:
            return
        for oid in list(world.areas[self.agent.area_id].objects):
            obj = world.def_of(oid)
            short = self.opener_need(obj.id) - self.have(obj.id)
            if short > 0 and obj.size is not None and self.free_space() >= obj.size:
                yield from self.stow(obj.id, short, force=False)

    def picks_instead(self: Any, key: str | None) -> bool:
        """Whether to pick this lock: the game has the verb and the key cannot be had."""
        return PICK_VERB in self.game.engine.rules and self.key_out_of_reach(key)

    def pick_lock(self: Any, area_id: str) -> Plan:
        """One try at the lock towards a neighbour, fetching a picking tool first if I have none
        (each try uses one up)."""
        carried = self.carried()
        options = picking_tools(self.game)
        tool = next((d for d in options if carried.get(d)), None)
        if tool is None:
            self.fetching_key += 1
            try:
                best = min(options, key=lambda d: (self.cost(d, 1), d), default=None)
                if best is None or self.cost(best, 1) >= INFINITE:
                    raise Stuck(f"no key and no picking tool for the lock towards {area_id}")
                # Tries fail: bring a few when the others cost little more than the first.
                units = next(
                    (
                        n
                        for n in range(SPARE_PICKS + 1, 1, -1)
                        if self.cost(best, n) <= self.cost(best, 1) + EXTRA_PICK_COST
                    ),
                    1,
                )
                yield from self.obtain(best, units)
            finally:
                self.fetching_key -= 1
            return
        weapon = self.best_weapon()
        yield from self.hold(tool, keep=[weapon] if weapon else [])
        yield f"{PICK_VERB} {self.world.areas[area_id].name}"

    # ------------------------------------------------------------------ walking
    def goto(self: Any, target: str) -> Plan:
        world = self.world
        while self.agent.area_id != target:
            path = self.route(target)
            if path is None:
                raise Stuck(f"no path to {target}")
            edge = world.graph.path(path[0], path[1])
            if edge["locked"] and self.lock_state(path[0], path[1], edge)[1] is not None:
                yield WAIT  # shut for a few ticks by a background rule: it opens by itself
                continue
            if edge["locked"]:
                opener = self.opener(edge["key"])
                if opener is None and self.picks_instead(edge["key"]):
                    yield from self.pick_lock(path[1])
                    continue
                if opener is None:
                    yield from self.obtain_opener(edge["key"])
                    continue
                weapon = self.best_weapon()
                yield from self.hold(opener, keep=[weapon] if weapon else [])
            else:
                yield from self.light_up(path[1])  # a world whose darkness costs (`lighting`)
            self.entering = path[1]
            yield f"enter {world.areas[path[1]].name}"
            if not self.ok() and self.agent.combats:
                yield from self.finish_fights()

    def visit_some(self: Any, areas: list[str], k: int, *, episode: bool = False) -> Plan:
        """Stand in `k` of the areas: those seen since my quest started count, or with `episode`
        those seen since the episode began. An area I find no way into is skipped for the
        others while enough are left."""
        skipped: set[str] = set()
        while True:
            seen = self.agent.visited if episode else self.progress["visited"]
            if sum(1 for a in areas if a in seen) >= k:
                return
            left = [a for a in areas if a not in seen and a not in skipped]
            if not left:
                raise Stuck(f"cannot reach {k} of {areas}")
            target = min(left, key=lambda a: (self.distance(a), a))
            try:
                yield from self.goto(target)
            except Stuck:
                if sum(1 for a in areas if a not in seen) - len(skipped) - 1 < k - sum(
                    1 for a in areas if a in seen
                ):
                    raise
                skipped.add(target)

    # ------------------------------------------------------------------ exploring
    def unvisited(self: Any) -> list[str]:
        """Areas I have never stood in and can route to, nearest first (ties: graph order);
        areas I recently failed to get into are left out for BLOCKED_TICKS."""
        best = self._routes()[0]
        now = self.game.tick_index
        visited = self.agent.visited
        left = [
            a
            for a in best
            if a not in visited
            and self.blocked.get(a, -INFINITE) <= now
            and self.distance(a) < INFINITE
        ]
        return sorted(left, key=best.__getitem__)

    def is_safe(self: Any, area_id: str) -> bool:
        """No enemy I can see stands there (enemies ambush whoever stands in their area)."""
        npcs = self.world.npcs
        return not any(npcs[n].enemy for n in self.world.visible_npcs(area_id, self.aid))

    def retreat(self: Any) -> Plan:
        """Walk to the nearest area without enemies (nothing to do when I stand in one)."""
        if self.is_safe(self.agent.area_id):
            return
        best = self._routes()[0]
        safe = [a for a in best if best[a] < LOCK_COST and self.is_safe(a)]
        if safe:
            with contextlib.suppress(Stuck):
                yield from self.goto(min(safe, key=best.__getitem__))

    def explore(self: Any) -> Plan:
        """Walk to the nearest area I have never visited, opening locks on the way with keys I
        find, buy or make (or picking them); returns False when there is nowhere left to go."""
        for target in self.unvisited():
            try:
                yield from self.goto(target)
                return True
            except Stuck:
                self.blocked[target] = self.game.tick_index + BLOCKED_TICKS
        return False
