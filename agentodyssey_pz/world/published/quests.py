"""A published game's main quest and side quests, as our quest data
(docs/world-format.md#11-quest-data).

Layer: world core. The quest's chapters, stages and texts are read from the user's copy
(`MainQuestStepRule.QUEST_CONFIG`) and translated condition by condition into our kinds. What the
game keeps as code is taken from its `_bootstrap` method's statements where they have the plain
forms AgentOdyssey's games use (`self._generated['k'] = <literal>`, a class constant, an element
of one; `bootstrap_variables`), and otherwise from the game's tables (`quest_games/<game>.py`):
which areas are picked from the map, which NPCs are placed where, the bosses and their modifiers,
and how its own condition kinds translate. Goal-graph chapters keep their stages' `requires`; the
published `root_goal` names a stage, whose objective becomes our chapter's headline.

Published quirks that can make a quest impossible are fixed as AgentOdyssey's own repository
fixes them (docs/agentodyssey-games.md lists each): a relic bought before its stage still counts
(possession is an alternative to the purchase event), a boss killed by anyone counts for everyone,
and a boss appears when its stage is reached.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.games import GameSpec
from agentodyssey_pz.world.published.locate import PublishedCopy
from agentodyssey_pz.world.published.pyconst import NotData, class_constants, evaluate, find_class
from agentodyssey_pz.world.published.quest_games import tables_of
from agentodyssey_pz.world.published.quest_games.tables import ConditionTranslation

QUEST_CLASS = "MainQuestStepRule"
SIDE_QUEST_CLASS = "SideQuestStepRule"


def give_quest_values(spec: GameSpec, definition: dict[str, Any]) -> None:
    """Give the quest's objects their value where the world has none (before synthesis, so every
    instance and every price sees it; AgentOdyssey sets it when its quest starts)."""
    values = tables_of(spec.name).values
    for obj in definition["entities"]["objects"]:
        if obj.get("id") in values and obj.get("value") is None:
            obj["value"] = values[obj["id"]]


# ------------------------------------------------------------------ reading the game's code as data
_GENERATED = "_generated"


def _assigned_key(target: ast.expr) -> str | None:
    """'k' of `self._generated['k'] = ...`, else None."""
    if (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Attribute)
        and target.value.attr == _GENERATED
        and isinstance(target.value.value, ast.Name)
        and target.value.value.id == "self"
        and isinstance(target.slice, ast.Constant)
        and isinstance(target.slice.value, str)
    ):
        return target.slice.value
    return None


def _class_value(node: ast.expr, constants: dict[str, Any]) -> Any:
    """`self.X`, `list(self.X)`, `int(self.X)` or `self.X[i]` of a class constant; else evaluated
    as plain data. Raises NotData for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "self" and node.attr in constants:
            return constants[node.attr]
        raise NotData("attribute")
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "int")
        and len(node.args) == 1
        and not node.keywords
    ):
        inner = _class_value(node.args[0], constants)
        return list(inner) if node.func.id == "list" else int(inner)
    if isinstance(node, ast.Subscript):
        whole = _class_value(node.value, constants)
        index = evaluate(node.slice, {})
        try:
            return whole[index]
        except (IndexError, KeyError, TypeError) as exc:
            raise NotData(str(exc)) from None
    return evaluate(node, {})


def bootstrap_variables(module: ast.Module, constants: dict[str, Any]) -> dict[str, Any]:
    """The quest variables `_bootstrap` sets, in statement order: the value where the statement
    is data (a literal, a class constant or an element of one), `NotData` where it is code."""
    cls = find_class(module, QUEST_CLASS)
    method = next(
        (
            node
            for node in (cls.body if cls is not None else [])
            if isinstance(node, ast.FunctionDef) and node.name == "_bootstrap"
        ),
        None,
    )
    if method is None:
        raise PublishedGameError(f"{QUEST_CLASS}._bootstrap not found")
    found: dict[str, Any] = {}
    for node in ast.walk(method):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            key = _assigned_key(node.targets[0])
            if key is None:
                continue
            try:
                found[key] = _class_value(node.value, constants)
            except (NotData, TypeError, ValueError):
                found.setdefault(key, NotData)
    return found


