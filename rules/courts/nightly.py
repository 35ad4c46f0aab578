"""`nightly_law_rewrite_step` (50): every 30 ticks the laws rewrite themselves.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. State
`nightly_law_rewrite = {last_night_step, night_count}`. Runs when the tick index `s > 0` and
`s - last_night_step >= 30` (setting `every`). A night is counted, every agent is told, then, in
this order:

1. every written writable anywhere gets `choice(law_pool)`, cut to its definition's
   `max_text_length` (the pool is a setting: `agentodyssey:metropolis` reads the published game's
   16 texts from the user's copy, as they are story content; hand-written worlds get a pool of
   our own with the same trigger words);
2. every path once (areas in world order, neighbours in path order): `random() < 0.15` toggles its
   lock (a path is one edge: both directions);
3. every area: `random() > 0.2` skips it; else the drift candidates are the ground ids whose
   definition is not a station, currency or container, not writable, not quest, not
   undistributable, of size at most 2; with some, `choice` of one, `choice` of a neighbour, and one
   unit moves there;
4. every living enemy with a pattern: `random() > 0.4` skips it; else `choice(["shuffle",
   "reverse", "rotate"])`: `shuffle`, reversed, or rotated left by `randint(1, max(1, len - 1))`;
   every fight with it restarts its rhythm;
5. event `nightly_law_rewrite {night_number, step, documents_rewritten, paths_toggled,
   npcs_shuffled}` (no agent).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.state_shape import Record

from .common import CONTAINER, CURRENCY, NIGHTLY, STATION, table, tell_all, tell_area

OUR_LAWS = [
    "Consecutive attacks are banned: no consecutive attack shall stand.",
    "By decree of gravity, hidden things float up: levitation is lawful.",
    "All passages shall remain sealed until dawn.",
    "Every door is to be unlocked; open court is declared.",
    "Silence is ordered in every hall.",
    "Defence comes first: every duel must defend before it strikes.",
    "The statute of aggression: all shall attack on sight.",
    "Nullification stands; all must wait their turn.",
    "Gravity inversion is in force; what was hidden is revealed.",
    "Peaceful conduct is mandatory; no aggression is tolerated.",
    "Mandatory defend: a fighter must defend at least once.",
    "No first attack: none may open with a blow.",
    "A wait mandate applies: every fighter must wait.",
    "Free passage is granted to all travellers.",
    "Evidence shall be redistributed among the districts.",
    "Ban consecutive strikes: the consecutive attack ban is renewed.",
]
DRIFT_MAX_SIZE = 2


class NightlyLawRewrite(BaseStepRule):
    name = "nightly_law_rewrite_step"
    priority = 50
    description = "Every 30 ticks, documents, locks, loose items and enemy tactics are rewritten."
    state_key = NIGHTLY
    state_shape = Record({"last_night_step": int, "night_count": int}, empty_ok=True)
    settings = {
        "every": 30, "toggle_chance": 0.15, "drift_chance": 0.2, "tactic_chance": 0.4,
        "law_pool": OUR_LAWS,
    }  # fmt: skip

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, rng, s = ctx.game, ctx.world, ctx.game.rng, self.settings
        state = table(world, NIGHTLY)
        state.setdefault("last_night_step", 0)
        state.setdefault("night_count", 0)
        step = game.tick_index
        if step <= 0 or step - state["last_night_step"] < s["every"]:
            return
        state["last_night_step"] = step
        state["night_count"] += 1
        night = state["night_count"]
        tell_all(game, res, "nightly.banner", f"Night {night}: the laws rewrite themselves.")
        rewritten = 0
        pool = s["law_pool"] or OUR_LAWS
        for doc in world.writables.values():
            if doc.text.strip():
                law = rng.choice(pool)
                limit = (
                    world.objects[doc.def_id].max_text_length
                    if doc.def_id in world.objects
                    else None
                )
                doc.text = law[:limit] if limit else law
                rewritten += 1
        toggled, done = 0, set()
        for area_id in world.areas:
            for neighbour, path in list(world.graph.neighbors(area_id).items()):
                pair = frozenset((area_id, neighbour))
                if pair in done:
                    continue
                done.add(pair)
                if rng.random() < s["toggle_chance"]:
                    path["locked"] = not path["locked"]
                    toggled += 1
                    state_word = "locked" if path["locked"] else "unlocked"
                    for end, other in ((area_id, neighbour), (neighbour, area_id)):
                        name = world.areas[other].name
                        tell_area(
                            game,
                            res,
                            end,
                            "nightly.path",
                            f"The way to {name} is now {state_word}.",
                        )
        banned = set(world.definition.initializations.undistributable_objects)
        for area in world.areas.values():
            if rng.random() > s["drift_chance"]:
                continue
            candidates = []
            for oid, n in area.objects.items():
                d = world.find_def(oid)
                if n <= 0 or d is None or d.category in (STATION, CURRENCY, CONTAINER):
                    continue
                if (
                    d.is_writable
                    or d.quest
                    or d.id in banned
                    or d.size is None
                    or d.size > DRIFT_MAX_SIZE
                ):
                    continue
                candidates.append(oid)
            neighbours = list(world.graph.neighbors(area.id))
            if not candidates or not neighbours:
                continue
            oid = rng.choice(candidates)
            to = rng.choice(neighbours)
            area.remove_objects(oid, 1)
            world.areas[to].add_objects(oid, 1)
            tell_area(game, res, area.id, "nightly.drift", f"A {world.name_of(oid)} drifts away.")
            tell_area(game, res, to, "nightly.drift", f"A {world.name_of(oid)} drifts in.")
        shuffled = 0
        for npc in world.npcs.values():
            if not (npc.enemy and npc.hp > 0 and npc.area_id is not None and npc.combat_pattern):
                continue
            if rng.random() > s["tactic_chance"]:
                continue
            pattern = list(npc.combat_pattern)
            how = rng.choice(["shuffle", "reverse", "rotate"])
            if how == "shuffle":
                rng.shuffle(pattern)
            elif how == "reverse":
                pattern.reverse()
            else:
                k = rng.randint(1, max(1, len(pattern) - 1))
                pattern = pattern[k:] + pattern[:k]
            npc.combat_pattern = tuple(pattern)
            for agent in game.agents.values():
                if npc.id in agent.combats:
                    agent.combats[npc.id].rhythm_index = 0
            shuffled += 1
        if shuffled:
            tell_all(game, res, "nightly.doctrine", "Enemy doctrine has changed in the night.")
        res.emit(
            "nightly_law_rewrite",
            WORLD_AGENT,
            {
                "night_number": night, "step": step, "documents_rewritten": rewritten,
                "paths_toggled": toggled, "npcs_shuffled": shuffled,
            },
        )  # fmt: skip
