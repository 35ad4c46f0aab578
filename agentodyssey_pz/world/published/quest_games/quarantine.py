"""quarantine ("Patient Zero"): a goal graph of two chapters, the nurse and six pre-placed enemies.

What quarantine keeps as code (docs/agentodyssey-games.md#quarantines-and-saltglasss-main-quests):

* Picks: five areas, one at a time, nearest first (`pick_area`); the morgue of chapter 2 is the
  morgue of chapter 1 (`area: $ch1_morgue_area`).
* Static NPCs, each placed right after its area is known: the quest nurse, two ward zombies, the
  morgue licker, two lab zombies and the tyrant. They are shared by every agent, made at the
  level of their area with the prototype's items restored, and fight like any enemy. A quest
  enemy whose display name a world NPC already has takes the next free `<name>_<k>` (quarantine
  does the same by its own counter); its id is `<prototype id>_<k>` by our numbering.
* Its "bosses" are these pre-placed NPCs: `boss_already_defeated` on one of them is `npc_dead`
  (any agent's kill counts for all, or the NPC has no health left), and `spawns_boss_key` names
  no boss, so it spawns nothing (as published: its spawner knows none of these keys).
* Its own condition `serum_deployed_in_reactor` is: the tyrant dead, the agent in the reactor
  area and a unit of the serum on that area's ground.
* `has_category` looks in hands, worn items and the bag (not in containers held in hand);
  `paper_text_equals_in_hands` looks in hands only.

Choices: the quest nurse and the world's merchant nurse share the display name `nurse_chen`. In
quarantine the quest nurse takes the name and the merchant can no longer be named; our world never
gives two NPCs one name, so the quest nurse is `nurse_chen_<k>` and the texts name it so
(`{ch1_nurse_npc_name}` shows the quest nurse's name). A kill counts for `npc_dead` whoever made
it, also before a stage asks for it (quarantine records it from the kills of agents whose quest
runs; the tutorial room holds none of these NPCs, so the two agree).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.quest_games.tables import QuestTables, place

_PICK = {"pick_area": True}


def _defeated(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    """`boss_already_defeated` of a pre-placed quest NPC: it is dead (anyone's kill)."""
    return {"kind": "npc_dead", "npc": t.var(c, "boss_key")}


def _serum_deployed(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    area = t.var(c, "area_key")
    return {
        "kind": "all_of",
        "conditions": [
            {"kind": "npc_dead", "npc": "$ch2_tyrant_npc"},
            {"kind": "in_area", "area": area},
            {"kind": "object_on_ground", "objects": [t.var(c, "obj_key")], "area": area},
        ],
    }


def _item_count(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    """`has_item_count` names its object and count by variables; the object is a fixed id."""
    obj = t.variables.get(c["base_obj_key"])
    if not isinstance(obj, str):
        raise PublishedGameError(
            f"{t.where}: has_item_count: '{c['base_obj_key']}' is not a fixed object id"
        )
    return {"kind": "has_item_count", "object": obj, "count": t.var(c, "count_key")}


TABLES = QuestTables(
    picked={
        "ch1_nurse_area": _PICK,
        "ch1_ward_area": _PICK,
        "ch1_morgue_area": _PICK,
        "ch2_morgue_area": {"area": "$ch1_morgue_area"},
        "ch2_lab_entrance_area": _PICK,
        "ch2_reactor_area": _PICK,
    },
    placed=[
        place("npc_quest_nurse_chen", "ch1_nurse_npc", "ch1_nurse_area"),
        place("npc_ward_zombie_1", "ch1_ward_zombie_1", "ch1_ward_area"),
        place("npc_ward_zombie_2", "ch1_ward_zombie_2", "ch1_ward_area"),
        place("npc_morgue_licker", "ch2_licker_npc", "ch2_morgue_area"),
        place("npc_lab_zombie_1", "ch2_lab_zombie_1", "ch2_lab_entrance_area"),
        place("npc_lab_zombie_2", "ch2_lab_zombie_2", "ch2_lab_entrance_area"),
        place("npc_boss_tyrant", "ch2_tyrant_npc", "ch2_reactor_area"),
    ],
    placeholders={"ch1_nurse_npc_name": "ch1_nurse_npc", "mq_guide_name": "guide"},
    conditions={
        ("state", "boss_already_defeated"): _defeated,
        ("custom", "serum_deployed_in_reactor"): _serum_deployed,
        ("state", "has_item_count"): _item_count,
        ("state", "has_category"): lambda t, c: {
            "kind": "has_category",
            "category": c["category"],
            "where": "hands+equipped+inventory",
        },
        ("state", "paper_text_equals_in_hands"): lambda t, c: {
            **t.text_condition("paper_text_equals_in_hands", c),
            "where": "hands",
        },
    },
)
