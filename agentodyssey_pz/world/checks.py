"""Semantic checks of a world definition (ids, references, numbers, graph), one function per
concern.

Layer: world core. Each check reads the records that structured cleanly (`validate.Parsed`) and adds
errors or warnings with the JSON path of the offending value. Rules that the reference engine leaves
to crash at run time (docs/world-format.md#common-mistakes-the-validator-catches) are errors here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.resources import bundled_pack_names
from agentodyssey_pz.world.schema import (
    COMBAT_ACTIONS,
    DARK_HIDES,
    SYNTHESIS_VARIANTS,
    UNLOCK_USAGES,
    AreaDef,
    Connection,
    CraftRecipe,
    DarknessDef,
    Features,
    GraphDef,
    Initializations,
    NpcDef,
    ObjectDef,
    PlaceDef,
    SpawnDef,
)
from agentodyssey_pz.world.strict_json import json_keys

FALLBACK_KEY = "obj_key"  # what the base `enter` accepts for a path locked without a key

if TYPE_CHECKING:
    from agentodyssey_pz.world.validate import Parsed

INSTANCE_SUFFIX = re.compile(r"_\d+$")
KNOWN_CUSTOM_EVENTS = ("main_quest", "side_quest", "tutorial")
# Keys an NPC definition may carry that the definition form ignores (instance-form keys).
IGNORED_NPC_KEYS = ("hp", "attack_power", "coins", "level", "inventory")


def _first_seen(
    items: list[tuple[str, str]],
    kind: str,
    problems: Problems,
    tolerated: frozenset[str] = frozenset(),
) -> None:
    """Report every repeat of a key in (path, key) pairs, pointing at the first occurrence; a
    repeat at a path in `tolerated` is a warning."""
    seen: dict[str, str] = {}
    for path, key in items:
        if key in seen:
            report = problems.warn if path in tolerated else problems.error
            report(path, f"duplicate {kind} '{key}' (first at {seen[key]})")
        else:
            seen[key] = path


def _quest_npc_paths(p: Parsed, suffix: str) -> frozenset[str]:
    """Paths (`<npc path><suffix>`) of the NPC prototypes marked `quest`. Synthesis never places
    them; a quest makes their instances, with names of their own (AgentOdyssey's quests bring
    copies of world NPCs, e.g. a second `zombie` prototype, whose ids may end in digits)."""
    return frozenset(f"{path}{suffix}" for path, _, n in p.npcs if n.quest)


def check_unique_ids(p: Parsed, problems: Problems) -> None:
    _first_seen([(f"{path}.id", o.id) for path, _, o in p.objects], "object id", problems)
    _first_seen([(f"{path}.id", n.id) for path, _, n in p.npcs], "NPC id", problems)
    spaces = [(f"{path}.id", pl.id) for path, _, pl in p.places]
    for path, _, place in p.places:
        spaces += [(f"{path}.areas[{i}].id", a.id) for i, a in enumerate(place.areas)]
    _first_seen(spaces, "place or area id", problems)


MAX_NAME_LENGTH = 200  # characters: a command naming two things stays within the parser's limit


def _check_name(path: str, kind: str, name: str, problems: Problems) -> None:
    if not name.strip():
        problems.error(path, f"{kind} name must not be empty")
    elif any(ch.isspace() for ch in name):
        problems.error(
            path, f"{kind} name '{name}' contains whitespace (names are action parameters)"
        )
    elif not name.isprintable():  # text observations could not show it, commands not type it
        odd = next(ch for ch in name if not ch.isprintable())
        problems.error(
            path, f"{kind} name {name!r} contains the unprintable character U+{ord(odd):04X}"
        )
    elif len(name) > MAX_NAME_LENGTH:
        problems.error(
            path, f"{kind} name is {len(name)} characters long (at most {MAX_NAME_LENGTH})"
        )


def check_names(p: Parsed, problems: Problems) -> None:
    objects = [(f"{path}.name", o.name) for path, _, o in p.objects]
    npcs = [(f"{path}.name", n.name) for path, _, n in p.npcs]
    areas = [
        (f"{path}.areas[{i}].name", a.name)
        for path, _, pl in p.places
        for i, a in enumerate(pl.areas)
    ]
    quest_names = _quest_npc_paths(p, ".name")
    for kind, items in (("object", objects), ("NPC", npcs), ("area", areas)):
        for path, name in items:
            _check_name(path, kind, name, problems)
        _first_seen(items, f"{kind} name", problems, quest_names if kind == "NPC" else frozenset())
        names = {name for _, name in items}
        for path, name in items:
            stem = INSTANCE_SUFFIX.sub("", name)
            if stem != name and stem in names:
                problems.error(path, f"{kind} name '{name}' looks like an instance of '{stem}'")
    for path, _, place in p.places:
        if not place.name.strip():
            problems.error(f"{path}.name", "place name must not be empty")


def check_id_suffixes(p: Parsed, problems: Problems) -> None:
    quest_ids = _quest_npc_paths(p, ".id")
    npc_ids = {n.id for _, _, n in p.npcs}
    for kind, records in (("object", p.objects), ("NPC", p.npcs)):
        for path, _, rec in records:
            where = f"{path}.id"
            if not rec.id.strip():
                problems.error(where, f"{kind} id must not be empty")
            elif INSTANCE_SUFFIX.search(rec.id):
                # A quest NPC's instances keep their prototype's id as `def_id`: its id is only
                # ambiguous if the stem is itself a prototype.
                tolerated = where in quest_ids and INSTANCE_SUFFIX.sub("", rec.id) not in npc_ids
                report = problems.warn if tolerated else problems.error
                report(where, f"{kind} id '{rec.id}' ends in _<digits>, the instance-id pattern")


def check_places(p: Parsed, problems: Problems) -> None:
    spawn = _spawn_area(p)
    non_spawn = 0
    for path, raw, place in p.places:
        if not place.id.strip():
            problems.error(f"{path}.id", "place id must not be empty")
        for i, area in enumerate(place.areas):
            if not area.id.strip():
                problems.error(f"{path}.areas[{i}].id", "area id must not be empty")
        # `type` is required in world files (stored, not interpreted); expansion specs default it.
        if "type" not in raw:
            problems.error(f"{path}.type", "missing required key")
        if not place.areas:
            problems.error(f"{path}.areas", f"place '{place.id}' has no areas")
        raw_areas = raw.get("areas", ())
        for i, area in enumerate(place.areas):
            if "type" not in raw_areas[i]:
                problems.error(f"{path}.areas[{i}].type", "missing required key")
            if area.id == spawn:
                continue
            non_spawn += 1
            if area.level is None:
                problems.error(f"{path}.areas[{i}].level", f"area '{area.id}' needs a level")
            elif area.level < 1:
                problems.error(
                    f"{path}.areas[{i}].level", f"area level must be >= 1, got {area.level}"
                )
    if p.places and non_spawn == 0:
        problems.error(
            "$.entities.places", "a world needs at least one area besides the spawn area"
        )


def _spawn_area(p: Parsed) -> str | None:
    init = p.initializations
    return init.spawn.area if init is not None and init.spawn is not None else None


def check_spawn(p: Parsed, problems: Problems) -> None:
    init = p.initializations
    if init is None:
        return
    spawn = init.spawn
    if spawn is None:
        problems.error(
            "$.initializations.spawn", "missing required key (agents start in spawn.area)"
        )
        return
    if spawn.area not in p.declared_areas:
        if spawn.area in p.declared_places:
            problems.error(
                "$.initializations.spawn.area", f"'{spawn.area}' is a place, not an area"
            )
        else:
            problems.error("$.initializations.spawn.area", f"unknown area '{spawn.area}'")
    _check_counts(
        spawn.objects, p.declared_objects, "object", "$.initializations.spawn.objects", problems
    )
    _check_counts(spawn.npcs, p.declared_npcs, "NPC", "$.initializations.spawn.npcs", problems)
    uniques = {n.id for _, _, n in p.npcs if n.unique}
    for npc_id, count in spawn.npcs.items():
        if npc_id in uniques and count > 1:
            problems.error(
                f"$.initializations.spawn.npcs.{npc_id}",
                f"unique NPC '{npc_id}' can spawn once, not {count}",
            )
    for i, oid in enumerate(init.undistributable_objects):
        if oid not in p.declared_objects:
            problems.error(
                f"$.initializations.undistributable_objects[{i}]", f"unknown object '{oid}'"
            )


def _check_counts(
    counts: dict[str, int], known: set[str], kind: str, path: str, problems: Problems
) -> None:
    for key, count in counts.items():
        if key not in known:
            problems.error(f"{path}.{key}", f"unknown {kind} '{key}'")
        if count <= 0:
            problems.error(f"{path}.{key}", f"count must be positive, got {count}")


def _check_minimum(path: str, label: str, value: Any, minimum: int, problems: Problems) -> None:
    if value is not None and value < minimum:
        problems.error(path, f"{label} must be >= {minimum}, got {value}")


def check_object_fields(p: Parsed, problems: Problems) -> None:
    areas = p.declared_areas
    spawn = _spawn_area(p)
    sizes = {o.id: o.size for _, _, o in p.objects}
    for path, raw, obj in p.objects:
        who = f"object '{obj.id}'"
        for field, minimum in (
            ("size", 0),
            ("value", 0),
            ("attack", 0),
            ("defense", 0),
            ("level", 1),
        ):
            _check_minimum(
                f"{path}.{field}", f"{who}: {field}", getattr(obj, field), minimum, problems
            )
        if obj.value == 0:
            problems.warn(
                f"{path}.value", f"{who}: value 0 makes it free to buy and worthless to sell"
            )
        if obj.is_container:
            for key in ("capacity", "level"):
                if key not in raw:
                    problems.error(f"{path}.{key}", f"{who}: containers need '{key}'")
            _check_minimum(f"{path}.capacity", f"{who}: capacity", obj.capacity, 1, problems)
            for key, count in (obj.inventory or {}).items():
                where = f"{path}.inventory.{key}"
                if key not in p.declared_objects:
                    problems.error(where, f"{who}: unknown object '{key}' in its inventory")
                elif sizes.get(key, 0) is None:
                    problems.error(where, f"{who}: '{key}' cannot be stored in a container")
                if count <= 0:
                    problems.error(where, f"count must be positive, got {count}")
        elif obj.inventory:
            problems.warn(f"{path}.inventory", f"{who}: only containers use 'inventory' (ignored)")
        if obj.is_writable:
            if obj.is_prewritten:
                if not obj.text:
                    problems.error(
                        f"{path}.text", f"{who}: pre-written (obj_given_) writables need text"
                    )
            elif obj.max_text_length is None:
                problems.error(
                    f"{path}.max_text_length", f"{who}: writables need 'max_text_length'"
                )
            else:
                _check_minimum(
                    f"{path}.max_text_length",
                    f"{who}: max_text_length",
                    obj.max_text_length,
                    1,
                    problems,
                )
        for i, area in enumerate(obj.areas):
            if area not in areas:
                problems.warn(f"{path}.areas[{i}]", f"{who}: '{area}' is not an area (ignored)")
            elif area == spawn:
                problems.warn(
                    f"{path}.areas[{i}]", f"{who}: the spawn area is never distributed into"
                )


def check_recipes(p: Parsed, problems: Problems) -> None:
    recipe_graph = nx.DiGraph()
    for path, _, obj in p.objects:
        for key, qty in obj.craft.ingredients.items():
            where = f"{path}.craft.ingredients.{key}"
            if key not in p.declared_objects:
                problems.error(where, f"object '{obj.id}': unknown ingredient '{key}'")
            elif key == obj.id:
                problems.error(where, f"object '{obj.id}' cannot be its own ingredient")
            else:
                recipe_graph.add_edge(key, obj.id)
            if qty <= 0:
                problems.error(where, f"ingredient quantity must be positive, got {qty}")
        for i, dep in enumerate(obj.craft.dependencies):
            if dep not in p.declared_objects:
                problems.error(
                    f"{path}.craft.dependencies[{i}]", f"object '{obj.id}': unknown station '{dep}'"
                )
    # One cycle per strongly connected component (enumerating every cycle can blow up), started at
    # the member defined first so the message is the same in every process.
    order = {o.id: i for i, (_, _, o) in enumerate(p.objects)}
    for component in nx.strongly_connected_components(recipe_graph):
        if len(component) > 1:
            start = min(component, key=order.__getitem__)
            cycle = [u for u, _ in nx.find_cycle(recipe_graph.subgraph(component), source=start)]
            chain = " -> ".join([*cycle, cycle[0]])
            problems.error("$.entities.objects", f"crafting recipes form a cycle: {chain}")


def check_npcs(p: Parsed, problems: Problems) -> None:
    for path, _, npc in p.npcs:
        who = f"NPC '{npc.id}'"
        for i, oid in enumerate(npc.objects):
            if oid not in p.declared_objects:
                problems.error(f"{path}.objects[{i}]", f"{who}: unknown object '{oid}'")
        for i, act in enumerate(npc.combat_pattern or ()):
            if act not in COMBAT_ACTIONS:
                problems.error(
                    f"{path}.combat_pattern[{i}]",
                    f"{who}: '{act}' is not one of {', '.join(COMBAT_ACTIONS)}",
                )
        for stat in ("base_hp", "slope_hp", "base_attack_power", "slope_attack_power"):
            _check_minimum(f"{path}.{stat}", f"{who}: {stat}", getattr(npc, stat), 0, problems)
        if npc.hp_at_level_1 <= 0:
            problems.error(f"{path}.base_hp", f"{who}: an NPC needs positive health")
        for key in npc.extras:
            if key in IGNORED_NPC_KEYS:
                problems.warn(
                    f"{path}.{key}",
                    f"{who}: '{key}' is an instance-form key; definitions use base_*/slope_*",
                )
            else:
                hint = did_you_mean(key, NpcDef)
                problems.warn(f"{path}.{key}", f"{who}: unknown key '{key}'{hint} (kept, not used)")


def check_graph(p: Parsed, problems: Problems) -> None:
    graph = p.graph
    if graph is None:
        return
    if not graph.connections:
        problems.warn("$.graph.connections", "empty graph: random connectivity is used instead")
        return
    usage = {o.id: o.usage for _, _, o in p.objects}
    links = nx.Graph()
    links.add_nodes_from(p.declared_areas)
    seen: dict[frozenset[str], int] = {}
    for i, conn in enumerate(graph.connections):
        path = f"$.graph.connections[{i}]"
        for end, key in ((conn.source, "from"), (conn.to, "to")):
            if end in p.declared_places:  # paths join areas; a place holds several
                problems.error(f"{path}.{key}", f"'{end}' is a place, not an area")
            elif end not in p.declared_areas:
                problems.error(f"{path}.{key}", f"unknown area '{end}'")
        if conn.source == conn.to:
            problems.error(path, f"a path from '{conn.source}' to itself")
        pair = frozenset((conn.source, conn.to))
        if pair in seen:
            problems.warn(path, f"repeats connection {seen[pair]}; the later one wins")
        seen[pair] = i
        if conn.key is not None:
            if conn.key not in p.declared_objects:
                problems.error(f"{path}.key", f"unknown object '{conn.key}'")
            elif usage.get(conn.key) not in UNLOCK_USAGES:
                problems.warn(f"{path}.key", f"key '{conn.key}' does not have usage 'unlock'")
        elif conn.locked:
            # The base `enter` opens a keyless lock with the well-known `obj_key`
            # (docs/mechanics/verbs.md#enter); a rule pack the world names may open it otherwise
            # (lockpicking picks any lock).
            packs = bool(p.features and p.features.rule_packs)
            if FALLBACK_KEY in p.declared_objects:
                opens = "it opens with obj_key"
            elif packs:
                opens = "this world has no obj_key: only its rule packs' verbs can open it"
            else:
                opens = "only obj_key would open it, and this world has none"
            problems.warn(f"{path}.locked", f"a locked path without a key ({opens})")
        if conn.source in p.declared_areas and conn.to in p.declared_areas:
            links.add_edge(conn.source, conn.to)
    spawn = _spawn_area(p)
    if spawn in links:
        for area in sorted(set(links) - nx.node_connected_component(links, spawn)):
            problems.warn("$.graph", f"area '{area}' cannot be reached from the spawn area")


def check_unused_materials(p: Parsed, problems: Problems) -> None:
    used = {k for _, _, o in p.objects for k in o.craft.ingredients}
    used |= {k for _, _, o in p.objects for k in o.craft.dependencies}
    used |= {k for _, _, n in p.npcs for k in n.objects}
    for path, _, obj in p.objects:
        if obj.category == "material" and not obj.is_craftable and obj.id not in used:
            problems.warn(path, f"raw material '{obj.id}' is never an ingredient and never dropped")


def check_custom_events(p: Parsed, problems: Problems) -> None:
    for i, event in enumerate(p.custom_events):
        if event not in KNOWN_CUSTOM_EVENTS:
            problems.warn(f"$.custom_events[{i}]", f"unknown custom event '{event}' (ignored)")


def check_rule_packs(p: Parsed, problems: Problems) -> None:
    """`features.rule_packs` names bundled packs only (never paths: code is loaded only from the
    package or from folders the user names)."""
    names = p.features.rule_packs if p.features is not None else None
    if not names:
        return
    known = bundled_pack_names()
    seen: set[str] = set()
    for i, name in enumerate(names):
        path = f"$.features.rule_packs[{i}]"
        if name not in known:
            listed = ", ".join(known) or "none"
            problems.error(path, f"unknown bundled rule pack '{name}' (bundled: {listed})")
        elif name in seen:
            problems.warn(path, f"rule pack '{name}' is named twice")
        seen.add(name)


def check_feature_switches(p: Parsed, problems: Problems) -> None:
    """`features.synthesis` names a variant, `features.darkness` names defined light objects,
    `features.rule_settings` maps rule names to objects of settings (which rules and settings
    exist is known only once the rule packs are loaded: the game checks that)."""
    features = p.features
    if features is None:
        return
    if features.synthesis is not None and features.synthesis not in SYNTHESIS_VARIANTS:
        problems.error(
            "$.features.synthesis",
            f"unknown synthesis variant '{features.synthesis}' "
            f"(expected one of {', '.join(SYNTHESIS_VARIANTS)})",
        )
    if features.darkness is not None:
        _unknown_fields(features.darkness, DarknessDef, "$.features.darkness", "", problems)
        darkness = features.darkness
        if darkness.hides is not None and darkness.hides not in DARK_HIDES:
            problems.error(
                "$.features.darkness.hides",
                f"unknown value '{darkness.hides}' (expected one of {', '.join(DARK_HIDES)})",
            )
        if darkness.agent_flags is not None:
            pass  # a rule decides who is in the dark: the light objects are not read
        elif not darkness.light_objects:
            problems.warn(
                "$.features.darkness.light_objects", "no light objects: dark areas stay dark"
            )
        else:
            for i, oid in enumerate(darkness.light_objects):
                if oid not in p.declared_objects:
                    problems.error(
                        f"$.features.darkness.light_objects[{i}]", f"unknown object '{oid}'"
                    )
    for rule, settings in (features.rule_settings or {}).items():
        if not isinstance(settings, dict):
            problems.error(
                f"$.features.rule_settings.{rule}",
                f"expected an object of settings for rule '{rule}'",
            )


def did_you_mean(key: str, known: type | Iterable[str], cutoff: float = 0.6) -> str:
    """' (did you mean 'x'?)' naming the known key (a name, or a field of a record class)
    closest to a misspelt key, or '' when none is close."""
    names = list(json_keys(known).values()) if isinstance(known, type) else list(known)
    close = difflib.get_close_matches(key, names, n=1, cutoff=cutoff)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _unknown_fields(record: Any, cls: type, path: str, who: str, problems: Problems) -> None:
    for key in record.extras:
        hint = did_you_mean(key, cls)
        problems.warn(f"{path}.{key}", f"{who}unknown field '{key}'{hint}: it is ignored")


def check_unknown_fields(p: Parsed, problems: Problems) -> None:
    """Keys of fixed-schema records (a craft recipe, a place, an area, the spawn, the graph ...)
    that the format does not know: kept for the round trip but never read, so most likely a
    misspelling. Warnings: the world still loads. Objects are the
    exception: their unknown keys are extra attributes rules may read (`hp_restore` ...), so only
    one that looks like a misspelt field is reported."""
    for path, _, obj in p.objects:
        who = f"object '{obj.id}': "
        for key in obj.craft.extras:
            hint = did_you_mean(key, CraftRecipe)
            lost = not obj.craft.ingredients and "'ingredients'" in hint
            uncraftable = ", so the object cannot be crafted" if lost else ""
            problems.warn(
                f"{path}.craft.{key}",
                f"{who}unknown field '{key}' in its craft recipe{hint}: it is ignored{uncraftable}",
            )
        for key in obj.extras:
            hint = did_you_mean(key, ObjectDef, cutoff=0.8)
            if hint:
                problems.warn(
                    f"{path}.{key}", f"{who}unknown field '{key}'{hint}: kept as an extra attribute"
                )
    for path, _, place in p.places:
        _unknown_fields(place, PlaceDef, path, f"place '{place.id}': ", problems)
        for i, area in enumerate(place.areas):
            where = f"{path}.areas[{i}]"
            _unknown_fields(area, AreaDef, where, f"area '{area.id}': ", problems)
    init = p.initializations
    if init is not None:
        _unknown_fields(init, Initializations, "$.initializations", "", problems)
        if init.spawn is not None:
            _unknown_fields(init.spawn, SpawnDef, "$.initializations.spawn", "", problems)
    if p.features is not None:
        _unknown_fields(p.features, Features, "$.features", "", problems)
    if p.graph is not None:
        _unknown_fields(p.graph, GraphDef, "$.graph", "", problems)
        for i, conn in enumerate(p.graph.connections):
            _unknown_fields(conn, Connection, f"$.graph.connections[{i}]", "", problems)


def check_required_ids(p: Parsed, problems: Problems, required: tuple[str, ...]) -> None:
    for oid in required:
        if oid not in p.declared_objects:
            problems.error("$.entities.objects", f"the selected rules need object '{oid}'")


CHECKS: tuple[Callable[[Parsed, Problems], None], ...] = (
    check_unique_ids,
    check_names,
    check_id_suffixes,
    check_places,
    check_spawn,
    check_object_fields,
    check_recipes,
    check_npcs,
    check_unknown_fields,
    check_graph,
    check_unused_materials,
    check_custom_events,
    check_rule_packs,
    check_feature_switches,
)


def run_all(p: Parsed, problems: Problems, required_object_ids: tuple[str, ...]) -> None:
    for check in CHECKS:
        check(p, problems)
    check_required_ids(p, problems, required_object_ids)
