"""quarantine's darkness as agents see it, and the rest of what the `outbreak` pack adds to the
observation side (docs/world-format.md#91-darkness, docs/rule-packs.md#the-outbreak-pack), on
AgentOdyssey's quarantine (user's copy; the morgue is unlit on seed 0, the lobby lit):

- who is in the dark is what `light_source_depletion_step` last decided (`in_darkness`), also for
  an agent that died and respawned in the lit lobby in the same tick;
- text: a notice before the feedback, hands, equipment, stats and neighbours as in the light, the
  ground and the people here only as shapes ("no one" when nobody else is there);
- vector: `in_darkness` 1, the ground, NPC and `agents_here` segments 0, hands, equipment,
  inventory and coins as in the light;
- masks and lists: only verbs whose listings read nothing of the surroundings, each entry taking
  effect; nothing hidden changes them; barricade and eavesdrop offer nothing while a fight is
  recorded;
- the pack's verbs are listed after `write`, before `defend` and `wait`;
- the lockdown's containers: usable as published, sealed with `seal_containers`.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from adapter.rollouts import restore, snapshot
from harness import act, clear_world, give, move_to, put_on_ground, run_step, spawn_npc, step_rule
from outbreak_helper import LOBBY, MORGUE, WARD, WORLD, drop_pack_state, ward

import agentodyssey_pz
from agentodyssey_pz.audit.darkness import change_hidden
from agentodyssey_pz.observe.encode import HIDDEN_IN_DIM
from agentodyssey_pz.observe.masks import action_mask, valid_actions
from agentodyssey_pz.observe.text import DARK_GROUND, DARK_NO_ONE, DARK_PEOPLE, PITCH_DARK
from agentodyssey_pz.world.agents import Engagement
from agentodyssey_pz.world.darkness import in_darkness

# The verbs whose listings read nothing of the surroundings (`dark_safe` or `dim_safe`).
OFFERED_IN_DARK = {
    "enter",
    "drop",
    "equip",
    "unequip",
    "write",
    "concoct",
    "eavesdrop",
    "barricade",
    "burn corpses",
    "refuel",
    "defend",
    "wait",
}


@pytest.fixture(autouse=True)
def _copy(published):
    return published


def dark_env(agents: int = 2, **settings):
    """quarantine with text and vector observations and valid-action lists, cleared (no objects,
    no NPCs, none of the pack's state), every agent at the unlit morgue."""
    options = {"obs_mode": "text", "valid_actions_in_info": True, **settings}
    env = agentodyssey_pz.parallel_env(
        world=WORLD, num_agents=agents, tutorial=False, max_cycles=10**6, **options
    )
    env.reset(seed=0)
    game = env.game
    clear_world(game)
    drop_pack_state(game)
    for body in game.agents.values():
        body.combats.clear()
        move_to(game, body.id, MORGUE)
    return env


def step(env, **actions):
    observations, _, _, _, infos = env.step({**dict.fromkeys(env.agents, "wait"), **actions})
    return observations, infos


def rich_dark_state(env) -> None:
    """agent_0 in the dark morgue holding paper and an empty lantern, a bag worn as inventory with
    herbs, wood, lantern fuel, a chemical and a rag; coins in hand; things on the ground; a zombie
    and agent_1 beside it; corpses here."""
    game = env.game
    give(game, "agent_0", "obj_lantern")
    give(game, "agent_0", "obj_paper")
    bag = game.world.spawn_on_ground(MORGUE, "obj_small_bag", 1)[0][0]
    del game.world.areas[MORGUE].objects[bag]
    body = game.agents["agent_0"]
    body.equipped[bag], body.inventory_id = 1, bag
    game.world.containers[bag].items.update(
        {
            "obj_green_herb": 2,
            "obj_wood_log": 3,
            "obj_lantern_fuel": 1,
            "obj_chemical": 1,
            "obj_rag": 1,
            "obj_coin": 5,
        }
    )
    game.world.auxiliary["light_fuel"] = {"agent_0": {"obj_lantern": 0}}
    game.world.auxiliary["area_corpses"] = {MORGUE: ["npc_zombie"]}
    put_on_ground(game, MORGUE, "obj_rag", 2)
    game.world.spawn_on_ground(MORGUE, "obj_desk", 1)
    spawn_npc(game, "npc_zombie", MORGUE, hp=10**6, attack_power=0)


# ---------------------------------------------------------------------------- who is in the dark
def test_the_dark_is_what_the_light_rule_decided_this_tick() -> None:
    env = dark_env()
    game = env.game
    assert not any(in_darkness(game.world, a) for a in game.agents.values())  # not decided yet
    step(env)
    assert game.world.auxiliary["in_darkness"] == {"agent_0": True, "agent_1": True}
    assert all(in_darkness(game.world, a) for a in game.agents.values())
    give(game, "agent_1", "obj_lantern")  # burning: the rule lifts its dark in the next tick
    assert in_darkness(game.world, game.agents["agent_1"])
    step(env)
    assert not in_darkness(game.world, game.agents["agent_1"])
    # Dead at the light rule (skipped), respawned in the lit lobby by the death rule: still dark.
    game.agents["agent_0"].hp = 0
    observations, _ = step(env)
    body = game.agents["agent_0"]
    assert body.area_id == LOBBY and body.hp > 0
    assert PITCH_DARK in observations["agent_0"]["text"]
    observations, _ = step(env)
    assert PITCH_DARK not in observations["agent_0"]["text"]


def test_a_world_without_the_flags_table_is_lit() -> None:
    game = ward(at=MORGUE)
    assert not in_darkness(game.world, game.agents["agent_0"])
    game.world.auxiliary["in_darkness"] = "broken"  # not a table: nobody is in the dark
    assert not in_darkness(game.world, game.agents["agent_0"])


# ---------------------------------------------------------------------------- text
def test_the_dark_text_shows_what_i_carry_and_only_shapes_around() -> None:
    env = dark_env()
    rich_dark_state(env)
    observations, _ = step(env)
    text = observations["agent_0"]["text"]
    lines = text.splitlines()
    notice = lines.index(PITCH_DARK)
    assert lines[notice - 2].startswith("Current Location: ") and lines[notice + 1] == "I waited."
    assert any(line.startswith("I am holding: 1 lantern, 1 paper") for line in lines)
    assert any(line.startswith("I have equipped: 1 small_bag") for line in lines)
    assert f"On the ground here I see: {DARK_GROUND}." in lines
    assert f"Here with me: {DARK_PEOPLE}." in lines
    # What the agent sees names no one and nothing around; an ambush's own feedback line names its
    # attacker, dark or not (whether one comes depends on the draws).
    seen = "\n".join(line for line in lines if " ambushes me" not in line)
    assert "zombie" not in seen and "desk" not in seen and "agent_1" not in seen
    assert "My health is 100 of 100." in lines and lines[-1].startswith("Neighboring areas: ")
    # Alone and nobody near: no one, as far as it can tell; the ground still only shapes.
    game = env.game
    clear_world(game)
    move_to(game, "agent_1", LOBBY)
    observations, _ = step(env)
    text = observations["agent_0"]["text"]
    assert f"Here with me: {DARK_NO_ONE}." in text and f"I see: {DARK_GROUND}." in text
    # agent_1 in the lit lobby sees as usual.
    assert PITCH_DARK not in observations["agent_1"]["text"]
    assert "On the ground here I see: nothing." in observations["agent_1"]["text"]


def test_render_shows_the_same_dark_text() -> None:
    env = dark_env(render_mode="ansi")
    step(env)
    assert PITCH_DARK in env.render()


# ---------------------------------------------------------------------------- vector
def test_the_dark_vector_hides_only_the_surroundings() -> None:
    env = dark_env()
    rich_dark_state(env)
    observations, _ = step(env)
    layout = env.layout
    at = {s.name: s for s in layout.segments}
    dark = observations["agent_0"]["observation"]
    assert layout.segments[-1].name == "in_darkness" and dark[at["in_darkness"].start] == 1.0
    assert all(name in at["in_darkness"].meaning for name in HIDDEN_IN_DIM)
    for name in HIDDEN_IN_DIM:
        assert not dark[at[name].start : at[name].stop].any(), name
    for name in ("hands", "equipped", "inventory"):
        assert dark[at[name].start : at[name].stop].any(), name
    assert dark[at["self"].start + 8] > 0  # coins (in the inventory) are shown
    # The same state in the light: the hidden segments show, the rest is the same.
    env.game.world.areas[MORGUE].light = True
    observations, _ = step(env)
    lit = observations["agent_0"]["observation"]
    assert lit[at["in_darkness"].start] == 0.0
    for name in ("ground", "npc_count", "agents_here"):
        assert lit[at[name].start : at[name].stop].any(), name
    for name in ("hands", "equipped", "inventory", "area", "neighbors", "self"):
        assert (lit[at[name].start : at[name].stop] == dark[at[name].start : at[name].stop]).all()


# ---------------------------------------------------------------------------- masks and lists
def test_in_the_dark_only_verbs_blind_to_the_surroundings_are_offered_and_all_work() -> None:
    env = dark_env()
    rich_dark_state(env)
    observations, infos = step(env)
    listed = infos["agent_0"]["valid_actions"]
    assert set(listed) <= OFFERED_IN_DARK
    assert {"concoct", "refuel", "burn corpses", "barricade", "eavesdrop", "drop"} <= set(listed)
    assert listed["refuel"] == ["refuel lantern"]
    mask = observations["agent_0"]["action_mask"]
    snap = snapshot(env)
    unmasked = [i for i in range(len(mask)) if mask[i]]
    verbs = set()
    for index in unmasked:
        entry = env.catalogue.entries[index]
        assert env.game.engine.rules[entry.verb].verb in OFFERED_IN_DARK, entry.label
        trial = restore(snap)
        infos = trial.step({"agent_0": index, "agent_1": "wait"})[4]
        assert infos["agent_0"]["action_ok"], env.action_name("agent_0", index)
        verbs.add(entry.verb)
    assert {"concoct", "refuel", "burn_corpses", "barricade", "eavesdrop"} <= verbs
    for commands in listed.values():
        for command in commands:
            trial = restore(snap)
            observations, _, _, _, infos = trial.step({"agent_0": command, "agent_1": "wait"})
            assert infos["agent_0"]["action_ok"], (command, observations["agent_0"]["text"])
    # Typed, a hidden verb still works blind: agent_1 (in the dark too) picks up a rag.
    assert in_darkness(env.game.world, env.game.agents["agent_1"])
    assert act(env.game, "agent_1", "pick up rag").action_ok["agent_1"]


def test_nothing_hidden_changes_what_is_offered_in_the_dark() -> None:
    env = dark_env()
    rich_dark_state(env)
    step(env)
    game = env.game
    frozen = pickle.dumps(game)
    copy = pickle.loads(frozen)
    changed = change_hidden(copy, "agent_0")
    assert "ground emptied" in changed and "hands emptied" not in changed
    assert in_darkness(copy.world, copy.agents["agent_0"])
    mask = action_mask(game, "agent_0", env.catalogue)
    assert (mask == action_mask(copy, "agent_0", env.catalogue)).all()
    assert valid_actions(game, "agent_0") == valid_actions(copy, "agent_0")


def test_barricade_and_eavesdrop_offer_nothing_in_the_dark_while_a_fight_is_recorded() -> None:
    env = dark_env()
    rich_dark_state(env)
    step(env)
    game = env.game
    gone = spawn_npc(game, "npc_zombie", WARD)
    game.agents["agent_0"].combats[gone.id] = Engagement(0, MORGUE)
    game.world.remove_npc_from_map(gone.id)  # the foe no longer stands: the verbs would work
    listed = valid_actions(game, "agent_0")
    assert "barricade" not in listed and "eavesdrop" not in listed
    assert act(game, "agent_0", "eavesdrop ward").action_ok["agent_0"]  # one way, as promised
    game.world.auxiliary["in_darkness"]["agent_0"] = False  # in the light the foe is seen gone
    listed = valid_actions(game, "agent_0")
    assert "barricade" in listed and "eavesdrop" in listed


# ---------------------------------------------------------------------------- listing order
def test_the_pack_s_verbs_come_after_write_and_before_defend_and_wait() -> None:
    env = dark_env()
    rich_dark_state(env)
    game = env.game
    game.world.areas[MORGUE].light = True
    give(game, "agent_0", "obj_pen")  # hands: lantern, paper, pen
    _, infos = step(env)
    order = list(infos["agent_0"]["valid_actions"])
    ours = ["write", "concoct", "shove", "eavesdrop", "barricade", "burn corpses", "refuel"]
    present = [v for v in order if v in ours]
    assert present == [v for v in ours if v in present] and len(present) >= 5
    assert order.index(present[-1]) < order.index("defend") < order.index("wait")
    assert order[: order.index(present[0])][-1] in ("sell", "buy", "craft", "inspect", "write")


# ---------------------------------------------------------------------------- lockdown containers
def lockdown_with_a_bag(seal: bool):
    game = ward(agents=1, at=WARD)
    rule = step_rule(game, "quarantine_lockdown_step")
    rule.settings = {**rule.settings, "seal_containers": seal}
    game.world.auxiliary["area_corpses"] = {WARD: ["npc_zombie"]}
    bag = game.world.spawn_on_ground(WARD, "obj_small_bag", 1)[0][0]
    game.world.containers[bag].items["obj_rag"] = 1
    for _ in range(8):
        run_step(game, "quarantine_lockdown_step")
    assert game.world.auxiliary["quarantine_lockdown"][WARD]["locked_containers"] == [bag]
    give(game, "agent_0", "obj_chemical")
    return game, bag, game.world.name_of(bag)


def test_lockdown_containers_stay_usable_as_published() -> None:
    game, _, name = lockdown_with_a_bag(seal=False)
    assert "sealed_containers" not in game.world.auxiliary
    res = act(game, "agent_0", f"store 1 chemical {name}")
    assert res.action_ok["agent_0"], res.feedback_text("agent_0")
    res = act(game, "agent_0", f"take out rag {name}")
    assert res.action_ok["agent_0"], res.feedback_text("agent_0")


def test_sealed_lockdown_containers_refuse_use_until_the_override() -> None:
    game, bag, name = lockdown_with_a_bag(seal=True)
    aux = game.world.auxiliary
    assert aux["sealed_containers"] == {bag: "under quarantine"}
    for command, key in (
        (f"store 1 chemical {name}", "store.sealed"),
        (f"take out rag {name}", "take_out.sealed"),
        (f"discard 1 rag {name}", "discard.sealed"),
    ):
        res = act(game, "agent_0", command)
        assert not res.action_ok["agent_0"] and res.feedback_keys("agent_0") == [key], command
        assert "sealed under quarantine" in res.feedback_text("agent_0")
    assert game.world.containers[bag].items == {"obj_rag": 1}
    for verb in ("store", "take_out", "discard"):
        listed = game.engine.rules[verb].valid_params(_ctx(game, verb))
        assert all(name not in params for params in listed), verb
    # Carried off, it stays sealed; the keycard's override releases it.
    game.world.areas[WARD].objects.pop(bag)
    game.agents["agent_0"].hands[bag] = 1
    assert not act(game, "agent_0", f"store 1 chemical {name}").action_ok["agent_0"]
    game.agents["agent_0"].hands.pop(bag)
    game.world.areas[WARD].objects[bag] = 1
    give(game, "agent_0", "obj_master_keycard")
    run_step(game, "quarantine_lockdown_step")
    assert "sealed_containers" not in aux
    assert act(game, "agent_0", f"store 1 chemical {name}").action_ok["agent_0"]


def _ctx(game, verb: str):
    from agentodyssey_pz.rules.context import RuleContext

    body = game.agents["agent_0"]
    return RuleContext(game, game.world, body, verb, (), game.tick_index, None)


def test_a_sealed_container_is_masked_and_the_env_s_kept_listings_follow() -> None:
    env = dark_env(agents=1)
    game = env.game
    move_to(game, "agent_0", LOBBY)  # lit
    bag = game.world.spawn_on_ground(LOBBY, "obj_small_bag", 1)[0][0]
    give(game, "agent_0", "obj_rag")
    _, infos = step(env)
    name = game.world.name_of(bag)
    assert f"store 1 rag {name}" in infos["agent_0"]["valid_actions"]["store"]
    game.world.auxiliary["sealed_containers"] = {bag: "under quarantine"}
    _, infos = step(env)
    assert "store" not in infos["agent_0"]["valid_actions"]
    del game.world.auxiliary["sealed_containers"]
    _, infos = step(env)
    assert f"store 1 rag {name}" in infos["agent_0"]["valid_actions"]["store"]


def test_seal_containers_is_a_setting_of_the_lockdown_rule() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=1, tutorial=False)
    env.reset(seed=0)
    assert step_rule(env.game, "quarantine_lockdown_step").settings["seal_containers"] is False
    assert np.isclose(step_rule(env.game, "active_attack_step").settings["dark_multiplier"], 4.0)
