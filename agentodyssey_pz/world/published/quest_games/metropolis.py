"""metropolis: goal-graph chapters, five NPCs placed at the start (the archivist, the witness, two
enemies and the boss Vosk), an evidence dossier in the lobby, and metropolis's own condition kinds.

What metropolis keeps as code (docs/agentodyssey-games.md#how-each-game-is-put-together),
translated:

* Picks: the progressive picker, `keep: first` where the game stores only the first of the areas it
  picks (all of them are used up all the same); the picks it never reads are kept, as they shape
  which areas come later. Vosk's area is the farthest from the spawn of four picked areas.
* The archivist, the witness, the bailiff, the advocate and Vosk are placed at the start, each with
  its prototype's stats at its area's level (not the boss table's numbers, which metropolis never
  applies to them); none is a quest boss, so nothing resets their health.
* The dossier is put in the lobby unless one lies on some ground already.
* `talked_to_npc` and `talked_to_npc_in_area`: the agent has talked to the NPC since its quest
  started (metropolis tests no area for the second).
* `object_in_area`: the object lies on that area's ground, whoever dropped it.
* `equipped_any_of`: equipped or in hands.
* `paper_text_equals_in_hands`: a writable in hands, the inventory or a held container.
* `paper_text_equals_in_area` with an area: the agent stands there and the text lies on its ground
  or is in its hands.
* `amended_charter_written_in_area`: the agent stands there with an amended charter bearing the
  text (hands, inventory, held containers).
* `has_item_count` and `has_all_materials`: possession counts.

One softlock is fixed (docs/agentodyssey-games.md#published-quirks-and-our-choices): the bailiff,
the advocate and Vosk stand in the world from the first tick, and metropolis counts a kill only as
this agent's kill event in the tick its stage is checked, so an early kill, or another agent's,
could never count. Here a kill by anyone at any time counts (`npc_dead`).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.quest_games.tables import QuestTables, place

WEAPON_HOLD = "hands"
CARRIED_TEXT = "hands+inventory+held"


def _need(t: Any, c: dict[str, Any], *keys: str) -> None:
    missing = [k for k in keys if k not in c]
    if missing:
        raise PublishedGameError(
            f"{t.where}: condition {c.get('kind')}/{c.get('type')} lacks {', '.join(missing)}"
        )


def _value(t: Any, c: dict[str, Any], key: str) -> Any:
    """The bootstrap's value of the variable `c[key]` names (an object id, a count)."""
    _need(t, c, key)
    name = c[key]
    value = t.variables.get(name)
    if value is None or not isinstance(value, (str, int)):
        raise PublishedGameError(
            f"{t.where}: condition {c.get('type')}: '{name}' is not a bootstrap value"
        )
    return value


def _count(t: Any, c: dict[str, Any], key: str) -> Any:
    _value(t, c, key)
    return f"${c[key]}"


