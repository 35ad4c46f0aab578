"""Seed parity with AgentOdyssey's own engine on its seven published games.

For every game, AgentOdyssey's `World.generate` runs as a black box in one child process
(tests/published_engine.py) on 25 seeds, and our `World.generate` must build the same world area by
area: level, light, ground objects with their counts, NPC instances in arrival order, paths in
creation order with their locks and keys, and every NPC instance's level, health, attack, coins,
loot and rhythm. Object instances need no normalisation: both sides name a container or writable
instance `<definition id>_<n>` with the same counters.

Three comparisons per game, all from the same child process:

* the definition AgentOdyssey's environment holds once built equals our world file plus the
  quests' entities (`inject_quest_entities`), so `published_world` starts from what it synthesises;
* `published_world` (entities injected, undefined ids repaired, variant named) against
  AgentOdyssey on its injected definition: the repairs shift nothing;
* the world file alone (no injection), AgentOdyssey on it as it is, ours after `fix_undefined_ids`
  (and the variant): the placeholder ingredient and the removed NPC item move no random draw.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest
from published_copy import REQUIRE
from published_engine import EngineRun, EngineUnavailable, run_engine, summarise_ours

from agentodyssey_pz.world.published.definition import (
    fix_undefined_ids,
    inject_quest_entities,
    published_world,
)
from agentodyssey_pz.world.published.games import GAMES, game_spec
from agentodyssey_pz.world.published.locate import PublishedCopy
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.validate import parse_definition
from agentodyssey_pz.world.world import World

SEEDS = [*range(20), 777, 4096, 9999, 10000, 123_456_789]
assert len(SEEDS) == 25
MOST_DIFFERENCES_SHOWN = 8


def _engine(published: PublishedCopy, game: str, jobs: list[Any], **kw: Any) -> EngineRun:
    try:
        return run_engine(published.root, game, jobs, **kw)
    except EngineUnavailable as exc:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but AgentOdyssey's engine cannot run: {exc}")
        pytest.skip(f"AgentOdyssey's engine cannot run: {exc}")


def our_definition(raw: dict[str, Any]) -> WorldDefinition:
    """Our definition of raw data, through the validator, as a game loads it."""
    return parse_definition(copy.deepcopy(raw))


def differences(ours: dict[str, Any], theirs: dict[str, Any], seed: int) -> list[str]:
    """Readable differences between two world summaries (published_engine's shape)."""
    found = []
    if list(ours["areas"]) != list(theirs["areas"]):
        found.append(f"seed {seed}: areas {list(ours['areas'])} != {list(theirs['areas'])}")
    for aid, mine in ours["areas"].items():
        other = theirs["areas"].get(aid, {})
        for key, value in mine.items():
            if value != other.get(key):
                found.append(f"seed {seed}, {aid}.{key}: ours {value!r}, theirs {other.get(key)!r}")
    for nid in sorted(set(ours["npcs"]) | set(theirs["npcs"])):
        if ours["npcs"].get(nid) != theirs["npcs"].get(nid):
            found.append(
                f"seed {seed}, NPC {nid}: ours {ours['npcs'].get(nid)!r}, "
                f"theirs {theirs['npcs'].get(nid)!r}"
            )
    return found


def without_undefined_items(world: dict[str, Any], defined: set[str]) -> dict[str, Any]:
    """AgentOdyssey's world with the NPC items that nothing defines taken out of the instances'
    inventories: its instances keep one unit of such an item without drawing for it, and our
    repair (`fix_undefined_ids`) removes the item from the prototype instead. Nothing else
    differs; the comparison shows it."""
    out = copy.deepcopy(world)
    for npc in out["npcs"].values():
        npc["inventory"] = {k: n for k, n in npc["inventory"].items() if k in defined}
    return out


def assert_same_worlds(
    definition: WorldDefinition, theirs: list[dict[str, Any]], their_raw: dict[str, Any]
) -> None:
    """Ours from `definition` equals AgentOdyssey's from `their_raw` for every seed."""
    defined = {o["id"] for o in their_raw["entities"]["objects"]}
    found: list[str] = []
    for seed, their_world in zip(SEEDS, theirs, strict=True):
        mine = summarise_ours(World.generate(definition, seed))
        found += differences(mine, without_undefined_items(their_world, defined), seed)
    shown = "\n".join(found[:MOST_DIFFERENCES_SHOWN])
    assert not found, f"{len(found)} differences, first ones:\n{shown}"


@pytest.mark.parametrize("game", GAMES)
def test_published_game_synthesises_as_agentodyssey(published: PublishedCopy, game: str) -> None:
    spec = game_spec(game)
    injected = published.read_json(spec.world_file)
    inject_quest_entities(published, game, injected)
    ours = published_world(published, game).definition
    raw = published.read_json(spec.world_file)
    run = _engine(published, game, [(injected, SEEDS), (raw, SEEDS)], env_definition=True)

    assert run.env_definition == injected, "AgentOdyssey's environment built another definition"

    assert_same_worlds(our_definition(ours), run.worlds[0], injected)

    repaired = copy.deepcopy(raw)
    fix_undefined_ids(repaired)
    repaired.setdefault("features", {})["synthesis"] = spec.synthesis
    assert_same_worlds(our_definition(repaired), run.worlds[1], raw)


def test_summaries_compare_what_they_claim(published: PublishedCopy) -> None:
    """The comparison sees a difference: one moved coin, one path's lock, one NPC's coins."""
    definition = our_definition(published_world(published, "base").definition)
    world = summarise_ours(World.generate(definition, 3))
    assert differences(world, copy.deepcopy(world), 3) == []
    for change in ("objects", "neighbors", "npcs"):
        other = copy.deepcopy(world)
        area = next(a for a in other["areas"].values() if a["objects"] and a["neighbors"])
        if change == "objects":
            oid = next(iter(area["objects"]))
            area["objects"][oid] += 1
        elif change == "neighbors":
            area["neighbors"][0][1] = not area["neighbors"][0][1]
        else:
            next(iter(other["npcs"].values()))["coins"] += 1
        assert len(differences(world, other, 3)) == 1, change
