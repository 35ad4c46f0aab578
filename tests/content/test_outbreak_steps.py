"""The step rules of the bundled pack `outbreak` (rules/outbreak/) on AgentOdyssey's quarantine
world (user's copy): light fuel and darkness, corpse corruption and mutants, lockdowns, and the
ambush chance x4 in the dark (statistically); then the pack's exact masks on staged states, and
the audit on `agentodyssey:quarantine`.
"""

from __future__ import annotations

import numpy as np
import pytest
from adapter.rollouts import restore, snapshot
from harness import act, give, run_step, spawn_npc
from outbreak_helper import LOBBY, MORGUE, ROOFTOP, WARD, WORLD, ward

import agentodyssey_pz
from agentodyssey_pz.audit import audit
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.observe.masks import resolve_entry
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import Engagement

AMBUSH_TRIALS = 4000
AMBUSH_TOLERANCE = 0.03  # about 4 standard deviations of a 0.2 frequency over 4000 trials


@pytest.fixture(autouse=True)
def _copy(published):
    return published


def events_of(res: RuleResult, kind: str) -> list[dict]:
    return [e.data for e in res.events if e.type == kind]


# ------------------------------------------------------------------------------ light and fuel
def test_fuel_burns_in_the_dark_and_darkness_follows() -> None:
    game = ward(at=MORGUE)  # unlit on seed 0
    body = game.agents["agent_0"]
    aux = game.world.auxiliary
    res = run_step(game, "light_source_depletion_step")
    assert aux["in_darkness"] == {"agent_0": True}
    assert events_of(res, "entered_darkness") == [{"reason": "no_light_source"}]
    assert events_of(run_step(game, "light_source_depletion_step"), "entered_darkness") == []
    give(game, "agent_0", "obj_lantern")
    res = run_step(game, "light_source_depletion_step")
    assert aux["light_fuel"]["agent_0"] == {"obj_lantern": 29}
    assert aux["in_darkness"]["agent_0"] is False and events_of(res, "left_darkness") == [{}]
    aux["light_fuel"]["agent_0"]["obj_lantern"] = 6
    res = run_step(game, "light_source_depletion_step")
    assert res.feedback_keys("agent_0") == ["darkness.low_fuel"]
    aux["light_fuel"]["agent_0"]["obj_lantern"] = 1
    res = run_step(game, "light_source_depletion_step")
    assert events_of(res, "light_source_depleted") == [
        {"obj_id": "obj_lantern", "location": "hand"}
    ]
    assert events_of(res, "entered_darkness") == [{"reason": "fuel_exhausted"}]
    assert aux["in_darkness"]["agent_0"] is True
    res = run_step(game, "light_source_depletion_step")  # at 0: skipped, stays dark
    assert aux["light_fuel"]["agent_0"] == {"obj_lantern": 0} and not res.events
    # Records are dropped only at a run that finds other lights: without any, the empty lantern
    # stays empty; put away while a flashlight burns, it comes back full (AgentOdyssey's quirk).
    body.hands.clear()
    run_step(game, "light_source_depletion_step")
    assert aux["light_fuel"]["agent_0"] == {"obj_lantern": 0}
    give(game, "agent_0", "obj_flashlight")
    run_step(game, "light_source_depletion_step")
    assert aux["light_fuel"]["agent_0"] == {"obj_flashlight": 49}
    body.hands.clear()
    give(game, "agent_0", "obj_lantern")
    run_step(game, "light_source_depletion_step")
    assert aux["light_fuel"]["agent_0"] == {"obj_lantern": 29}
    # A lit area leaves the fuel as it is.
    game.move_agent(body, WARD)
    run_step(game, "light_source_depletion_step")
    assert aux["light_fuel"]["agent_0"] == {"obj_lantern": 29}
    assert aux["in_darkness"]["agent_0"] is False


def test_an_equipped_light_burns_too_and_dead_agents_are_skipped() -> None:
    game = ward(at=MORGUE)
    body = game.agents["agent_0"]
    body.equipped["obj_flashlight"] = 1
    res = run_step(game, "light_source_depletion_step")
    assert game.world.auxiliary["light_fuel"]["agent_0"] == {"obj_flashlight": 49}
    assert not events_of(res, "entered_darkness")
    body.hp = 0
    run_step(game, "light_source_depletion_step")
    assert game.world.auxiliary["light_fuel"]["agent_0"] == {"obj_flashlight": 49}


