"""Quest data loading: every mistake is reported with its JSON path; defaults and injection."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import damaged_copies, load_raw

from agentodyssey_pz.errors import QuestDataError
from agentodyssey_pz.resources import default_quest_file, resolve_world_file
from agentodyssey_pz.world.quest_records import VARIABLE, fill_placeholders
from agentodyssey_pz.world.quests import QuestFile, complete_quests, inject, load_quests
from agentodyssey_pz.world.validate import parse_definition


def tiny():
    return parse_definition(load_raw("tiny_world.json"))


def minimal_quest() -> dict[str, Any]:
    """A valid two-chapter quest for the tiny world (the base every mutation starts from)."""
    return {
        "main_quest": {
            "title": "Pears",
            "intro": "The orchard needs {helper}.",
            "guide": {"npc": "npc_q_guide", "names": ["Ada", "Bram"]},
            "npcs": [
                {"id": "npc_q_guide", "name": "q_guide", "role": "guide", "enemy": False},
                {
                    "id": "npc_q_boss",
                    "name": "q_boss",
                    "role": "boss",
                    "enemy": True,
                    "unique": False,
                    "combat_pattern": ["attack", "wait"],
                },
            ],
            "objects": [],
            "setup": [
                {"let": "helper", "value": "a steady hand"},
                {"let": "far", "pick_area": True},
                {"let": "pair", "pick_areas": 2},
                {"let": "spot", "farthest_of": "$pair"},
            ],
            "bosses": {"wasp_queen": {"npc": "npc_q_boss", "in": "$spot"}},
            "chapters": [
                {
                    "id": "one",
                    "title": "First",
                    "stages": [
                        {
                            "id": "go",
                            "objective": "Go to {far}.",
                            "done_all": [{"kind": "in_area", "area": "$far"}],
                            "on_complete": [
                                {"spawn_boss": "wasp_queen"},
                                {"give": {"obj_coin": 2}},
                            ],
                            "chapter_complete": True,
                        },
                    ],
                },
                {
                    "id": "two",
                    "title": "Second",
                    "stages": [
                        {
                            "id": "win",
                            "objective": "Win.",
                            "done_any": [
                                {"kind": "boss_already_defeated", "boss": "wasp_queen"},
                                {"kind": "stage_completed", "stage": "go"},
                            ],
                            "quest_complete": True,
                        },
                    ],
                },
            ],
        }
    }


def test_the_minimal_quest_loads() -> None:
    quests = load_quests(minimal_quest(), tiny())
    assert quests.main_quest is not None
    assert [c.id for c in quests.main_quest.chapters] == ["one", "two"]


def stage(data: dict[str, Any], chapter: int = 0, index: int = 0) -> dict[str, Any]:
    return data["main_quest"]["chapters"][chapter]["stages"][index]


MQ = "$.main_quest"
S0 = f"{MQ}.chapters[0].stages[0]"

# (mutation, expected path, message fragment)
MALFORMED: list[tuple[str, Callable[[dict], None], str, str]] = [
    ("unknown section", lambda d: d.update(side_quest={}), "$.side_quest", "unknown section"),
    ("missing title", lambda d: d["main_quest"].pop("title"), f"{MQ}.title", "missing"),
    ("typo key in stage", lambda d: stage(d).update(objetive="x"), S0, "objetive"),
    ("unknown condition kind", lambda d: stage(d)["done_all"][0].update(kind="teleported"),
     f"{S0}.done_all[0].kind", "unknown condition kind"),
    ("missing condition param", lambda d: stage(d)["done_all"][0].pop("area"),
     f"{S0}.done_all[0].area", "needs 'area'"),
    ("extra condition param", lambda d: stage(d)["done_all"][0].update(radius=3),
     f"{S0}.done_all[0].radius", "has no parameter 'radius'"),
    ("unknown variable", lambda d: stage(d)["done_all"][0].update(area="$nowhere"),
     f"{S0}.done_all[0].area", "unknown variable '$nowhere'"),
    ("variable of the wrong kind", lambda d: stage(d)["done_all"][0].update(area="$pair"),
     f"{S0}.done_all[0].area", "is a list of areas, expected an area"),
    ("unknown literal area", lambda d: stage(d)["done_all"][0].update(area="area_moon"),
     f"{S0}.done_all[0].area", "unknown area"),
    ("unknown object", lambda d: stage(d)["done_all"].append({"kind": "has_any_of",
                                                              "objects": ["obj_moon"]}),
     f"{S0}.done_all[1].objects", "unknown object 'obj_moon'"),
    ("unknown boss", lambda d: stage(d, 1)["done_any"][0].update(boss="dragon"),
     f"{MQ}.chapters[1].stages[0].done_any[0].boss", "unknown boss"),
    ("unknown stage", lambda d: stage(d, 1)["done_any"][1].update(stage="gone"),
     f"{MQ}.chapters[1].stages[0].done_any[1].stage", "unknown stage"),
    ("requires another chapter's stage", lambda d: stage(d, 1).update(requires=["go"]),
     f"{MQ}.chapters[1].stages[0].requires[0]", "not a stage of this chapter"),
    ("duplicate stage id", lambda d: stage(d, 1).update(id="go"),
     f"{MQ}.chapters[1].stages[0].id", "duplicate stage id 'go'"),
    ("effect with two fields", lambda d: stage(d)["on_complete"][0].update(give={"obj_coin": 1}),
     f"{S0}.on_complete[0]", "exactly one of"),
    ("give an unknown object", lambda d: stage(d)["on_complete"][1].update(give={"obj_moon": 1}),
     f"{S0}.on_complete[1].give.obj_moon", "unknown object"),
    ("give a non-positive count", lambda d: stage(d)["on_complete"][1].update(give={"obj_coin": 0}),
     f"{S0}.on_complete[1].give.obj_coin", "count must be positive"),
    ("spawn an unknown boss", lambda d: stage(d)["on_complete"][0].update(spawn_boss="dragon"),
     f"{S0}.on_complete[0].spawn_boss", "unknown boss"),
    ("restock without an NPC",
     lambda d: stage(d)["on_complete"].append({"restock": {"obj_pear": 1}}),
     f"{S0}.on_complete[2].npc", "expected a variable naming an NPC"),
    ("no quest_complete stage", lambda d: stage(d, 1).update(quest_complete=False),
     f"{MQ}.chapters[1]", "no stage of the last chapter has quest_complete"),
    ("setup with two sources", lambda d: d["main_quest"]["setup"][0].update(area="area_gate"),
     f"{MQ}.setup[0]", "needs exactly one of"),
    ("variable defined twice",
     lambda d: d["main_quest"]["setup"].append({"let": "far", "value": 1}),
     f"{MQ}.setup[4].let", "defined twice"),
    ("place an unknown NPC", lambda d: d["main_quest"]["setup"].append(
        {"let": "x", "place_npc": "npc_moon", "in": "$far"}),
     f"{MQ}.setup[4].place_npc", "unknown NPC"),
    ("farthest of an area", lambda d: d["main_quest"]["setup"][3].update(farthest_of="$far"),
     f"{MQ}.setup[3].farthest_of", "is an area, expected a list of areas"),
    ("guide name with a space", lambda d: d["main_quest"]["guide"].update(names=["Ada Lovelace"]),
     f"{MQ}.guide.names[0]", "must be one word"),
    ("unknown guide NPC", lambda d: d["main_quest"]["guide"].update(npc="npc_moon"),
     f"{MQ}.guide.npc", "unknown NPC"),
    ("template with an unknown variable", lambda d: stage(d).update(objective="Go to {moon}."),
     f"{S0}.objective", "unknown variable '{moon}'"),
    ("boss lair not an area", lambda d: d["main_quest"]["bosses"]["wasp_queen"].update(in_="x"),
     f"{MQ}.bosses.wasp_queen", "unknown key"),
    ("wrong type", lambda d: stage(d).update(chapter_complete="yes"),
     f"{S0}.chapter_complete", "expected true or false"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "path", "fragment"),
    [pytest.param(m, p, f, id=name) for name, m, p, f in MALFORMED],
)
def test_malformed_quest_data_is_refused_with_its_path(
    mutate: Callable[[dict], None], path: str, fragment: str
) -> None:
    data = minimal_quest()
    mutate(data)
    with pytest.raises(QuestDataError) as info:
        load_quests(data, tiny())
    problems = info.value.problems
    assert any(p.path == path and fragment in p.message for p in problems), "\n".join(
        map(str, problems)
    )


def test_several_mistakes_are_reported_at_once() -> None:
    """Shape errors (unknown keys, wrong types) are all reported together, and so is every
    reference and rule problem."""
    shape = minimal_quest()
    stage(shape).update(objetive="x")
    stage(shape, 1).update(quest_complete="no")
    shape["main_quest"].pop("title")
    with pytest.raises(QuestDataError) as info:
        load_quests(shape, tiny())
    assert len(info.value.problems) == 3, str(info.value)
    references = minimal_quest()
    stage(references)["done_all"][0].update(area="$nowhere")
    stage(references, 1).update(quest_complete=False)
    stage(references)["on_complete"][0].update(spawn_boss="dragon")
    with pytest.raises(QuestDataError) as info:
        load_quests(references, tiny())
    assert len(info.value.problems) == 3, str(info.value)
    assert "3 problems" in str(info.value)


def messages(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(QuestDataError) as info:
        load_quests(data, tiny())
    return [(p.path, p.message) for p in info.value.problems]


def test_a_shape_error_does_not_hide_reference_errors_in_other_parts() -> None:
    """One pass reports both kinds: the parts with the right shape are still checked."""
    data = minimal_quest()
    stage(data).update(objetive="x")  # shape: chapter 0 cannot be structured
    stage(data, 1)["done_any"][0].update(boss="dragon")  # reference, chapter 1
    data["main_quest"]["setup"].append({"let": "x", "place_npc": "npc_moon", "in": "$far"})
    data["main_quest"]["guide"].update(npc="npc_moon")
    found = messages(data)
    paths = [path for path, _ in found]
    assert paths == [
        S0,
        f"{MQ}.guide.npc",
        f"{MQ}.setup[4].place_npc",
        f"{MQ}.chapters[1].stages[0].done_any[0].boss",
    ], found


def test_names_declared_in_a_malformed_part_cause_no_unknown_name_errors() -> None:
    """A malformed setup step, boss, stage or quest object still declares its name: only the
    shape error is reported, not an "unknown" error at every use of the name."""
    data = minimal_quest()
    quest = data["main_quest"]
    quest["setup"][2].update(pick_areas="two")  # `$pair`, used by `$spot`
    quest["bosses"]["wasp_queen"].update(npc=7)  # spawned in chapter 0, checked in chapter 1
    stage(data).update(hint=3)  # stage `go`, required by chapter 1's stage_completed
    charm = copy.deepcopy(load_raw("tiny_world.json")["entities"]["objects"][0])
    quest["objects"] = [{**charm, "id": "obj_charm", "name": "charm", "category": 5}]
    stage(data, 1)["done_any"].append({"kind": "has_any_of", "objects": ["obj_charm"]})
    found = messages(data)
    assert sorted(path for path, _ in found) == [
        f"{MQ}.bosses.wasp_queen.npc",
        f"{S0}.hint",
        f"{MQ}.objects[0].category",
        f"{MQ}.setup[2].pick_areas",
    ], found


def test_the_checks_across_chapters_wait_until_every_chapter_has_its_shape() -> None:
    data = minimal_quest()
    stage(data, 1).update(quest_complete="no")  # the last chapter cannot be structured
    assert messages(data) == [(f"{MQ}.chapters[1].stages[0].quest_complete", ANY_BOOL)]


ANY_BOOL = "expected true or false, got a string ('no')"


@pytest.mark.parametrize("section", ["main_quest", "side_quests", "tutorial"])
@pytest.mark.parametrize(("junk", "kind"), [([], "a list"), ("x", "a string"), (3, "an integer")])
def test_a_section_that_is_not_an_object_is_refused_with_its_path(
    section: str, junk: Any, kind: str
) -> None:
    assert messages({section: junk}) == [(f"$.{section}", f"expected an object, got {kind}")]


@pytest.mark.parametrize("section", ["main_quest", "side_quests", "tutorial"])
def test_fuzzed_quest_data_is_refused_with_a_quest_data_error_never_a_crash(section: str) -> None:
    """1-3 values anywhere in a valid section replaced by junk of another type: the loader
    accepts the data or raises QuestDataError (before the fix, 69 of 4,500 such mutations
    crashed with TypeError or AttributeError)."""
    with open(default_quest_file(section), encoding="utf-8") as fh:
        base = json.load(fh)
    with open(resolve_world_file("glasswick"), encoding="utf-8") as fh:
        definition = parse_definition(json.load(fh))
    refused = 0
    for data in damaged_copies({section: base}, section, 300):
        try:
            load_quests(data, definition)
        except QuestDataError as exc:
            refused += 1
            assert exc.problems and all(p.path.startswith("$") for p in exc.problems)
    assert refused > 200  # junk almost always breaks something


def test_the_default_quest_fills_an_enabled_section_without_data() -> None:
    definition = tiny()
    filled = complete_quests(None, definition, ["main_quest"])
    with open(default_quest_file("main_quest"), encoding="utf-8") as fh:
        title = json.load(fh)["title"]
    assert filled.main_quest is not None and filled.main_quest.title == title
    assert filled.side_quests is None and filled.tutorial is None
    assert complete_quests(None, definition, []).main_quest is None


def test_injection_adds_the_quests_npcs_and_keeps_the_definition_valid() -> None:
    definition = tiny()
    quests = load_quests(minimal_quest(), definition)
    combined = inject(definition, quests)
    ids = [n.id for n in combined.entities.npcs]
    assert ids[-2:] == ["npc_q_guide", "npc_q_boss"]
    assert all(n.quest for n in combined.entities.npcs if n.id.startswith("npc_q_"))
    assert inject(definition, QuestFile()) is definition  # nothing to add: the same object
    assert [n.id for n in definition.entities.npcs] == ["npc_cider_seller", "npc_wasp"]


def test_a_quest_npc_may_copy_a_world_npcs_name() -> None:
    """Quest NPCs are never placed by synthesis and their instances get free names (the world's
    `add_npc`), so a quest copy of a world NPC (AgentOdyssey's quests bring such copies) loads."""
    data = minimal_quest()
    data["main_quest"]["npcs"][0]["name"] = "cider_seller"
    definition = tiny()
    combined = inject(definition, load_quests(data, definition))
    names = [n.name for n in combined.entities.npcs]
    assert names.count("cider_seller") == 2


def test_the_loader_never_changes_its_input() -> None:
    data = minimal_quest()
    before = copy.deepcopy(data)
    load_quests(data, tiny())
    assert data == before


def test_a_malformed_stage_does_not_hide_reference_errors_in_its_sibling_stages() -> None:
    """Salvage is per stage: the other stages of the same chapter are still checked, under their
    own indices, and the malformed stage's id still counts for `requires`."""
    data = minimal_quest()
    stages = data["main_quest"]["chapters"][0]["stages"]
    stages.insert(0, {"id": "warmup", "objetive": "x"})  # shape: this stage only
    stages.append(
        {
            "id": "later",
            "objective": "Later.",
            "requires": ["warmup"],
            "done_all": [{"kind": "in_area", "area": "area_moon"}],  # reference error
        }
    )
    found = messages(data)
    assert found == [
        (f"{S0}.objective", "missing required key"),
        (S0, "unknown key: objetive"),
        (f"{MQ}.chapters[0].stages[2].done_all[0].area", "unknown area 'area_moon'"),
    ], found


def test_a_chapter_left_with_no_well_formed_stage_is_not_called_empty() -> None:
    data = minimal_quest()
    stage(data).update(objetive="x")
    found = messages(data)
    assert not any("has no stages" in message for _, message in found), found


@pytest.mark.parametrize(
    "text",
    [
        "",
        "no placeholders at all",
        "Find {item} in {area}.",
        "{a}{b}",
        "{guide} waits",
        "ends with {x}",
        "{unknown} stays as it is",
        "not names: {1x} { x } {x-y} {} {{x}}",
        "twice: {x} and {x}",
    ],
)
def test_filling_placeholders_is_what_substituting_them_gives(text: str) -> None:
    """`fill_placeholders` (split once per text, filled per call) writes what `VARIABLE.sub`
    writes, unknown names left as they are."""
    values = {"item": "rope", "area": "Thornvale, square", "a": "1", "b": "2", "x": "X"}

    def value_of(name: str, raw: str) -> str:
        return values.get(name, raw)

    expected = VARIABLE.sub(lambda m: value_of(m.group(1), m.group(0)), text)
    assert fill_placeholders(text, value_of) == expected
