"""What the tutorial format can express beyond the default steps
(docs/world-format.md#113-tutorial).

T2: roles a section never uses stay unfilled, and the crafting check covers only the crafting steps
the section has; T3: `take_back` lists the kinds taken back; T4: `{extra_verbs}` in the completion
text lists the verbs the game's rule packs add (a test pack under tests/data/packs/); stand-ins play
roles a world cannot fill, and are added to the world only then.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from harness import DATA
from worlds_helper import bundled_definition

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import QuestDataError
from agentodyssey_pz.policies.mechanics import base_pack
from agentodyssey_pz.resources import default_quest_file, resolve_world_file
from agentodyssey_pz.world.agents import possession
from agentodyssey_pz.world.quests import load_quests
from agentodyssey_pz.world.schema import definition_to_dict
from agentodyssey_pz.world.validate import parse_definition

KEY = "tutorial_room"
WORLD = "glasswick"  # enables the tutorial; every role inferred (blank <- 0.5 bar, at the bench)
EXTRAS_PACK = DATA / "packs" / "tutorial_extras"
CRAFT_BLANK, PICK_UP_BLANK, CRAFT_KEY = 23, 24, 25  # indices of the default steps


def default_data() -> dict[str, Any]:
    with open(default_quest_file("tutorial"), encoding="utf-8") as fh:
        return json.load(fh)


def world_roles(world: str = WORLD) -> dict[str, str]:
    return load_quests({"tutorial": default_data()}, bundled_definition(world)).tutorial.roles


def problems_of(section: dict[str, Any], world: str = WORLD) -> list[str]:
    with pytest.raises(QuestDataError) as caught:
        load_quests({"tutorial": section}, bundled_definition(world))
    return [str(p) for p in caught.value.problems]


def loaded(section: dict[str, Any], world: str = WORLD) -> Any:
    return load_quests({"tutorial": section}, bundled_definition(world)).tutorial


def world_with(tmp_path: Path, section: dict[str, Any], world: str = WORLD) -> Path:
    """A folder world: the bundled world's definition with this tutorial section."""
    folder = tmp_path / "world"
    folder.mkdir()
    raw = json.loads(resolve_world_file(world).read_text(encoding="utf-8"))
    raw["custom_events"] = ["tutorial"]
    (folder / "world.json").write_text(json.dumps(raw), encoding="utf-8")
    (folder / "quests.json").write_text(json.dumps({"tutorial": section}), encoding="utf-8")
    return folder


def command(game: Game, agent_id: str = "agent_0") -> str:
    """What the agent's current instruction says to type (after its last colon)."""
    lessons = base_pack(game)("steps.tutorial_room")
    instruction = lessons.current_instruction(game, game.agents[agent_id])
    return instruction.rsplit(": ", 1)[-1].split(" (or ", 1)[0]


def play_to(game: Game, stage: int, agent_id: str = "agent_0") -> Any:
    result = None
    while game.agents[agent_id].tutorial_stage < stage:
        before = game.agents[agent_id].tutorial_stage
        result = game.tick({agent_id: command(game, agent_id)})
        assert game.agents[agent_id].tutorial_stage == before + 1, result.feedback(agent_id)
    return result


# ---------------------------------------------------------------------------- T2: used roles
def short_tail(roles: dict[str, str]) -> dict[str, Any]:
    """The default tutorial with remnant's kind of tail: the blank is put down by its id (no
    role names it), then only the key is crafted. No step names the bar, blank or furnace."""
    data = default_data()
    blank = roles["blank"]
    name = next(o.name for o in bundled_definition(WORLD).entities.objects if o.id == blank)
    data["steps"][22:26] = [
        {"id": "take_blank", "instruction": f"Material first: pick up {name}",
         "setup": [{"kind": "ground_at_least", "objects": {blank: 1, "$bench": 1}}],
         "done_any": [{"kind": "has_any_of", "objects": [blank]}]},
        {"id": "craft_key", "instruction": "At {bench_name}: craft 1 {key_name}",
         "setup": [{"kind": "ground_at_least", "objects": {"$bench": 1}}],
         "done_any": [{"kind": "event", "type": "object_crafted", "objects": ["$key"]}]},
    ]  # fmt: skip
    return data


