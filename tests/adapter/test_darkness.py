"""What an agent in the dark observes and is offered (docs/world-format.md#91-darkness,
docs/rule-packs.md#listings-in-the-dark), on gloomwell (tests/data/worlds/gloomwell: the square
and the forge are lit, the well, the adit and the gallery dark; only the torch gives light; the
adit-gallery and square-forge paths are locked with `obj_key`).

- Text: time, location, feedback, a fixed "too dark" line, the stats and the neighbours; no hands,
  equipment, ground or people. The same in `render()`.
- Vector: `in_darkness` (the last slot, only in a world with darkness) is 1, and the hidden
  segments and the coins stat read 0; the rest is what the lit view shows.
- Masks and valid-action lists: only wait, defend and enter (unlocked paths, not while fighting);
  each of them takes effect. Hidden verbs still work typed, and a masked entry runs its canonical
  command, blind.
- Nothing leaks: dark states that differ only in hidden things give identical observations, masks
  and lists.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest
from harness import act, agent, clear_world, give, move_to, put_on_ground, spawn_npc

import agentodyssey_pz
from agentodyssey_pz.audit.darkness import change_hidden
from agentodyssey_pz.observe.encode import HIDDEN_IN_DARK, ObservationLayout
from agentodyssey_pz.observe.listing_cache import ListingCache
from agentodyssey_pz.observe.masks import action_mask, valid_actions
from agentodyssey_pz.observe.text import INTRO, TOO_DARK, observation_text, tick_observation
from agentodyssey_pz.world.agents import Engagement, add_count
from agentodyssey_pz.world.darkness import in_darkness
from agentodyssey_pz.world.validate import load_definition

DATA = Path(__file__).resolve().parents[1] / "data"
DARK_WORLD = str(DATA / "worlds" / "gloomwell")
GROPING = str(DATA / "packs" / "groping")  # `grope` (honest) and `peek` (leaks), both dark-safe
OFFERED_IN_DARK = {"wait", "defend", "enter"}


def dark_env(**settings: Any) -> Any:
    """gloomwell with two agents, text and vector observations, valid-action lists; reset and
    cleared (no objects, no NPCs), both agents standing at the square."""
    options = {"num_agents": 2, "obs_mode": "text", "valid_actions_in_info": True, **settings}
    env = agentodyssey_pz.parallel_env(world=DARK_WORLD, max_cycles=10**6, **options)
    env.reset(seed=0)
    clear_world(env.game)
    return env


def others_wait(env: Any, actions: dict[str, Any]) -> dict[str, Any]:
    return {**dict.fromkeys(env.agents, "wait"), **actions}


def step(env: Any, **actions: Any) -> tuple[dict, dict]:
    observations, _, _, _, infos = env.step(others_wait(env, actions))
    return observations, infos


def crowd_the_well(env: Any) -> None:
    """agent_0 at the dark well with a key in hand, an apron worn, things on the ground, an enemy
    and agent_1 beside it."""
    game = env.game
    move_to(game, "agent_0", "area_well")
    move_to(game, "agent_1", "area_well")
    give(game, "agent_0", "obj_key")
    agent(game).equipped["obj_apron"] = 1
    put_on_ground(game, "area_well", "obj_coin", 3)
    put_on_ground(game, "area_well", "obj_crate")
    spawn_npc(game, "npc_bat", "area_well")


# ---------------------------------------------------------------------------- text
def test_the_dark_text_keeps_time_place_feedback_stats_and_neighbours() -> None:
    env = dark_env()
    crowd_the_well(env)
    observations, _ = step(env)
    game, me = env.game, agent(env.game)
    expected = [
        "",
        f"Current Time: {game.time_text}",
        "Current Location: Gloomwell Hamlet, well",
        "",
        "I waited.",
        TOO_DARK,
        "",
        f"My level is {me.level}.",
        f"My attack is {me.attack}.",
        f"My defense is {me.defense}.",
        f"My health is {me.hp} of {me.max_hp}.",
        f"My experience is {me.xp} of {game.config.xp_per_level} toward the next level.",
        "",
        "Neighboring areas: square, adit.",
        "",
    ]
    assert observations["agent_0"]["text"] == "\n".join(expected)
    for hidden in ("holding", "equipped", "ground", "Here with me", "bat", "agent_1", "coin"):
        assert hidden not in observations["agent_0"]["text"]
    # agent_1 holds nothing either: it sees nothing, agent_0 included.
    assert TOO_DARK in observations["agent_1"]["text"]
    # Without feedback the dark line follows the location's blank line.
    quiet = observation_text(game, me, "")
    assert quiet.split("\n")[3:6] == ["", TOO_DARK, ""]
    # The intro on the bootstrap tick, as in the light.
    first = tick_observation(game, "agent_0", "", bootstrap=True, terminated=False)
    assert first == INTRO + quiet


def test_a_torch_in_hand_shows_what_a_lit_area_shows() -> None:
    """With a torch in hand the dark well reads exactly as the well would if it were lit; a torch
    on the ground, worn, or in the inventory leaves it dark."""
    env = dark_env()
    crowd_the_well(env)
    game, me = env.game, agent(env.game)
    give(game, "agent_0", "obj_torch")
    lit_by_torch = observation_text(game, me, "I looked around.")
    assert TOO_DARK not in lit_by_torch
    assert "I am holding: 1 key, 1 torch." in lit_by_torch
    game.world.areas["area_well"].light = True
    assert observation_text(game, me, "I looked around.") == lit_by_torch
    game.world.areas["area_well"].light = False
    me.hands.pop("obj_torch")
    for place in ("ground", "worn", "inventory"):
        if place == "ground":
            put_on_ground(game, "area_well", "obj_torch")
        elif place == "worn":
            me.equipped["obj_torch"] = 1
        else:
            crate = game.world.new_instance("obj_crate")
            add_count(game.world.containers[crate].items, "obj_torch", 1)
            me.equipped[crate] = 1
            me.inventory_id = crate
        assert TOO_DARK in observation_text(game, me, ""), place


def test_render_shows_the_dark_view() -> None:
    env = dark_env(render_mode="ansi")
    crowd_the_well(env)
    move_to(env.game, "agent_1", "area_square")
    step(env)
    shown = env.render()
    mine, theirs = shown.split("--- agent_1 ---")
    assert TOO_DARK in mine and "I am holding" not in mine
    assert TOO_DARK not in theirs and "I am holding: nothing." in theirs


# ---------------------------------------------------------------------------- vector
def without_darkness(definition: Any) -> Any:
    return attrs.evolve(definition, features=attrs.evolve(definition.features, darkness=None))


def test_the_layout_gains_one_last_slot_only_with_darkness() -> None:
    definition = load_definition(Path(DARK_WORLD) / "world.json")
    dark, plain = ObservationLayout(definition), ObservationLayout(without_darkness(definition))
    assert dark.size == plain.size + 1
    assert dark.segments[:-1] == plain.segments
    last = dark.segments[-1]
    assert (last.name, last.start, last.size) == ("in_darkness", plain.size, 1)
    assert all(name in last.meaning for name in HIDDEN_IN_DARK)
    env = dark_env()
    assert "in_darkness" in env.observation_layout().splitlines()[-1]
    assert "in_darkness" not in agentodyssey_pz.parallel_env().observation_layout()


def test_the_dark_vector_zeroes_what_darkness_hides() -> None:
    """Dark: the flag is 1, the hidden segments and the coins stat are 0, everything else is what
    the same state shows lit."""
    env = dark_env()
    crowd_the_well(env)
    game, me = env.game, agent(env.game)
    engaged = fight_and_carry(game)
    observations, _ = step(env)
    layout = env.layout
    at = {s.name: s for s in layout.segments}
    dark = observations["agent_0"]["observation"]
    assert dark[at["in_darkness"].start] == 1.0
    for name in HIDDEN_IN_DARK:
        segment = at[name]
        assert not dark[segment.start : segment.stop].any(), name
    coins = at["self"].start + 8
    assert dark[coins] == 0.0
    assert dark[at["self"].start + 7] == 1.0  # in combat: my own state, seen
    game.world.areas["area_well"].light = True
    lit = env.encoder.encode(game, me)
    assert lit[at["in_darkness"].start] == 0.0
    for name in HIDDEN_IN_DARK:
        segment = at[name]
        assert lit[segment.start : segment.stop].any(), name
    assert lit[coins] > 0.0
    hidden = np.zeros(layout.size, dtype=bool)
    for name in (*HIDDEN_IN_DARK, "in_darkness"):
        hidden[at[name].start : at[name].stop] = True
    hidden[coins] = True
    assert np.array_equal(dark[~hidden], lit[~hidden])
    assert engaged.id in me.combats


def fight_and_carry(game: Any) -> Any:
    """agent_0 fighting a bat where it stands; its hands get a coin (the coins stat), its worn
    crate an inventory of pears."""
    me = agent(game)
    npc = spawn_npc(game, "npc_bat", me.area_id)
    me.combats[npc.id] = Engagement(0, me.area_id)
    give(game, "agent_0", "obj_coin")
    crate = game.world.new_instance("obj_crate")
    add_count(game.world.containers[crate].items, "obj_pear", 2)
    me.equipped[crate] = 1
    me.inventory_id = crate
    return npc


# ---------------------------------------------------------------------------- masks and lists
def offered(env: Any, agent_id: str = "agent_0") -> tuple[set[str], dict[str, list[str]]]:
    """(labels of the unmasked entries, valid-action list) as the env gives them now."""
    observations, infos = step(env)
    mask = observations[agent_id]["action_mask"]
    labels = {env.action_name(agent_id, int(i)) for i in np.flatnonzero(mask)}
    return labels, infos[agent_id]["valid_actions"]


def test_in_the_dark_only_wait_defend_and_unlocked_paths_are_offered() -> None:
    env = dark_env()
    crowd_the_well(env)
    labels, listed = offered(env)
    assert labels == {"wait", "defend", "enter square", "enter adit"}
    assert listed == {"enter": ["enter square", "enter adit"], "defend": ["defend"],
                      "wait": ["wait"]}  # fmt: skip
    # The adit's path to the gallery is locked: the key in hand is not seen, so it is not offered.
    move_to(env.game, "agent_0", "area_adit")
    labels, listed = offered(env)
    assert labels == {"wait", "defend", "enter well"}
    # With a torch in hand the key is seen, and the locked path offered; in the light everything.
    give(env.game, "agent_0", "obj_torch")
    labels, listed = offered(env)
    assert {"enter gallery", "drop torch", "drop key"} <= labels
    assert listed["enter"] == ["enter well", "enter gallery"]


def test_in_the_dark_a_fight_hides_the_way_out() -> None:
    """Engaged in a fight in the dark: whether the foe still blocks the way is hidden, so enter is
    not offered (the foe gone, it would work: the promise holds one way)."""
    env = dark_env()
    move_to(env.game, "agent_0", "area_well")
    bat = spawn_npc(env.game, "npc_bat", "area_well")
    agent(env.game).combats[bat.id] = Engagement(0, "area_well")
    labels, _ = offered(env)
    assert labels == {"wait", "defend"}
    # The bat gone (the engagement is dropped only at the end of the tick): still not offered,
    # though it would work.
    game = env.game
    game.world.remove_npc_from_map(bat.id)
    mask = action_mask(game, "agent_0", env.catalogue)
    assert {env.action_name("agent_0", int(i)) for i in np.flatnonzero(mask)} == {"wait", "defend"}
    assert act(game, "agent_0", "enter square").action_ok["agent_0"]
    # In the light, the same state offers the way out.
    game.world.areas["area_square"].light = True
    move_to(game, "agent_0", "area_well")
    game.world.areas["area_well"].light = True
    mask = action_mask(game, "agent_0", env.catalogue)
    assert "enter square" in {env.action_name("agent_0", int(i)) for i in np.flatnonzero(mask)}


def test_every_offer_in_the_dark_takes_effect_and_hidden_verbs_still_work_typed() -> None:
    env = dark_env()
    crowd_the_well(env)
    _, listed = offered(env)
    for command in [c for lines in listed.values() for c in lines]:
        trial = dark_env()
        crowd_the_well(trial)
        assert step(trial, agent_0=command)[1]["agent_0"]["action_ok"], command
    # Acting blind: typed, or as a masked index (its canonical command), a hidden verb works.
    assert step(env, agent_0="pick up coin")[1]["agent_0"]["action_ok"]
    agent(env.game).hands.clear()
    index = env.catalogue.index[("pick_up", "obj_coin")]
    observations, _ = step(env)
    assert observations["agent_0"]["action_mask"][index] == 0
    assert env.action_command("agent_0", index) == "pick up coin"
    assert step(env, agent_0=index)[1]["agent_0"]["action_ok"]
    assert agent(env.game).hands == {"obj_coin": 1}
    # The typed key still opens a lock in the dark.
    move_to(env.game, "agent_0", "area_adit")
    agent(env.game).hands.clear()
    give(env.game, "agent_0", "obj_key")
    assert step(env, agent_0="enter gallery")[1]["agent_0"]["action_ok"]


def test_an_entrys_command_names_nothing_hidden() -> None:
    """In the light, `pick up crate` runs on the crate instance in reach (`crate_<n>`); in the
    dark the command shown is the label, which names no instance."""
    env = dark_env()
    crowd_the_well(env)
    index = env.catalogue.index[("pick_up", "obj_crate")]
    agent(env.game).hands.clear()
    step(env)
    assert env.action_command("agent_0", index) == "pick up crate"
    give(env.game, "agent_0", "obj_torch")
    step(env)
    (crate,) = [o for o in env.game.world.areas["area_well"].objects if o.startswith("obj_crate")]
    assert env.action_command("agent_0", index) == f"pick up {env.game.world.name_of(crate)}"


# ---------------------------------------------------------------------------- nothing leaks
def view(env: Any, agent_id: str = "agent_0") -> tuple[str, bytes, bytes, dict]:
    """Everything the agent is shown in the current state, built afresh (no env caches)."""
    game = env.game
    me = game.agents[agent_id]
    return (
        observation_text(game, me, "same feedback"),
        env.encoder.encode(game, me).tobytes(),
        action_mask(game, agent_id, env.catalogue).tobytes(),
        valid_actions(game, agent_id),
    )


HIDDEN_THINGS = ["obj_key", "obj_pear", "obj_coin", "obj_crate", "obj_pick", "obj_lantern"]


def hide_at_random(env: Any, rng: random.Random) -> None:
    """Random things darkness hides around agent_0 (never a torch in hand)."""
    game = env.game
    me = agent(game)
    for _ in range(rng.randint(0, 2)):
        give(game, "agent_0", rng.choice(HIDDEN_THINGS))
    for _ in range(rng.randint(0, 4)):
        thing = rng.choice([*HIDDEN_THINGS, "obj_torch"])
        put_on_ground(game, me.area_id, thing, rng.randint(1, 3))
    if rng.random() < 0.5:
        me.equipped["obj_apron"] = 1
    if rng.random() < 0.5:
        crate = game.world.new_instance("obj_crate")
        add_count(game.world.containers[crate].items, rng.choice(HIDDEN_THINGS), 2)
        me.equipped[crate] = 1
        me.inventory_id = crate
    for _ in range(rng.randint(0, 2)):
        spawn_npc(game, rng.choice(["npc_bat", "npc_chandler"]), me.area_id)
    move_to(game, "agent_1", me.area_id if rng.random() < 0.5 else "area_square")


@pytest.mark.parametrize("area", ["area_well", "area_adit", "area_gallery"])
def test_dark_states_that_differ_only_in_hidden_things_look_the_same(area: str) -> None:
    env = dark_env()
    move_to(env.game, "agent_0", area)
    move_to(env.game, "agent_1", "area_square")
    empty = view(env)
    rng = random.Random(area)
    for _ in range(30):
        trial = dark_env()
        move_to(trial.game, "agent_0", area)
        hide_at_random(trial, rng)
        assert in_darkness(trial.game.world, agent(trial.game))
        assert view(trial) == empty
        # And the audit's way of changing them.
        change_hidden(trial.game, "agent_0")
        assert view(trial) == empty


def test_the_lit_view_shows_what_the_dark_one_hides() -> None:
    """The counter-check of the leak test: in a lit area the same changes do show."""
    env = dark_env()
    empty = view(env)
    rng = random.Random(3)
    shown = 0
    for _ in range(10):
        trial = dark_env()
        hide_at_random(trial, rng)
        shown += view(trial) != empty
    assert shown >= 8


# ---------------------------------------------------------------------------- kept listings
def test_kept_listings_follow_the_light() -> None:
    """The env keeps reach-only listings while the reach holds; the same reach in the dark (an
    area put out by a rule) is listed afresh, and back in the light too. `grope` (test pack
    `groping`) is reach-only, offered in the dark and lists itself only there."""
    env = dark_env(rule_packs=[GROPING])
    put_on_ground(env.game, "area_square", "obj_coin", 2)
    square = env.game.world.areas["area_square"]
    for lit in (True, False, True, False, False):
        square.light = lit
        labels, listed = offered(env)
        assert ("pick up coin" in labels) == lit
        assert ("grope" in labels) == (not lit) == ("grope" in listed)
        if not lit:
            assert set(listed) == {"enter", "defend", "wait", "grope"}
        assert listed == valid_actions(env.game, "agent_0")  # built afresh


def test_the_cache_keeps_the_dark_apart() -> None:
    env = dark_env()
    game, me = env.game, agent(env.game)
    cache = ListingCache()
    rules = game.engine.rules
    lit = cache.for_agent(game.world, rules, me, False)
    dark = cache.for_agent(game.world, rules, me, True)
    assert lit is not None and dark is not None and lit.key != dark.key
    assert cache.for_agent(game.world, rules, me, True) is dark
    assert cache.again(game.world, rules, me, True) is dark


# ----------------------------------------------------------------------- AgentOdyssey's remnant
REMNANT = "assets/world_definitions/generated/remnant/default.json"
# remnant's unlit areas (its world file gives every area's `light`).
REMNANT_DARK = {
    "area_forest_river", "area_castle_armory", "area_castle_library", "area_swamp_bog",
    "area_swamp_ruins", "area_caves_deep", "area_peak_summit", "area_market_alleys",
}  # fmt: skip


def remnant_in_the_dark(published: Any) -> Any:
    """remnant's world from the user's copy, with darkness on (the torch lights) and without its
    quests and tutorial; its two undefined ids are left out (the stone sword's `obj_wooden_strip`,
    the craftsman's `obj_stone_chunk`), as the importer does."""
    from agentodyssey_pz.world.validate import parse_definition

    raw = published.read_json(REMNANT)
    for obj in raw["entities"]["objects"]:
        obj.get("craft", {}).get("ingredients", {}).pop("obj_wooden_strip", None)
    for npc in raw["entities"]["npcs"]:
        npc["objects"] = [o for o in npc.get("objects", []) if o != "obj_stone_chunk"]
    raw["features"] = {"darkness": {"light_objects": ["obj_torch"]}}
    raw["custom_events"] = []
    return parse_definition(raw)


def test_remnants_unlit_areas_are_dark_but_by_torchlight(published: Any) -> None:
    definition = remnant_in_the_dark(published)
    env = agentodyssey_pz.parallel_env(world=definition, num_agents=1, tutorial=False)
    env.reset(seed=0)
    game, me = env.game, agent(env.game)
    me.hands.clear()
    dark = set()
    for area_id in game.world.areas:
        move_to(game, "agent_0", area_id)
        if in_darkness(game.world, me):
            dark.add(area_id)
    assert dark == REMNANT_DARK
    give(game, "agent_0", "obj_lantern")  # a light-giving tool, but not the world's light
    assert in_darkness(game.world, me)
    give(game, "agent_0", "obj_torch")
    assert not in_darkness(game.world, me)


def test_remnant_in_the_dark_keeps_every_promise(published: Any) -> None:
    from agentodyssey_pz.audit import audit

    definition = remnant_in_the_dark(published)
    report = audit(definition, ticks=150, states=10, seed=2, other_process=False, tutorial=False)
    assert report.ok, report.text()