# ------------------------------------------------------------------ translation
def _picking_steps(var: str, picked: dict[str, Any] | list[dict[str, Any]]) -> list[dict]:
    """The setup steps of a picked variable: one step, or several (helper variables with their own
    `let` first, the last step setting `var`)."""
    if isinstance(picked, dict):
        return [{"let": var, **picked}]
    *helpers, last = picked
    return [*helpers, {"let": var, **last}]


class Translation:
    """One game's quest, translated; problems with the source data raise PublishedGameError."""

    def __init__(
        self,
        spec: GameSpec,
        constants: dict[str, Any],
        variables: dict[str, Any],
        areas: set[str],
    ) -> None:
        self.spec, self.constants, self.areas = spec, constants, areas
        self.variables = variables  # the bootstrap's variables (values, or NotData for code)
        self.tables = tables_of(spec.name)
        self.bosses = self.tables.bosses
        self.renames = self.tables.placeholders
        self.where = f"{spec.quest_module}: {QUEST_CLASS}"

    # ---------------------------------------------------------------- texts
    def text(self, raw: Any) -> str:
        """A published text with its placeholders renamed to our variables."""
        if not isinstance(raw, str):
            return ""
        renames = self.renames
        return re.sub(
            r"\{([A-Za-z_][A-Za-z0-9_]*)\}",
            lambda m: "{" + renames.get(m.group(1), m.group(1)) + "}",
            raw,
        )

    # ---------------------------------------------------------------- setup
    def setup(self, variables: dict[str, Any]) -> list[dict[str, Any]]:
        picked, derived = self.tables.picked, self.tables.derived
        placed = list(self.tables.placed)
        steps: list[dict[str, Any]] = []
        known: dict[str, Any] = {}
        for var, value in variables.items():
            if var in picked:
                steps += _picking_steps(var, picked[var])
            elif var in derived:
                value = derived[var](known)
                steps.append({"let": var, "value": value})
            elif value is NotData:
                raise PublishedGameError(
                    f"{self.where}._bootstrap: variable '{var}' is computed in a way the importer "
                    "does not know (a different version of AgentOdyssey?)"
                )
            else:
                steps.append({"let": var, **self._fixed(value)})
            known[var] = value
            # An NPC is placed as soon as the variable naming its area exists.
            for place in [p for p in placed if p["in"] == f"${var}"]:
                steps.append(place)
                placed.remove(place)
        steps += [{"let": var, "value": value} for var, value in self.tables.named.items()]
        # What is placed in a fixed area comes after the variables.
        fixed = [p for p in placed if not str(p["in"]).startswith("$")]
        steps += fixed
        placed = [p for p in placed if p not in fixed]
        if placed:
            missing = ", ".join(p["in"] for p in placed)
            raise PublishedGameError(f"{self.where}._bootstrap: no variable {missing}")
        return steps

    def _fixed(self, value: Any) -> dict[str, Any]:
        if isinstance(value, str) and value in self.areas:
            return {"area": value}
        if isinstance(value, list) and value and all(v in self.areas for v in value):
            return {"areas": list(value)}
        return {"value": value}

    # ---------------------------------------------------------------- conditions
    def conditions(self, raw: Any, stage: str) -> list[dict[str, Any]]:
        if not isinstance(raw, list):
            raise PublishedGameError(f"{self.where}: stage {stage}: conditions are not a list")
        return [self.condition(c, stage) for c in raw]

    def condition(self, c: Any, stage: str) -> dict[str, Any]:
        if not isinstance(c, dict):
            raise PublishedGameError(f"{self.where}: stage {stage}: a condition is not an object")
        kind, ctype = c.get("kind"), c.get("type")
        if kind == "any_of":
            return {"kind": "any_of", "conditions": self.conditions(c.get("conditions"), stage)}
        translate = self.tables.conditions.get((kind, ctype)) or CONDITIONS.get((kind, ctype))
        if translate is None:
            raise PublishedGameError(
                f"{self.where}: stage {stage}: condition {kind}/{ctype} has no translation"
            )
        try:
            return translate(self, c)
        except KeyError as exc:
            raise PublishedGameError(
                f"{self.where}: stage {stage}: condition {kind}/{ctype} has no {exc}"
            ) from None

    def var(self, c: dict[str, Any], key: str) -> str:
        return f"${c[key]}"

    def text_condition(self, kind: str, c: dict[str, Any]) -> dict[str, Any]:
        out = {"kind": kind, "text": self.var(c, "text_key")}
        match = self.tables.text_match
        if match:
            out["match"] = match
        return out

    def killed(self, c: dict[str, Any]) -> dict[str, Any]:
        key = c["npc_key"]
        if key in self.bosses:
            return {"kind": "boss_already_defeated", "boss": key}
        return {"kind": "event", "type": "npc_killed", "npc": f"${key}"}

    def bought(self, c: dict[str, Any]) -> dict[str, Any]:
        event: dict[str, Any] = {"kind": "event", "type": "object_bought"}
        if "npc_key" in c:
            event["npc"] = self.var(c, "npc_key")
        wanted = [c["obj_id"]] if "obj_id" in c else list(c.get("base_objs") or ())
        if wanted:
            event["objects"] = wanted
            # The published stage wants the purchase in the stage's own tick: a relic bought a tick
            # early, or by someone who then hands it over, would leave the quest stuck. Possession
            # counts too (AgentOdyssey's repository fix).
            return {
                "kind": "any_of",
                "conditions": [event, {"kind": "has_any_of", "objects": wanted}],
            }
        return event

    def visited(self, c: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "visited_k_of_area_set",
            "areas": self.var(c, "area_set_key"),
        }
        if "k_key" in c and c["k_key"] in self.variables:
            out["k"] = self.var(c, "k_key")
        elif "k" in c:
            out["k"] = c["k"]
        history = self.tables.visit_history
        if history:
            out["history"] = history
        return out

    # ---------------------------------------------------------------- stages and chapters
    def stage(self, raw: dict[str, Any], boss_stage_of: dict[str, str]) -> dict[str, Any]:
        sid = raw.get("id")
        if not isinstance(sid, str):
            raise PublishedGameError(f"{self.where}: a stage without an id")
        out: dict[str, Any] = {"id": sid, "objective": self.text(raw.get("objective"))}
        if "requires" in raw:  # a goal-graph chapter's stage
            out["requires"] = [str(r) for r in raw["requires"] or ()]
        if "done_all" in raw:
            out["done_all"] = self.conditions(raw["done_all"], sid)
        else:  # a goal graph's parent has none: it closes when what it requires is done
            out["done_any"] = self.conditions(raw.get("done_any", []), sid)
        on_start = [{"spawn_boss": key} for key, at in boss_stage_of.items() if at == sid]
        if on_start:
            out["on_start"] = on_start
        effects: list[dict[str, Any]] = []
        # A key that names no boss spawns nothing (quarantine's quest enemies are all pre-placed).
        if raw.get("spawns_boss_key") in self.bosses:
            effects.append({"spawn_boss": raw["spawns_boss_key"]})
        if raw.get("gives_coins"):
            effects.append({"give": {"$currency": int(raw["gives_coins"])}})
        for oid, count in (raw.get("spawns_objects") or {}).items():
            effects.append({"give": {oid: int(count)}})
        gift = self.tables.gifts.get(sid)
        if gift:
            # AgentOdyssey gives it unless a unit lies at the agent's feet: two agents beating the
            # boss together in one place would get one between them, and one could never go on.
            # Each agent gets its own unless it already has one.
            effects.append({"give": {gift: 1}, "unless_possessed": True})
        if effects:
            out["on_complete"] = effects
        if raw.get("on_complete_feedback"):
            out["complete_text"] = self.text(raw["on_complete_feedback"])
        for flag in ("chapter_complete", "quest_complete"):
            if raw.get(flag):
                out[flag] = True
        return out

    def chapters(self, config: dict[str, Any]) -> list[dict[str, Any]]:
        chapters = config.get("chapters")
        if not isinstance(chapters, list) or not chapters:
            raise PublishedGameError(f"{self.where}.QUEST_CONFIG: no chapters")
        boss_stage_of = self.boss_stages(chapters, set(self.bosses))
        out = []
        for chapter in chapters:
            stages = chapter.get("stages") or []
            made: dict[str, Any] = {
                "id": str(chapter.get("id")),
                "title": str(chapter.get("title", "")),
                "stages": [self.stage(s, boss_stage_of) for s in stages],
            }
            if chapter.get("intro"):
                made["intro"] = self.text(chapter["intro"])
            if chapter.get("root_goal"):
                made["root_goal"] = self.root_goal(chapter)
            out.append(made)
        return out

    def root_goal(self, chapter: dict[str, Any]) -> str:
        """The headline of a goal-graph chapter: the objective of its root stage (the published
        `root_goal` names a stage)."""
        root = chapter["root_goal"]
        stage = next((s for s in chapter.get("stages") or [] if s.get("id") == root), None)
        if stage is None:
            raise PublishedGameError(
                f"{self.where}: chapter {chapter.get('id')}: root goal '{root}' is not a stage"
            )
        return self.text(stage.get("objective"))

    @staticmethod
    def boss_stages(chapters: list[dict[str, Any]], bosses: set[str]) -> dict[str, str]:
        """Boss key -> the id of the stage that fights it: the first stage whose conditions name
        the boss (its kill, or its defeat). The boss is there whenever an agent reaches that
        stage, as AgentOdyssey ensures it every tick from its stage on - also for a boss no
        earlier stage summons (mark's first one)."""
        found: dict[str, str] = {}
        for chapter in chapters:
            for stage in chapter.get("stages") or []:
                for key in _bosses_named(stage, bosses):
                    found.setdefault(key, stage.get("id"))
        return found


