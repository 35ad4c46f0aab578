"""The env's API in detail: settings and their errors, presets, metadata, spaces, action inputs,
episode ends, rewards and infos, `state()`, text observations and pickling."""

from __future__ import annotations

import inspect
import math
import pickle

import numpy as np
import pytest
from adapter.quest_world import FINISHING_COMMAND
from adapter.rollouts import (
    first_difference,
    random_actions,
    record_reset,
    record_step,
    restore,
    snapshot,
)
from gymnasium import spaces
from worlds_helper import bundled_worlds

import agentodyssey_pz
from agentodyssey_pz.adapter.config import PRESETS, RL_TOTAL_WEIGHTS
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.rules.parse import Command
from agentodyssey_pz.rules.rewards import COMPONENTS

WORLDS = bundled_worlds()
WORLD = "thornvale" if "thornvale" in WORLDS else WORLDS[0]  # no tutorial: rewards come early
TOTALS = ("total", "xp_total", "rl_total", "score_total")


def index_of(env, label: str) -> int:
    return next(i for i in range(len(env.catalogue)) if env.action_name("agent_0", i) == label)


# ---------------------------------------------------------------------------- settings
def test_every_keyword_reaches_the_env() -> None:
    env = agentodyssey_pz.parallel_env(
        world=WORLD, num_agents=2, obs_mode="text", action_mode="text", max_cycles=7,
        tutorial=False, reward_weights={"craft": 2.0}, render_mode="ansi",
    )  # fmt: skip
    assert env.possible_agents == ["agent_0", "agent_1"]
    assert isinstance(env.action_space("agent_0"), spaces.Text)
    assert (env.config.max_cycles, env.config.tutorial, env.render_mode) == (7, False, "ansi")
    assert env.config.weights == {c: (2.0 if c == "craft" else 0.0) for c in COMPONENTS}
    observations, _ = env.reset(seed=0)
    assert "text" in observations["agent_0"]
    assert isinstance(env.render(), str)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("num_agents", 0), ("num_agents", -2), ("num_agents", 2.0), ("num_agents", "3"),
        ("num_agents", True), ("num_agents", 10**9),
        ("obs_mode", "image"), ("obs_mode", None),
        ("action_mode", "continuous"), ("action_mode", "Discrete"),
        ("max_cycles", 0), ("max_cycles", 10.0), ("max_cycles", None),
        ("tutorial", "yes"), ("tutorial", 1),
        ("reward_weights", {"gold": 1.0}), ("reward_weights", {"craft": "x"}),
        ("reward_weights", {"craft": True}), ("reward_weights", [1.0] * 8),
        ("render_mode", "rgb_array"),
        ("world_expansion", "no"), ("vector_reward", 1), ("valid_actions_in_info", "yes"),
        ("checkpoint_dir", 0), ("checkpoint_dir", ""), ("render_map", ["map.svg"]),
        ("save_dep_graph_steps", 0), ("save_dep_graph_steps", 2.5), ("dep_graph_dir", 3),
        ("render_map", "map.svg"),  # without a render_mode nothing would ever write it
    ],
)  # fmt: skip
def test_an_invalid_value_raises_config_error_naming_the_field(setting: str, value: object) -> None:
    with pytest.raises(ConfigError, match=rf"^{setting}\b"):
        agentodyssey_pz.parallel_env(world=WORLD, **{setting: value})


@pytest.mark.parametrize(
    ("setting", "value"),
    [("start_hp", 0), ("start_attack", -100), ("hp_per_level", -1000), ("attack_per_level", -1)],
)
def test_an_invalid_game_setting_raises_config_error_naming_it(setting: str, value: int) -> None:
    with pytest.raises(ConfigError, match=rf"^GameConfig\.{setting}\b"):
        agentodyssey_pz.parallel_env(world=WORLD, **{setting: value})


def test_an_unknown_keyword_is_named() -> None:
    with pytest.raises(ConfigError, match="num_agent"):
        agentodyssey_pz.parallel_env(world=WORLD, num_agent=2)