def test_roles_a_section_never_uses_are_left_out_and_it_plays(tmp_path: Path) -> None:
    roles = world_roles()
    data = short_tail(roles)
    tutorial = loaded(data)
    assert set(tutorial.roles) == {"bag", "note", "coin", "pen", "log", "bench", "key"}
    assert len(tutorial.steps) == 26
    game = Game(world_with(tmp_path, data), 1)
    game.reset(0)
    play_to(game, 26)
    me = game.agents["agent_0"]
    assert me.tutorial_passed and me.area_id == game.world.spawn_area
    assert possession(game.world, me) == {}


def test_a_given_role_is_checked_even_when_no_step_uses_it() -> None:
    data = short_tail(world_roles())
    data["roles"] = {"furnace": "obj_coin"}
    assert problems_of(data) == [
        "$.tutorial.roles.furnace: 'obj_coin' cannot be the furnace: it is not a station"
    ]


def test_a_used_role_inferred_through_a_missing_one_says_so() -> None:
    """The furnace is the bar's station, the bar the blank's ingredient: a key without a recipe
    leaves nothing to infer them from."""
    data = default_data()
    data["steps"] = [
        *data["steps"][:22],
        {"id": "look", "instruction": "Look at {furnace_name}: inspect {furnace_name}",
         "done_any": [{"kind": "event", "type": "object_inspected", "objects": ["$furnace"]}]},
        data["steps"][-2], data["steps"][-1],
    ]  # fmt: skip
    data["roles"] = {"key": "obj_ironstone"}  # raw ore: no recipe
    assert problems_of(data) == [
        "$.tutorial.roles.furnace: no furnace given and none can be inferred: the bar it follows "
        "from is not there: the blank it follows from is not there: the key 'obj_ironstone' has "
        "no recipe"
    ]


# ---------------------------------------------------------------------------- T2: crafting steps
def test_a_station_no_setup_puts_down_is_an_error_at_each_crafting_step() -> None:
    roles = world_roles()
    data = default_data()
    for step in data["steps"]:
        for setup in step.get("setup", []):
            setup.get("objects", {}).pop("$bench", None)
    bench, blank, key = roles["bench"], roles["blank"], roles["key"]
    assert problems_of(data) == [
        f"$.tutorial.steps[{CRAFT_BLANK}]: step 'craft_blank' crafts '{blank}' at '{bench}', which "
        "no setup of this step or an earlier one puts down",
        f"$.tutorial.steps[{CRAFT_KEY}]: step 'craft_key' crafts '{key}' at '{bench}', which no "
        "setup of this step or an earlier one puts down",
    ]


def test_an_ingredient_crafted_by_an_earlier_step_counts_a_later_one_does_not() -> None:
    data = default_data()
    data["steps"][CRAFT_KEY]["setup"] = [data["steps"][CRAFT_KEY]["setup"][0]]  # no spare blank
    loaded(data)  # the blank is crafted two steps earlier
    data["steps"][CRAFT_BLANK], data["steps"][CRAFT_KEY] = (
        data["steps"][CRAFT_KEY],
        data["steps"][CRAFT_BLANK],
    )
    blank, key = world_roles()["blank"], world_roles()["key"]
    assert problems_of(data) == [
        f"$.tutorial.steps[{CRAFT_BLANK}]: step 'craft_key' crafts '{key}', whose recipe needs 1 "
        f"'{blank}': no setup of this step or an earlier one hands out that many, and no earlier "
        "step crafts it"
    ]


