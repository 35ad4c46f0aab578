"""The bundled rule pack `courts` (rules/courts/) on AgentOdyssey's metropolis, read from the
user's copy: its verbs (seeded branches and numbers), two-phase death, the expiries, contempt of
court, contraband and the nightly rewrite; exact masks, audit, and hostile text."""

from __future__ import annotations

import random

import adapter.test_masks_exact as masks
import pytest
from courts_helper import LOBBY, WORLD
from harness import give, spawn_npc

import agentodyssey_pz
from agentodyssey_pz.audit import audit
from agentodyssey_pz.world.agents import Engagement


@pytest.fixture
def env(published):
    env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=2, valid_actions_in_info=True)
    env.reset(seed=3)
    return env


def step(env, a0="wait", a1="wait"):
    return env.step({"agent_0": a0, "agent_1": a1})


def writ(game, text, agent="agent_0"):
    [oid] = give(game, agent, "obj_paper")
    game.world.writables[oid].text = text
    return game.world.writables[oid]


def test_pack_loaded_with_its_rules(env) -> None:
    names = {r.name for r in env.game.step_rules}
    for rule in (
        "contempt_of_court_step",
        "nightly_law_rewrite_step",
        "invoke_law_expiry_step",
        "objection_effects_step",
        "contraband_suspicion_step",
    ):
        assert rule in names
    for verb in ("invoke_law", "file_objection", "appeal_verdict"):
        assert verb in env.catalogue.verbs


def test_invoke_law_refusals_and_unlock(env) -> None:
    game = env.game
    agent = game.agents["agent_0"]
    agent.hands.clear()
    doc = writ(game, "Open the passage")
    *_, infos = step(env, f"invoke law {doc.name}")
    assert not infos["agent_0"]["action_ok"]  # no shard
    give(game, "agent_0", "obj_statute_shard")
    game.world.graph.set_locked(LOBBY, "area_clerks_office", True)
    *_, infos = step(env, f"invoke law {doc.name}")
    assert infos["agent_0"]["action_ok"]
    assert not game.world.graph.is_locked(LOBBY, "area_clerks_office")
    assert doc.text == "" and "obj_statute_shard" not in agent.hands
    [inv] = game.world.auxiliary["active_invocations"].values()
    assert inv["remaining"] == 2 and inv["effect_type"] == "unlock_doors"
    step(env)
    step(env)
    assert game.world.auxiliary["active_invocations"] == {}
    assert game.world.graph.is_locked(LOBBY, "area_clerks_office")


def test_invoke_law_no_keyword_consumes_nothing(env) -> None:
    game = env.game
    game.agents["agent_0"].hands.clear()
    doc = writ(game, "a grocery list")
    give(game, "agent_0", "obj_statute_shard")
    *_, infos = step(env, f"invoke law {doc.name}")
    assert not infos["agent_0"]["action_ok"] and doc.text == "a grocery list"
    assert game.agents["agent_0"].hands.get("obj_statute_shard") == 1


def test_objection_overruled_sustained_and_expiry(env) -> None:
    game = env.game
    agent = game.agents["agent_0"]
    agent.hands.clear()
    npc = spawn_npc(game, "npc_rogue_advocate", agent.area_id, hp=500)
    npc.combat_pattern = ("attack", "attack", "defend")
    agent.combats[npc.id] = Engagement(0, agent.area_id)
    *_, infos = step(env, f"file objection {npc.name}")  # no documents: lose a turn, no event
    assert infos["agent_0"]["action_ok"] and game.world.auxiliary["objection_skip_turn"]["agent_0"]
    agent.hp = agent.max_hp = 10**6
    *_, infos = step(env, f"file objection {npc.name}")  # the lost turn: played as `wait`
    assert not infos["agent_0"]["action_ok"]
    agent.combats[npc.id] = Engagement(0, agent.area_id)
    writ(game, "Everyone must defend")
    *_, infos = step(env, f"file objection {npc.name}")
    assert infos["agent_0"]["action_ok"] and npc.enemy  # overruled: the pattern has a defend
    step(env)  # the lost turn
    writ(game, "ban consecutive blows")
    agent.combats[npc.id] = Engagement(0, agent.area_id)
    step(env, f"file objection {npc.name}")
    assert not npc.enemy and npc.attack_power == 0 and npc.id not in agent.combats
    for _ in range(4):
        step(env)
    assert npc.enemy and npc.combat_pattern == ("attack", "attack", "defend")


def test_two_phase_death_and_appeal(env) -> None:
    game = env.game
    agent = game.agents["agent_0"]
    agent.hp = 0
    step(env)
    assert game.world.auxiliary["pending_death"]["agent_0"] and agent.area_id == LOBBY
    coins = sum(v for k, v in agent.hands.items() if k == "obj_coin")
    assert (
        "appeal verdict"
        in [c for cs in step(env)[4]["agent_0"]["valid_actions"].values() for c in cs]
        or coins == 0
    )


def test_appeal_restores_health(env) -> None:
    game = env.game
    agent = game.agents["agent_0"]
    agent.hands.clear()
    give(game, "agent_0", "obj_coin", 2)
    agent.hp = -3
    step(env)
    *_, infos = step(env, "appeal verdict")
    assert infos["agent_0"]["action_ok"] and agent.hp == agent.max_hp
    assert "obj_coin" not in agent.hands and agent.deaths == 0
    step(env)
    assert agent.deaths == 0 and not game.world.auxiliary["pending_death"]["agent_0"]


