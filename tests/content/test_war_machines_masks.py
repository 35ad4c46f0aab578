"""The `war_machines` pack's verbs keep the exact-mask contract on AgentOdyssey's robot_kingdom in
the states they are made for (a random walk seldom gets there): holding a repair kit over scrap,
components with armour worn, fighting enemies with things in hand, friendly NPCs to rally, a
scavenge cooldown. Every unmasked entry of the pack's verbs, a sample of masked ones, and every
listed command of theirs is stepped through a restored copy of the env with the others waiting:
unmasked and listed ones take effect, masked ones do not. Catalogue shapes are checked too."""

from __future__ import annotations

import numpy as np
import pytest
from adapter import test_masks_exact as exact
from harness import clear_world, give, move_to, put_on_ground, spawn_npc
from staged_masks import inexact_entries
from war_machines_helper import AUTOMATON, KAEL, MARSHAL, WORLD, YARD

import agentodyssey_pz
from agentodyssey_pz.audit import audit
from agentodyssey_pz.world.agents import Engagement

MASKED_SAMPLE = 12  # masked entries tried per agent and state (every unmasked one is)
VERBS = ("salvage", "rally", "siphon", "jam", "overload", "scavenge")


@pytest.fixture(scope="module")
def env(published):
    return agentodyssey_pz.parallel_env(
        world=WORLD, num_agents=2, max_cycles=10**6, valid_actions_in_info=True
    )


def rich_state(env, seed: int):
    env.reset(seed=seed)
    game = env.game
    clear_world(game)
    for agent_id in game.agents:
        move_to(game, agent_id, YARD)
    rng = np.random.default_rng(seed)
    for def_id in ("obj_scrap_iron", "obj_cog", "obj_fiend_plate", "obj_demon_core_shard"):
        put_on_ground(game, YARD, def_id, int(rng.integers(0, 3)))
    me = game.agents["agent_0"]
    for def_id in rng.choice(
        ["obj_repair_kit", "obj_hellcoal", "obj_devil_oil", "obj_coin", "obj_paper", "obj_cog"],
        size=2,
        replace=False,
    ):
        give(game, "agent_0", str(def_id), int(rng.integers(1, 4)))
    if rng.random() < 0.7:
        me.equipped["obj_iron_scale_armor"] = 1
    give(game, "agent_1", "obj_coin", int(rng.integers(0, 40)))
    spawn_npc(game, MARSHAL, YARD, int(rng.integers(1, 4)))
    spawn_npc(game, KAEL, YARD, 2)
    for k in range(int(rng.integers(0, 3))):
        npc = spawn_npc(game, AUTOMATON, YARD, 1, hp=500, max_hp=500)
        if k == 0 or rng.random() < 0.5:
            me.combats[npc.id] = Engagement(int(rng.integers(0, 4)), YARD)
        if rng.random() < 0.5:
            npc.combat_pattern = ("attack",)
    if rng.random() < 0.3:
        me.progress["war_machines"] = {"scavenged": {YARD: 0}}
    observations, _, _, _, infos = env.step(dict.fromkeys(env.possible_agents, "wait"))
    return observations, infos


@pytest.mark.parametrize("seed", range(10))
def test_every_entry_and_listed_command_of_the_pack_is_exact(env, seed) -> None:
    observations, infos = rich_state(env, seed)
    rng = np.random.default_rng(seed)
    wrong, unmasked = inexact_entries(env, observations, infos, VERBS, rng, MASKED_SAMPLE)
    assert wrong == []
    assert unmasked > 0


def test_catalogue_shapes(env) -> None:
    env.reset(seed=0)
    definition = env.game.world.definition
    objects = [o.id for o in definition.entities.objects]
    protos = [n.id for n in definition.entities.npcs]
    by_verb: dict[str, list] = {}
    for entry in env.catalogue.entries:
        by_verb.setdefault(entry.verb, []).append(entry.target)
    assert by_verb["salvage"] == by_verb["overload"] == objects
    assert by_verb["rally"] == by_verb["siphon"] == by_verb["jam"] == protos
    assert by_verb["scavenge"] == [None]


# ------------------------------------------------------------------ sixteen agents
@pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])
def test_sixteen_agents_keep_exact_masks(published, tutorial, monkeypatch) -> None:
    """The broad sweep of tests/adapter/test_masks_exact.py with a crowd: listings that share a
    crowded area's work (`ctx.shared`) and the pack's background rules with many agents."""
    monkeypatch.setattr(exact, "AGENTS", 16)
    monkeypatch.setattr(exact, "BROAD_STATES", 160)
    _env, unmasked, _ = exact.sweep(WORLD, tutorial)
    assert "wait" in unmasked and len(unmasked) >= 6


@pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])
def test_sixteen_agents_keep_every_promise(published, tutorial) -> None:
    report = audit(WORLD, agents=16, ticks=60, states=4, tutorial=tutorial, seed=5)
    assert report.ok, report.text()
