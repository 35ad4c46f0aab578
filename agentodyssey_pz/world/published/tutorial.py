"""A published game's tutorial, as our tutorial section (docs/world-format.md#113-tutorial).

Layer: world core. Every one of AgentOdyssey's seven games carries tutorial data in the class
constants of `TutorialRoomStepRule` (its `tutorial.py`): `STEPS` (instruction, setup, conditions),
`required_objects` (the objects it hands out and takes back) and `required_npcs` (its merchant and
raider). `tutorial_section` reads them from the user's copy (`pyconst`, nothing is run) and
translates them key by key into our format; the instruction texts are copied from the copy at run
time, with their placeholders (`{bag}`, `{writable}`, `{wood_log}` ...) turned into ours, and
every other text is ours. What is code in the game, not data, is in the tables below: which
object plays which role in each game, and what remnant takes back beyond its object list.

How each of AgentOdyssey's setup keys and condition types maps onto ours is documented in
docs/world-format.md#113-tutorial. Anything the translation does not know raises PublishedGameError
naming the file and the place, rather than being guessed at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.locate import PublishedCopy
from agentodyssey_pz.world.published.pyconst import class_constants
from agentodyssey_pz.world.quest_records import VARIABLE
from agentodyssey_pz.world.schema import WorldDefinition

TUTORIAL_CLASS = "TutorialRoomStepRule"
GAMES = ("base", "remnant", "mark", "metropolis", "quarantine", "robot_kingdom", "saltglass")
# SHA-256 (as a wheel's RECORD writes it) of each game's tutorial module in version 0.1.0.
TUTORIAL_DIGESTS = {
    "base": "3UKz0tryHYbg5mpRRge2sP97Sy1WgsdUVroEcEYGbLA",
    "remnant": "V9YykwV6V_sVRkcKp5KIqU8y2G6tw-5DtwyYnu1zd6g",
    "mark": "QrcuhO4S0iekiQQ5ooZq9x51Ya4BW1QvPSMC0wSjJMw",
    "metropolis": "J401m1ErpZCE0QYZrL5ZlVAtOsEnLQlA4nXfH4Y9pv8",
    "quarantine": "3QXDmtD8EmT3rTIF_WykRDzsYKubl4pID7vKq397M9g",
    "robot_kingdom": "0eg-TVtxtgccIyZJ7w75yXrx5LJiLIBDJRYxJ3fxLBQ",
    "saltglass": "HLjn-m3wJApDn_CMwVwXwQAFIbCVlDr19GBGzSh7B_I",
}

# Which object plays each role. Six games keep the base ids behind their own names; mark crafts
# its key from a copper bar and a fiber bundle, so it has no blank (its furnace and iron bar are
# in its object list, though no step uses them).
_BASE_ROLES = {
    "bag": "obj_small_bag", "note": "obj_paper", "coin": "obj_coin", "pen": "obj_pen",
    "log": "obj_wood_log", "bar": "obj_iron_bar", "bench": "obj_workbench",
    "furnace": "obj_furnace", "blank": "obj_key_blank", "key": "obj_key",
}  # fmt: skip
ROLES_BY_GAME: dict[str, dict[str, str]] = {
    **dict.fromkeys(GAMES, _BASE_ROLES),
    "mark": {
        "bag": "obj_small_pouch", "note": "obj_paper", "coin": "obj_coin", "pen": "obj_pen",
        "log": "obj_oak_log", "bar": "obj_iron_bar", "bench": "obj_workbench",
        "furnace": "obj_furnace", "key": "obj_key",
    },
}  # fmt: skip
# Taken back beyond `required_objects`: remnant also takes the key blank it hands out.
EXTRA_TAKEN_BACK = {"remnant": ("obj_key_blank",)}

# Instruction placeholders that name no object definition -> ours.
TEXT_PLACEHOLDERS = {
    "bag": "bag_name",  # the agent's own BAG instance
    "writable": "note_name",  # the agent's own NOTE instance
    "merchant": "merchant_name",
    "enemy": "raider_name",
    "exit": "spawn_name",  # the way out leads to the spawn area
}
# Placeholders in a condition's event data -> our `$variables`.
DATA_PLACEHOLDERS = {"bag": "$bag_name", "writable": "$note_name", "merchant_id": "$merchant"}
INSTANCE_ROLES = {"bag": "bag", "writable": "note"}
NPC_KINDS = {"merchant": "merchant", "enemy": "raider"}
# Setup keys whose value is {object id: count} -> our setup kinds
# (docs/mechanics/tutorial.md#setups).
COUNT_SETUPS = {
    "ensure_ground_base_if_agent_missing": "give_if_lacking",
    "ensure_ground_base_if_agent_base_count_lt": "give_up_to",
    "ensure_ground_base": "ground_at_least",
}
OBJECT_PREFIX = "obj_"

# Our own words around the copied instructions (which carry their own step numbers).
TEXTS = {
    "intro": (
        "I wake on the floor of a bare little room. Before I go out into the world I am shown "
        "how things are done, one step at a time."
    ),
    "instruction": "{instruction}",
    "step_done": "Tutorial step {step} of {steps} is done.",
    "warning": (
        "I keep ignoring the tutorial's instructions; following them is the only way out of "
        "this room."
    ),
    "completed": (
        "The tutorial is over: I stand in {spawn_name} now, and the real journey starts here.\n"
        "Besides what the tutorial showed me, this world knows these actions:{extra_verbs}"
    ),
    "left_early": "I left the tutorial room before finishing it; the tutorial is over for me.",
    "taken_back": "The things the tutorial lent me stay behind: {items}.",
}


def tutorial_module(game: str) -> str:
    """The file (relative to the copy's root) holding a game's tutorial data."""
    if game not in GAMES:
        raise PublishedGameError(
            f"no published game '{game}' (AgentOdyssey's games: {', '.join(GAMES)})"
        )
    folder = "base" if game == "base" else f"generated/{game}"
    return f"games/{folder}/rules/step_rules/tutorial.py"


def tutorial_section(
    copy: PublishedCopy, game: str, definition: WorldDefinition | Mapping[str, Any]
) -> dict[str, Any]:
    """Our `tutorial` section (JSON data) for `game`, read from `copy` and translated against the
    game's world `definition` (a WorldDefinition or its raw JSON): every role given explicitly.
    Raises PublishedGameError when the copy holds data the translation does not know."""
    rel = tutorial_module(game)
    constants = class_constants(copy.read_python(rel), TUTORIAL_CLASS, where=str(copy.path(rel)))
    for name in ("STEPS", "required_objects", "required_npcs"):
        if name not in constants:
            raise PublishedGameError(f"{copy.path(rel)}: {TUTORIAL_CLASS}.{name} is missing")
    objects = _objects_of(definition)
    roles = ROLES_BY_GAME[game]
    translator = _Translator(str(copy.path(rel)), roles, objects)
    steps = [translator.step(i, raw) for i, raw in enumerate(_listed(constants["STEPS"], "STEPS"))]
    merchant, raider = translator.npcs(_listed(constants["required_npcs"], "required_npcs"))
    taken = [
        translator.ref(_field(o, "id", "required_objects"))
        for o in _listed(constants["required_objects"], "required_objects")
    ]
    taken += [translator.ref(oid) for oid in EXTRA_TAKEN_BACK.get(game, ())]
    return {
        "roles": dict(roles),
        "npcs": [merchant.pop("_definition"), raider.pop("_definition")],
        "merchant": merchant,
        "raider": raider,
        "texts": dict(TEXTS),
        "take_back": list(dict.fromkeys(taken)),
        "steps": _unique_ids(steps),
    }


def _objects_of(definition: WorldDefinition | Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """id -> {"name", "category"} of every object of the definition."""
    if isinstance(definition, WorldDefinition):
        return {o.id: {"name": o.name, "category": o.category} for o in definition.entities.objects}
    raw = definition.get("entities", {}).get("objects", [])
    return {o["id"]: o for o in raw if isinstance(o, dict) and isinstance(o.get("id"), str)}


def _listed(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise PublishedGameError(f"{TUTORIAL_CLASS}.{what}: expected a list")
    return value


def _field(record: Any, key: str, where: str) -> Any:
    if not isinstance(record, dict) or key not in record:
        raise PublishedGameError(f"{TUTORIAL_CLASS}.{where}: an entry without '{key}'")
    return record[key]


def _unique_ids(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step ids made unique (mark repeats one id for three steps): `id`, `id_2`, `id_3` ..."""
    seen: dict[str, int] = {}
    for step in steps:
        base = step["id"]
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            step["id"] = f"{base}_{seen[base]}"
    return steps


class _Translator:
    """Turns one game's tutorial records into ours."""

    def __init__(
        self, source: str, roles: dict[str, str], objects: dict[str, dict[str, Any]]
    ) -> None:
        self.source, self.objects = source, objects
        self.role_of = {oid: role for role, oid in roles.items()}
        self.npc_settings: dict[str, dict[str, Any]] = {"merchant": {}, "raider": {}}
        for role, oid in roles.items():
            if oid not in objects:
                raise PublishedGameError(
                    f"{source}: the game's {role} '{oid}' is not an object of its world"
                )

    def fail(self, where: str, message: str) -> PublishedGameError:
        return PublishedGameError(f"{self.source}: {TUTORIAL_CLASS}.{where}: {message}")

    def ref(self, oid: Any) -> str:
        """`$role` for an object that plays a role, else the id."""
        if not isinstance(oid, str) or oid not in self.objects:
            raise PublishedGameError(f"{self.source}: '{oid}' is not an object of the game's world")
        role = self.role_of.get(oid)
        return f"${role}" if role else oid

    # ---------------------------------------------------------------- texts
    def text(self, text: Any, where: str) -> str:
        if not isinstance(text, str):
            raise self.fail(where, "expected a text")

        def ours(name: str) -> str:
            if name in TEXT_PLACEHOLDERS:
                return "{" + TEXT_PLACEHOLDERS[name] + "}"
            oid = OBJECT_PREFIX + name
            if oid in self.role_of:
                return "{" + self.role_of[oid] + "_name}"
            if oid in self.objects:
                return str(self.objects[oid].get("name", oid))  # an object no role stands for
            raise self.fail(where, f"unknown placeholder '{{{name}}}'")

        return VARIABLE.sub(lambda m: ours(m[1]), text).rstrip()

    # ---------------------------------------------------------------- steps
    def step(self, i: int, raw: Any) -> dict[str, Any]:
        where = f"STEPS[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise self.fail(where, "a step without an id")
        unknown = set(raw) - {"id", "instruction", "setup", "done_any"}
        if unknown:
            raise self.fail(where, f"unknown keys {sorted(unknown)}")
        step: dict[str, Any] = {
            "id": raw["id"],
            "instruction": self.text(raw.get("instruction"), f"{where}.instruction"),
        }
        setup = self.setup(raw.get("setup", {}), f"{where}.setup")
        if setup:
            step["setup"] = setup
        conditions = raw.get("done_any")
        if not isinstance(conditions, list) or not conditions:
            raise self.fail(f"{where}.done_any", "expected a list of conditions")
        translated = [self.condition(c, f"{where}.done_any[{j}]") for j, c in enumerate(conditions)]
        step["done_any"] = [c for j, c in enumerate(translated) if c not in translated[:j]]
        return step

    def setup(self, raw: Any, where: str) -> list[dict[str, Any]]:
        if not isinstance(raw, dict):
            raise self.fail(where, "expected a dict")
        out: list[dict[str, Any]] = []
        for key, value in raw.items():
            here = f"{where}.{key}"
            if key == "instances_on_ground_if_missing":
                for name in _listed(value, here):
                    if name not in INSTANCE_ROLES:
                        raise self.fail(here, f"unknown instance '{name}'")
                    out.append({"kind": "instance_on_ground", "role": INSTANCE_ROLES[name]})
            elif key in COUNT_SETUPS:
                out.append({"kind": COUNT_SETUPS[key], "objects": self.counts(value, here)})
            elif key == "ensure_npcs":
                out += [self.ensure_npc(entry, here) for entry in _listed(value, here)]
            elif key == "lock_exit":
                if value is True:
                    out.append({"kind": "lock_exit"})
            else:
                raise self.fail(here, "unknown setup")
        return out

    def counts(self, raw: Any, where: str) -> dict[str, int]:
        if not isinstance(raw, dict):
            raise self.fail(where, "expected {object id: count}")
        out = {}
        for oid, count in raw.items():
            if type(count) is not int:
                raise self.fail(f"{where}.{oid}", f"expected a whole number, got {count!r}")
            out[self.ref(oid)] = count
        return out

    def ensure_npc(self, raw: Any, where: str) -> dict[str, Any]:
        """Our `ensure_npc` setup; the NPC's description, dialogue and tuning (the same at every
        step in the games) become its settings in the section's `merchant` / `raider`."""
        kind = _field(raw, "kind", where)
        if kind not in NPC_KINDS or set(raw) - {"kind", "stock", "description", "dialogue", "tune"}:
            raise self.fail(where, f"unknown NPC setup {raw!r}")
        role = NPC_KINDS[kind]
        settings = self.npc_settings[role]
        for key in ("description", "dialogue"):
            if key in raw:
                settings.setdefault(key, self.text(raw[key], f"{where}.{key}"))
        tune = raw.get("tune", {})
        if set(tune) - {"attack_power", "hp"}:
            raise self.fail(f"{where}.tune", f"unknown tuning {tune!r}")
        if "hp" in tune:
            settings.setdefault("hp", tune["hp"])
        if "attack_power" in tune:
            settings.setdefault("attack", tune["attack_power"])
        setup: dict[str, Any] = {"kind": "ensure_npc", "npc": role}
        if raw.get("stock"):
            setup["stock"] = self.counts(raw["stock"], f"{where}.stock")
        return setup

    # ---------------------------------------------------------------- conditions
    def condition(self, raw: Any, where: str) -> dict[str, Any]:
        kind, type_ = _field(raw, "kind", where), _field(raw, "type", where)
        obj = raw.get("base_obj")
        objects = [self.ref(obj)] if obj is not None else []
        if kind == "event":
            if set(raw) - {"kind", "type", "base_obj", "data"}:
                raise self.fail(where, f"unknown keys in {raw!r}")
            return self.event(type_, objects, raw.get("data", {}), where)
        if kind != "state":
            raise self.fail(where, f"unknown condition kind '{kind}'")
        if type_ == "in_hands_base":
            return {"kind": "holding", "objects": objects}
        if type_ in ("inventory_has_base", "held_containers_have_base"):
            # In the inventory, or in a container held in hand: with the hands (the step's other
            # alternative) that is what the agent carries, for things that cannot be worn.
            return {"kind": "has_any_of", "objects": objects}
        if type_ == "inventory_container_is_base":
            return {"kind": "equipped_any_of", "objects": objects}  # the worn bag is the inventory
        if type_ == "bag_in_hand_and_no_inventory":
            containers = [
                oid for oid, o in self.objects.items() if o.get("category") == "container"
            ]
            no_inventory = {"kind": "equipped_any_of", "objects": containers}
            return {
                "kind": "all_of",
                "conditions": [
                    {"kind": "holding", "objects": ["$bag"]},
                    {"kind": "not", "conditions": [no_inventory]},
                ],
            }
        if type_ == "base_count_at_least":
            count = raw.get("count", 1)
            if len(objects) != 1 or type(count) is not int:
                raise self.fail(where, f"expected base_obj and a whole count in {raw!r}")
            return {"kind": "has_item_count", "object": objects[0], "count": count}
        if type_ == "area_changed_from_spawn":  # out of the room: the way out leads to spawn
            return {"kind": "not", "conditions": [{"kind": "in_area", "area": "$room"}]}
        raise self.fail(where, f"unknown state type '{type_}'")

    def event(self, type_: str, objects: list[str], data: Any, where: str) -> dict[str, Any]:
        condition: dict[str, Any] = {"kind": "event", "type": type_}
        if objects:
            condition["objects"] = objects
        if not isinstance(data, dict):
            raise self.fail(f"{where}.data", "expected a dict")
        payload = {}
        for key, value in data.items():
            found = VARIABLE.fullmatch(value) if isinstance(value, str) else None
            if found is not None:
                if found[1] not in DATA_PLACEHOLDERS:
                    raise self.fail(f"{where}.data.{key}", f"unknown placeholder '{value}'")
                value = DATA_PLACEHOLDERS[found[1]]
            elif isinstance(value, str) and VARIABLE.search(value):
                raise self.fail(f"{where}.data.{key}", f"a placeholder inside '{value}'")
            if key == "npc_id":
                condition["npc"] = value
            else:
                payload[key] = value
        if payload:
            condition["payload"] = payload
        return condition

    # ---------------------------------------------------------------- NPCs
    def npcs(self, raw: list[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Our `merchant` and `raider` settings, each with its NPC definition under
        `_definition`: every agent meets its own, so neither is unique (the game's merchant is)."""
        found: dict[str, dict[str, Any]] = {}
        for i, npc in enumerate(raw):
            where = f"required_npcs[{i}]"
            role = "raider" if _field(npc, "enemy", where) else "merchant"
            if role in found:
                raise self.fail(where, f"a second {role}")
            definition = {
                "type": "npc",
                "id": _field(npc, "id", where),
                "name": _field(npc, "name", where),
                "role": _field(npc, "role", where),
                "enemy": role == "raider",
                "unique": False,
                "description": self.text(npc.get("description", ""), f"{where}.description"),
                "objects": [],
                "base_hp": npc.get("hp", 1),
                "slope_hp": npc.get("slope_hp", 0),
                "base_attack_power": npc.get("attack_power", 0),
                "slope_attack_power": npc.get("slope_attack_power", 0),
                "combat_pattern": [],  # it never fights in rhythm
                "quest": True,
            }
            settings = {"npc": definition["id"], "coins": npc.get("coins", 0)}
            if role == "merchant":
                settings.update(hp=definition["base_hp"], attack=definition["base_attack_power"])
            settings.update(self.npc_settings[role])
            settings["_definition"] = definition
            found[role] = settings
        if set(found) != {"merchant", "raider"}:
            raise self.fail("required_npcs", "expected one merchant and one enemy")
        return found["merchant"], found["raider"]