def test_a_crafting_step_needs_enough_units_and_a_recipe() -> None:
    """thornvale's bar needs 2 ironstone: handing out 1 is not enough; a coin has no recipe."""
    data = default_data()
    data["steps"][CRAFT_BLANK]["done_any"] = [
        {"kind": "event", "type": "object_crafted", "objects": ["$bar"]}
    ]
    data["steps"][CRAFT_BLANK]["setup"].append(
        {"kind": "give_if_lacking", "objects": {"obj_ironstone": 1}}
    )
    data["steps"][PICK_UP_BLANK]["done_any"] = [
        {"kind": "event", "type": "object_crafted", "objects": ["$coin"]}
    ]
    assert problems_of(data, "thornvale") == [
        "$.tutorial.steps[23]: step 'craft_blank' crafts 'obj_wrought_bar', whose recipe needs 2 "
        "'obj_ironstone': no setup of this step or an earlier one hands out that many, and no "
        "earlier step crafts it",
        "$.tutorial.steps[24]: step 'pick_up_blank' crafts 'obj_coin', which has no recipe",
    ]
    data["steps"][CRAFT_BLANK]["setup"][-1]["objects"]["obj_ironstone"] = 2
    assert problems_of(data, "thornvale") == [
        "$.tutorial.steps[24]: step 'pick_up_blank' crafts 'obj_coin', which has no recipe",
    ]


# ---------------------------------------------------------------------------- T3: take_back
def test_take_back_resolves_roles_and_refuses_unknown_objects() -> None:
    data = default_data()
    data["take_back"] = ["$coin", "$pen", "$coin", "obj_ironstone"]
    roles = world_roles()
    assert loaded(data).take_back == (roles["coin"], roles["pen"], "obj_ironstone")
    assert loaded(default_data()).take_back is None
    data["take_back"] = ["$lantern", "obj_nothing"]
    assert problems_of(data) == [
        "$.tutorial.take_back[0]: unknown object '$lantern'",
        "$.tutorial.take_back[1]: unknown object 'obj_nothing'",
    ]


def leave_with_a_spare_blank(tmp_path: Path, take_back: list[str] | None) -> tuple[Game, str]:
    """An agent crafts a second blank in its room (both count as handed out), keeps it in its
    inventory, and leaves. Returns the game and the blank's definition id."""
    data = default_data()
    if take_back is not None:
        data["take_back"] = take_back
    game = Game(world_with(tmp_path, data), 1)
    game.reset(0)
    roles, world = game.quests.tutorial.roles, game.world
    blank = world.objects[roles["blank"]].name
    play_to(game, PICK_UP_BLANK)
    game.tick({"agent_0": f"craft 1 {blank}"})  # the second half of the bar: a second blank
    play_to(game, CRAFT_KEY + 1)
    result = game.tick({"agent_0": f"store 1 {blank} inventory"})  # the spare, from the floor
    assert "tutorial.step_done" not in result.feedback_keys("agent_0")
    room = world.auxiliary[KEY]["rooms"]["agent_0"]
    assert room["given"][roles["blank"]] == 2
    play_to(game, 28)
    return game, roles["blank"]


def test_by_default_every_kind_handed_out_is_taken_back(tmp_path: Path) -> None:
    game, blank = leave_with_a_spare_blank(tmp_path, None)
    me, spawn = game.agents["agent_0"], game.world.areas[game.world.spawn_area]
    assert possession(game.world, me) == {}
    assert blank not in spawn.objects


def test_kinds_left_off_the_take_back_list_stay_with_the_agent(tmp_path: Path) -> None:
    """Without the blank and the bag on the list: the agent keeps its bag (worn, still its
    inventory) and the spare blank in it; the note in the bag is taken."""
    kinds = ["$note", "$coin", "$pen", "$log", "$bar", "$bench", "$furnace", "$key"]
    game, blank = leave_with_a_spare_blank(tmp_path, kinds)
    me, world = game.agents["agent_0"], game.world
    bag = me.inventory_id
    assert bag is not None and world.def_of(bag).id == game.quests.tutorial.roles["bag"]
    assert world.find_def(bag) is not None  # the room went, the bag did not
    assert possession(world, me) == {world.def_of(bag).id: 1, blank: 1}
    assert world.containers[bag].items == {blank: 1}


# ---------------------------------------------------------------------------- T4: extra verbs
def with_verb_list(data: dict[str, Any]) -> dict[str, Any]:
    data["texts"]["completed"] = "I am out.\nThis world also knows:{extra_verbs}\nGood luck."
    return data


