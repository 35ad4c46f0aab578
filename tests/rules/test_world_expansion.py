"""world_expansion_step (docs/mechanics/step-rules.md#world-expansion): the world grows once it is
fully explored.

The tiny world has four areas (spawn `area_gate`). Agents are moved with `move_to` and then `wait`,
so the engine records the visit in that tick's action phase, as `enter` would.
"""

from __future__ import annotations

import copy
import itertools
import json
import logging
import random
from typing import Any

import pytest
from conftest import load_raw
from harness import TINY, agent, make_game, move_to, run_step, step_rule
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.entities import Area, Place
from agentodyssey_pz.world.expander import ProceduralExpander, world_to_definition
from agentodyssey_pz.world.validate import check_definition, parse_definition

RULE = "world_expansion_step"
KEY = "world_expansion.new_lands"
TINY_AREAS = ["area_gate", "area_rows", "area_vats", "area_vault"]


def game_with(generator: Any = None, agents: int = 1, seed: int = 0, **config: Any) -> Game:
    config.setdefault("world_expansion", True)
    game = Game(TINY, agents, GameConfig(**config), expansion_generator=generator)
    game.reset(seed)
    return game


def visit(game: Game, moves: dict[str, str]) -> Any:
    """Move agents (agent id -> area id) and let everyone wait one tick."""
    for agent_id, area_id in moves.items():
        move_to(game, agent_id, area_id)
    return game.tick(dict.fromkeys(game.agents, "wait"))


def explore(game: Game, agent_id: str, areas: list[str]) -> list[Any]:
    return [visit(game, {agent_id: a}) for a in areas]