def test_pending_death_then_dies(env) -> None:
    agent = env.game.agents["agent_0"]
    agent.hp = 0
    step(env)
    assert agent.deaths == 0
    step(env)
    assert agent.deaths == 1 and agent.hp == agent.max_hp


def test_contempt_of_court_sequence(env) -> None:
    game = env.game
    agent = game.agents["agent_0"]
    agent.hands.clear()
    give(game, "agent_0", "obj_coin", 2)
    max_hp = agent.max_hp
    events = []
    for _ in range(8):
        env.step({"agent_0": "wait", "agent_1": "inspect inventory"})
        events.append(game.world.auxiliary["contempt_of_court"]["agent_0"]["idle_turns"])
    state = game.world.auxiliary["contempt_of_court"]["agent_0"]
    assert state["idle_turns"] >= 7 and agent.max_hp < max_hp
    assert "obj_coin" not in agent.hands
    step(env, "inspect inventory")
    assert agent.max_hp == max_hp


def test_nightly_rewrite_at_tick_30(env) -> None:
    game = env.game
    doc = writ(game, "hello")
    while game.tick_index < 31:
        step(env)
    assert game.world.auxiliary["nightly_law_rewrite"]["night_count"] == 1
    assert doc.text != "hello" and doc.text.strip()


MANY = 16  # agents: the crowded case


@pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])
def test_masks_exact_with_16_agents(published, monkeypatch: pytest.MonkeyPatch, tutorial) -> None:
    """The broad sweep of tests/adapter/test_masks_exact.py with 16 agents: unmasked entries
    are taken, masked ones refused (lost turns included)."""
    monkeypatch.setattr(masks, "WORLDS", [*masks.WORLDS, WORLD])
    monkeypatch.setattr(masks, "AGENTS", MANY)
    monkeypatch.setattr(masks, "BROAD_STATES", 300)
    _env, unmasked, _ = masks.sweep(WORLD, tutorial)
    assert {"wait", "file_objection", "attack"} <= unmasked


@pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])
def test_audit_with_16_agents(published, tutorial) -> None:
    report = audit(
        WORLD, agents=MANY, ticks=80, states=4, tutorial=tutorial, seed=3, resume_ticks=20,
        other_process=False,
    )  # fmt: skip
    assert report.ok, report.text()
    assert report.states == 4


def test_hostile_text_raises_nothing(published) -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=2)
    env.reset(seed=1)
    rng = random.Random(0)
    words = [
        "invoke law",
        "file objection",
        "appeal verdict",
        "paper_1",
        "\x00",
        "'",
        '"',
        "rogue_advocate_0",
        "9" * 50,
        "coin",
        "law",
        "",
    ]
    for _ in range(5000):
        env.step(
            {
                a: " ".join(rng.choice(words) for _ in range(rng.randint(0, 4)))
                for a in ("agent_0", "agent_1")
            }
        )


def test_failed_objection_costs_the_next_turn(env) -> None:
    """The lost turn (rules/courts/lost_turn.py): the next command becomes `wait`, the agent is
    told, its listings offer only `wait`, and contempt counts a `wait`."""
    game = env.game
    agent = game.agents["agent_0"]
    agent.hands.clear()
    agent.hp = agent.max_hp = 10**6
    npc = spawn_npc(game, "npc_rogue_advocate", agent.area_id, hp=500)
    npc.combat_pattern = ("attack", "defend")
    agent.combats[npc.id] = Engagement(0, agent.area_id)
    writ(game, "Everyone must defend")  # the pattern has a defend: overruled
    *_, infos = step(env, f"file objection {npc.name}")
    assert infos["agent_0"]["valid_actions"] == {"wait": ["wait"]}
    assert infos["agent_1"]["valid_actions"] != {"wait": ["wait"]}
    idle = game.world.auxiliary["contempt_of_court"]["agent_0"]["idle_turns"]
    *_, infos = step(env, "inspect inventory")
    assert not infos["agent_0"]["action_ok"]
    assert game.world.auxiliary["objection_skip_turn"]["agent_0"] is False
    assert "wait" in game.world.auxiliary["courts_idle_action"]["agent_0"]["verb"]
    assert game.world.auxiliary["contempt_of_court"]["agent_0"]["idle_turns"] == idle + 1
    assert len(infos["agent_0"]["valid_actions"]) > 1  # free again


def test_law_pool_is_read_from_the_users_copy(env) -> None:
    nightly = next(r for r in env.game.step_rules if r.name == "nightly_law_rewrite_step")
    pool = nightly.settings["law_pool"]
    assert len(pool) == 16 and all(isinstance(t, str) and t.strip() for t in pool)
    assert pool != type(nightly).settings["law_pool"]  # not our own texts


def test_hand_written_worlds_get_our_law_pool(tmp_path) -> None:
    from harness import TINY, make_game

    from agentodyssey_pz.resources import rules_dir

    game = make_game(TINY, 1, rule_packs=(rules_dir() / "courts",))
    nightly = next(r for r in game.step_rules if r.name == "nightly_law_rewrite_step")
    assert nightly.settings["law_pool"] == type(nightly).settings["law_pool"]
    assert len(nightly.settings["law_pool"]) == 16


def test_the_pack_replaces_wait_and_defend_silently(published, caplog) -> None:
    import logging

    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.rules"):
        env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=1)
        env.reset(seed=0)
    assert "replaces the earlier" not in caplog.text
    rules = env.game.engine.rules
    assert type(rules["wait"]).replaces == "wait" and type(rules["defend"]).replaces == "defend"
