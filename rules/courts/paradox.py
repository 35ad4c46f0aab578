"""`legal_paradox_step` (0): three or more contradictory laws lying in one area warp it.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. State
`legal_paradox[area] = {active, shuffled_paths, frozen_npcs}`. Each tick, for every area in world
order, the written writables on its ground are sorted into keyword groups (substrings of the
lower-cased text; a document matching none is ignored):

* passage: `passage`, `unlock`, `open`, `free passage`, `open court`;
* seal: `seal`, `locked`, `sealed`, `remain sealed`;
* gravity: `gravity`, `reveal`, `hidden`, `levitation`, `float`, `inversion`;
* pacify: `nullify`, `silence`, `pacify`, `peaceful`, `no aggression`, `ban attack`,
  `prohibit attack`;
* aggress: `attack`, `aggression`, `first strike`, `offensive`, `statute of aggression`,
  `must open with`.

The area is in paradox with at least 3 sorted documents and both groups of one of the pairs
{passage, seal}, {pacify, aggress}, {gravity, seal} present (one document may carry both).

* Start: the exits (personal paths to tutorial rooms left out) are shuffled: with 2 or more,
  `shuffle` of their list, repeated (at most 10 times) until the order differs; then the lock
  state and key of exit i go to exit shuffled[i], and each exit's own are saved
  (`shuffled_paths`). Event `legal_paradox_started {area_id}` (no agent). AgentOdyssey re-keys
  the area's one-way path table, so moving by name reaches the named area through another exit's
  lock, and the exits are listed in the shuffled order; our paths are undirected edges, so the
  locks and keys are permuted on both sides of each path and the listing keeps its order
  (docs/rule-packs.md#the-courts-pack).
* End: the saved locks and keys are put back, the frozen NPCs get their attack and pattern back,
  the entry is reset; event `legal_paradox_resolved {area_id}`.
* While it lasts (the start tick too): every enemy NPC here not yet frozen has its attack and
  pattern saved, and all of them get attack 0 and no pattern (every tick); the agents standing here
  stop fighting in this area (an agent left fighting no one rests); the warp: of the ground ids
  that are not stations, currency, containers, writables, quest objects or undistributable,
  `sample` `max(1, int(n * 0.25))`, and each gains a unit if `random() < 0.5`, else loses one.

An NPC frozen here stays at attack 0 wherever it goes until the paradox ends (as published).
"""

from __future__ import annotations

import functools
from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT, location
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.world import World

from .common import CONTAINER, CURRENCY, PARADOX, STATION, rest_if_free, table, tell_area

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("passage", ("passage", "unlock", "open", "free passage", "open court")),
    ("seal", ("seal", "locked", "sealed", "remain sealed")),
    ("gravity", ("gravity", "reveal", "hidden", "levitation", "float", "inversion")),
    ("pacify", ("nullify", "silence", "pacify", "peaceful", "no aggression", "ban attack",
                "prohibit attack")),
    ("aggress", ("attack", "aggression", "first strike", "offensive", "statute of aggression",
                 "must open with")),
)  # fmt: skip
CONTRADICTIONS = (("passage", "seal"), ("pacify", "aggress"), ("gravity", "seal"))
MIN_DOCUMENTS = 3
SHUFFLE_TRIES = 10
WARP_FRACTION = 0.25


@functools.lru_cache(maxsize=1024)  # a pure function of the text: the same laws, every tick
def groups_of(text: str) -> frozenset[str]:
    lowered = text.lower()
    return frozenset(name for name, words in GROUPS if any(w in lowered for w in words))


def in_paradox(world: World, area_id: str) -> bool:
    """At least 3 written documents on the ground here fall into groups, two of them opposed."""
    writables, found = world.writables, []
    for oid in world.areas[area_id].objects:
        doc = writables.get(oid)
        if doc is None:
            continue
        text = doc.text.strip()
        if text:
            groups = groups_of(text)
            if groups:
                found.append(groups)
    if len(found) < MIN_DOCUMENTS:
        return False
    present = set().union(*found)
    return any(a in present and b in present for a, b in CONTRADICTIONS)


def shuffle_exits(ctx: RuleContext, area_id: str) -> dict[str, Any]:
    """Permute the locks and keys of the area's exits; returns the saved originals ({} if none)."""
    graph = ctx.world.graph
    exits = graph.neighbors(area_id)
    keys = [n for n, path in exits.items() if path["owner"] is None]
    if len(keys) < 2:
        return {}
    order, tries = list(keys), 0
    while order == keys and tries < SHUFFLE_TRIES:
        ctx.game.rng.shuffle(order)
        tries += 1
    if order == keys:
        return {}
    saved = {
        k: {"to_id": k, "locked": exits[k]["locked"], "object_to_unlock": exits[k]["key"]}
        for k in keys
    }
    for old, new in zip(keys, order, strict=True):
        exits[new]["locked"] = saved[old]["locked"]
        exits[new]["key"] = saved[old]["object_to_unlock"]
    return saved