def test_extra_verbs_may_only_be_used_in_the_completion_text() -> None:
    loaded(with_verb_list(default_data()))
    data = with_verb_list(default_data())
    data["texts"]["intro"] = "Verbs:{extra_verbs}"
    data["steps"][0]["instruction"] = "{extra_verbs}"
    assert problems_of(data) == [
        "$.tutorial.texts.intro: '{extra_verbs}' is only filled in texts.completed",
        "$.tutorial.steps[0].instruction: '{extra_verbs}' is only filled in texts.completed",
    ]


def completion_text(tmp_path: Path, packs: tuple[str, ...]) -> str:
    """What the agent is told on the tick it leaves its room, playing with these rule packs."""
    folder = world_with(tmp_path, with_verb_list(default_data()))
    game = Game(folder, 1, GameConfig(rule_packs=packs))
    game.reset(0)
    result = play_to(game, 28)
    assert "tutorial.completed" in result.feedback_keys("agent_0")
    return result.feedback("agent_0")


def test_the_completion_text_lists_the_verbs_the_packs_add(tmp_path: Path) -> None:
    """The test pack adds `whistle` and `juggle` and replaces the base `wait` (same name: not an
    extra verb); lines in name order, in each verb's usage form."""
    text = completion_text(tmp_path, (str(EXTRAS_PACK),))
    assert (
        "I am out.\nThis world also knows:\n- juggle <obj_name> <count>\n- whistle\nGood luck."
        in text
    )


def test_without_extra_verbs_the_line_holding_the_list_is_left_out(tmp_path: Path) -> None:
    text = completion_text(tmp_path, ())
    assert "I am out.\nGood luck." in text
    assert "also knows" not in text and "{extra_verbs}" not in text


# ---------------------------------------------------------------------------- stand-ins
def test_a_stand_in_is_added_only_when_the_world_cannot_fill_its_role() -> None:
    tutorial = loaded(default_data())
    assert tutorial.objects == () and tutorial.undistributable == ()
    taught = Game(WORLD, 1).definition
    plain = Game(WORLD, 1, GameConfig(tutorial=False)).definition
    assert (
        definition_to_dict(taught)["entities"]["objects"]
        == (definition_to_dict(plain)["entities"]["objects"])
    )  # (its NPCs differ: the tutorial adds its merchant and raider)


def without_level_1_bags(world: str = WORLD) -> Any:
    raw = json.loads(resolve_world_file(world).read_text(encoding="utf-8"))
    for obj in raw["entities"]["objects"]:
        if obj["category"] == "container":
            obj["level"] = 2
    return parse_definition(raw)


def test_a_world_without_a_level_1_bag_is_taught_with_the_stand_in() -> None:
    definition = without_level_1_bags()
    tutorial = load_quests({"tutorial": default_data()}, definition).tutorial
    stand_in = default_data()["stand_ins"]["bag"]
    assert tutorial.roles["bag"] == stand_in["id"]
    assert [o.id for o in tutorial.objects] == [stand_in["id"]]
    assert tutorial.undistributable == (stand_in["id"],)
    assert tutorial.roles["note"] == world_roles()["note"]  # the others are the world's own


def test_stand_ins_are_checked() -> None:
    data = default_data()
    data["stand_ins"]["lantern"] = copy.deepcopy(data["stand_ins"]["pen"])
    data["stand_ins"]["bag"] = data["stand_ins"]["pen"]  # a pen cannot be a bag
    with pytest.raises(QuestDataError) as caught:
        load_quests({"tutorial": data}, without_level_1_bags())
    assert [str(p) for p in caught.value.problems] == [
        "$.tutorial.stand_ins.lantern: unknown role (expected bag, note, coin, pen, log, bar, "
        "bench, furnace, blank, key)",
        "$.tutorial.roles.bag: the stand-in 'obj_tutorial_chalk' cannot be the bag: it is not a "
        "container",
    ]


def test_the_default_stand_ins_are_valid_objects_of_their_roles() -> None:
    stand_ins = default_data()["stand_ins"]
    assert sorted(stand_ins) == ["bag", "log", "note", "pen"]
    for role, record in stand_ins.items():
        assert re.fullmatch(r"obj_tutorial_\w+", record["id"]), role
        assert record["name"] == record["id"].removeprefix("obj_")