@pytest.mark.parametrize(
    "world", ["no_such_world", 123, "procgen:nope", "procgen:small:x", "procgen:small:1:2"]
)
def test_an_invalid_world_raises_config_error_naming_the_field(world: object) -> None:
    with pytest.raises(ConfigError, match="world"):
        agentodyssey_pz.parallel_env(world=world)


@pytest.mark.parametrize("weight", [math.nan, math.inf])
def test_a_non_finite_reward_weight_is_refused(weight: float) -> None:
    with pytest.raises(ConfigError, match="reward_weights"):
        agentodyssey_pz.parallel_env(world=WORLD, reward_weights={"exploration": weight})


@pytest.mark.parametrize("length", [1, 2])
def test_a_tiny_text_max_length_still_gives_observations_in_the_space(length: int) -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, obs_mode="text", text_max_length=length)
    observations, _ = env.reset(seed=0)
    assert env.observation_space("agent_0").contains(observations["agent_0"])


# ---------------------------------------------------------------------------- presets
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_preset_builds_its_world_and_team(preset: str) -> None:
    env = agentodyssey_pz.parallel_env(preset)
    expected = PRESETS[preset]
    assert env.config.world == expected["world"]
    assert len(env.possible_agents) == expected["num_agents"]
    assert env.config.max_cycles == expected["max_cycles"]
    assert env.action_space(env.possible_agents[-1]).n == len(env.catalogue)


def test_the_small_preset_steps() -> None:
    env = agentodyssey_pz.parallel_env("small")
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=0)
    for _ in range(5):
        observations, rewards, _, _, infos = env.step(random_actions(env, observations, rng))
        assert set(rewards) == set(env.possible_agents)
        for agent, obs in observations.items():
            assert env.observation_space(agent).contains(obs)
            assert infos[agent]["action_ok"]  # masked actions, nobody in the way


def test_keywords_override_a_preset_and_unknown_presets_are_refused() -> None:
    env = agentodyssey_pz.parallel_env("small", num_agents=2, max_cycles=9)
    assert (len(env.possible_agents), env.config.max_cycles) == (2, 9)
    with pytest.raises(ConfigError, match="preset"):
        agentodyssey_pz.parallel_env("tiny")


# ---------------------------------------------------------------------------- metadata and spaces
def test_metadata() -> None:
    metadata = agentodyssey_pz.parallel_env(world=WORLD).metadata
    assert metadata["name"] == "agentodyssey_v0"
    assert set(metadata["render_modes"]) == {"ansi", "human"}
    assert metadata["is_parallelizable"] is True
    assert agentodyssey_pz.env(world=WORLD).metadata["name"] == "agentodyssey_v0"


@pytest.mark.parametrize(("obs_mode", "action_mode"), [("vector", "discrete"), ("text", "text")])
def test_each_agent_keeps_its_own_space_objects_for_life(obs_mode: str, action_mode: str) -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, obs_mode=obs_mode, action_mode=action_mode)
    agents = env.possible_agents
    first_obs = {a: env.observation_space(a) for a in agents}
    first_act = {a: env.action_space(a) for a in agents}
    observations, _ = env.reset(seed=0)
    env.step(random_actions(env, observations, np.random.default_rng(0)))
    for agent in agents:
        assert env.observation_space(agent) is first_obs[agent]
        assert env.action_space(agent) is first_act[agent]
    a, b = agents[0], agents[1]
    assert env.observation_space(a) is not env.observation_space(b)
    assert env.observation_space(a)["observation"] is not env.observation_space(b)["observation"]
    assert env.action_space(a) is not env.action_space(b)
    assert env.observation_space(a) == env.observation_space(b)  # equal, not shared


def test_seeding_one_agents_space_leaves_the_others_alone() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD)
    env.action_space("agent_1").seed(5)
    expected = [env.action_space("agent_1").sample() for _ in range(5)]
    env.action_space("agent_1").seed(5)
    env.action_space("agent_0").seed(99)
    assert [env.action_space("agent_1").sample() for _ in range(5)] == expected


