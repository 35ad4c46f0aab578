"""Spare slots for an expanding world: what world expansion adds (areas, places, object kinds, NPC
prototypes) takes spare observation slots and spare catalogue entries, in the order it was added,
so agents with discrete actions can walk into the new lands, pick up the new things and fight the
new enemies, and the vector shows them."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import agentodyssey_pz
from agentodyssey_pz.adapter.config import DEFAULT_EXPANSION_SLOTS
from agentodyssey_pz.errors import ConfigError

AGENTS = 2


def expanding_env(**settings):
    settings.setdefault("num_agents", AGENTS)
    return agentodyssey_pz.parallel_env(world_expansion=True, tutorial=False, **settings)


def expand(env) -> dict:
    """Mark every area visited and step once: the expansion rule grows the world that tick."""
    game = env.game
    for agent in game.agents.values():
        for area_id in game.world.areas:
            agent.visited[area_id] = None
    observations, *_ = env.step(dict.fromkeys(env.agents, "wait"))
    assert game.world.added_areas, "the world did not expand"
    return observations


def bridge(world) -> tuple[str, str]:
    """(old area, new area) joined by the path expansion laid."""
    for new in world.added_areas:
        for neighbor in world.graph.neighbors(new):
            if neighbor not in world.added_areas:
                return neighbor, new
    raise AssertionError("no bridge into the new lands")


def index_of(env, verb: str, target: str) -> int:
    return env.catalogue.index[(verb, target)]


def test_spare_slots_follow_the_expansion_switch() -> None:
    plain = agentodyssey_pz.parallel_env(num_agents=AGENTS)
    assert plain.layout.spare == 0 and not plain.catalogue.unbound
    growing = expanding_env()
    assert growing.layout.spare == DEFAULT_EXPANSION_SLOTS
    assert growing.layout.areas.size == plain.layout.areas.size + DEFAULT_EXPANSION_SLOTS
    assert len(growing.catalogue) > len(plain.catalogue)
    # The definition's entries keep their indices and labels: spare entries follow each verb's own.
    plain_labels = [e.label for e in plain.catalogue.entries]
    growing_defined = [e.label for e in growing.catalogue.entries if "<spare" not in e.label]
    assert growing_defined == plain_labels
    assert agentodyssey_pz.parallel_env(num_agents=AGENTS, expansion_slots=5).layout.spare == 5
    assert expanding_env(expansion_slots=0).layout.spare == 0


@pytest.mark.parametrize("value", [-1, 1.5, "8", True, 10**9])  # 10**9: not a memory blow-up
def test_bad_expansion_slots_name_the_field(value) -> None:
    with pytest.raises(ConfigError, match="expansion_slots"):
        agentodyssey_pz.parallel_env(expansion_slots=value)


def test_additions_take_spare_slots_in_the_order_they_were_added() -> None:
    env = expanding_env()
    env.reset(seed=3)
    expand(env)
    world = env.game.world
    areas, objects, protos = world.additions()
    assert areas and objects and protos
    layout, catalogue = env.layout, env.catalogue
    assert [layout.area_index[a] for a in areas] == list(
        range(layout.areas.fixed, layout.areas.fixed + len(areas))
    )
    assert [layout.object_index[o] for o in objects] == list(
        range(layout.objects.fixed, layout.objects.fixed + len(objects))
    )
    assert [layout.proto_index[p] for p in protos] == list(
        range(layout.protos.fixed, layout.protos.fixed + len(protos))
    )
    for area_id in areas:
        assert catalogue.entries[index_of(env, "enter", area_id)].label == (
            f"enter {world.areas[area_id].name}"
        )
    for oid in objects:
        name = world.objects[oid].name
        assert catalogue.entries[index_of(env, "pick_up", oid)].label == f"pick up {name}"
        assert catalogue.entries[index_of(env, "inspect", oid)].label == f"inspect {name}"
        # Verbs that do not apply to the kind keep their spare entry unbound.
        assert (("craft", oid) in catalogue.index) == world.objects[oid].is_craftable
    for proto in protos:
        assert ("attack", proto) in catalogue.index and ("talk_to", proto) in catalogue.index
    # Spare object slot k is the same kind for every object verb.
    k = layout.object_index[objects[0]] - layout.objects.fixed
    for verb in ("pick_up", "drop", "inspect", "discard"):
        waiting = [i for i in catalogue.spare["objects"][k] if catalogue.entries[i].verb == verb]
        assert [catalogue.entries[i].target for i in waiting] == [objects[0]]


def test_an_agent_walks_into_the_new_lands_with_a_discrete_action() -> None:
    env = expanding_env()
    env.reset(seed=5)
    expand(env)
    game = env.game
    old, new = bridge(game.world)
    actor = game.agents["agent_0"]
    game.move_agent(actor, old)
    observations, *_ = env.step(dict.fromkeys(env.agents, "wait"))
    enter = index_of(env, "enter", new)
    assert observations["agent_0"]["action_mask"][enter] == 1
    at = env.layout.at
    neighbors = observations["agent_0"]["observation"][at["neighbors"] : at["locked"]]
    assert neighbors[env.layout.area_index[new]] == 1.0
    observations, _, _, _, infos = env.step({"agent_0": enter, "agent_1": "wait"})
    assert infos["agent_0"]["action_ok"] is True
    assert actor.area_id == new
    vector = observations["agent_0"]["observation"]
    area_slots = vector[at["area"] : at["place"]]
    assert np.flatnonzero(area_slots).tolist() == [env.layout.area_index[new]]
    place_slots = vector[at["place"] : at["neighbors"]]
    assert np.flatnonzero(place_slots).tolist() == [
        env.layout.place_index[game.world.areas[new].place_id]
    ]
    # Whatever lies on the new ground shows in the spare object slots and can be picked up.
    ground = game.world.areas[new].objects
    added = set(game.world.additions()[1])
    for oid in ground:
        def_id = game.world.def_of(oid).id
        if def_id in added:
            assert vector[at["ground"] + env.layout.object_index[def_id]] > 0


def test_masks_stay_exact_after_expansion() -> None:
    """With the others waiting, every unmasked index is taken and every masked one refused, in
    the grown world too (each try on a pickled copy of the env)."""
    env = expanding_env()
    env.reset(seed=7)
    expand(env)
    game = env.game
    _, new = bridge(game.world)
    game.move_agent(game.agents["agent_0"], new)
    observations, *_ = env.step(dict.fromkeys(env.agents, "wait"))
    mask = observations["agent_0"]["action_mask"]
    saved = pickle.dumps(env)
    rng = np.random.default_rng(0)
    unmasked = np.flatnonzero(mask).tolist()
    masked = rng.choice(np.flatnonzero(mask == 0), size=40, replace=False).tolist()
    spare_masked = sorted(env.catalogue.unbound)[:5]
    spare = {i for table in env.catalogue.spare.values() for waiting in table for i in waiting}
    assert {env.catalogue.entries[i].verb for i in unmasked if i in spare} >= {
        "enter", "pick_up", "inspect", "attack", "talk_to"
    }  # fmt: skip
    for index in unmasked + masked + spare_masked:
        copy = pickle.loads(saved)
        _, _, _, _, infos = copy.step({"agent_0": int(index), "agent_1": "wait"})
        label = copy.action_name("agent_0", index)
        assert infos["agent_0"]["action_ok"] is bool(mask[index]), label


def test_unbound_entries_are_masked_and_refused() -> None:
    env = expanding_env()
    observations, _ = env.reset(seed=0)
    unbound = sorted(env.catalogue.unbound)
    assert unbound
    assert not observations["agent_0"]["action_mask"][unbound].any()
    assert "<spare" in env.action_name("agent_0", unbound[0])
    _, _, _, _, infos = env.step({"agent_0": unbound[0], "agent_1": "wait"})
    assert infos["agent_0"]["action_ok"] is False
    assert infos["agent_0"]["invalid_action"] is True


def test_a_new_episode_unbinds_and_a_resumed_one_binds_the_same_way(tmp_path) -> None:
    env = expanding_env()
    env.reset(seed=11)
    expand(env)
    bound = {i: e.label for i, e in enumerate(env.catalogue.entries)}
    slots = dict(env.layout.area_index)
    restored = pickle.loads(pickle.dumps(env))  # rebuilt from the config and a JSON snapshot
    assert {i: e.label for i, e in enumerate(restored.catalogue.entries)} == bound
    assert restored.layout.area_index == slots
    env.game.save(tmp_path / "grown.json")
    fresh = expanding_env()
    fresh.reset(options={"resume": tmp_path / "grown.json"})
    assert {i: e.label for i, e in enumerate(fresh.catalogue.entries)} == bound
    env.reset(seed=12)
    assert not env.game.world.added_areas
    assert all("<spare" in env.catalogue.entries[i].label for i in env.catalogue.unbound)
    assert len(env.catalogue.unbound) == sum(
        len(waiting) for table in env.catalogue.spare.values() for waiting in table
    )
    assert len(env.layout.area_index) == env.layout.areas.fixed


def test_additions_beyond_the_spare_slots_are_left_out() -> None:
    env = expanding_env(expansion_slots=1)
    observations, _ = env.reset(seed=2)
    with pytest.warns(UserWarning, match="more than the 1 spare slots per kind"):
        observations = expand(env)
    world = env.game.world
    areas, objects, _ = world.additions()
    assert len(areas) > 1 and len(objects) > 1
    assert [a for a in areas if a in env.layout.area_index] == areas[:1]
    assert ("enter", areas[1]) not in env.catalogue.index
    space = env.observation_space("agent_0")
    assert all(space.contains(obs) for obs in observations.values())


def test_observations_stay_in_their_space_while_the_world_grows() -> None:
    env = expanding_env()
    env.reset(seed=4)
    observations = expand(env)
    rng = np.random.default_rng(4)
    for _ in range(200):
        space = env.observation_space("agent_0")
        assert all(space.contains(obs) for obs in observations.values())
        actions = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents
        }
        observations, *_ = env.step(actions)


def test_pettingzoo_api_with_expansion_on() -> None:
    parallel_api_test(expanding_env(), num_cycles=200)


class CountingGenerator:
    """A stand-in for a language-model generator: the offline one, counting its calls."""

    def __init__(self) -> None:
        from agentodyssey_pz.world.expander import ProceduralExpander

        self.inner, self.calls = ProceduralExpander(), 0

    def __call__(self, world, seed):
        self.calls += 1
        return self.inner(world, seed)


def test_an_injected_generator_grows_a_world_whose_flag_is_on(tmp_path) -> None:
    """`expansion_generator=` is the injectable generator: a world whose `online_expansion`
    is on grows with it (and the env keeps spare slots for it); without one, it does not."""
    import json
    from pathlib import Path

    from harness import TINY

    raw = json.loads(Path(TINY).read_text(encoding="utf-8"))
    raw["features"] = {"online_expansion": True}
    path = tmp_path / "flagged.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    plain = agentodyssey_pz.parallel_env(world=str(path), num_agents=AGENTS, tutorial=False)
    plain.reset(seed=3)
    assert not plain.game.expansion_enabled() and not plain.catalogue.unbound
    generator = CountingGenerator()
    env = agentodyssey_pz.parallel_env(
        world=str(path), num_agents=AGENTS, tutorial=False, expansion_generator=generator
    )
    env.reset(seed=3)
    assert env.catalogue.unbound  # spare slots for what it will add
    expand(env)
    assert generator.calls == 1
    env.game.save(tmp_path / "grown.json")
    again = agentodyssey_pz.parallel_env(
        world=str(path), num_agents=AGENTS, tutorial=False, expansion_generator=generator
    )
    again.reset(options={"resume": tmp_path / "grown.json"})
    assert again.game.expansion_generator is generator


def test_a_generator_that_is_not_callable_names_the_field() -> None:
    with pytest.raises(ConfigError, match=r"^expansion_generator"):
        agentodyssey_pz.parallel_env(expansion_generator="gpt")


def test_a_generator_the_world_will_never_call_is_warned_about() -> None:
    """The bundled worlds keep online_expansion off: a generator alone would never be called."""
    with pytest.warns(UserWarning, match="expansion_generator will never be called"):
        agentodyssey_pz.parallel_env(expansion_generator=CountingGenerator())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        agentodyssey_pz.parallel_env(expansion_generator=CountingGenerator(), world_expansion=True)


@pytest.mark.parametrize("slots", [1, 0])
def test_running_out_of_spare_slots_is_warned_about_once(slots: int) -> None:
    """What expansion adds beyond the spare slots is out of discrete agents' reach: say so."""
    env = expanding_env(expansion_slots=slots)
    env.reset(seed=3)
    with pytest.warns(UserWarning, match=rf"more than the {slots} spare slots per kind"):
        expand(env)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.step(dict.fromkeys(env.agents, "wait"))  # once per world, not every step


def test_enough_spare_slots_warn_nothing() -> None:
    env = expanding_env()
    env.reset(seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expand(env)


def test_action_command_of_an_unbound_spare_entry_is_its_label() -> None:
    env = expanding_env()
    env.reset(seed=3)
    index = min(env.catalogue.unbound)
    assert env.action_command("agent_0", index) == env.action_name("agent_0", index)
    assert "<spare " in env.action_name("agent_0", index)
