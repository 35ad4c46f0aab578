"""saltglass keeps the env's promises: the `listen` and `refract` entries are exact in the states
they are made for (glass, paper or nothing in hand; open salt, observatories, elsewhere; glazed
or not), and, with 16 agents, tutorial on and off, the broad exact-mask sweep and the audit find
nothing wrong. Every unmasked entry of the two verbs, a sample of masked ones and every listed
command of theirs is stepped through a restored copy of the env with the others waiting."""

from __future__ import annotations

import numpy as np
import pytest
from adapter import test_masks_exact as exact
from harness import clear_world, give, move_to
from saltglass_helper import GUARD, LENS, OBSERVATORIES, OPEN_SALT, PAPER, WORLD
from staged_masks import inexact_entries

import agentodyssey_pz
from agentodyssey_pz.audit import audit

MASKED_SAMPLE = 4
VERBS = ("listen", "refract")
AREAS = (*OPEN_SALT, *OBSERVATORIES, "area_armory")


@pytest.fixture(scope="module")
def env(published):
    return agentodyssey_pz.parallel_env(
        world=WORLD, num_agents=2, max_cycles=10**6, valid_actions_in_info=True, tutorial=False
    )


def rich_state(env, seed: int):
    env.reset(seed=seed)
    game = env.game
    clear_world(game)
    rng = np.random.default_rng(seed)
    for agent_id in game.agents:
        move_to(game, agent_id, str(rng.choice(AREAS)))
        for def_id in rng.choice(
            [LENS, PAPER, "obj_brine_glass", "obj_pen", "obj_salt_shard"],
            size=int(rng.integers(0, 3)),
            replace=False,
        ):
            give(game, agent_id, str(def_id))
    if rng.random() < 0.3:
        game.agents["agent_0"].progress["salt_glaze"] = {
            "active": True,
            "obj_id": GUARD,
            "stat": "defense",
            "amount": 2,
        }
    observations, _, _, _, infos = env.step(dict.fromkeys(env.possible_agents, "wait"))
    return observations, infos


@pytest.mark.parametrize("seed", range(8))
def test_every_entry_and_listed_command_of_the_pack_is_exact(env, seed) -> None:
    observations, infos = rich_state(env, seed)
    rng = np.random.default_rng(seed)
    wrong, _ = inexact_entries(env, observations, infos, VERBS, rng, MASKED_SAMPLE)
    assert wrong == []


def test_catalogue_shapes(env) -> None:
    env.reset(seed=0)
    definition = env.game.world.definition
    by_verb: dict[str, list] = {}
    for entry in env.catalogue.entries:
        by_verb.setdefault(entry.verb, []).append(entry.target)
    assert by_verb["listen"] == [None]
    assert by_verb["refract"] == [o.id for o in definition.entities.objects]


# ---------------------------------------------------------------------------- 16 agents
TUTORIAL = pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])


@TUTORIAL
def test_masks_hold_with_16_agents(published, tutorial, monkeypatch) -> None:
    monkeypatch.setattr(exact, "AGENTS", 16)
    monkeypatch.setattr(exact, "BROAD_STATES", 200)
    _env, unmasked, _ = exact.sweep(WORLD, tutorial)
    assert "wait" in unmasked and len(unmasked) >= 6


@TUTORIAL
def test_the_audit_finds_nothing_with_16_agents(published, tutorial) -> None:
    report = audit(WORLD, agents=16, ticks=40, states=3, tutorial=tutorial, seed=5, resume_ticks=15)
    assert report.ok, report.text()
    assert report.states == 3 and report.resumed == 15