def test_reset_takes_seed_and_options_keywords_defaulting_to_none() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD)
    parameters = inspect.signature(env.reset).parameters
    assert list(parameters) == ["seed", "options"]
    assert parameters["seed"].default is None and parameters["options"].default is None
    observations, infos = env.reset(seed=1, options={"anything": 1})  # others' keys pass
    assert set(observations) == set(infos) == set(env.possible_agents) == set(env.agents)
    with pytest.warns(UserWarning, match="ignoring 'resum'; did you mean 'resume'"):
        env.reset(seed=1, options={"resum": "runs/episode-00001"})


def test_reset_refuses_negative_seeds_and_a_resume_that_is_not_a_path() -> None:
    """As gymnasium's seeding does; the engine and `procgen:<preset>:<seed>` agree."""
    env = agentodyssey_pz.parallel_env(world=WORLD)
    with pytest.raises(ValueError, match="a non-negative integer, got -1"):
        env.reset(seed=-1)
    with pytest.raises(TypeError, match="a checkpoint folder or snapshot file path, got 5"):
        env.reset(options={"resume": 5})
    with pytest.raises(ValueError, match="non-negative integer, got -2"):
        env.game.reset(-2)
    with pytest.raises(ConfigError, match="must be a non-negative whole number"):
        agentodyssey_pz.parallel_env(world="procgen:small:-3")
    env.reset(seed=0)  # nothing was changed by the refusals


# ---------------------------------------------------------------------------- actions
def wait_variants(env) -> list[object]:
    index = index_of(env, "wait")
    return [
        index, np.int64(index), np.int32(index), np.uint8(index), np.array(index), "wait",
        Command("wait", ()),
    ]  # fmt: skip


@pytest.mark.parametrize("action_mode", ["discrete", "text"])
def test_step_takes_ints_numpy_ints_strings_and_commands_for_any_agent(action_mode: str) -> None:
    variants = wait_variants(agentodyssey_pz.parallel_env(world=WORLD))
    env = agentodyssey_pz.parallel_env(
        world=WORLD, num_agents=len(variants), action_mode=action_mode
    )
    env.reset(seed=0)
    for shift in range(len(variants)):  # every agent gets every kind of action once
        actions = {a: variants[(i + shift) % len(variants)] for i, a in enumerate(env.agents)}
        infos = env.step(actions)[4]
        for agent, action in actions.items():
            assert infos[agent]["action_ok"], (agent, type(action).__name__)
            assert not infos[agent]["invalid_action"], (agent, type(action).__name__)


def test_a_discrete_index_and_its_text_mean_the_same_move() -> None:
    by_index = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False)
    by_text = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False, action_mode="text")
    observations, _ = by_index.reset(seed=4)
    by_text.reset(seed=4)
    mask = observations["agent_0"]["action_mask"]
    enter = next(
        i for i in np.flatnonzero(mask) if by_index.action_name("agent_0", i).startswith("enter ")
    )
    a = by_index.step({"agent_0": int(enter)})[0]
    b = by_text.step({"agent_0": by_index.action_name("agent_0", enter)})[0]
    np.testing.assert_array_equal(a["agent_0"]["observation"], b["agent_0"]["observation"])


@pytest.mark.parametrize("action_mode", ["discrete", "text"])
def test_out_of_range_ints_are_invalid_actions(action_mode: str) -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=5, action_mode=action_mode)
    n = len(env.catalogue)
    env.reset(seed=0)
    actions = dict(zip(env.agents, [-1, n, np.int64(n + 3), 10**12, True], strict=True))
    infos = env.step(actions)[4]
    for agent, action in actions.items():
        assert infos[agent]["invalid_action"], (agent, action)
        assert not infos[agent]["action_ok"], (agent, action)


def test_an_agent_left_out_of_the_actions_is_an_invalid_action_saying_so() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, num_agents=2, obs_mode="text")
    env.reset(seed=0)
    observations, _, _, _, infos = env.step({"agent_0": "wait"})
    assert infos["agent_1"]["invalid_action"] and not infos["agent_1"]["action_ok"]
    assert "Invalid action: no command was given. Known actions:" in observations["agent_1"]["text"]
    assert infos["agent_0"]["action_ok"]


