"""The vector's visited-areas segment: one flag per area the agent has been to, from a cache that
must follow the agent's record even when the record is swapped for another of the same size."""

from __future__ import annotations

import pickle

import numpy as np

import agentodyssey_pz


def visited_segment(env, vector: np.ndarray) -> set[str]:  # type: ignore[no-untyped-def]
    start, areas = env.layout.at["visited"], env.layout.areas
    flags = vector[start : start + areas.size]
    return {area_id for area_id, i in env.layout.area_index.items() if flags[i] == 1.0}


def test_the_segment_flags_exactly_the_areas_visited_as_they_grow() -> None:
    env = agentodyssey_pz.parallel_env(num_agents=1, tutorial=False)
    obs, _ = env.reset(seed=3)
    agent = env.game.agents["agent_0"]
    rng = np.random.default_rng(3)
    sizes = set()
    for _ in range(200):
        action = int(rng.choice(np.flatnonzero(obs["agent_0"]["action_mask"])))
        obs, *_ = env.step({"agent_0": action})
        assert visited_segment(env, obs["agent_0"]["observation"]) == set(agent.visited)
        sizes.add(len(agent.visited))
    assert len(sizes) > 2  # it did move around


def test_a_swapped_record_of_the_same_size_is_not_mistaken_for_the_old_one() -> None:
    env = agentodyssey_pz.parallel_env(num_agents=1, tutorial=False)
    env.reset(seed=0)
    game, agent = env.game, env.game.agents["agent_0"]
    before = set(agent.visited)
    assert visited_segment(env, env.encoder.encode(game, agent)) == before
    others = [a for a in env.layout.area_index if a not in before][: len(before)]
    agent.visited = dict.fromkeys(others)  # as a restored or imported agent's record
    assert visited_segment(env, env.encoder.encode(game, agent)) == set(others)


def test_the_encoder_pickles_and_its_copy_encodes_the_same() -> None:
    env = agentodyssey_pz.parallel_env(num_agents=1, tutorial=False)
    env.reset(seed=0)
    game, agent = env.game, env.game.agents["agent_0"]
    first = env.encoder.encode(game, agent)  # fills the cache, which does not pickle as it is
    copy = pickle.loads(pickle.dumps(env.encoder))
    np.testing.assert_array_equal(copy.encode(game, agent), first)
