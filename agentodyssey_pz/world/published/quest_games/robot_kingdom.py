"""robot_kingdom: progressive area picks, twelve NPCs placed at setup (enemies and three bosses
among them), and the game's own condition kinds.

Every area is picked as the game's picker keeps it: `pick_areas: n` with only the first kept, all n
used up (docs/agentodyssey-games.md#robotkingdoms-main-quest); three variables are second names for
earlier areas. The NPCs are placed in the game's order, each at its area's level; the world's unique
marshal, Kael and Vessa are moved to their quest areas (AgentOdyssey makes a second NPC with the
same id). The warden, the colossus guard and the architect are those placed NPCs (`placed`), shared,
back to the health they had when their stage first became active after beating someone.

Choices (docs/agentodyssey-games.md#robotkingdoms-main-quest): the kill stages of the automaton, the
two ravagers and the ember scavenger are `npc_dead` (anyone's kill, at any time, counts: as
published only the agent's own kill in the stage's tick did, which left every other agent stuck); a
boss killed by anyone before its stage counts too (published, it came back). Everything else as
published, e.g. `npc_has_coins` holds at once (the merchant starts with more than 15 coins).
"""

from typing import Any

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.quest_games.tables import QuestTables, boss, place


def _first(n: int) -> dict[str, Any]:
    return {"pick_areas": n, "keep": "first"}


def _npc(c: dict[str, Any]) -> str:
    return f"${c['npc_key']}"


def _talked(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "talked_to", "npc": _npc(c)}


def _talked_with_text(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    # Talked at some time; a writable in hands or inventory bears the text now.
    return {
        "kind": "talked_to",
        "npc": _npc(c),
        "carrying_text": t.var(c, "text_key"),
        "carrying_where": "hands+inventory",
    }


def _talked_in_area(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "talked_to", "npc": _npc(c), "area": t.var(c, "area_key")}


def _object_in_area(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    if "obj_key" in c:
        objects = [t.var(c, "obj_key")]
    elif isinstance(c.get("target_objs"), list) and c["target_objs"]:
        objects = list(c["target_objs"])
    else:
        raise _bad(t, c, "names no object ('obj_key' or 'target_objs')")
    return {"kind": "object_on_ground", "objects": objects, "area": t.var(c, "area_key")}


def _coins(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    threshold = c.get("threshold")
    if type(threshold) is not int or threshold < 0:
        raise _bad(t, c, f"has no whole-number 'threshold' (got {threshold!r})")
    return {"kind": "npc_coins_at_least", "npc": _npc(c), "coins": threshold}


def _armour(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    level = c.get("min_level")
    if type(level) is not int or level < 0:
        raise _bad(t, c, f"has no whole-number 'min_level' (got {level!r})")
    return {"kind": "equipped_min_level", "category": "armor", "min_level": level}


def _killed(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    """A boss's kill is its defeat (anyone's); another NPC's kill is its death, by anyone, at any
    time (published: this agent's kill in this very tick, a softlock for the others)."""
    if c.get("npc_key") in t.bosses:
        return {"kind": "boss_already_defeated", "boss": c["npc_key"]}
    return {"kind": "npc_dead", "npc": _npc(c)}


def _bad(t: Any, c: dict[str, Any], what: str) -> PublishedGameError:
    return PublishedGameError(f"{t.where}: condition {c.get('kind')}/{c.get('type')} {what}")


# NPC variable -> its prototype and area variable, in the order the game places them.
_PLACED = (
    ("ch1_marshal_npc", "npc_old_marshal", "ch1_marshal_area"),
    ("ch2_lyra_npc", "npc_quest_scout_lyra", "ch2_lyra_area"),
    ("ch2_scrap_npc", "npc_quest_scrap_auto_1", "ch2_scrap_area"),
    ("ch2_merchant_npc", "npc_kael_ashworth", "ch2_merchant_area"),
    ("ch2_warden_npc", "npc_boss_scrap_warden", "ch2_warden_area"),
    ("ch3_ravager1_npc", "npc_quest_iron_ravager_1", "ch3_entrance_area"),
    ("ch3_ember_npc", "npc_quest_ember_pack_1", "ch3_entrance_area"),
    ("ch3_dren_npc", "npc_quest_forgemaster_dren", "ch3_forge_area"),
    ("ch3_ravager2_npc", "npc_quest_iron_ravager_2", "ch3_scrapyard_area"),
    ("ch4_colossus_npc", "npc_quest_colossus_guard", "ch4_gate_area"),
    ("ch4_vessa_npc", "npc_vessa_ironhand", "ch4_furnace_area"),
    ("ch4_architect_npc", "npc_boss_infernal_architect", "ch4_core_area"),
)
_BOSSES = ("ch2_warden_npc", "ch4_colossus_npc", "ch4_architect_npc")


def _boss(key: str) -> dict[str, Any]:
    proto, area = next((p, a) for k, p, a in _PLACED if k == key)
    return boss(proto, area, placed=f"${key}", reset_hp_on_defeat="stage_start")


TABLES = QuestTables(
    picked={
        "ch1_bastion_areas": {"pick_areas": 3},
        "ch1_marshal_area": _first(1),
        "ch2_lyra_area": _first(1),
        "ch2_scrap_area": _first(2),
        "ch2_rally_area": {"area": "$ch2_scrap_area"},
        "ch2_merchant_area": _first(2),
        "ch2_warden_area": _first(2),
        "ch3_entrance_area": _first(3),
        "ch3_forge_area": _first(4),
        "ch3_scrapyard_area": _first(4),
        "ch4_gate_area": _first(5),
        "ch4_furnace_area": _first(6),
        "ch4_furnace_area_sabotage": {"area": "$ch4_furnace_area"},
        "ch4_core_area": _first(6),
        "ch4_core_area_final": {"area": "$ch4_core_area"},
    },
    placed=[place(proto, var, area) for var, proto, area in _PLACED],
    bosses={key: _boss(key) for key in _BOSSES},
    placeholders={
        **{var.replace("_npc", "_name"): var for var, _, _ in _PLACED},
        "mq_guide_name": "guide",
    },
    conditions={
        ("custom", "talked_to_npc"): _talked,
        ("custom", "talked_to_npc_with_item"): _talked_with_text,
        ("custom", "talked_to_npc_in_area"): _talked_in_area,
        ("custom", "bought_from_merchant"): lambda t, c: {"kind": "bought_from", "npc": _npc(c)},
        ("custom", "object_in_area"): _object_in_area,
        ("custom", "npc_has_coins"): _coins,
        ("custom", "area_cleared"): lambda t, c: {
            "kind": "area_clear",
            "area": t.var(c, "area_key"),
        },
        ("custom", "player_has_crafted_specific"): lambda t, c: {
            "kind": "has_any_of",
            "objects": [c["obj_id"]],
        },
        ("custom", "equipped_armor_level"): _armour,
        # Held containers are not searched; a text is looked for in hands only.
        ("state", "has_category"): lambda t, c: {
            "kind": "has_category",
            "category": c["category"],
            "where": "hands+equipped+inventory",
        },
        ("state", "paper_text_equals_in_hands"): lambda t, c: {
            "kind": "paper_text_equals_in_hands",
            "text": t.var(c, "text_key"),
            "where": "hands",
        },
        ("event", "npc_killed"): _killed,
    },
)