class Recording:
    """A generator wrapper that records its calls."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.seeds = inner, []

    def __call__(self, world: Any, seed: int) -> Any:
        self.seeds.append(seed)
        return self.inner(world, seed)


def fixed_spec(world: Any, seed: int) -> dict[str, Any]:
    """A small hand-written expansion (one place, two areas, one material) for plug-in tests."""
    return {
        "places": [
            {
                "type": "place",
                "id": "place_xq_hollow",
                "name": "Xq Hollow",
                "unlocked": True,
                "areas": [
                    {"type": "area", "id": "area_xq_dell", "name": "xq_dell", "level": 4},
                    {"type": "area", "id": "area_xq_pit", "name": "xq_pit", "level": 4},
                ],
            }
        ],
        "objects": [
            {
                "type": "object",
                "id": "obj_xq_moss",
                "name": "xq_moss",
                "category": "material",
                "usage": "craft",
                "value": 3,
                "size": 1,
                "level": 4,
                "areas": ["area_xq_dell", "area_xq_pit"],
                "craft": {"ingredients": {}, "dependencies": []},
            }
        ],
        "npcs": [],
    }


# ---------------------------------------------------------------------------- trigger
def test_inactive_unless_enabled() -> None:
    calls = Recording(ProceduralExpander())
    game = game_with(calls, world_expansion=False)
    explore(game, "agent_0", TINY_AREAS[1:])
    assert calls.seeds == []
    assert list(game.world.areas) == TINY_AREAS
    assert "world_expansion" not in game.world.auxiliary


def test_one_flag_source_config_overrides_the_world_feature() -> None:
    """Quirk "expansion is synchronous and quiet on failure": the reference can read a stale copy of
    the flag; here the config decides, and without a config value the world's
    `features.online_expansion` does - given a generator: the flag alone does nothing, as in the
    reference without a language model (an injectable generator, default none)."""
    raw = load_raw("tiny_world.json")
    for flag in (True, False):
        raw["features"] = {"online_expansion": flag}
        definition = parse_definition(raw)
        for setting, generator, expected in (
            (None, None, False),  # no generator: inactive whatever the flag
            (None, ProceduralExpander(), flag),  # a generator: the world's flag decides
            (False, ProceduralExpander(), False),
            (True, None, True),  # world_expansion=True brings the offline generator
        ):
            config = GameConfig(world_expansion=setting)
            game = Game(definition, 1, config, expansion_generator=generator)
            game.reset(0)
            explore(game, "agent_0", TINY_AREAS[1:])
            grew = len(game.world.areas) > len(TINY_AREAS)
            assert grew is expected, (flag, setting, generator)


def test_triggers_exactly_when_the_last_area_is_visited() -> None:
    """Quirk "step rules see this tick's visits": no one-tick lag; the expansion happens in the tick
    the last area is seen."""
    calls = Recording(ProceduralExpander())
    game = game_with(calls)
    before = explore(game, "agent_0", TINY_AREAS[1:3])
    assert calls.seeds == [] and list(game.world.areas) == TINY_AREAS
    assert all(KEY not in tick.feedback_keys("agent_0") for tick in before)
    tick = visit(game, {"agent_0": TINY_AREAS[3]})
    assert len(calls.seeds) == 1 and 0 <= calls.seeds[0] <= 10**9
    new_places = [
        p for p in game.world.places.values() if p.id not in ("place_orchard", "place_cellar")
    ]
    assert tick.feedback_keys("agent_0").count(KEY) == 1
    names = ", ".join(p.name for p in new_places)
    assert tick.feedback("agent_0").endswith(f"({names}).")
    explorable = len(game.world.areas)
    assert game.world.auxiliary["world_expansion"] == {
        "count": 1, "total_areas": explorable, "retry_after_visits": None,
    }  # fmt: skip
    assert explorable - len(TINY_AREAS) == sum(len(p.area_ids) for p in new_places)
    later = visit(game, {"agent_0": TINY_AREAS[0]})  # nothing new visited: no second expansion
    assert KEY not in later.feedback_keys("agent_0") and len(calls.seeds) == 1


def test_new_areas_hang_off_an_unlocked_bridge_and_can_be_entered() -> None:
    game = game_with()
    old_far = game.world.graph.furthest(game.world.spawn_area, TINY_AREAS)
    explore(game, "agent_0", TINY_AREAS[1:])
    world = game.world
    new = [a for a in world.areas if a not in TINY_AREAS]
    dist = world.graph.hop_distances(world.spawn_area)
    assert set(new) <= set(dist)
    assert min(dist[a] for a in new) == dist[old_far] + 1
    bridges = [(a, b) for a in new for b in world.graph.neighbors(a) if b in TINY_AREAS]
    assert len(bridges) == 1 and bridges[0][1] == old_far
    assert not any(world.graph.is_locked(a, b) for a in new for b in world.graph.neighbors(a))
    # Walk in through the bridge with the real verb.
    move_to(game, "agent_0", old_far)
    entry = bridges[0][0]
    tick = game.tick({"agent_0": f"enter {world.areas[entry].name}"})
    assert agent(game).area_id == entry and tick.action_ok["agent_0"]
    assert tick.rewards["agent_0"].exploration == 1


def test_expanded_world_is_still_a_valid_definition() -> None:
    game = game_with(agents=2)
    explore(game, "agent_1", TINY_AREAS[1:])
    assert game.world.auxiliary["world_expansion"]["count"] == 1
    definition, problems = check_definition(world_to_definition(game.world))
    assert definition is not None, [str(p) for p in problems]
    assert [p for p in problems if p.severity == "error"] == []
    assert [a.id for _, a in definition.iter_areas()] == list(game.world.areas)
    assert {o.id for o in definition.entities.objects} == set(game.world.objects)


def test_expansion_is_deterministic_for_the_game_seed() -> None:
    def outcome(seed: int) -> str:
        game = game_with(seed=seed)
        explore(game, "agent_0", TINY_AREAS[1:])
        return json.dumps(game.world.to_dict())

    assert outcome(3) == outcome(3)
    assert outcome(3) != outcome(4)


def test_user_generator_plugs_in_through_the_game_keyword() -> None:
    calls = Recording(fixed_spec)
    game = game_with(calls)
    tick = explore(game, "agent_0", TINY_AREAS[1:])[-1]
    assert len(calls.seeds) == 1
    assert list(game.world.areas)[4:] == ["area_xq_dell", "area_xq_pit"]
    assert game.world.areas["area_xq_dell"].objects.get("obj_xq_moss", 0) >= 1
    assert tick.feedback("agent_0").endswith("(Xq Hollow).")
    assert Game(TINY, 1).expansion_generator is None
    assert (
        Game(TINY, 1, GameConfig(world_expansion=True)).expansion_generator == ProceduralExpander()
    )


# ---------------------------------------------------------------------------- failures
def raising(world: Any, seed: int) -> Any:
    raise RuntimeError("the model is asleep")


def invalid(world: Any, seed: int) -> Any:
    spec = fixed_spec(world, seed)
    spec["objects"][0]["craft"]["ingredients"] = {"obj_nowhere": 1}
    return spec


def placeless(world: Any, seed: int) -> Any:
    return {**fixed_spec(world, seed), "places": []}


@pytest.mark.parametrize(
    ("generator", "logged"),
    [
        (raising, "the generator failed (RuntimeError('the model is asleep'))"),
        (invalid, "unknown ingredient 'obj_nowhere'"),
        (placeless, "brought no new place"),
    ],
    ids=["exception", "invalid-spec", "no-place"],
)
def test_a_failed_expansion_changes_nothing_and_waits_for_a_new_visit(
    generator: Any, logged: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Quirk "expansion is synchronous and quiet on failure": the reference retries every other tick
    and spams "the world starts to change"."""
    calls = Recording(generator)
    game = game_with(calls, agents=2)
    explore(game, "agent_0", TINY_AREAS[1:3])
    before = game.world.to_dict()
    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.rules"):
        tick = visit(game, {"agent_0": TINY_AREAS[3]})
    assert len(calls.seeds) == 1
    assert any(logged in r.getMessage() for r in caplog.records), caplog.text
    after = game.world.to_dict()
    state = after["auxiliary"].pop("world_expansion")
    before["auxiliary"].pop("world_expansion")
    assert after == before  # no object, NPC, place or area added
    failed_at = game.tick_index - 1  # what tick_index was while the rule ran
    assert state == {  # 4 visits + agent_1's 1; back-off RETRY_TICKS
        "count": 0, "total_areas": 4, "retry_after_visits": 5, "failures": 1,
        "retry_at_tick": failed_at + 10,
    }  # fmt: skip
    assert all(KEY not in tick.feedback_keys(a) for a in game.agents)
    for _ in range(3):  # no new area seen, the back-off runs: no retry
        visit(game, {"agent_0": TINY_AREAS[1]})
    assert len(calls.seeds) == 1
    visit(game, {"agent_1": TINY_AREAS[2]})  # agent_1 sees an area new to it: one more try
    assert len(calls.seeds) == 2
    visit(game, {"agent_1": TINY_AREAS[2]})
    assert len(calls.seeds) == 2


