"""Listings kept between ticks (`observe.listing_cache`) are exactly the listings made afresh.

The env reuses what reach-only verbs (`lists_from_reach`) listed while an agent's reach
(`world.agents.reach_key`) is unchanged. Masked random walks on every bundled world (its tutorial,
the open world, and with world expansion) compare at every tick the env's mask and valid-action
lists with ones built without the cache; `reach_key` must change with every part of the reach.
"""

from __future__ import annotations

import numpy as np
import pytest
from adapter.rollouts import random_actions
from harness import TINY as TINY_WORLD
from harness import clear_world, crate_in_reach, give, make_game, move_to, put_on_ground
from worlds_helper import bundled_worlds

import agentodyssey_pz
from agentodyssey_pz.observe import listing_cache
from agentodyssey_pz.observe.listing_cache import ListingCache, lists_from_reach
from agentodyssey_pz.observe.masks import action_mask, valid_actions, valid_params_by_verb
from agentodyssey_pz.world import agents as agents_module
from agentodyssey_pz.world.agents import reach_key

WALK_TICKS = 1000
SETTINGS = {
    "default-tutorial": {"tutorial": None},
    "no-tutorial": {"tutorial": False},
    "expansion": {"tutorial": False, "world_expansion": True},
}


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("world", bundled_worlds())
def test_cached_listings_equal_fresh_ones_at_every_tick(world: str, setting: str) -> None:
    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=3, valid_actions_in_info=True, max_cycles=10**6,
        **SETTINGS[setting],
    )  # fmt: skip
    rng = np.random.default_rng(7)
    observations, infos = env.reset(seed=7)
    game, catalogue = env.game, env.catalogue
    reused = checked = 0
    for tick in range(WALK_TICKS):
        if tick == WALK_TICKS // 2:  # a new episode: a new World, nothing carried over
            observations, infos = env.reset(seed=8)
        before = {a: env._listings._by_agent.get(a) for a in env.agents}
        observations, _, _, _, infos = env.step(random_actions(env, observations, rng))
        for agent in env.agents:
            fresh_mask = action_mask(game, agent, catalogue)
            assert np.array_equal(observations[agent]["action_mask"], fresh_mask), (tick, agent)
            assert infos[agent]["valid_actions"] == valid_actions(game, agent), (tick, agent)
            assert valid_params_by_verb(
                game, agent, all_amounts=False, cache=env._listings
            ) == valid_params_by_verb(game, agent, all_amounts=False), (tick, agent)
            reused += env._listings._by_agent.get(agent) is before[agent]
            checked += 1
    assert reused > checked // 5  # the cache is used at all (about half the time on a walk)


def test_handed_out_lists_are_copies() -> None:
    """Changing a valid-action list an info handed out does not change the next tick's."""
    env = agentodyssey_pz.parallel_env(num_agents=1, tutorial=False, valid_actions_in_info=True)
    _, infos = env.reset(seed=3)
    listed = infos["agent_0"]["valid_actions"]
    kept = {verb: list(commands) for verb, commands in listed.items()}
    for commands in listed.values():
        commands.clear()
    _, _, _, _, infos = env.step({"agent_0": "wait"})
    assert infos["agent_0"]["valid_actions"] == kept
    params = valid_params_by_verb(env.game, "agent_0", cache=env._listings)
    for params_list in params.values():
        params_list.clear()
    assert valid_params_by_verb(env.game, "agent_0", cache=env._listings) == (
        valid_params_by_verb(env.game, "agent_0")
    )


def test_reach_key_changes_with_every_part_of_the_reach() -> None:
    game = make_game()
    world, me = game.world, game.agents["agent_0"]
    cids = {where: crate_in_reach(game, where, {"obj_pear": 1}) for where in ("held", "ground")}
    inventory = crate_in_reach(game, "equipped", {"obj_pear": 1})
    changes = {
        "hands": lambda: give(game, "agent_0", "obj_pear"),
        "ground count": lambda: put_on_ground(game, me.area_id, "obj_coin", 1),
        "held crate": lambda: world.containers[cids["held"]].items.update(obj_key=1),
        "crate on the ground": lambda: world.containers[cids["ground"]].items.update(obj_key=1),
        "inventory": lambda: world.containers[inventory].items.update(obj_key=1),
        "equipped": lambda: me.equipped.update(obj_apron=1),
        "credit": lambda: me.craft_credit.update(obj_pear=0.5),
        "names": lambda: world.new_instance("obj_label"),
        "area": lambda: move_to(game, "agent_0", "area_vats"),
    }
    for what, change in changes.items():
        before = reach_key(world, me)
        assert reach_key(world, me) == before  # equal while nothing changes
        change()
        assert reach_key(world, me) != before, what


def test_the_promise_is_not_inherited() -> None:
    """A subclass of a reach-only verb may read more in its listings: it must say so itself."""
    craft = type(make_game().engine.rules["craft"])
    assert lists_from_reach(craft)
    assert not lists_from_reach(type("MyCraft", (craft,), {}))
    assert lists_from_reach(type("MyCraft", (craft,), {"lists_from_reach": True}))