def test_action_name_labels_every_index() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD)
    labels = [env.action_name("agent_0", i) for i in range(env.action_space("agent_0").n)]
    assert all(isinstance(label, str) and label for label in labels)
    assert len(set(labels)) == len(labels)
    assert env.action_name("agent_2", np.int64(3)) == labels[3]
    assert "wait" in labels


# ---------------------------------------------------------------------------- episode ends
@pytest.mark.parametrize("max_cycles", [1, 5])
def test_truncation_exactly_at_max_cycles(max_cycles: int) -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, max_cycles=max_cycles)
    env.reset(seed=0)
    for step in range(1, max_cycles + 1):
        _, _, terminations, truncations, _ = env.step(dict.fromkeys(env.agents, "wait"))
        assert set(truncations) == set(env.possible_agents)
        assert not any(terminations.values())
        if step < max_cycles:
            assert not any(truncations.values()), step
            assert env.agents == env.possible_agents
        else:
            assert all(truncations.values())
            assert env.agents == []
    assert env.step({}) == ({}, {}, {}, {}, {})
    assert env.step(dict.fromkeys(env.possible_agents, "wait")) == ({}, {}, {}, {}, {})


def test_completing_the_main_quest_terminates_every_agent(quest_world: str) -> None:
    env = agentodyssey_pz.parallel_env(world=quest_world, num_agents=3, obs_mode="text")
    env.reset(seed=0)
    for _ in range(3):
        _, _, terminations, truncations, _ = env.step(dict.fromkeys(env.agents, "wait"))
        assert not any(terminations.values()) and not any(truncations.values())
    finish = index_of(env, FINISHING_COMMAND)
    actions = {"agent_0": "wait", "agent_1": finish, "agent_2": "wait"}
    observations, rewards, terminations, truncations, infos = env.step(actions)
    assert terminations == dict.fromkeys(env.possible_agents, True)
    assert truncations == dict.fromkeys(env.possible_agents, False)
    assert infos["agent_1"]["reward_breakdown"]["quest"] == 1
    assert rewards["agent_1"] > 0
    assert env.agents == []
    assert "main quest is complete" in observations["agent_0"]["text"]
    assert env.step({}) == ({}, {}, {}, {}, {})
    observations, _ = env.reset(seed=0)  # and a new episode starts cleanly
    assert env.agents == env.possible_agents


def test_termination_on_the_last_cycle_is_not_also_a_truncation(quest_world: str) -> None:
    env = agentodyssey_pz.parallel_env(world=quest_world, num_agents=2, max_cycles=1)
    env.reset(seed=0)
    _, _, terminations, truncations, _ = env.step({"agent_0": FINISHING_COMMAND})
    assert all(terminations.values()) and not any(truncations.values())