def _bosses_named(stage: dict[str, Any], bosses: set[str]) -> list[str]:
    """The boss keys a published stage's conditions name (nested ones too), in order."""
    named: list[str] = []
    pending = [*(stage.get("done_all") or []), *(stage.get("done_any") or [])]
    while pending:
        cond = pending.pop(0)
        if not isinstance(cond, dict):
            continue
        pending.extend(cond.get("conditions") or [])
        for field in ("npc_key", "boss_key"):
            key = cond.get(field)
            if key in bosses and key not in named:
                named.append(key)
    return named


# Translations every game shares; a game's tables may add its own or override one.
CONDITIONS: dict[tuple[Any, Any], ConditionTranslation] = {
    ("state", "in_area"): lambda t, c: {"kind": "in_area", "area": t.var(c, "area_key")},
    ("state", "in_area_with_npc"): lambda t, c: {
        "kind": "in_area_with_npc",
        "npc": t.var(c, "npc_key"),
    },
    ("state", "has_any_of"): lambda t, c: {"kind": "has_any_of", "objects": list(c["base_objs"])},
    ("state", "equipped_any_of"): lambda t, c: {
        "kind": "equipped_any_of",
        "objects": list(c["base_objs"]),
    },
    ("state", "visited_k_of_area_set"): Translation.visited,
    ("event", "npc_killed"): Translation.killed,
    ("event", "object_bought"): Translation.bought,
    ("state", "boss_already_defeated"): lambda t, c: {
        "kind": "boss_already_defeated",
        "boss": c.get("boss_key") or c.get("npc_key"),
    },
    ("state", "paper_text_equals_in_area"): lambda t, c: t.text_condition(
        "paper_text_equals_in_area", c
    ),
    ("state", "writable_text_equals_in_area"): lambda t, c: t.text_condition(
        "paper_text_equals_in_area", c
    ),
    ("state", "writable_text_equals_in_inventory"): lambda t, c: t.text_condition(
        "writable_text_equals_in_inventory", c
    ),
    ("state", "paper_text_in_possession"): lambda t, c: t.text_condition(
        "writable_text_equals_in_inventory", c
    ),
    ("state", "killed_n_enemies"): lambda t, c: {
        "kind": "killed_matching",
        "n": int(c.get("n", 1)),
        "enemy_only": bool(c.get("enemy_only", False)),
        "dark_area": bool(c.get("in_dark_only", False)),
        "min_area_level": int(c.get("min_area_level", 0)),
        **({"roles": list(c["roles"])} if c.get("roles") else {}),
    },
    ("state", "killed_one_of_each"): lambda t, c: {
        "kind": "killed_each_role",
        "roles": list(c["roles"]),
        "enemy_only": bool(c.get("enemy_only", False)),
    },
    ("state", "lit_k_dark_areas"): lambda t, c: {"kind": "lit_dark_areas", "k": int(c["k"])},
}


