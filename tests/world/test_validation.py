"""World-definition validation: a malformed definition is refused with the JSON path of the fault.

docs/world-format.md#common-mistakes-the-validator-catches. Malformed definitions are built from the
tiny world (tests/data/tiny_world.json) by one small mutation each, so a failure points at one rule.

Tiny-world indexes used below: objects 0 coin, 1 pear, 2 press (station), 3 cider, 4 key,
5 crate (container), 6 label (writable), 7 quill, 8 pruner (weapon), 9 apron; NPCs 0 cider_seller
(unique merchant), 1 wasp (enemy); places 0 orchard (areas gate = spawn, rows), 1 cellar (vats,
vault).
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import damaged_copies, load_raw
from worlds_helper import bundled_worlds

from agentodyssey_pz.cli import main as cli_main
from agentodyssey_pz.errors import Problem, WorldDefinitionError
from agentodyssey_pz.resources import resolve_world_file
from agentodyssey_pz.world.schema import definition_to_dict
from agentodyssey_pz.world.summary import crafting_depths
from agentodyssey_pz.world.validate import (
    check_definition,
    load_definition,
    parse_definition,
    read_json,
)
from agentodyssey_pz.world.world import World

ROOT = Path(__file__).resolve().parents[2]

Raw = dict[str, Any]
Mutation = Callable[[Raw], None]


# ------------------------------------------------------------------ mutation helpers
def _walk(raw: Any, keys: tuple[Any, ...]) -> Any:
    for key in keys:
        raw = raw[key]
    return raw


def drop(*keys: Any) -> Mutation:
    def mutate(raw: Raw) -> None:
        del _walk(raw, keys[:-1])[keys[-1]]

    return mutate


def put(*keys: Any, value: Any) -> Mutation:
    def mutate(raw: Raw) -> None:
        _walk(raw, keys[:-1])[keys[-1]] = copy.deepcopy(value)

    return mutate


def append(*keys: Any, value: Any) -> Mutation:
    def mutate(raw: Raw) -> None:
        _walk(raw, keys).append(copy.deepcopy(value))

    return mutate


def combine(*mutations: Mutation) -> Mutation:
    def mutate(raw: Raw) -> None:
        for m in mutations:
            m(raw)

    return mutate


def replace_all(value: Any) -> Mutation:
    """Make the whole file a different JSON value (the mutation returns it)."""

    def mutate(raw: Raw) -> None:
        raw.clear()
        raw["__replace__"] = value

    return mutate


def rename_id(old: str, new: str) -> Mutation:
    """Rename an id everywhere in the file (definitions and references alike)."""

    def mutate(raw: Raw) -> None:
        renamed = json.loads(json.dumps(raw).replace(f'"{old}"', f'"{new}"'))
        raw.clear()
        raw.update(renamed)

    return mutate


def mutated(mutation: Mutation) -> Any:
    raw = load_raw("tiny_world.json")
    mutation(raw)
    return raw.get("__replace__", raw)


OBJ = ("entities", "objects")
NPC = ("entities", "npcs")
PLACE = ("entities", "places")
SPAWN = ("initializations", "spawn")


def graph(*edges: tuple[str, str] | dict[str, Any]) -> Mutation:
    conns = [e if isinstance(e, dict) else {"from": e[0], "to": e[1]} for e in edges]
    return put("graph", value={"connections": conns})


# A valid chain over the tiny world's four areas, used as the base of the graph mutations.
CHAIN = [("area_gate", "area_rows"), ("area_rows", "area_vats"), ("area_vats", "area_vault")]
# The chain with its last path locked without a key.
KEYLESS_LOCK = graph(*CHAIN[:2], {"from": "area_vats", "to": "area_vault", "locked": True})

FIG = {
    "type": "object",
    "id": "obj_fig",
    "name": "fig",
    "category": "material",
    "usage": "craft",
    "value": 1,
    "size": 1,
    "level": 1,
    "craft": {"ingredients": {}, "dependencies": []},
}

# (mutation, expected JSON path, expected message fragment); every case must be an *error*.
MALFORMED = [
    # --- missing required keys
    pytest.param(
        drop(*PLACE, 0, "id"), "$.entities.places[0].id", "missing required key", id="place-id"
    ),
    # `features.rule_packs` names bundled packs only: never a path, never an unknown name.
    pytest.param(
        put("features", value={"rule_packs": ["../../evil"]}),
        "$.features.rule_packs[0]",
        "unknown bundled rule pack '../../evil' (bundled: courts, living_world, lockpicking, "
        "outbreak, saltglass, scavenging, shifting_paths, war_machines)",
        id="rule-pack-path",
    ),
    pytest.param(
        put("features", value={"rule_packs": ["base"]}),
        "$.features.rule_packs[0]",
        "unknown bundled rule pack 'base'",
        id="rule-pack-base",
    ),
    pytest.param(
        put("features", value={"rule_packs": "lockpicking"}),
        "$.features.rule_packs",
        "expected a list",
        id="rule-packs-not-a-list",
    ),
    # `type` is stored, not interpreted, but required in world files.
    pytest.param(
        drop(*PLACE, 0, "type"),
        "$.entities.places[0].type",
        "missing required key",
        id="place-type",
    ),
    pytest.param(
        drop(*PLACE, 0, "areas", 1, "type"),
        "$.entities.places[0].areas[1].type",
        "missing required key",
        id="area-type",
    ),
    pytest.param(
        drop(*OBJ, 1, "category"),
        "$.entities.objects[1].category",
        "missing required key",
        id="obj-category",
    ),
    pytest.param(
        drop(*OBJ, 1, "size"), "$.entities.objects[1].size", "missing required key", id="obj-size"
    ),
    pytest.param(
        drop(*NPC, 0, "role"), "$.entities.npcs[0].role", "missing required key", id="npc-role"
    ),
    pytest.param(
        drop("initializations"), "$.initializations", "missing required key", id="initializations"
    ),
    pytest.param(drop("entities"), "$.entities", "missing required key", id="entities"),
    pytest.param(
        drop(*PLACE, 1, "areas", 1, "name"),
        "$.entities.places[1].areas[1].name",
        "missing required key",
        id="area-name",
    ),
    pytest.param(
        drop(*PLACE, 0, "areas", 1, "level"),
        "$.entities.places[0].areas[1].level",
        "needs a level",
        id="area-level",
    ),
    pytest.param(
        drop(*SPAWN, "area"),
        "$.initializations.spawn.area",
        "missing required key",
        id="spawn-area",
    ),
    pytest.param(drop(*SPAWN), "$.initializations.spawn", "missing required key", id="spawn"),
    pytest.param(
        graph(*CHAIN, {"from": "area_gate"}),
        "$.graph.connections[3].to",
        "missing required key",
        id="edge-to",
    ),
    # --- wrong types (never coerced)
    pytest.param(
        put(*OBJ, 1, "level", value="2"),
        "$.entities.objects[1].level",
        "expected an integer, got a string",
        id="str-for-int",
    ),
    pytest.param(
        put(*OBJ, 1, "value", value=True),
        "$.entities.objects[1].value",
        "expected an integer, got a boolean",
        id="bool-for-int",
    ),
    pytest.param(
        put(*OBJ, 1, "size", value=1.5),
        "$.entities.objects[1].size",
        "expected an integer, got a number",
        id="float-for-int",
    ),
    pytest.param(
        put(*OBJ, 3, "craft", value=[]),
        "$.entities.objects[3].craft",
        "expected an object, got a list",
        id="list-for-object",
    ),
    pytest.param(
        put("initializations", value=[]),
        "$.initializations",
        "expected an object, got a list",
        id="list-for-initializations",
    ),
    pytest.param(
        put(*PLACE, 0, "unlocked", value=1),
        "$.entities.places[0].unlocked",
        "expected true or false",
        id="int-for-bool",
    ),
    pytest.param(
        put(*OBJ, 7, "name", value=None),
        "$.entities.objects[7].name",
        "expected a string, got null",
        id="null-for-str",
    ),
    pytest.param(
        put("custom_events", value="main_quest"),
        "$.custom_events",
        "expected a list",
        id="str-for-list",
    ),
    pytest.param(
        put(*NPC, 0, "objects", value={}),
        "$.entities.npcs[0].objects",
        "expected a list, got an object",
        id="object-for-list",
    ),
    pytest.param(
        put("entities", "objects", value={}),
        "$.entities.objects",
        "expected a list",
        id="objects-dict",
    ),
    pytest.param(replace_all([1, 2]), "$", "must be a JSON object", id="top-level-list"),
    # --- duplicates
    pytest.param(
        put(*OBJ, 9, "id", value="obj_pear"),
        "$.entities.objects[9].id",
        "duplicate object id 'obj_pear' (first at $.entities.objects[1].id)",
        id="dup-object-id",
    ),
    pytest.param(
        put(*NPC, 1, "id", value="npc_cider_seller"),
        "$.entities.npcs[1].id",
        "duplicate NPC id 'npc_cider_seller'",
        id="dup-npc-id",
    ),
    pytest.param(
        put(*PLACE, 1, "areas", 1, "id", value="area_rows"),
        "$.entities.places[1].areas[1].id",
        "duplicate place or area id 'area_rows' (first at $.entities.places[0].areas[1].id)",
        id="dup-area-id",
    ),
    pytest.param(
        put(*PLACE, 1, "areas", 1, "id", value="place_orchard"),
        "$.entities.places[1].areas[1].id",
        "duplicate place or area id 'place_orchard'",
        id="area-id-is-place-id",
    ),
    pytest.param(
        put(*OBJ, 9, "name", value="pear"),
        "$.entities.objects[9].name",
        "duplicate object name 'pear' (first at $.entities.objects[1].name)",
        id="dup-object-name",
    ),
    pytest.param(
        put(*NPC, 1, "name", value="cider_seller"),
        "$.entities.npcs[1].name",
        "duplicate NPC name 'cider_seller'",
        id="dup-npc-name",
    ),
    pytest.param(
        put(*PLACE, 1, "areas", 1, "name", value="gate"),
        "$.entities.places[1].areas[1].name",
        "duplicate area name 'gate'",
        id="dup-area-name",
    ),
    # --- unknown ids
    pytest.param(
        put(*OBJ, 3, "craft", "ingredients", "obj_ghost", value=1),
        "$.entities.objects[3].craft.ingredients.obj_ghost",
        "unknown ingredient 'obj_ghost'",
        id="unknown-ingredient",
    ),
    pytest.param(
        append(*OBJ, 3, "craft", "dependencies", value="obj_anvil"),
        "$.entities.objects[3].craft.dependencies[1]",
        "unknown station 'obj_anvil'",
        id="unknown-dependency",
    ),
    pytest.param(
        append(*NPC, 0, "objects", value="obj_ghost"),
        "$.entities.npcs[0].objects[3]",
        "unknown object 'obj_ghost'",
        id="unknown-npc-object",
    ),
    pytest.param(
        put(*SPAWN, "objects", "obj_ghost", value=1),
        "$.initializations.spawn.objects.obj_ghost",
        "unknown object 'obj_ghost'",
        id="unknown-spawn-object",
    ),
    pytest.param(
        put(*SPAWN, "npcs", "npc_ghost", value=1),
        "$.initializations.spawn.npcs.npc_ghost",
        "unknown NPC 'npc_ghost'",
        id="unknown-spawn-npc",
    ),
    pytest.param(
        put(*SPAWN, "area", value="area_ghost"),
        "$.initializations.spawn.area",
        "unknown area 'area_ghost'",
        id="unknown-spawn-area",
    ),
    pytest.param(
        put(*SPAWN, "area", value="place_orchard"),
        "$.initializations.spawn.area",
        "'place_orchard' is a place, not an area",
        id="spawn-area-is-place",
    ),
    pytest.param(
        put("initializations", "undistributable_objects", value=["obj_pear", "obj_ghost"]),
        "$.initializations.undistributable_objects[1]",
        "unknown object 'obj_ghost'",
        id="unknown-undistributable",
    ),
    pytest.param(
        graph(*CHAIN, ("area_ghost", "area_vats")),
        "$.graph.connections[3].from",
        "unknown area 'area_ghost'",
        id="unknown-edge-from",
    ),
    pytest.param(
        graph(*CHAIN, ("area_vats", "area_ghost")),
        "$.graph.connections[3].to",
        "unknown area 'area_ghost'",
        id="unknown-edge-to",
    ),
    pytest.param(  # paths join areas: a place there was "unknown area", hiding the mix-up
        graph(*CHAIN, ("place_orchard", "area_vats")),
        "$.graph.connections[3].from",
        "'place_orchard' is a place, not an area",
        id="edge-from-a-place",
    ),
    pytest.param(
        graph(
            *CHAIN[:2],
            {"from": "area_vats", "to": "area_vault", "locked": True, "key": "obj_ghost"},
        ),
        "$.graph.connections[2].key",
        "unknown object 'obj_ghost'",
        id="unknown-edge-key",
    ),
    pytest.param(
        put(*OBJ, 5, "inventory", value={"obj_ghost": 1}),
        "$.entities.objects[5].inventory.obj_ghost",
        "unknown object 'obj_ghost' in its inventory",
        id="unknown-container-content",
    ),
    # --- non-positive quantities and other numbers
    pytest.param(
        put(*SPAWN, "objects", "obj_coin", value=0),
        "$.initializations.spawn.objects.obj_coin",
        "count must be positive, got 0",
        id="spawn-count-0",
    ),
    pytest.param(
        put(*SPAWN, "npcs", "npc_wasp", value=0),
        "$.initializations.spawn.npcs.npc_wasp",
        "count must be positive, got 0",
        id="spawn-npc-count-0",
    ),
    pytest.param(
        put(*OBJ, 3, "craft", "ingredients", "obj_pear", value=0),
        "$.entities.objects[3].craft.ingredients.obj_pear",
        "ingredient quantity must be positive, got 0",
        id="ingredient-0",
    ),
    pytest.param(
        put(*OBJ, 3, "craft", "ingredients", "obj_pear", value=-1.5),
        "$.entities.objects[3].craft.ingredients.obj_pear",
        "ingredient quantity must be positive, got -1.5",
        id="ingredient-negative",
    ),
    pytest.param(
        put(*OBJ, 1, "value", value=-3),
        "$.entities.objects[1].value",
        "value must be >= 0, got -3",
        id="negative-value",
    ),
    pytest.param(
        put(*PLACE, 0, "areas", 1, "level", value=0),
        "$.entities.places[0].areas[1].level",
        "area level must be >= 1, got 0",
        id="area-level-0",
    ),
    pytest.param(
        put(*NPC, 1, "base_hp", value=0),
        "$.entities.npcs[1].base_hp",
        "an NPC needs positive health",
        id="npc-hp-0",
    ),
    pytest.param(
        put(*SPAWN, "npcs", "npc_cider_seller", value=2),
        "$.initializations.spawn.npcs.npc_cider_seller",
        "unique NPC 'npc_cider_seller' can spawn once, not 2",
        id="unique-npc-twice",
    ),
    # --- identifiers and names
    pytest.param(
        put(*OBJ, 9, "id", value="obj_apron_2"),
        "$.entities.objects[9].id",
        "object id 'obj_apron_2' ends in _<digits>",
        id="object-id-digits",
    ),
    pytest.param(
        put(*NPC, 1, "id", value="npc_wasp_3"),
        "$.entities.npcs[1].id",
        "NPC id 'npc_wasp_3' ends in _<digits>",
        id="npc-id-digits",
    ),
    pytest.param(
        put(*OBJ, 7, "name", value="goose quill"),
        "$.entities.objects[7].name",
        "contains whitespace",
        id="name-whitespace",
    ),
    pytest.param(
        put(*PLACE, 0, "areas", 1, "name", value="pear rows"),
        "$.entities.places[0].areas[1].name",
        "contains whitespace",
        id="area-name-whitespace",
    ),
    pytest.param(
        put(*OBJ, 7, "name", value=""),
        "$.entities.objects[7].name",
        "must not be empty",
        id="name-empty",
    ),
    pytest.param(
        put(*OBJ, 7, "name", value="label_0"),
        "$.entities.objects[7].name",
        "object name 'label_0' looks like an instance of 'label'",
        id="name-like-instance",
    ),
    pytest.param(
        put(*NPC, 0, "name", value="wasp_1"),
        "$.entities.npcs[0].name",
        "NPC name 'wasp_1' looks like an instance of 'wasp'",
        id="npc-name-like-instance",
    ),
    # --- places and areas
    pytest.param(
        put(*PLACE, 1, "areas", value=[]),
        "$.entities.places[1].areas",
        "has no areas",
        id="place-no-areas",
    ),
    pytest.param(
        combine(drop(*PLACE, 1), drop(*PLACE, 0, "areas", 1)),
        "$.entities.places",
        "at least one area besides the spawn area",
        id="only-spawn-area",
    ),
    # --- per-variant requirements
    pytest.param(
        drop(*OBJ, 5, "capacity"),
        "$.entities.objects[5].capacity",
        "containers need 'capacity'",
        id="container-capacity",
    ),
    pytest.param(
        drop(*OBJ, 5, "level"),
        "$.entities.objects[5].level",
        "containers need 'level'",
        id="container-level",
    ),
    pytest.param(
        drop(*OBJ, 6, "max_text_length"),
        "$.entities.objects[6].max_text_length",
        "writables need 'max_text_length'",
        id="writable-max-text-length",
    ),
    pytest.param(
        put(*NPC, 1, "combat_pattern", value=["attack", "flee"]),
        "$.entities.npcs[1].combat_pattern[1]",
        "'flee' is not one of attack, defend, wait",
        id="combat-pattern",
    ),
    # --- recipes and graph shape
    pytest.param(
        put(*OBJ, 3, "craft", "ingredients", "obj_cider", value=1),
        "$.entities.objects[3].craft.ingredients.obj_cider",
        "cannot be its own ingredient",
        id="self-ingredient",
    ),
    pytest.param(
        put(*OBJ, 1, "craft", "ingredients", "obj_key", value=1),
        "$.entities.objects",
        "crafting recipes form a cycle: ",
        id="recipe-cycle",
    ),
    pytest.param(
        graph(*CHAIN, ("area_vats", "area_vats")),
        "$.graph.connections[3]",
        "a path from 'area_vats' to itself",
        id="graph-self-loop",
    ),
]


def _problems(raw: Any) -> tuple[Any, list[Problem]]:
    return check_definition(raw)


def test_tiny_world_is_clean(tiny_raw: Raw) -> None:
    """The base of every mutation has no problem at all (so each problem is the mutation's)."""
    definition, problems = check_definition(tiny_raw)
    assert definition is not None
    assert problems == []


@pytest.mark.parametrize("world", bundled_worlds())
def test_fuzzed_definitions_are_refused_with_a_definition_error_never_a_crash(world: str) -> None:
    """1-3 values anywhere in a bundled world replaced by junk of another type: the loader
    accepts the definition or raises WorldDefinitionError naming JSON paths."""
    with open(resolve_world_file(world), encoding="utf-8") as fh:
        base = json.load(fh)
    refused = 0
    for raw in damaged_copies(base, world, 150):
        try:
            parse_definition(raw)
        except WorldDefinitionError as exc:
            refused += 1
            assert all(p.path.startswith("$") for p in exc.problems)
    assert refused > 75  # junk mostly breaks something (some values are free text)


@pytest.mark.parametrize(("mutation", "path", "fragment"), MALFORMED)
def test_malformed_definition_is_refused(mutation: Mutation, path: str, fragment: str) -> None:
    raw = mutated(mutation)
    with pytest.raises(WorldDefinitionError) as info:
        parse_definition(raw, source="mutant.json")
    problems = info.value.problems
    assert all(p.severity == "error" for p in problems)
    matches = [p for p in problems if p.path == path and fragment in p.message]
    assert matches, f"no error at {path} containing {fragment!r}; got:\n{info.value}"
    # The rendered message names the file and carries the path, so a user can find the fault.
    assert "mutant.json" in str(info.value)
    assert f"{path}: " in str(info.value)


def test_several_problems_are_reported_in_one_error() -> None:
    raw = mutated(
        combine(
            drop(*OBJ, 1, "category"),
            put(*OBJ, 2, "level", value="x"),
            append(*NPC, 0, "objects", value="obj_ghost"),
            put(*SPAWN, "area", value="area_ghost"),
            put(*OBJ, 3, "craft", "ingredients", "obj_pear", value=0),
        )
    )
    with pytest.raises(WorldDefinitionError) as info:
        parse_definition(raw)
    assert sorted(p.path for p in info.value.problems) == sorted(
        [
            "$.entities.objects[1].category",
            "$.entities.objects[2].level",
            "$.entities.npcs[0].objects[3]",
            "$.initializations.spawn.area",
            "$.entities.objects[3].craft.ingredients.obj_pear",
        ]
    )
    assert len(info.value.problems) == 5
    assert str(info.value).splitlines()[0] == "invalid world definition: 5 problems"


def test_a_record_with_a_type_error_does_not_cascade() -> None:
    """The bad record's id still counts as declared: no 'unknown object' errors elsewhere."""
    raw = mutated(put(*OBJ, 1, "level", value="one"))  # pear: referenced by recipes and NPC loot
    _, problems = _problems(raw)
    assert [p.path for p in problems] == ["$.entities.objects[1].level"]


def test_path_notation_for_map_keys_is_the_same_for_every_check() -> None:
    _, type_problems = _problems(mutated(put(*SPAWN, "objects", "obj_coin", value=1.5)))
    _, count_problems = _problems(mutated(put(*SPAWN, "objects", "obj_coin", value=0)))
    assert [p.path for p in type_problems] == [p.path for p in count_problems]


def _cycle_message(hash_seed: str | None = None) -> str:
    raw = mutated(put(*OBJ, 1, "craft", "ingredients", "obj_key", value=1))
    if hash_seed is None:
        _, problems = _problems(raw)
        (problem,) = problems
        return problem.message
    # Another interpreter with a fixed string-hash seed, to see whether set order leaks.
    code = (
        "import json, sys\n"
        "from agentodyssey_pz.world.validate import check_definition\n"
        "_, problems = check_definition(json.loads(sys.stdin.read()))\n"
        "print(problems[0].message)\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(raw),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip()


def test_recipe_cycle_message_names_the_cycle_in_recipe_order() -> None:
    message = _cycle_message()
    prefix = "crafting recipes form a cycle: "
    assert message.startswith(prefix)
    chain = message[len(prefix) :].split(" -> ")
    assert chain[0] == chain[-1]
    assert set(chain) == {"obj_pear", "obj_cider", "obj_key"}
    # Each step is "ingredient -> product": pear -> cider -> key -> pear.
    product_of = {"obj_pear": "obj_cider", "obj_cider": "obj_key", "obj_key": "obj_pear"}
    assert all(product_of[a] == b for a, b in itertools.pairwise(chain))


def test_recipe_cycle_message_is_the_same_in_every_process() -> None:
    # Hash seeds 1 and 2 were observed to start the cycle at different objects.
    assert _cycle_message("1") == _cycle_message("2")


def test_json_syntax_error_reports_line_and_column(tmp_path) -> None:
    path = tmp_path / "broken.json"
    # Line 3, column 16 is the stray comma after the opening bracket.
    path.write_text('{\n  "entities": {\n    "places": [,]\n  }\n}\n', encoding="utf-8")
    with pytest.raises(WorldDefinitionError) as info:
        read_json(path)
    (problem,) = info.value.problems
    assert problem.path == "$"
    assert "line 3, column 16" in problem.message
    assert str(path) in str(info.value)
    with pytest.raises(WorldDefinitionError, match="line 3, column 16"):
        load_definition(path)


def test_missing_file_is_a_definition_error(tmp_path) -> None:
    with pytest.raises(WorldDefinitionError, match="cannot read file"):
        load_definition(tmp_path / "absent.json")


# ------------------------------------------------------------------ unknown keys round trip
def _raw_world(name: str) -> Raw:
    if name == "tiny":
        return load_raw("tiny_world.json")
    return json.loads(resolve_world_file(name).read_text(encoding="utf-8"))


def _assert_contains(out: Any, raw: Any, where: str = "$") -> None:
    """Every key and value of `raw` is in `out` (defaults may have been added)."""
    if isinstance(raw, dict):
        assert isinstance(out, dict), where
        for key, value in raw.items():
            assert key in out, f"{where}.{key} lost"
            _assert_contains(out[key], value, f"{where}.{key}")
    elif isinstance(raw, list):
        assert isinstance(out, list) and len(out) == len(raw), where
        for i, (o, r) in enumerate(zip(out, raw, strict=True)):
            _assert_contains(o, r, f"{where}[{i}]")
    else:
        assert out == raw and type(out) is type(raw), f"{where}: {raw!r} became {out!r}"


@pytest.mark.parametrize("world", ["tiny", *bundled_worlds()])
def test_unknown_keys_survive_a_round_trip(world: str) -> None:
    raw = _raw_world(world)
    raw["x_top"] = {"nested": [1, 2.5, None]}
    raw["entities"]["objects"][0]["x_obj"] = "glint"
    raw["entities"]["npcs"][-1]["x_npc"] = [1, "two"]
    raw["entities"]["places"][-1]["x_place"] = True
    raw["entities"]["places"][0]["areas"][-1]["x_area"] = {"depth": 3}
    original = copy.deepcopy(raw)
    definition = parse_definition(raw)
    assert raw == original  # parsing never mutates its input
    out = definition_to_dict(definition)
    assert out["x_top"] == {"nested": [1, 2.5, None]}
    assert out["entities"]["objects"][0]["x_obj"] == "glint"
    assert out["entities"]["npcs"][-1]["x_npc"] == [1, "two"]
    assert out["entities"]["places"][-1]["x_place"] is True
    assert out["entities"]["places"][0]["areas"][-1]["x_area"] == {"depth": 3}
    _assert_contains(out, original)  # nothing of the file is lost, unknown or known
    again = parse_definition(json.loads(json.dumps(out)))
    assert again == definition
    assert definition_to_dict(again) == out


# ------------------------------------------------------------------ warnings
# (mutation, expected path, expected fragment): the definition loads, with this warning.
WARNINGS = [
    pytest.param(
        append(*OBJ, 1, "areas", value="area_gate"),
        "$.entities.objects[1].areas[2]",
        "the spawn area is never distributed into",
        id="object-area-is-spawn",
    ),
    pytest.param(
        append(*OBJ, 1, "areas", value="area_moon"),
        "$.entities.objects[1].areas[2]",
        "'area_moon' is not an area",
        id="object-area-unknown",
    ),
    pytest.param(
        put(*NPC, 1, "hp", value=99),
        "$.entities.npcs[1].hp",
        "'hp' is an instance-form key",
        id="npc-hp-key",
    ),
    pytest.param(
        put(*NPC, 1, "mood", value="grumpy"),
        "$.entities.npcs[1].mood",
        "unknown key 'mood'",
        id="npc-unknown-key",
    ),
    pytest.param(
        put(*OBJ, 7, "value", value=0), "$.entities.objects[7].value", "value 0", id="value-0"
    ),
    pytest.param(
        put("custom_events", value=["main_quest", "fireworks"]),
        "$.custom_events[1]",
        "unknown custom event 'fireworks'",
        id="unknown-custom-event",
    ),
    pytest.param(
        put("x_top", value=1),
        "$.x_top",
        "unknown top-level key 'x_top'",
        id="unknown-top-level-key",
    ),
    pytest.param(
        KEYLESS_LOCK,
        "$.graph.connections[2].locked",
        "a locked path without a key (it opens with obj_key)",
        id="locked-without-key",
    ),
    pytest.param(
        combine(
            rename_id("obj_key", "obj_latchkey"),
            KEYLESS_LOCK,
        ),
        "$.graph.connections[2].locked",
        "only obj_key would open it, and this world has none",
        id="locked-without-key-and-no-obj-key",
    ),
    pytest.param(
        combine(
            rename_id("obj_key", "obj_latchkey"),
            put("features", value={"rule_packs": ["lockpicking"]}),
            KEYLESS_LOCK,
        ),
        "$.graph.connections[2].locked",
        "this world has no obj_key: only its rule packs' verbs can open it",
        id="locked-without-key-picked-only",
    ),
    pytest.param(
        graph(
            *CHAIN[:2], {"from": "area_vats", "to": "area_vault", "locked": True, "key": "obj_pear"}
        ),
        "$.graph.connections[2].key",
        "does not have usage 'unlock'",
        id="key-not-unlock",
    ),
    pytest.param(
        graph(("area_gate", "area_rows"), ("area_vats", "area_vault")),
        "$.graph",
        "area 'area_vault' cannot be reached from the spawn area",
        id="unreachable-area",
    ),
    pytest.param(
        put("graph", value={"connections": []}),
        "$.graph.connections",
        "random connectivity is used instead",
        id="empty-graph",
    ),
    pytest.param(
        append(*OBJ, value=FIG),
        "$.entities.objects[10]",
        "never an ingredient and never dropped",
        id="unused-raw-material",
    ),
]


@pytest.mark.parametrize(("mutation", "path", "fragment"), WARNINGS)
def test_suspicious_definition_loads_with_a_warning(
    mutation: Mutation, path: str, fragment: str
) -> None:
    definition, problems = check_definition(mutated(mutation))
    assert definition is not None, [str(p) for p in problems]
    assert all(p.severity == "warning" for p in problems)
    assert any(p.path == path and fragment in p.message for p in problems), [
        str(p) for p in problems
    ]


def test_reserved_top_level_recipe_keys_are_kept_but_never_read() -> None:
    """`craft_ingredients` / `craft_dependencies` at an object's top level are reserved
    names (never extras) and not read: only the nested `craft` block makes a recipe."""
    raw = mutated(put(*OBJ, 1, "craft_ingredients", value={"obj_coin": 1}))
    raw["entities"]["objects"][1]["craft_dependencies"] = ["obj_press"]
    definition = parse_definition(raw)
    obj = definition.entities.objects[1]
    assert obj.extras == {}
    assert (obj.craft_ingredients, obj.craft_dependencies) == ({"obj_coin": 1}, ["obj_press"])
    assert obj.craft == parse_definition(_raw_world("tiny")).entities.objects[1].craft
    out = definition_to_dict(definition)["entities"]["objects"][1]
    assert out["craft_ingredients"] == {"obj_coin": 1}


def test_attack_power_on_an_object_is_read_as_attack() -> None:
    def rename(raw: Raw) -> None:
        pruner = raw["entities"]["objects"][8]
        del pruner["attack"]
        pruner["attack_power"] = 9

    definition, problems = check_definition(mutated(rename))
    assert definition is not None
    assert [(p.severity, p.path) for p in problems] == [
        ("warning", "$.entities.objects[8].attack_power")
    ]
    pruner = definition.entities.objects[8]
    assert pruner.attack == 9
    # An explicit `attack` wins over the alias, with no warning.
    both = mutated(put(*OBJ, 8, "attack_power", value=2))
    definition, problems = check_definition(both)
    assert problems == []
    assert definition.entities.objects[8].attack == 7


# ------------------------------------------------------------------ command line
def test_cli_validate_refuses_a_broken_file(tmp_path, capsys) -> None:
    path = tmp_path / "broken.json"
    raw = mutated(
        combine(
            drop(*OBJ, 1, "category"), put(*OBJ, 3, "craft", "ingredients", "obj_ghost", value=1)
        )
    )
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert cli_main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "valid" not in out
    assert "error: $.entities.objects[1].category: missing required key" in err
    assert "error: $.entities.objects[3].craft.ingredients.obj_ghost:" in err
    assert f"{path}: 2 error(s)" in err


def test_cli_validate_reports_a_json_syntax_error(tmp_path, capsys) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"entities": }', encoding="utf-8")
    assert cli_main(["validate", str(path)]) == 1
    _, err = capsys.readouterr()
    assert "line 1, column 14" in err


def test_cli_validate_summarises_a_good_file(tmp_path, capsys, tiny_definition) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(load_raw("tiny_world.json")), encoding="utf-8")
    assert cli_main(["validate", str(path), "--seed", "4"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == f"{path}: valid"
    # Counted from tests/data/tiny_world.json: 2 places, 4 areas, 10 objects; the deepest
    # chain is pear -> cider -> key (or crate / pruner), i.e. depth 2.
    assert "places: 2" in lines
    assert "areas: 4" in lines
    assert any(line.startswith("objects: 10 (") for line in lines)
    assert max(crafting_depths(tiny_definition).values()) == 2
    assert any(line.startswith("crafting depth: 2 (") for line in lines)
    # The tiny world has no predefined graph: a random tree over 4 areas; check the diameter
    # reported against networkx on the same seed's world.
    import networkx as nx

    diameter = nx.diameter(World.generate(tiny_definition, 4).graph.nx)
    assert diameter in (2, 3)
    graph_line = next(line for line in lines if line.startswith("area graph (seed 4)"))
    assert graph_line.startswith("area graph (seed 4): 4 areas, 3 paths (")
    assert graph_line.endswith(f"diameter {diameter}")


def test_cli_validate_accepts_a_bundled_world_name(capsys) -> None:
    name = bundled_worlds()[0]
    assert cli_main(["validate", name]) == 0
    out, _ = capsys.readouterr()
    definition = load_definition(resolve_world_file(name))
    assert f"places: {len(definition.entities.places)}" in out.splitlines()
    assert f"areas: {len(definition.iter_areas())}" in out.splitlines()