# ---------------------------------------------------------------------------- rewards and infos
def play(env, ticks: int, seed: int = 0):
    """(rewards, infos) of every step of a masked random walk."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    for _ in range(ticks):
        observations, rewards, _, _, infos = env.step(random_actions(env, observations, rng))
        yield rewards, infos


REWARD_TICKS = 300


@pytest.mark.parametrize("world", WORLDS)
def test_the_default_reward_is_the_specs_rl_total_at_every_tick(world: str) -> None:
    env = agentodyssey_pz.parallel_env(world=world, tutorial=False)
    nonzero = 0
    for rewards, infos in play(env, REWARD_TICKS):
        for agent, reward in rewards.items():
            breakdown = infos[agent]["reward_breakdown"]
            assert isinstance(reward, float)
            assert reward == breakdown["rl_total"]
            assert reward == sum(RL_TOTAL_WEIGHTS[c] * breakdown[c] for c in COMPONENTS)
            nonzero += reward != 0
    assert nonzero > 0  # the walk earned something, so the equality was tested on real values


def test_a_custom_weighting_applies_at_every_tick() -> None:
    weights = {"exploration": 1.5, "kill": -2.0, "craft": 0.25, "death": 3.0, "trade": 7.0}
    env = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False, reward_weights=weights)
    nonzero = 0
    for rewards, infos in play(env, REWARD_TICKS, seed=1):
        for agent, reward in rewards.items():
            breakdown = infos[agent]["reward_breakdown"]
            assert reward == pytest.approx(
                sum(weights.get(c, 0.0) * breakdown[c] for c in COMPONENTS)
            )
            nonzero += reward != 0
    assert nonzero > 0


def test_vector_reward_returns_the_eight_components() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False, vector_reward=True)
    nonzero = 0
    for rewards, infos in play(env, REWARD_TICKS):
        for agent, reward in rewards.items():
            assert isinstance(reward, np.ndarray) and reward.shape == (len(COMPONENTS),)
            expected = [infos[agent]["reward_breakdown"][c] for c in COMPONENTS]
            np.testing.assert_array_equal(reward, expected)
            nonzero += bool(reward.any())
    assert nonzero > 0


def check_info(info: dict) -> None:
    assert isinstance(info["action_ok"], bool) and isinstance(info["invalid_action"], bool)
    breakdown = info["reward_breakdown"]
    assert set(breakdown) == set(COMPONENTS) | set(TOTALS)
    # Small on purpose: vectorisers deep-copy every info every step.
    assert set(info) <= {"action_ok", "invalid_action", "tick", "reward_breakdown"}


def test_infos_carry_the_breakdown_from_reset_on() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False)
    _, infos = env.reset(seed=0)
    for agent in env.possible_agents:
        check_info(infos[agent])
        assert all(infos[agent]["reward_breakdown"][c] == 0 for c in COMPONENTS)
        assert "valid_actions" not in infos[agent]
    for _, infos in play(env, 50):
        for info in infos.values():
            check_info(info)


def test_valid_actions_in_info_lists_commands_that_are_taken() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False, valid_actions_in_info=True)
    rng = np.random.default_rng(3)
    observations, infos = env.reset(seed=3)
    tried = 0
    for state in range(8):
        listed = infos["agent_0"]["valid_actions"]
        assert isinstance(listed, dict) and listed
        commands = [c for group in listed.values() for c in group]
        assert all(isinstance(c, str) for c in commands)
        snap = snapshot(env)
        for command in commands:
            trial = restore(snap)
            actions = {a: "wait" for a in trial.agents} | {"agent_0": command}
            assert trial.step(actions)[4]["agent_0"]["action_ok"], (state, command)
            tried += 1
        for _ in range(5):
            observations, _, _, _, infos = env.step(random_actions(env, observations, rng))
    assert tried > 8 * 3


# ---------------------------------------------------------------------------- state, text
def test_state_is_every_agents_observation_vector_in_the_state_space() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False)
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=0)
    for step in range(20):
        state = env.state()
        assert state.shape == env.state_space.shape and state.dtype == env.state_space.dtype
        assert env.state_space.contains(state)
        expected = np.concatenate([observations[a]["observation"] for a in env.possible_agents])
        np.testing.assert_array_equal(state, expected, err_msg=f"step {step}")
        observations, *_ = env.step(random_actions(env, observations, rng))


def test_text_observations_sit_in_the_dict_and_in_the_text_space() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, obs_mode="text")
    space = env.observation_space("agent_0")
    assert isinstance(space, spaces.Dict) and isinstance(space["text"], spaces.Text)
    observations, _ = env.reset(seed=0)
    text = observations["agent_0"]["text"]
    assert "Current Location:" in text
    assert space["text"].contains(text)
    vector_env = agentodyssey_pz.parallel_env(world=WORLD)
    assert "text" not in vector_env.reset(seed=0)[0]["agent_0"]
    assert "text" not in vector_env.observation_space("agent_0").spaces


@pytest.mark.parametrize(
    ("action_mode", "keys"), [("discrete", {"text", "action_mask"}), ("text", {"text"})]
)
def test_text_only_observations_carry_the_text_and_the_mask_discrete_actions_need(
    action_mode: str, keys: set[str]
) -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, obs_mode="text_only", action_mode=action_mode)
    full = agentodyssey_pz.parallel_env(world=WORLD, obs_mode="text", action_mode=action_mode)
    assert set(env.observation_space("agent_0").spaces) == keys
    observations, _ = env.reset(seed=4)
    reference, _ = full.reset(seed=4)
    rng = np.random.default_rng(4)
    for step in range(40):
        for agent in env.possible_agents:
            assert set(observations[agent]) == keys
            assert observations[agent]["text"] == reference[agent]["text"], (step, agent)
            if "action_mask" in keys:
                np.testing.assert_array_equal(
                    observations[agent]["action_mask"], reference[agent]["action_mask"]
                )
        # Discrete indices work in every mode (resolved without a stored mask when there is none).
        actions = {
            a: int(rng.choice(np.flatnonzero(reference[a][mask_key(full)])))
            for a in env.possible_agents
        }
        observations, rewards, *_ = env.step(actions)
        reference, expected, *_ = full.step(actions)
        assert rewards == expected, step


def mask_key(env) -> str:
    return "action_mask" if env.config.action_mode == "discrete" else "catalogue_mask"


# ---------------------------------------------------------------------------- pickling
def test_the_env_pickles_and_works_after_reset() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, obs_mode="text")
    observations, _ = env.reset(seed=8)
    env.step(random_actions(env, observations, np.random.default_rng(0)))  # mid-episode
    clone = pickle.loads(pickle.dumps(env))
    assert clone.config == env.config
    assert clone.observation_space("agent_0") == env.observation_space("agent_0")
    mine, _ = env.reset(seed=8)
    theirs, _ = clone.reset(seed=8)
    for agent in env.possible_agents:
        np.testing.assert_array_equal(mine[agent]["observation"], theirs[agent]["observation"])
        assert mine[agent]["text"] == theirs[agent]["text"]
    a = env.step(dict.fromkeys(env.agents, "wait"))
    b = clone.step(dict.fromkeys(clone.agents, "wait"))
    assert a[1] == b[1] and a[4] == b[4]


def test_an_env_pickled_mid_episode_continues_exactly() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD, obs_mode="text", tutorial=False)
    rng = np.random.default_rng(5)
    observations, _ = env.reset(seed=5)
    for _ in range(40):
        observations, *_ = env.step(random_actions(env, observations, rng))
    clone = pickle.loads(pickle.dumps(env))
    assert clone.agents == env.agents and clone.num_cycles == env.num_cycles
    plan, original = [], []
    for _ in range(100):
        plan.append(random_actions(env, observations, rng))
        result = env.step(plan[-1])
        observations = result[0]
        original.append(record_step(result))
    assert first_difference(original, [record_step(clone.step(a)) for a in plan]) is None


def test_an_unpickled_env_draws_the_same_next_episode_as_the_original() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLD)
    env.reset(seed=12)
    clone = pickle.loads(pickle.dumps(env))
    mine = record_reset(*env.reset())
    theirs = record_reset(*clone.reset())
    assert clone.game.seed == env.game.seed
    assert first_difference([mine], [theirs]) is None


def test_the_aec_env_pickles_and_works_after_reset() -> None:
    aec = pickle.loads(pickle.dumps(agentodyssey_pz.env(world=WORLD)))
    aec.reset(seed=0)
    observation, *_ = aec.last()
    aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert aec.agent_selection == "agent_1"


def test_the_aec_env_takes_text_in_discrete_mode_and_still_asserts_on_bad_indices() -> None:
    """The env takes ints or text in any mode; PettingZoo's out-of-bounds check (a standard AEC
    wrapper) lets text through and still stops an index outside the space."""
    aec = agentodyssey_pz.env(world=WORLD, num_agents=2)
    aec.reset(seed=0)
    aec.step("wait")
    aec.step(0)
    assert aec.infos["agent_0"]["action_ok"]
    with pytest.raises(AssertionError, match="not in action space"):
        aec.step(aec.action_space(aec.agent_selection).n)


@pytest.mark.parametrize("vector_reward", [False, True])
def test_aec_rewards_keep_the_envs_shape_from_reset_on(vector_reward: bool) -> None:
    """PettingZoo's conversion writes a plain 0 at reset and when a cycle starts; with
    vector_reward every reward the AEC env shows is the eight-component vector."""
    aec = agentodyssey_pz.env(world=WORLD, num_agents=2, vector_reward=vector_reward)
    aec.reset(seed=0)
    parallel = agentodyssey_pz.parallel_env(world=WORLD, num_agents=2, vector_reward=vector_reward)
    parallel.reset(seed=0)
    expected = parallel.step({"agent_0": 0, "agent_1": 0})[1]["agent_0"]
    for _ in aec.agent_iter(8):
        shown = [aec.last()[1], *aec.rewards.values()]
        for reward in shown:
            assert type(reward) is type(expected)
            assert np.shape(reward) == ((len(COMPONENTS),) if vector_reward else ())
        aec.step(0)


def test_the_aec_env_resumes_an_ended_episode_with_no_agents(tmp_path) -> None:
    """PettingZoo's conversion divided by the number of agents (none) and crashed."""
    env = agentodyssey_pz.parallel_env(world=WORLD, max_cycles=3, checkpoint_dir=str(tmp_path))
    env.reset(seed=1)
    while env.agents:
        env.step(dict.fromkeys(env.agents, "wait"))
    aec = agentodyssey_pz.env(world=WORLD, max_cycles=3)
    aec.reset(options={"resume": env.checkpoint_folder})
    assert aec.agents == [] and list(aec.agent_iter()) == []