def test_ambushes_are_four_times_as_likely_in_the_dark() -> None:
    """Level-1 lobby, one zombie: 0.05 in the light, 0.2 in the dark (one draw each). The stage
    is built once; each trial restores the agent's health (what the rule changes) and seeds the
    draws."""
    hits = {False: 0, True: 0}
    game = ward(at=LOBBY)
    spawn_npc(game, "npc_zombie", LOBBY)
    body = game.agents["agent_0"]
    for seed in range(AMBUSH_TRIALS):
        for dark in (False, True):
            body.hp = body.max_hp
            game.world.auxiliary["in_darkness"] = {"agent_0": dark}
            game.rng.seed(seed)
            res = run_step(game, "active_attack_step")
            hits[dark] += bool(events_of(res, "agent_damaged"))
    assert abs(hits[False] / AMBUSH_TRIALS - 0.05) < 0.015
    assert abs(hits[True] / AMBUSH_TRIALS - 0.20) < AMBUSH_TOLERANCE


# ------------------------------------------------------------------------------ corruption
def kill_event(res: RuleResult, npc_id: str, area_id: str) -> None:
    res.emit("npc_killed", "agent_0", {"npc_id": npc_id, "area_id": area_id})


def test_corpses_corrupt_and_raise_mutants_every_sixth_tick() -> None:
    game = ward(agents=1, at=LOBBY)
    zombie = spawn_npc(game, "npc_zombie", ROOFTOP)
    nurse = game.world.npcs["npc_nurse_chen"]
    rule = next(r for r in game.step_rules if r.name == "corpse_corruption_step")
    from agentodyssey_pz.rules.context import RuleContext

    def tick(kills=()):
        res = RuleResult(game.agent_ids)
        for npc_id, area_id in kills:
            kill_event(res, npc_id, area_id)
        rule.apply(RuleContext(game, game.world, None, "", (), game.tick_index), res)
        return res

    tick([(zombie.id, ROOFTOP), (nurse.id, ROOFTOP)])  # the nurse is no enemy
    aux = game.world.auxiliary
    assert aux["area_corpses"] == {ROOFTOP: ["npc_zombie"]}
    assert aux["area_corruption"] == {ROOFTOP: 1}
    tick([("npc_zombie_99", ROOFTOP)])  # gone from the world: its prototype decides
    assert aux["area_corpses"][ROOFTOP] == ["npc_zombie", "npc_zombie"]
    assert aux["area_corruption"][ROOFTOP] == 3
    for _ in range(3):
        tick()
    assert aux["area_corruption"][ROOFTOP] == 9
    res = tick()  # 11: at the threshold, a mutant
    spawned = events_of(res, "mutant_spawned")
    assert len(spawned) == 1 and spawned[0]["corruption"] == 11
    mutant = game.world.npcs[spawned[0]["npc_id"]]
    proto = game.world.npc_protos["npc_zombie"]
    assert mutant.name.startswith("mutated_zombie_") and mutant.area_id == ROOFTOP
    assert mutant.hp == int(proto.hp_at(2) * 1.5)
    assert mutant.attack_power == int(proto.attack_at(2) * 1.4)
    assert aux["corruption_spawn_cooldown"][ROOFTOP] == 5
    quiet = [bool(events_of(tick(), "mutant_spawned")) for _ in range(6)]
    assert quiet == [False] * 5 + [True]