def test_the_cache_starts_afresh_for_another_world() -> None:
    cache = ListingCache()
    one, two = make_game(seed=1), make_game(seed=2)
    rules = one.engine.rules
    first = cache.for_agent(one.world, rules, one.agents["agent_0"])
    assert cache.for_agent(one.world, rules, one.agents["agent_0"]) is first
    assert cache.for_agent(two.world, rules, two.agents["agent_0"]) is not first
    assert "craft" in cache.reach_verbs and "enter" not in cache.reach_verbs
    assert listing_cache.AgentListings(()).found == {}


def test_a_ground_full_of_containers_has_no_key() -> None:
    """Beyond REACH_KEY_MAX_GROUND_CONTAINERS containers here, no key (their contents would cost
    more than the listings save) and nothing is kept; the mask is still right."""
    game = make_game()
    clear_world(game)
    me = game.agents["agent_0"]
    for _ in range(agents_module.REACH_KEY_MAX_GROUND_CONTAINERS):
        crate_in_reach(game, "ground", {"obj_pear": 1})
    assert reach_key(game.world, me) is not None
    crate_in_reach(game, "ground", {"obj_pear": 1})
    assert reach_key(game.world, me) is None
    cache = ListingCache()
    assert cache.for_agent(game.world, game.engine.rules, me) is None
    catalogue = agentodyssey_pz.parallel_env(world=TINY_WORLD, num_agents=1).catalogue
    assert np.array_equal(
        action_mask(game, "agent_0", catalogue, cache=cache),
        action_mask(game, "agent_0", catalogue),
    )


def test_lookups_pause_when_reaches_keep_changing() -> None:
    """A window of lookups that rarely finds the reach unchanged pauses the keys for a while;
    a window that often does keeps them."""
    game = make_game()
    me, rules, world = game.agents["agent_0"], game.engine.rules, game.world
    cache = ListingCache()
    for i in range(listing_cache.PROBE_CALLS):  # the reach changes at every lookup
        put_on_ground(game, me.area_id, "obj_coin", 1)
        assert cache.for_agent(world, rules, me) is not None, i
    for _ in range(listing_cache.PAUSE_CALLS):  # the window closed: paused
        assert cache.for_agent(world, rules, me) is None
    kept = cache.for_agent(world, rules, me)
    assert kept is not None
    for _ in range(2 * listing_cache.PROBE_CALLS):  # an unchanged reach: never paused
        assert cache.for_agent(world, rules, me) is kept


def test_again_answers_what_the_last_lookup_handed_out_without_a_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`again` (the valid-action list right after the mask of the same state) hands out the
    agent's last answer, a paused None included, without building a key; for an agent not looked
    up yet, or in another world, it looks up as `for_agent` does."""
    one, two = make_game(agents=2, seed=1), make_game(seed=2)
    rules = one.engine.rules
    me, her = one.agents["agent_0"], one.agents["agent_1"]
    keys = []
    monkeypatch.setattr(listing_cache, "reach_key", lambda w, a: keys.append(a.id) or (a.id,))
    cache = ListingCache()
    first = cache.again(one.world, rules, me)  # never looked up: a lookup
    assert first is not None and keys == ["agent_0"]
    assert cache.again(one.world, rules, me) is first
    assert cache.for_agent(one.world, rules, her) is not first
    assert cache.again(one.world, rules, me) is first and keys == ["agent_0", "agent_1"]
    assert cache.again(two.world, rules, two.agents["agent_0"]) is not first  # another world
    assert keys[-1] == "agent_0" and len(keys) == 3
    cache._paused = 1
    assert cache.for_agent(two.world, rules, two.agents["agent_0"]) is None
    assert cache.again(two.world, rules, two.agents["agent_0"]) is None
    assert len(keys) == 3


def test_text_mode_lists_once_per_agent_and_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a mask and valid actions (text mode), the valid-action list reuses the mask's lookup:
    one reach key per agent and step."""
    env = agentodyssey_pz.parallel_env(
        world=TINY_WORLD, num_agents=2, obs_mode="text", valid_actions_in_info=True
    )
    env.reset(seed=3)
    keys = []
    monkeypatch.setattr(
        listing_cache, "reach_key", lambda w, a: keys.append(a.id) or reach_key(w, a)
    )
    for _ in range(5):
        env.step(dict.fromkeys(env.agents, "wait"))
    assert keys == ["agent_0", "agent_1"] * 5


def test_a_listing_phase_shares_work_only_while_it_lasts() -> None:
    """`listing_phase`: `RuleContext.shared` is a dict inside it (the env's observation and info
    building after a tick) and None outside, also after listing code raised."""
    cache = ListingCache()
    assert cache.shared is None
    with cache.listing_phase():
        assert cache.shared == {}
    assert cache.shared is None
    with pytest.raises(RuntimeError), cache.listing_phase():
        raise RuntimeError("a rule's listing raised")
    assert cache.shared is None