def test_the_breakdown_in_infos_is_read_only_and_copies_for_free() -> None:
    import copy
    import json

    env = agentodyssey_pz.parallel_env(world=WORLD, tutorial=False)
    _, infos = env.reset(seed=0)
    breakdown = infos["agent_0"]["reward_breakdown"]
    assert isinstance(breakdown, dict) and breakdown == dict(breakdown)
    with pytest.raises(TypeError):
        breakdown["quest"] = 5
    with pytest.raises(TypeError):
        breakdown.update(quest=5)
    assert copy.deepcopy(infos)["agent_0"]["reward_breakdown"] is breakdown  # immutable: shared
    assert pickle.loads(pickle.dumps(breakdown)) == breakdown
    assert json.loads(json.dumps(infos["agent_0"]))["reward_breakdown"] == dict(breakdown)


def test_human_mode_renders_after_each_reset_and_step(capsys) -> None:
    """Gymnasium's convention for "human": the env renders by itself, no render() call needed."""
    env = agentodyssey_pz.parallel_env(num_agents=2, tutorial=False, render_mode="human")
    env.reset(seed=0)
    assert "=== tick 0" in capsys.readouterr().out
    env.step({"agent_0": "wait", "agent_1": "wait"})
    assert "=== tick 1" in capsys.readouterr().out


