"""The world definition of a published AgentOdyssey game, as its environment synthesises it.

Layer: world core. AgentOdyssey's environment does not synthesise a game's world file as it is: it
first appends the objects and NPCs its quests need, and it builds remnant's and mark's worlds with
older generators. `published_world` reproduces that definition from the user's copy, so that our
synthesis gives the same world for the same seed (docs/world-format.md#101-synthesis-variants):

1. the world file (`assets/world_definitions/...`), read as JSON;
2. the quests' own entities, appended in AgentOdyssey's order (order fixes synthesis pools and
   draws): with `main_quest` in `custom_events`, the main quest's objects not yet defined, its
   undistributable ids (appended as they are, duplicates included), its NPCs not yet defined; then
   with `side_quest`, the side quest's NPCs the same way. They are read as class data from the
   quest modules (`pyconst`), never by running them;
3. ids that nothing defines, repaired (`fix_undefined_ids`), each with a warning;
4. `features.synthesis`, the generator variant the game was built with.

Quest and tutorial data, and the rule packs a game plays with, are read elsewhere.
"""

from __future__ import annotations

import copy
from typing import Any

import attrs

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.games import game_spec
from agentodyssey_pz.world.published.locate import VERSION, PublishedCopy
from agentodyssey_pz.world.published.pyconst import constant

MAIN_QUEST_CLASS = "MainQuestStepRule"
SIDE_QUEST_CLASS = "SideQuestStepRule"
# The placeholder for an ingredient nothing defines: what `inspect` calls it, and a material that
# no synthesis pool or runtime object pool takes (no areas, undistributable, a quest object).
PLACEHOLDER_NAME = "unknown"


@attrs.frozen
class PublishedWorld:
    """A published game's world definition (raw JSON data, ready for `parse_definition`) and the
    warnings about what had to be repaired in it."""

    game: str
    definition: dict[str, Any]
    warnings: tuple[str, ...] = ()


def published_world(copy_: PublishedCopy, game: str) -> PublishedWorld:
    """The definition AgentOdyssey's environment synthesises for `game`, read from the copy, with
    the ids nothing defines repaired (`fix_undefined_ids`) and its synthesis variant named.
    KeyError for an unknown game (`games.game_spec`)."""
    spec = game_spec(game)
    raw = copy_.read_json(spec.world_file)
    if not isinstance(raw, dict) or not isinstance(raw.get("entities"), dict):
        raise PublishedGameError(f"{spec.world_file}: not a world definition")
    inject_quest_entities(copy_, game, raw)
    # After the injection: an id that only a quest entity defines is not undefined.
    warnings = fix_undefined_ids(raw)
    warnings += [
        f"{rel} differs from AgentOdyssey {VERSION}'s: this world may not be the published one"
        for rel in copy_.changed_files([spec.world_file, spec.quest_module])
    ]
    if spec.synthesis != "base":
        features = raw.get("features")
        raw["features"] = {
            **(features if isinstance(features, dict) else {}),
            "synthesis": spec.synthesis,
        }
    return PublishedWorld(game, raw, tuple(warnings))


def inject_quest_entities(copy_: PublishedCopy, game: str, raw: dict[str, Any]) -> None:
    """Append the objects, undistributable ids and NPCs of the quests `custom_events` switches
    on, in place, in the order AgentOdyssey's environment appends them."""
    spec = game_spec(game)
    events = raw.get("custom_events") or []
    if "main_quest" in events:
        rel = spec.quest_module
        module = copy_.read_python(rel)

        def main(name: str) -> Any:
            return constant(module, MAIN_QUEST_CLASS, name, where=rel)

        append_objects(raw, main("required_objects"))
        undistributable = main("undistributable_objects")
        if not isinstance(undistributable, list):
            raise PublishedGameError(f"{rel}: undistributable_objects is not a list")
        _undistributable(raw).extend(undistributable)
        append_npcs(raw, main("required_npcs"))
    if "side_quest" in events:
        rel = spec.general_module
        module = copy_.read_python(rel)
        append_npcs(raw, constant(module, SIDE_QUEST_CLASS, "required_npcs", where=rel))