def test_a_failed_expansion_is_retried_after_a_doubling_back_off() -> None:
    """Once every agent has seen every area no visit can trigger a retry: one bad reply of a
    language-model generator must not end the world's growth for the episode."""
    calls = Recording(raising)
    game = game_with(calls)
    explore(game, "agent_0", TINY_AREAS[1:])
    tries = [game.tick_index]
    while len(tries) < 4:
        game.tick({"agent_0": "wait"})
        if len(calls.seeds) > len(tries):
            tries.append(game.tick_index)
    assert [b - a for a, b in itertools.pairwise(tries)] == [10, 20, 40]
    assert game.world.auxiliary["world_expansion"]["failures"] == 4
    calls.inner = fixed_spec  # the model answers again
    for _ in range(81):
        game.tick({"agent_0": "wait"})
    state = game.world.auxiliary["world_expansion"]
    assert state["count"] == 1 and "failures" not in state and "retry_at_tick" not in state


def test_retry_block_lives_in_the_world_not_in_the_rule_instance() -> None:
    """A fresh rule instance (as after loading a checkpoint) still honours the block."""
    calls = Recording(raising)
    game = game_with(calls)
    explore(game, "agent_0", TINY_AREAS[1:])
    assert len(calls.seeds) == 1
    saved = copy.deepcopy(game.world.auxiliary["world_expansion"])
    fresh = type(step_rule(game, RULE))()
    game.step_rules = [fresh if r.name == RULE else r for r in game.step_rules]
    run_step(game, RULE)
    assert len(calls.seeds) == 1 and game.world.auxiliary["world_expansion"] == saved


# ---------------------------------------------------------------------------- many agents
def test_at_most_one_expansion_per_tick() -> None:
    calls = Recording(ProceduralExpander())
    game = game_with(calls, agents=3)
    explore(game, "agent_0", TINY_AREAS[1:3])
    explore(game, "agent_1", TINY_AREAS[1:3])
    tick = visit(game, {"agent_0": TINY_AREAS[3], "agent_1": TINY_AREAS[3]})
    assert len(calls.seeds) == 1
    assert game.world.auxiliary["world_expansion"]["count"] == 1
    assert [tick.feedback_keys(a).count(KEY) for a in game.agents] == [1, 1, 1]


def test_tutorial_rooms_need_no_visit() -> None:
    game = game_with(agents=2)
    world = game.world
    world.add_place(Place("place_lesson", "Lesson", True))
    for i in range(2):
        world.add_area(Area(f"area_lesson{'ab'[i]}", f"lesson{'ab'[i]}", 1, True, "place_lesson"))
    world.auxiliary["tutorial_room"] = {
        "place_id": "place_lesson",
        "rooms": {"agent_1": {"area_id": "area_lessonb"}},
    }
    explore(game, "agent_0", TINY_AREAS[1:])
    assert world.auxiliary["world_expansion"]["count"] == 1
    assert world.auxiliary["world_expansion"]["total_areas"] == len(world.areas) - 2