def test_numpy_integers_are_accepted_as_settings_and_seeds() -> None:
    """Sweep tools pass numpy integers; floats stay refused."""
    env = agentodyssey_pz.parallel_env(num_agents=np.int64(2), max_cycles=np.int32(4))
    assert (env.config.num_agents, env.config.max_cycles) == (2, 4)
    assert type(env.config.num_agents) is int
    env.reset(seed=np.int64(5))
    with pytest.raises(ConfigError, match=r"num_agents: expected a positive integer, got 2\.0"):
        agentodyssey_pz.parallel_env(num_agents=2.0)
    with pytest.raises(TypeError, match=r"reset\(seed=...\): an integer or None, got 1.5"):
        env.reset(seed=1.5)


def test_calls_before_reset_and_malformed_calls_are_refused_clearly() -> None:
    env = agentodyssey_pz.parallel_env(num_agents=2, tutorial=False, render_mode="ansi")
    for call, what in (
        (lambda: env.step({"agent_0": 0}), "step"),
        (env.state, "state"),
        (env.render, "render"),
        (lambda: env.action_command("agent_0", 0), "action_command"),
    ):
        with pytest.raises(RuntimeError, match=rf"call reset\(\) before {what}\(\)"):
            call()
    env.reset(seed=0)
    for bad in (None, [0, 0], "wait"):
        with pytest.raises(TypeError, match=r"step\(\) takes a dict \{agent: action\}"):
            env.step(bad)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match=r"unknown agents \['bob'\]"):
        env.step({"agent_0": 0, "bob": 0})
    with pytest.raises(TypeError, match=r"reset\(options=...\): a dict or None"):
        env.reset(options="resume")  # type: ignore[arg-type]
    n = len(env.catalogue)
    for index in (-1, n, 10**30, True):
        with pytest.raises(IndexError, match=rf"outside 0..{n - 1}"):
            env.action_name("agent_0", index)
    with pytest.raises(KeyError, match="unknown agent 'nobody'"):
        env.action_name("nobody", 0)
    assert env.game.tick_index == 0  # nothing above played a tick