def restore_exits(world: World, area_id: str, saved: dict[str, Any]) -> None:
    for neighbour, attrs in saved.items():
        path = world.graph.path(area_id, neighbour) if neighbour in world.graph else None
        if path is not None:
            path["locked"] = attrs["locked"]
            path["key"] = attrs.get("object_to_unlock")


class LegalParadox(BaseStepRule):
    name = "legal_paradox_step"
    priority = 0
    description = "Contradictory laws lying together warp an area: foes freeze, things flicker."
    state_key = PARADOX
    state_shape = MapOf(
        Record({"active": bool}, {"shuffled_paths": MapOf(dict), "frozen_npcs": MapOf(dict)})
    )

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        world = ctx.world
        states = table(world, PARADOX)
        # The common case, cheaply: fewer than 3 written documents anywhere and no paradox on.
        written = {oid for oid, doc in world.writables.items() if doc.text and doc.text.strip()}
        if len(written) < MIN_DOCUMENTS and not any(e.get("active") for e in states.values()):
            return
        for area_id, area in world.areas.items():
            entry = states.get(area_id)
            was = entry is not None and entry.get("active", False)
            if not was and len(written.intersection(area.objects)) < MIN_DOCUMENTS:
                continue  # no paradox here, none starting
            now = in_paradox(world, area_id)
            name = world.areas[area_id].name
            if now and not was:
                states[area_id] = entry = {
                    "active": True, "shuffled_paths": shuffle_exits(ctx, area_id),
                }  # fmt: skip
                tell_area(
                    ctx.game, res, area_id, "paradox.started",
                    f"Contradictory laws in {name} tear at reality: foes freeze, things "
                    "flicker and the ways out twist. Remove documents to end it.",
                )  # fmt: skip
                res.emit("legal_paradox_started", WORLD_AGENT, {"area_id": area_id})
            elif was and not now:
                assert entry is not None
                restore_exits(world, area_id, entry.get("shuffled_paths", {}))
                for npc_id, saved in entry.get("frozen_npcs", {}).items():
                    npc = world.npcs.get(npc_id)
                    if npc is not None:
                        npc.attack_power = saved["original_attack_power"]
                        npc.combat_pattern = tuple(saved["original_combat_pattern"])
                states[area_id] = {"active": False, "shuffled_paths": {}, "frozen_npcs": {}}
                tell_area(
                    ctx.game, res, area_id, "paradox.resolved",
                    f"The legal paradox in {name} is resolved; order returns.",
                )  # fmt: skip
                res.emit("legal_paradox_resolved", WORLD_AGENT, {"area_id": area_id})
            if now:
                assert entry is not None
                self._persist(ctx, res, area_id, entry)

    def _persist(self, ctx: RuleContext, res: RuleResult, area_id: str, entry: dict) -> None:
        game, world, rng = ctx.game, ctx.world, ctx.game.rng
        area = world.areas[area_id]
        frozen = entry.setdefault("frozen_npcs", {})
        for npc_id in area.npcs:
            npc = world.npcs[npc_id]
            if not npc.enemy:
                continue
            if npc_id not in frozen:
                frozen[npc_id] = {
                    "original_attack_power": npc.attack_power,
                    "original_combat_pattern": list(npc.combat_pattern),
                }
            npc.attack_power, npc.combat_pattern = 0, ()
        if game.count_in(area_id):
            for agent in game.agents_in(area_id):
                for npc_id in [n for n, e in agent.combats.items() if e.area_id == area_id]:
                    npc = world.npcs.get(npc_id)
                    who = npc.name if npc is not None else "an NPC"
                    res.say(agent.id, "paradox.frozen", f"{who} is frozen in legal confusion.")
                    del agent.combats[npc_id]
                rest_if_free(agent)
        banned = set(world.definition.initializations.undistributable_objects)
        candidates = []
        for oid, n in area.objects.items():
            d = world.find_def(oid)
            if n <= 0 or d is None or d.category in (STATION, CURRENCY, CONTAINER):
                continue
            if d.is_writable or d.quest or d.id in banned:
                continue
            candidates.append(oid)
        if candidates:
            chosen = rng.sample(candidates, max(1, int(len(candidates) * WARP_FRACTION)))
            where = location("area", area_id)
            for oid in chosen:
                thing = world.name_of(oid)
                if rng.random() < 0.5:
                    area.add_objects(oid, 1)
                    res.track_spawn(WORLD_AGENT, oid, 1, where)
                    tell_area(game, res, area_id, "paradox.warp", f"A {thing} flickers into being.")
                else:
                    area.remove_objects(oid, 1)
                    res.track_consume(WORLD_AGENT, oid, 1, where)
                    tell_area(game, res, area_id, "paradox.warp", f"A {thing} winks out of being.")
        tell_area(
            game, res, area_id, "paradox.persists",
            f"A legal paradox holds {area.name}; the ways out lead oddly.",
        )  # fmt: skip
