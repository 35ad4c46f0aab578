"""Who a command can name (`rules.targets.nameable_npcs`), and the verbs that list NPCs by it.

`attack` and `talk to` inline the same filter for speed, and `pickpocket` and `throw` share one
list per agent in a listing phase (`RuleContext.shared`): at every tick of random walks with
personal and shadowed NPCs about, each of them lists exactly the NPCs `nameable_npcs` gives (attack
those its refusal lets through), and the shared list is the one made afresh.
"""

from __future__ import annotations

import random

from harness import give, spawn_npc
from scavenging_helper import GATE, HEAP, pack_module, yard

from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.targets import NAMEABLE, nameable_npcs


def crowd(game, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """NPCs at the gate and the heap: everyone's, each agent's own, and one whose name another
    NPC took (so a command naming it reaches the other)."""
    for area in (GATE, HEAP):
        for proto in ("npc_rat", "npc_scrapper", "npc_rat"):
            spawn_npc(game, proto, area, hp=rng.randint(1, 40))
    spawn_npc(game, "npc_tinker", GATE)  # unique: a merchant
    world = game.world
    rats = [n for n in world.npcs.values() if n.area_id == GATE and n.def_id == "npc_rat"]
    world.rename_npc(rats[1].id, rats[0].name)  # `rats[0]` is shadowed now
    for agent_id in game.agent_ids:
        own = spawn_npc(game, "npc_rat", rng.choice((GATE, HEAP)))
        world.set_npc_owner(own.id, agent_id)


def listed_npcs(game, agent_id: str, verb: str, shared=None) -> list[str]:  # type: ignore[no-untyped-def]
    ctx = RuleContext(game, game.world, game.agents[agent_id], verb, (), game.tick_index, shared)
    found = game.engine.rules[verb].mask_targets(ctx)
    return [params[-1] for _, params in found]


def throwable_names(game, agent_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Names of the things in hand a throw can use: nameable, not containers or writables."""
    world, names = game.world, []
    for oid in game.agents[agent_id].hands:
        found = world.listing(oid)
        if found is not None and not world.def_of(oid).is_instanced:
            names.append(found[1])
    return names


def throws(game, agent_id: str) -> list[tuple[str, ...]]:  # type: ignore[no-untyped-def]
    ctx = RuleContext(game, game.world, game.agents[agent_id], "throw", (), game.tick_index)
    return [params for _, params in game.engine.rules["throw"].mask_targets(ctx)]


def test_every_npc_verb_lists_the_npcs_a_command_can_name() -> None:
    rng = random.Random(3)
    game = yard(agents=3)
    crowd(game, rng)
    refusal = pack_module(game, "attack").refusal
    checked = shadowed = personal = 0
    for _ in range(150):
        for agent_id in game.agent_ids:
            body = game.agents[agent_id]
            if rng.random() < 0.3 and not body.hands:
                give(game, agent_id, "obj_dart")
            names = [npc.name for npc in nameable_npcs(game.world, body)]
            here = [game.world.npcs[i] for i in game.world.areas[body.area_id].npcs]
            shadowed += any(game.world.npc_name_to_id.get(n.name) != n.id for n in here)
            personal += any(n.owner not in (None, agent_id) for n in here)
            assert listed_npcs(game, agent_id, "talk_to") == names
            assert listed_npcs(game, agent_id, "pickpocket") == names
            hittable = [n.name for n in nameable_npcs(game.world, body) if not refusal(body, n)]
            assert listed_npcs(game, agent_id, "attack") == hittable
            held = throwable_names(game, agent_id)
            assert throws(game, agent_id) == [(o, n) for o in held for n in names]
            checked += len(names)
        actions = {}
        for agent_id in game.agent_ids:
            options = valid_actions(game, agent_id)
            actions[agent_id] = rng.choice(options[rng.choice(list(options))])
        game.tick(actions)
    assert checked > 300 and shadowed and personal  # the walk met what the filter leaves out


def test_a_listing_phase_keeps_one_list_per_agent() -> None:
    game = yard(agents=2)
    crowd(game, random.Random(5))
    shared: dict = {}
    first = game.agents["agent_0"]
    kept = nameable_npcs(game.world, first, shared)
    assert kept == nameable_npcs(game.world, first)  # the same NPCs as made afresh
    assert shared[(NAMEABLE, "agent_0")] is kept
    assert nameable_npcs(game.world, first, shared) is kept  # asked again: not made again
    other = nameable_npcs(game.world, game.agents["agent_1"], shared)
    assert other == nameable_npcs(game.world, game.agents["agent_1"])
    assert shared[(NAMEABLE, "agent_1")] is other and other is not kept
    # The verbs that share it read the kept list (here doctored, to see that they do).
    shared[(NAMEABLE, "agent_0")] = kept[:1]
    assert listed_npcs(game, "agent_0", "pickpocket", shared) == [kept[0].name]
    assert len(listed_npcs(game, "agent_0", "pickpocket")) == len(kept) > 1