def test_an_index_outside_the_catalogue_says_so_and_action_command_names_instances() -> None:
    env = agentodyssey_pz.parallel_env(num_agents=2, tutorial=False, obs_mode="text")
    observations, _ = env.reset(seed=3)
    n = len(env.catalogue)
    observations, _, _, _, infos = env.step({"agent_0": -1, "agent_1": 10**30})
    assert infos["agent_0"]["invalid_action"] and not infos["agent_0"]["action_ok"]
    assert (
        f"Invalid action: action index -1 is outside 0..{n - 1}." in observations["agent_0"]["text"]
    )
    assert f"action index {10**30} is outside" in observations["agent_1"]["text"]
    commands = {
        env.action_name("agent_0", int(i)): env.action_command("agent_0", int(i))
        for i in np.flatnonzero(observations["agent_0"]["action_mask"])
    }
    instanced = {label: cmd for label, cmd in commands.items() if label != cmd}
    assert instanced, commands  # e.g. "pick up flour_sack" runs "pick up flour_sack_0"
    for label, command in instanced.items():
        assert command.split()[:-1] == label.split()[:-1] or "<" in label, (label, command)


def test_reward_weights_that_zero_every_component_are_warned_about() -> None:
    with pytest.warns(UserWarning, match="every component weighs 0, so the reward is always 0"):
        agentodyssey_pz.parallel_env(reward_weights={})


def test_reward_weights_with_a_vector_reward_are_warned_about_and_the_order_is_named() -> None:
    order = "exploration, craft, kill, unique_kill, trade, quest, side_quest, death"
    with pytest.warns(UserWarning, match=f"do not apply with vector_reward=True.*: {order}$"):
        env = agentodyssey_pz.parallel_env(vector_reward=True, reward_weights={"kill": 2.0})
    assert ", ".join(COMPONENTS) == order
    env.reset(seed=0)
    _, rewards, *_ = env.step({a: "wait" for a in env.agents})
    assert rewards["agent_0"].shape == (len(COMPONENTS),)


def test_a_crowded_area_shortens_its_people_list_not_the_stats_and_neighbours() -> None:
    """Hundreds of agents in one area make the longest line: it gives way first, so what a
    language agent needs most (stats, neighbours) stays in an observation cut to fit."""
    env = agentodyssey_pz.parallel_env(
        num_agents=300, tutorial=False, obs_mode="text_only", action_mode="text",
        text_max_length=1200,
    )  # fmt: skip
    observations, _ = env.reset(seed=0)
    text = observations["agent_0"]["text"]
    assert len(text) == 1200 and env.observation_space("agent_0").contains(observations["agent_0"])
    people = next(line for line in text.split("\n") if line.startswith("Here with me: "))
    assert people.endswith("...") and "agent_1, " in people
    for kept in ("My health is 100 of 100.", "Neighboring areas: ", "I am holding: nothing."):
        assert kept in text


def test_a_preset_name_given_as_a_world_points_to_the_preset() -> None:
    with pytest.raises(ConfigError, match="the procedural world of that name is 'procgen:small'"):
        agentodyssey_pz.parallel_env(world="small")