def main_quest_section(
    copy: PublishedCopy, spec: GameSpec, definition: dict[str, Any]
) -> dict[str, Any]:
    """The game's main quest as our `main_quest` section (JSON data), for the world `definition`
    (raw, with the quest's entities already injected)."""
    module = copy.read_python(spec.quest_module)
    constants = class_constants(module, QUEST_CLASS, where=spec.quest_module)
    config = constants.get("QUEST_CONFIG")
    if not isinstance(config, dict):
        raise PublishedGameError(f"{spec.quest_module}: {QUEST_CLASS}.QUEST_CONFIG is not data")
    areas = {
        area["id"]
        for place in definition["entities"]["places"]
        for area in place.get("areas", [])
        if isinstance(area, dict) and "id" in area
    }
    variables = bootstrap_variables(module, constants)
    translation = Translation(spec, constants, variables, areas)
    guide = {
        "npc": constants["OBJECTIVE_NPC_BASE_ID"],
        "names": list(constants["OBJECTIVE_NPC_NAME_POOL"]),
        **translation.tables.guide_extras,
    }
    section: dict[str, Any] = {
        "title": str(config.get("title", spec.name)),
        "guide": guide,
        "setup": translation.setup(variables),
        "bosses": translation.bosses,
        "chapters": translation.chapters(config),
    }
    if config.get("intro"):
        section["intro"] = translation.text(config["intro"])
    return section


def side_quests_section(copy: PublishedCopy, spec: GameSpec, defaults: dict[str, Any]) -> dict:
    """The game's side quests: its broker and name pool, its pay and threshold, with our texts
    (`defaults`: our default side-quest section, whose texts are ours)."""
    module = copy.read_python(spec.general_module)
    constants = class_constants(module, SIDE_QUEST_CLASS, where=spec.general_module)
    names = list(constants["OBJECTIVE_NPC_NAME_POOL"])
    fallback = next(n for n in ("mira", "wayfarer", "errand_keeper") if n not in names)
    return {
        "unlock_after": int(constants.get("MIN_EXPLORED_AREAS", defaults["unlock_after"])),
        "guide": {
            "npc": constants["OBJECTIVE_NPC_BASE_ID"],
            "names": names,
            "fallback_name": fallback,
        },
        "rewards": {k: list(v) for k, v in constants["REWARD_COINS"].items()},
        "texts": defaults["texts"],
    }
