"""AgentOdyssey's tutorials, translated and played (world/published/tutorial.py,
docs/world-format.md#113-tutorial).

Each game's tutorial data is read from the user's copy of AgentOdyssey (the `published` fixture:
skipped without one), translated against the game's own world, checked by our loader, and played
by two agents that type the command each instruction names. Quarantine and saltglass given as
plain world files get our default tutorial instead, with its stand-in bag; synthesis is unchanged by
the stand-in. Translation failures are checked on small tutorial modules written here.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.policies.mechanics import base_pack
from agentodyssey_pz.world.agents import possession
from agentodyssey_pz.world.published.locate import PublishedCopy, file_digest
from agentodyssey_pz.world.published.tutorial import (
    GAMES,
    ROLES_BY_GAME,
    TUTORIAL_DIGESTS,
    tutorial_module,
    tutorial_section,
)
from agentodyssey_pz.world.quest_records import VARIABLE
from agentodyssey_pz.world.quests import load_quests
from agentodyssey_pz.world.tutorial_data import RUN_VARIABLES, run_variable_kinds
from agentodyssey_pz.world.validate import parse_definition
from agentodyssey_pz.world.world import World

STEPS = {game: 28 for game in GAMES} | {"remnant": 26}
ENABLED = ("base", "remnant", "mark", "quarantine", "saltglass")  # the games that play it
TAKEN_BACK = {
    "base": ["obj_small_bag", "obj_paper", "obj_coin", "obj_pen", "obj_wood_log", "obj_iron_bar",
             "obj_workbench", "obj_furnace", "obj_key"],
    "mark": ["obj_small_pouch", "obj_paper", "obj_coin", "obj_pen", "obj_oak_log",
             "obj_iron_bar", "obj_workbench", "obj_furnace", "obj_key", "obj_copper_bar",
             "obj_fiber_bundle"],
}  # fmt: skip
AGENTS = ("agent_0", "agent_1")
STRAY_COINS = 5  # real-world coins agent_1 carries in its tutorial bag when it leaves


def world_file(game: str) -> str:
    folder = "base" if game == "base" else f"generated/{game}"
    return f"assets/world_definitions/{folder}/default.json"


def world_raw(copy_: PublishedCopy, game: str) -> dict[str, Any]:
    """The game's world as JSON, with the two kinds of ids nothing defines handled as our
    importer does: an NPC's undefined item dropped, an undefined ingredient given a stand-in
    record that nothing places (so the recipe stays uncraftable)."""
    raw = copy_.read_json(world_file(game))
    objects = raw["entities"]["objects"]
    defined = {o["id"] for o in objects}
    for npc in raw["entities"]["npcs"]:
        npc["objects"] = [oid for oid in npc.get("objects", []) if oid in defined]
    missing = {
        oid
        for o in objects
        for oid in o.get("craft", {}).get("ingredients", {})
        if oid not in defined
    }
    for oid in sorted(missing):
        objects.append({"type": "object", "id": oid, "name": f"unknown_{oid}", "quest": True,
                        "category": "material", "usage": "craft", "value": None,
                        "size": 1})  # fmt: skip
        raw["initializations"].setdefault("undistributable_objects", []).append(oid)
    raw.setdefault("features", {}).pop("online_expansion", None)
    return raw


def tutorial_folder(tmp_path: Path, copy_: PublishedCopy, game: str) -> Path:
    """A world folder: the game's world (only its tutorial switched on, where the game has it)
    and our translation of its tutorial as quests.json."""
    raw = world_raw(copy_, game)
    section = tutorial_section(copy_, game, raw)
    raw["custom_events"] = ["tutorial"] if game in ENABLED else []
    folder = tmp_path / game
    folder.mkdir()
    (folder / "world.json").write_text(json.dumps(raw), encoding="utf-8")
    (folder / "quests.json").write_text(json.dumps({"tutorial": section}), encoding="utf-8")
    return folder


def command_in(instruction: str) -> str:
    """What an instruction says to type: its last `quoted` command (AgentOdyssey's), else what
    follows its last colon, without an alternative in parentheses (ours)."""
    quoted = re.findall(r"`([^`]+)`", instruction)
    if quoted:
        return quoted[-1]
    return instruction.rsplit(": ", 1)[-1].split(" (or ", 1)[0]


def follow(game: Game) -> dict[str, str]:
    """Every agent types what its instruction says (or waits when it has none)."""
    lessons = base_pack(game)("steps.tutorial_room")
    actions = {}
    for aid, agent in game.agents.items():
        instruction = lessons.current_instruction(game, agent)
        actions[aid] = "wait" if instruction is None else command_in(instruction)
    return actions


def play_through(game: Game, steps: int) -> tuple[Any, int]:
    """Both agents follow their instructions to the end, one step per tick (checked); before the
    last tick agent_1 gets real-world coins into the bag it carries. Returns the last result and
    how many coins agent_1 keeps: of the coins it carries, as many as the tutorial handed it in
    all are taken back (coins are all alike), the rest land at its feet with the bag gone."""
    world = game.world
    coin = world.currency_id
    kept = 0
    for tick in range(steps):
        if tick == steps - 1:
            me = game.agents["agent_1"]
            bag = world.containers[me.inventory_id]
            bag.items[coin] = bag.items.get(coin, 0) + STRAY_COINS
            given = world.auxiliary["tutorial_room"]["rooms"]["agent_1"]["given"].get(coin, 0)
            carried = possession(world, me).get(coin, 0)
            kept = carried - min(carried, given)
        result = game.tick(follow(game))
        for aid in AGENTS:
            assert game.agents[aid].tutorial_stage == tick + 1, (tick, result.feedback(aid))
    return result, kept


# ---------------------------------------------------------------------------- translation
@pytest.mark.parametrize("game", GAMES)
def test_each_games_tutorial_translates_and_validates_against_its_world(
    published: PublishedCopy, game: str
) -> None:
    raw = world_raw(published, game)
    section = tutorial_section(published, game, raw)
    json.dumps(section)  # plain JSON data
    tutorial = load_quests({"tutorial": section}, parse_definition(raw)).tutorial
    assert len(tutorial.steps) == STEPS[game]
    assert section["roles"] == ROLES_BY_GAME[game] == tutorial.roles  # every role given
    assert ("blank" in tutorial.roles) == (game != "mark")  # mark's key needs no blank
    ids = [step.id for step in tutorial.steps]
    assert len(set(ids)) == len(ids)
    known = set(run_variable_kinds(tutorial.roles)) | set(RUN_VARIABLES)
    for step in tutorial.steps:  # AgentOdyssey's placeholders ({bag}, {exit} ...) are all ours now
        assert set(VARIABLE.findall(step.instruction)) <= known, step.instruction
        assert step.instruction == step.instruction.rstrip()
    merchant, raider = (tutorial.npcs[0], tutorial.npcs[1])
    assert (merchant.role, merchant.enemy, merchant.unique, merchant.quest) == (
        "merchant", False, False, True,
    )  # fmt: skip
    assert (raider.enemy, raider.unique, raider.combat_pattern) == (True, False, ())
    assert (tutorial.merchant.coins, tutorial.merchant.hp, tutorial.merchant.attack) == (1000, 1, 0)
    assert (tutorial.raider.hp, tutorial.raider.attack) == (1, 0)
    base_list = TAKEN_BACK["mark" if game == "mark" else "base"]
    extra = ["obj_key_blank"] if game == "remnant" else []
    assert list(tutorial.take_back) == base_list + extra


def test_the_translation_reads_the_data_of_version_0_1_0(published: PublishedCopy) -> None:
    """The copy's tutorial modules are those the translation was written for."""
    for game in GAMES:
        assert file_digest(published.path(tutorial_module(game))) == TUTORIAL_DIGESTS[game]


def test_marks_tail_and_remnants_shortened_tail(published: PublishedCopy) -> None:
    mark = tutorial_section(published, "mark", world_raw(published, "mark"))
    tail = mark["steps"][22:25]
    assert [s["id"] for s in tail] == [
        "craft_prep_key_ingredients_and_stations",
        "craft_prep_key_ingredients_and_stations_2",
        "craft_prep_key_ingredients_and_stations_3",
    ]
    assert tail[1]["done_any"] == [{"kind": "event", "type": "object_dropped", "objects": ["$pen"]}]
    assert tail[0]["setup"] == [
        {"kind": "ground_at_least",
         "objects": {"obj_copper_bar": 1, "obj_fiber_bundle": 1, "$bench": 1}},
    ]  # fmt: skip
    remnant = tutorial_section(published, "remnant", world_raw(published, "remnant"))
    crafted = [
        c["objects"]
        for s in remnant["steps"]
        for c in s["done_any"]
        if c.get("type") == "object_crafted"
    ]
    assert crafted == [["$key"]]  # the blank is handed out, not crafted


# ---------------------------------------------------------------------------- playing
@pytest.mark.parametrize("game", GAMES)
def test_two_agents_following_the_instructions_complete_the_tutorial(
    published: PublishedCopy, tmp_path: Path, game: str
) -> None:
    folder = tutorial_folder(tmp_path, published, game)
    game_ = Game(folder, list(AGENTS), GameConfig(tutorial=True))
    game_.reset(3)
    world, spawn = game_.world, game_.world.spawn_area
    tutorial = game_.quests.tutorial
    coins_at_spawn = world.areas[spawn].objects.get(world.currency_id, 0)
    rooms = {aid: world.auxiliary["tutorial_room"]["rooms"][aid]["area_id"] for aid in AGENTS}
    result, kept = play_through(game_, STEPS[game])
    assert 0 < kept < STRAY_COINS  # some of them were the tutorial's, the others stay mine
    for aid in AGENTS:
        me = game_.agents[aid]
        assert (me.area_id, me.tutorial_passed, me.tutorial_stage) == (spawn, True, STEPS[game])
        assert [e.data for e in result.events_of(aid, "tutorial_completed")] == [
            {"spawn_area_id": spawn}
        ]
        assert rooms[aid] not in world.areas
        # Everything the tutorial lent is back; agent_1's own coins lie at its feet.
        assert possession(world, me) == {}
        feedback = result.feedback(aid)
        assert "The things the tutorial lent me stay behind: " in feedback
        assert f"I stand in {world.areas[spawn].name} now" in feedback
        assert "this world knows these actions" not in feedback  # no pack adds a verb here
    assert world.areas[spawn].objects.get(world.currency_id, 0) == coins_at_spawn + kept
    assert "place_tutorial" not in world.places
    assert not [n for n in world.npcs.values() if n.def_id in {p.id for p in tutorial.npcs}]


def test_what_each_agent_carried_out_is_exactly_what_is_taken_back(
    published: PublishedCopy, tmp_path: Path
) -> None:
    """mark: the pen was put down (step 24), copper and fibre went into the key, the key into the
    lock: the pouch and the paper (with the coins it was paid) are what is left to take back."""
    game = Game(tutorial_folder(tmp_path, published, "mark"), list(AGENTS))
    game.reset(0)
    for _ in range(STEPS["mark"] - 1):
        game.tick(follow(game))
    me, world = game.agents["agent_0"], game.world
    carried = set(possession(world, me))
    assert carried <= set(game.quests.tutorial.take_back) | {world.def_of(me.inventory_id).id}
    room = world.auxiliary["tutorial_room"]["rooms"]["agent_0"]
    pouch, paper = world.name_of(room["instances"]["bag"]), world.name_of(room["instances"]["note"])
    result = game.tick(follow(game))
    assert f"The things the tutorial lent me stay behind: 1 {pouch}, 1 {paper}." in result.feedback(
        "agent_0"
    )


# ---------------------------------------------------------------------------- plain world files
@pytest.mark.parametrize("game", ["quarantine", "saltglass"])
def test_a_plain_world_file_gets_the_default_tutorial_with_its_stand_in_bag(
    published: PublishedCopy, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The world's only bag is of level 2: the default tutorial's own satchel stands in."""
    caplog.set_level(logging.WARNING, "agentodyssey_pz.world")
    path = published.path(world_file(game))
    game_ = Game(path, list(AGENTS), GameConfig(main_quest=False, side_quest=False))
    assert "switched off" not in caplog.text
    tutorial = game_.quests.tutorial
    assert tutorial.roles["bag"] == "obj_tutorial_satchel"
    assert [o.id for o in tutorial.objects] == ["obj_tutorial_satchel"]
    assert "obj_tutorial_satchel" in game_.definition.initializations.undistributable_objects
    assert {r: o for r, o in tutorial.roles.items() if r != "bag"} == {
        r: o for r, o in ROLES_BY_GAME[game].items() if r != "bag"
    }  # the rest are the game's own, inferred
    game_.reset(1)
    world = game_.world
    bags = {
        aid: world.auxiliary["tutorial_room"]["rooms"][aid]["instances"]["bag"] for aid in AGENTS
    }
    assert {world.def_of(b).id for b in bags.values()} == {"obj_tutorial_satchel"}
    play_through(game_, STEPS[game])
    for aid in AGENTS:
        me = game_.agents[aid]
        assert me.tutorial_passed and me.area_id == world.spawn_area
        assert possession(world, me) == {}
        assert world.find_def(bags[aid]) is None  # the satchel went back


@pytest.mark.parametrize("game", ["quarantine", "saltglass"])
def test_the_stand_in_changes_nothing_synthesis_draws(published: PublishedCopy, game: str) -> None:
    path = published.path(world_file(game))
    config = {"main_quest": False, "side_quest": False}
    taught = Game(path, 1, GameConfig(**config)).definition
    plain = Game(path, 1, GameConfig(tutorial=False, **config)).definition
    assert len(taught.entities.objects) == len(plain.entities.objects) + 1
    for seed in range(3):
        a, b = World.generate(taught, seed), World.generate(plain, seed)
        assert {i: dict(x.objects) for i, x in a.areas.items()} == {
            i: dict(x.objects) for i, x in b.areas.items()
        }
        assert {i: list(x.npcs) for i, x in a.areas.items()} == {
            i: list(x.npcs) for i, x in b.areas.items()
        }
        assert a.graph.to_data() == b.graph.to_data()


# ---------------------------------------------------------------------------- failures
GOOD_STEP = {
    "id": "pick_bag",
    "setup": {"instances_on_ground_if_missing": ["bag"]},
    "instruction": "Take it: `pick up {bag}`",
    "done_any": [{"kind": "state", "type": "in_hands_base", "base_obj": "obj_small_bag"}],
}
NPCS = [
    {"type": "npc", "id": "npc_m", "name": "m", "enemy": False, "unique": True,
     "role": "merchant", "hp": 1, "attack_power": 0, "coins": 10},
    {"type": "npc", "id": "npc_e", "name": "e", "enemy": True, "unique": False,
     "role": "enemy", "hp": 1, "attack_power": 1},
]  # fmt: skip


def fake_copy(tmp_path: Path, steps: list[Any], npcs: list[Any] = NPCS) -> PublishedCopy:
    """A copy whose base tutorial module holds these constants (written here, as data)."""
    module = tmp_path / tutorial_module("base")
    module.parent.mkdir(parents=True)
    module.write_text(
        textwrap.dedent(f"""\
            class TutorialRoomStepRule:
                required_objects = [{{"type": "object", "id": "obj_key"}}]
                required_npcs = {npcs!r}
                STEPS = {steps!r}
        """),
        encoding="utf-8",
    )
    return PublishedCopy(tmp_path, "a test copy")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"setup": {"teleport": True}}, "STEPS[0].setup.teleport: unknown setup"),
        (
            {"instruction": "Now `dance {tango}`"},
            "STEPS[0].instruction: unknown placeholder '{tango}'",
        ),
        (
            {"done_any": [{"kind": "state", "type": "levitating"}]},
            "STEPS[0].done_any[0]: unknown state type 'levitating'",
        ),
        (
            {
                "done_any": [
                    {"kind": "event", "type": "npc_talked_to", "data": {"npc_id": "{boss}"}}
                ]
            },
            "STEPS[0].done_any[0].data.npc_id: unknown placeholder '{boss}'",
        ),
        (
            {"done_any": [{"kind": "event", "type": "x", "data": {"from": "my {bag}"}}]},
            "STEPS[0].done_any[0].data.from: a placeholder inside 'my {bag}'",
        ),
        (
            {"setup": {"ensure_ground_base": {"obj_coin": "2"}}},
            "STEPS[0].setup.ensure_ground_base.obj_coin: expected a whole number, got '2'",
        ),
        (
            {"setup": {"ensure_npcs": [{"kind": "guard"}]}},
            "STEPS[0].setup.ensure_npcs: unknown NPC",
        ),
        ({"colour": "red"}, "STEPS[0]: unknown keys ['colour']"),
        ({"done_any": []}, "STEPS[0].done_any: expected a list of conditions"),
    ],
)
def test_data_the_translation_does_not_know_is_refused_naming_the_place(
    published: PublishedCopy, tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    raw = world_raw(published, "base")
    step = copy.deepcopy(GOOD_STEP) | change
    fake = fake_copy(tmp_path, [step])
    with pytest.raises(PublishedGameError) as caught:
        tutorial_section(fake, "base", raw)
    assert f"TutorialRoomStepRule.{message}" in str(caught.value)
    assert str(fake.path(tutorial_module("base"))) in str(caught.value)


def test_the_good_step_of_the_failure_cases_translates(
    published: PublishedCopy, tmp_path: Path
) -> None:
    section = tutorial_section(
        fake_copy(tmp_path, [GOOD_STEP]), "base", world_raw(published, "base")
    )
    assert section["steps"] == [
        {"id": "pick_bag", "instruction": "Take it: `pick up {bag_name}`",
         "setup": [{"kind": "instance_on_ground", "role": "bag"}],
         "done_any": [{"kind": "holding", "objects": ["$bag"]}]},
    ]  # fmt: skip
    assert section["take_back"] == ["$key"]


def test_a_world_without_the_games_objects_or_an_unknown_game_is_refused(
    published: PublishedCopy, tmp_path: Path
) -> None:
    raw = world_raw(published, "base")
    raw["entities"]["objects"] = [o for o in raw["entities"]["objects"] if o["id"] != "obj_pen"]
    with pytest.raises(PublishedGameError, match="the game's pen 'obj_pen' is not an object"):
        tutorial_section(published, "base", raw)
    with pytest.raises(PublishedGameError, match="no published game 'atlantis'"):
        tutorial_section(published, "atlantis", raw)
    fake = fake_copy(tmp_path, [GOOD_STEP], npcs=NPCS[:1])
    with pytest.raises(PublishedGameError, match="expected one merchant and one enemy"):
        tutorial_section(fake, "base", world_raw(published, "base"))


@pytest.mark.parametrize("game", ["remnant", "mark"])
def test_scripted_policies_follow_a_published_tutorial_out_of_the_room(
    published: PublishedCopy, tmp_path: Path, game: str
) -> None:
    """AgentOdyssey's instructions quote their command (`pick up bag_1`); the bundled scripted
    policies type it."""
    import agentodyssey_pz
    from agentodyssey_pz.policies.registry import make_policy

    folder = tutorial_folder(tmp_path, published, game)
    env = agentodyssey_pz.parallel_env(world=str(folder), num_agents=2, max_cycles=100)
    observations, infos = env.reset(seed=5)
    policies = {}
    for i, (agent, name) in enumerate(
        zip(env.possible_agents, ["explorer", "trader"], strict=True)
    ):
        policies[agent] = make_policy(name)
        policies[agent].bind(env, agent, i)
    for _ in range(STEPS[game]):
        actions = {a: policies[a](observations[a], infos[a]) for a in env.agents}
        observations, _, _, _, infos = env.step(actions)
    assert all(env.game.agents[a].tutorial_passed for a in env.possible_agents)
    assert all(env.game.agents[a].tutorial_stage == STEPS[game] for a in env.possible_agents)