def _entity_list(raw: dict[str, Any], key: str, *, create: bool = True) -> list[Any]:
    """`entities.<key>`; when it is missing or malformed: a new empty list put there (`create`),
    else an empty list that is not (malformed data is the validator's to report)."""
    entities = raw.get("entities")
    found = entities.get(key) if isinstance(entities, dict) else None
    if isinstance(found, list):
        return found
    if not create:
        return []
    if not isinstance(entities, dict):
        entities = raw["entities"] = {}
    found = entities[key] = []
    return found


def _undistributable(raw: dict[str, Any]) -> list[Any]:
    """`initializations.undistributable_objects`, created when missing (a list that is not
    kept when it is malformed: the validator reports that)."""
    inits = raw.setdefault("initializations", {})
    if not isinstance(inits, dict):
        return []
    found = inits.setdefault("undistributable_objects", [])
    return found if isinstance(found, list) else []


def _ids(records: list[Any]) -> set[str]:
    return {r["id"] for r in records if isinstance(r, dict) and isinstance(r.get("id"), str)}


def _append_new(raw: dict[str, Any], key: str, records: Any) -> None:
    """Append deep copies of the records whose id is not defined yet, in their order."""
    if not isinstance(records, list):
        raise PublishedGameError(f"the quest's {key} are not a list of definitions")
    target = _entity_list(raw, key)
    known = _ids(target)
    for record in records:
        if isinstance(record, dict) and record.get("id") not in known:
            target.append(copy.deepcopy(record))
            known.add(record["id"])


def append_objects(raw: dict[str, Any], records: Any) -> None:
    _append_new(raw, "objects", records)


def append_npcs(raw: dict[str, Any], records: Any) -> None:
    _append_new(raw, "npcs", records)


def fix_undefined_ids(raw: dict[str, Any]) -> list[str]:
    """Repair the two kinds of reference to an object id that nothing defines, in place; returns
    one warning per repair (none when there is nothing to fix).

    1. An NPC item: removed from the NPC's list (AgentOdyssey's instances keep one unit of it that
       no draw touches and that crashes it once it leaves the NPC). This runs first, so that an id
       that is also an ingredient does not become a defined NPC item, which would draw a count.
    2. A recipe ingredient: kept (the product stays uncraftable, as in AgentOdyssey) and given a
       placeholder definition that no synthesis pool or rule takes, so no random draw moves.
    """
    objects = _entity_list(raw, "objects", create=False)
    defined = _ids(objects)
    warnings: list[str] = []
    for npc in _entity_list(raw, "npcs", create=False):
        items = npc.get("objects") if isinstance(npc, dict) else None
        if not isinstance(items, list):
            continue
        missing = [oid for oid in dict.fromkeys(items) if isinstance(oid, str)]
        missing = [oid for oid in missing if oid not in defined]
        for oid in missing:
            warnings.append(
                f"NPC '{npc.get('id')}': item '{oid}' is defined nowhere; removed from its objects"
            )
        if missing:
            npc["objects"] = [oid for oid in items if oid not in missing]
    for obj in list(objects):
        recipe = obj.get("craft") if isinstance(obj, dict) else None
        ingredients = recipe.get("ingredients") if isinstance(recipe, dict) else None
        if not isinstance(ingredients, dict):
            continue
        for oid in ingredients:
            if oid in defined:
                continue
            objects.append(placeholder_object(oid, _names(objects)))
            _undistributable(raw).append(oid)
            defined.add(oid)
            warnings.append(
                f"object '{oid}', an ingredient of '{obj.get('id')}', is defined nowhere: added "
                f"as a placeholder named '{objects[-1]['name']}', so '{obj.get('id')}' can never "
                f"be crafted"
            )
    return warnings


def _names(objects: list[Any]) -> set[str]:
    return {o.get("name") for o in objects if isinstance(o, dict)}


def placeholder_object(oid: str, taken_names: set[str]) -> dict[str, Any]:
    """The definition standing in for an undefined ingredient. Its name is `unknown` (a second
    placeholder in one world gets the id's words after it, as names must be unique)."""
    name = PLACEHOLDER_NAME
    if name in taken_names:
        name = f"{PLACEHOLDER_NAME}_{oid.removeprefix('obj_')}"
    return {
        "type": "object",
        "id": oid,
        "name": name,
        "category": "material",
        "usage": "craft",
        "value": 0,
        "size": 1,
        "description": "Something nothing in this world is made of or yields.",
        "quest": True,
    }