def test_eight_agents_exploring_at_different_speeds() -> None:
    """Agent i moves to the next area it has not visited every i+1 ticks. Each tick, the world
    grows exactly when (after the moves) some agent has visited every area, once at most."""
    game = game_with(agents=8, seed=11)
    order = {a: i for i, a in enumerate(game.agents)}
    expansions, max_areas = 0, len(TINY_AREAS)
    for tick_no in range(1, 61):
        moves = {}
        for agent_id, speed in order.items():
            if tick_no % (speed + 1) == 0:
                unseen = [a for a in game.world.areas if a not in game.agents[agent_id].visited]
                if unseen:
                    moves[agent_id] = unseen[0]
        expected = any(
            set(game.world.areas) <= set(a.visited) | ({moves[a.id]} if a.id in moves else set())
            for a in game.agents.values()
        )
        tick = visit(game, moves)
        counts = [tick.feedback_keys(a).count(KEY) for a in game.agents]
        assert counts == [int(expected)] * 8, tick_no
        expansions += expected
        assert game.world.auxiliary["world_expansion"]["count"] == expansions
        assert len(game.world.areas) >= max_areas + 2 * expected
        max_areas = len(game.world.areas)
    # Fastest agent drives the growth; the slowest has seen far less than the world holds.
    assert expansions >= 4
    visited = [len(a.visited) for a in game.agents.values()]
    assert visited == sorted(visited, reverse=True) and visited[0] > visited[-1]
    definition, problems = check_definition(world_to_definition(game.world))
    assert definition is not None, [str(p) for p in problems if p.severity == "error"]


def test_rng_draws_only_when_expanding() -> None:
    """The seed comes from the game's generator, drawn once per attempt and never otherwise."""
    game = game_with()
    state = game.rng.getstate()
    run_step(game, RULE)
    assert game.rng.getstate() == state
    for area in TINY_AREAS[1:]:
        agent(game).visited[area] = None
    expected = random.Random()
    expected.setstate(state)
    seed = expected.randint(0, 10**9)
    calls = Recording(ProceduralExpander())
    game.expansion_generator = calls
    run_step(game, RULE)
    assert calls.seeds == [seed]


def test_make_game_default_is_off() -> None:
    game = make_game()
    for area in TINY_AREAS[1:]:
        agent(game).visited[area] = None
    run_step(game, RULE)
    assert list(game.world.areas) == TINY_AREAS


def test_with_a_real_tutorial_the_rooms_are_not_part_of_the_world_to_explore() -> None:
    """A bundled world with the tutorial on: agent_1 stays in its room, agent_0 (released) explores
    every other area and the world grows; the rooms are not counted."""
    name = next(w for w in bundled_worlds() if "tutorial" in bundled_definition(w).custom_events)
    game = make_game(name, agents=2, seed=1, tutorial=True, world_expansion=True)
    tutorial = game.world.auxiliary["tutorial_room"]
    rooms = {room["area_id"] for room in tutorial["rooms"].values()}
    assert len(rooms) == 2
    agent(game).tutorial_passed = True
    areas = [a for a in game.world.areas if a not in rooms]
    ticks = [visit(game, {"agent_0": a}) for a in areas]
    assert [KEY in t.feedback_keys("agent_0") for t in ticks] == [False] * (len(areas) - 1) + [True]
    assert KEY in ticks[-1].feedback_keys("agent_1")
    assert agent(game, "agent_1").area_id in rooms
    state = game.world.auxiliary["world_expansion"]
    assert state["count"] == 1 and state["total_areas"] == len(game.world.areas) - len(rooms)


@pytest.mark.parametrize("how", ["Game.load", "resume"])
def test_a_given_generator_is_given_again_on_load(how: str, tmp_path: Any) -> None:
    """A generator is code, never saved: loading names it again (as rule packs); without it the
    world's flag alone does nothing, as at the start."""
    from agentodyssey_pz.checkpoint import CheckpointWriter, resume

    raw = load_raw("tiny_world.json")
    raw["features"] = {"online_expansion": True}
    game = Game(parse_definition(raw), 1, expansion_generator=fixed_spec)
    game.reset(0)
    if how == "Game.load":
        game.save(tmp_path / "g.json")

        def load(**kw: Any) -> Game:
            return Game.load(tmp_path / "g.json", **kw)
    else:
        CheckpointWriter(game, tmp_path / "run", 100).close()

        def load(**kw: Any) -> Game:
            return resume(tmp_path / "run", snapshot_every=None, **kw)

    assert load(expansion_generator=fixed_spec).expansion_enabled()
    assert not load().expansion_enabled()
    grown = load(expansion_generator=fixed_spec)
    explore(grown, "agent_0", TINY_AREAS[1:])
    assert "area_xq_dell" in grown.world.areas