# ------------------------------------------------------------------------------ lockdown
def test_lockdown_after_eight_ticks_and_the_keycard_override() -> None:
    game = ward(agents=1, at=WARD)
    aux = game.world.auxiliary
    aux["area_corpses"] = {WARD: ["npc_zombie"]}
    box = game.world.spawn_on_ground(WARD, "obj_small_bag", 1)[0][0]
    keys = []
    for _ in range(8):
        res = run_step(game, "quarantine_lockdown_step")
        keys += res.feedback_keys("agent_0")
    assert keys == ["lockdown.warning", "lockdown.imminent", "lockdown.activated"]
    record = aux["quarantine_lockdown"][WARD]
    assert record["active"] and record["timer"] == 8 and record["locked_containers"] == [box]
    paths = {(p["from"], p["to"]) for p in record["locked_paths"]}
    assert paths == {(WARD, LOBBY), (WARD, MORGUE), (WARD, ROOFTOP)}
    assert all(game.world.graph.is_locked(LOBBY, WARD) for _ in [0])
    (activated,) = events_of(res, "quarantine_lockdown_activated")
    assert activated["area_id"] == WARD and len(activated["locked_paths"]) == 3
    aux["area_corpses"][WARD] = []  # burned: no lift
    run_step(game, "quarantine_lockdown_step")
    assert aux["quarantine_lockdown"][WARD]["active"]
    give(game, "agent_0", "obj_master_keycard")
    res = run_step(game, "quarantine_lockdown_step")
    assert events_of(res, "quarantine_lockdown_overridden") == [{"area_id": WARD}]
    assert game.agents["agent_0"].hands == {}
    assert not game.world.graph.is_locked(WARD, LOBBY)
    assert aux["quarantine_lockdown"][WARD] == {
        "timer": 0,
        "active": False,
        "locked_paths": [],
        "locked_containers": [],
    }


# ------------------------------------------------------------------------------ masks and audit
def staged_env(env, seed: int):
    """The quarantine env reset, agent_0 in the ward with a light, and a random half of every
    verb's needs: two kinds of wood, herbs, fuel or burning supplies, a desk, a zombie it fights,
    corpses."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    game = env.game
    body = game.agents["agent_0"]
    game.move_agent(body, WARD)
    body.hands.clear()
    body.combats.clear()
    give(game, "agent_0", "obj_lantern")
    kinds = [
        "obj_wood_log",
        "obj_wood_plank",
        "obj_green_herb",
        "obj_red_herb",
        "obj_blue_herb",
        "obj_lantern_fuel",
        "obj_chemical",
        "obj_rag",
    ]
    (bag,) = give(game, "agent_0", "obj_small_bag")
    del body.hands[bag]
    body.inventory_id = bag
    for def_id in rng.choice(kinds, size=3, replace=False):
        game.world.containers[bag].items[str(def_id)] = int(rng.integers(1, 4))
    if rng.random() < 0.5:
        game.world.spawn_on_ground(WARD, "obj_desk", 1)
    if rng.random() < 0.5:
        zombie = spawn_npc(game, "npc_zombie", WARD, hp=10**6, attack_power=0)
        body.combats[zombie.id] = Engagement(0, WARD)
    if rng.random() < 0.5:
        game.world.auxiliary.setdefault("area_corpses", {})[WARD] = ["npc_zombie"]
    return env


VERBS = ("barricade", "concoct", "shove", "eavesdrop", "burn_corpses", "refuel")


def test_the_pack_s_masks_are_exact_on_staged_states() -> None:
    """Every unmasked entry of the pack's verbs, stepped through a restored env with the other
    agent waiting, takes effect; every masked one, run through the action rules, is refused and
    changes nothing."""
    env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=2, tutorial=False)
    taken: set[str] = set()
    refused = 0
    for seed in range(30):
        staged_env(env, seed)
        observations, *_ = env.step({"agent_0": "wait", "agent_1": "wait"})
        mask = observations["agent_0"]["action_mask"]
        snap = snapshot(env)
        game = env.game
        before = state_hash(game)
        for index, entry in enumerate(env.catalogue.entries):
            if entry.verb not in VERBS:
                continue
            if mask[index]:
                trial = restore(snap)
                infos = trial.step({"agent_0": index, "agent_1": "wait"})[4]
                assert infos["agent_0"]["action_ok"], (seed, env.action_name("agent_0", index))
                taken.add(entry.verb)
            else:
                command = resolve_entry(game, "agent_0", env.catalogue, index)
                result = act(game, "agent_0", command)
                assert not result.action_ok["agent_0"], (seed, env.action_name("agent_0", index))
                refused += 1
        assert state_hash(game) == before, seed
    assert taken == set(VERBS) and refused > 1000


def test_the_audit_finds_nothing_wrong() -> None:
    report = audit(WORLD, ticks=120, states=8, seed=3)
    assert report.ok, report.text()