def test_agents_of_a_crowded_area_share_its_containers_and_list_as_alone() -> None:
    """Four agents by nine crates (beyond the key's limit, so nothing is kept between ticks): in
    one phase they share the ground's containers, contents and free space, and each lists exactly
    what it lists without the cache; a crate filled between phases shows in the next."""
    game = make_game(agents=4)
    clear_world(game)
    area = game.agents["agent_0"].area_id
    for agent_id in game.agent_ids:
        move_to(game, agent_id, area)
    crates = [
        crate_in_reach(game, "ground", {"obj_pear": i + 1})
        for i in range(agents_module.REACH_KEY_MAX_GROUND_CONTAINERS + 1)
    ]
    give(game, "agent_1", "obj_pear", 2)
    give(game, "agent_2", "obj_crate")  # a container in hand, listed before the ground's
    catalogue = agentodyssey_pz.parallel_env(world=TINY_WORLD, num_agents=1).catalogue

    def listings(cache: ListingCache | None) -> dict[str, object]:
        out = {}
        for agent_id in game.agent_ids:
            options: dict = {}
            mask = action_mask(game, agent_id, catalogue, options=options, cache=cache)
            out[agent_id] = (
                mask.tolist(),
                valid_actions(game, agent_id, mask_options=options, cache=cache),
                valid_params_by_verb(game, agent_id, cache=cache),
            )
        return out

    cache = ListingCache()
    with cache.listing_phase():
        together = listings(cache)
        shared_keys = {key[0] for key in cache.shared}
    assert together == listings(None)
    assert {"ground_containers", "contents_by_name", "free_space"} <= shared_keys
    assert any(c.startswith("store 1 pear") for c in together["agent_1"][1]["store"])
    game.world.containers[crates[0]].items["obj_pear"] = 40
    with cache.listing_phase():
        after = listings(cache)
    assert after != together
    assert after == listings(None)


def test_the_env_builds_observations_and_infos_in_one_listing_phase() -> None:
    """Reset and step list every agent's mask and valid actions inside one phase, then end it."""
    env = agentodyssey_pz.parallel_env(
        world=TINY_WORLD, num_agents=2, obs_mode="text", valid_actions_in_info=True
    )
    seen = []
    for verb in ("store", "enter"):
        rule = env.game.engine.rules[verb]
        for method in ("mask_targets", "valid_commands"):
            original = getattr(rule, method)

            def record(ctx, _original=original):  # type: ignore[no-untyped-def]
                seen.append(ctx.shared is not None)
                return _original(ctx)

            setattr(rule, method, record)
    env.reset(seed=1)
    env.step(dict.fromkeys(env.agents, "wait"))
    assert len(seen) >= 8 and all(seen)
    assert env._listings.shared is None


def test_a_plan_is_kept_per_cache_while_its_rule_set_stays_the_same() -> None:
    """`ListingCache.plan`: built once per rule set and companion object; another dict, a changed
    dict or another companion gets a new one."""
    cache, built = ListingCache(), []

    def build(rules: dict, other: object) -> object:
        built.append((rules, other))
        return object()

    rules: dict = {"wait": 1}
    first = cache.plan("mask", rules, None, build)
    assert cache.plan("mask", rules, None, build) is first and len(built) == 1
    assert cache.plan("listing", rules, None, build) is not first  # plans of another kind
    assert cache.plan("mask", dict(rules), None, build) is not first
    rules["enter"] = 2
    changed = cache.plan("mask", rules, None, build)
    assert cache.plan("mask", rules, "catalogue", build) is not changed
    assert len(built) == 5


def test_many_envs_in_one_process_keep_their_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each env keeps its own mask and listing plans: 70 envs in one process (more than a
    process-wide table of 64 would hold) build them once each, however many steps they take;
    and a rule method wrapped after the plan was made is the one the mask calls."""
    from agentodyssey_pz.observe import masks

    built: list[str] = []
    for name in ("mask_plan", "build_listing_plan"):
        original = getattr(masks, name)

        def counted(rules, other, _original=original, _name=name):  # type: ignore[no-untyped-def]
            built.append(_name)
            return _original(rules, other)

        monkeypatch.setattr(masks, name, counted)
    envs = [
        agentodyssey_pz.parallel_env(
            world=TINY_WORLD, num_agents=1, obs_mode="text", valid_actions_in_info=True
        )
        for _ in range(70)
    ]
    for env in envs:
        env.reset(seed=0)
        for _ in range(3):
            env.step(dict.fromkeys(env.agents, "wait"))
    assert built.count("mask_plan") == 70 and built.count("build_listing_plan") == 70
    env = envs[0]
    rule, seen = env.game.engine.rules["enter"], []
    original = rule.mask_targets

    def record(ctx):  # type: ignore[no-untyped-def]
        seen.append(ctx.actor.id)
        return original(ctx)

    rule.mask_targets = record
    env.step(dict.fromkeys(env.agents, "wait"))
    assert seen == env.agents