def talked_to(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    _need(t, c, "npc_key")
    return {"kind": "talked_to", "npc": t.var(c, "npc_key")}


def object_in_area(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    _need(t, c, "obj_key", "area_key")
    return {
        "kind": "object_on_ground",
        "objects": [t.var(c, "obj_key")],
        "area": t.var(c, "area_key"),
    }


def equipped_or_held(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    _need(t, c, "base_objs")
    objects = list(c["base_objs"])
    return {
        "kind": "any_of",
        "conditions": [
            {"kind": "equipped_any_of", "objects": objects},
            {"kind": "holding", "objects": objects},
        ],
    }


def killed(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    """A kill of a placed NPC (the fixed softlock above); `boss_key` names the NPC's variable."""
    key = c.get("npc_key") or c.get("boss_key")
    if not key:
        raise PublishedGameError(f"{t.where}: condition {c.get('type')} names no NPC")
    if key not in _PLACED_VARS:
        raise PublishedGameError(
            f"{t.where}: condition {c.get('type')}: '{key}' is not an NPC metropolis places"
        )
    return {"kind": "npc_dead", "npc": f"${key}"}


def text_in_hands(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    _need(t, c, "text_key")
    return {
        "kind": "paper_text_equals_in_hands",
        "text": t.var(c, "text_key"),
        "where": CARRIED_TEXT,
    }


def text_in_area(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    """Standing in the area, the text on its ground or in hands; without an area, here."""
    _need(t, c, "text_key")
    text = t.var(c, "text_key")
    if "area_key" not in c:
        return {"kind": "paper_text_equals_in_area", "text": text}
    area = t.var(c, "area_key")
    return {
        "kind": "all_of",
        "conditions": [
            {"kind": "in_area", "area": area},
            {
                "kind": "any_of",
                "conditions": [
                    {"kind": "paper_text_equals_in_area", "text": text, "area": area},
                    {"kind": "paper_text_equals_in_hands", "text": text, "where": WEAPON_HOLD},
                ],
            },
        ],
    }


def charter_in_area(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    _need(t, c, "text_key", "area_key", "obj_id")
    return {
        "kind": "all_of",
        "conditions": [
            {"kind": "in_area", "area": t.var(c, "area_key")},
            {
                "kind": "writable_text_equals_in_inventory",
                "text": t.var(c, "text_key"),
                "object": str(c["obj_id"]),
                "where": CARRIED_TEXT,
            },
        ],
    }


def item_count(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "has_item_count",
        "object": str(_value(t, c, "base_obj_key")),
        "count": _count(t, c, "count_key"),
    }


def all_materials(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    materials = c.get("materials")
    if not isinstance(materials, dict) or not materials:
        raise PublishedGameError(f"{t.where}: has_all_materials: 'materials' is not a map")
    return {
        "kind": "all_of",
        "conditions": [
            {"kind": "has_item_count", "object": str(oid), "count": int(n)}
            for oid, n in materials.items()
        ],
    }


PLACED = [
    place("npc_quest_archivist_lune", "ch1_archivist_npc", "ch1_archivist_area"),
    place("npc_corrupt_bailiff", "ch2_bailiff_npc", "ch2_bailiff_area"),
    place("npc_advocate_sentinel", "ch2_advocate_npc", "ch2_advocate_area"),
    place("npc_quest_witness_marron", "ch2_witness_npc", "ch2_witness_area"),
    place("npc_boss_chief_magistrate_vosk", "ch3_vosk_npc", "ch3_vosk_area"),
]
_PLACED_VARS = {p["let"] for p in PLACED}

TABLES = QuestTables(
    picked={
        "ch1_aldiss_area": {"pick_area": True},
        "ch2_weapon_area": {"pick_area": True},
        "ch2_bailiff_area": {"pick_areas": 2, "keep": "first"},
        "ch2_advocate_area": {"pick_areas": 2, "keep": "first"},
        "ch2_witness_area": {"pick_area": True},
        "ch2_vesper_area": {"pick_area": True},
        "ch2_bench_area": {"pick_areas": 2},
        "ch2_judge_area": {"pick_areas": 2},
        "ch3_orin_area": {"pick_areas": 2},
        "ch3_bailiff_area": {"pick_areas": 2},
        "ch3_bench_area": {"pick_areas": 2},
        # Four areas are picked, the farthest from the spawn kept.
        "ch3_vosk_area": [
            {"let": "ch3_vosk_candidate_areas", "pick_areas": 4},
            {"farthest_of": "$ch3_vosk_candidate_areas"},
        ],
    },
    placed=[
        *PLACED,
        {
            "let": "ch1_dossier",
            "place_object": "obj_evidence_dossier",
            "in": "area_lobby",
            "unless_anywhere_on_ground": True,
        },
    ],
    placeholders={
        "ch1_archivist_name": "ch1_archivist_npc",
        "ch2_witness_name": "ch2_witness_npc",
        "ch2_bailiff_name": "ch2_bailiff_npc",
        "ch2_advocate_name": "ch2_advocate_npc",
        "ch3_vosk_name": "ch3_vosk_npc",
        "mq_guide_name": "guide",
    },
    conditions={
        ("custom", "talked_to_npc"): talked_to,
        ("custom", "talked_to_npc_in_area"): talked_to,
        ("custom", "object_in_area"): object_in_area,
        ("state", "equipped_any_of"): equipped_or_held,
        ("event", "npc_killed"): killed,
        ("state", "boss_already_defeated"): killed,
        ("state", "paper_text_equals_in_hands"): text_in_hands,
        ("state", "paper_text_equals_in_area"): text_in_area,
        ("custom", "amended_charter_written_in_area"): charter_in_area,
        ("state", "has_item_count"): item_count,
        ("custom", "has_all_materials"): all_materials,
    },
)
