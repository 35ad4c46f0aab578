"""saltglass ("The Salt Oath"): one goal-graph chapter, the scholar sere, the merchant Vesin.

What saltglass keeps as code (docs/agentodyssey-games.md#quarantines-and-saltglasss-main-quests):

* Picks: three areas, one at a time, nearest first (`pick_area`): the scholar's, a market area
  the quest never uses, and the delivery area.
* Static NPCs: the scholar `sere` (`npc_quest_guide`) is made in her area; the merchant Vesin is
  adopted wherever the world placed him (`stay_put`; made in the unused market area only if the
  world has none) and stocks at least one survey seal.
* Its own conditions: `has_quest_item_by_base_or_instance` is possession of the survey seal (or
  the object it names); `paper_with_text_dropped_in_area` is a chart paper (`obj_paper`) bearing
  the oath on the delivery area's ground; `object_in_area` is a unit of the object on that ground
  (whoever left them there, the agent anywhere).
* `paper_text_equals_in_hands` looks in hands and worn items.
* `object_bought` of the paper is the purchase itself, in the tick it is made (every goal of the
  chapter is open from its start, so a purchase at any time counts); unlike base's relic, the
  paper is not taken as bought when merely carried.

No boss. Every stage is as published; nothing here needed a fix for two agents: one delivery
completes the stage for everyone, and a survey seal can be handed on.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.world.published.quest_games.tables import QuestTables, place

_PICK = {"pick_area": True}
SEAL = "obj_survey_seal"  # what `has_quest_item_by_base_or_instance` looks for by default
PAPER = "obj_paper"  # the only writable a delivered chart may be


def _bought(t: Any, c: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "event", "type": "object_bought", "objects": [c["obj_id"]]}
    if "npc_key" in c:
        out["npc"] = t.var(c, "npc_key")
    return out


TABLES = QuestTables(
    picked={
        "ch1_guide_area": _PICK,
        "ch1_market_area": _PICK,
        "ch1_delivery_area": _PICK,
    },
    placed=[
        place("npc_quest_guide", "ch1_guide_npc", "ch1_guide_area"),
        place("npc_vesin", "ch1_merchant_npc", "ch1_market_area", stock={SEAL: 1}, stay_put=True),
    ],
    placeholders={"ch1_guide_name": "ch1_guide_npc", "mq_guide_name": "guide"},
    conditions={
        ("event", "object_bought"): _bought,
        ("custom", "has_quest_item_by_base_or_instance"): lambda t, c: {
            "kind": "has_any_of",
            "objects": [c.get("obj_id") or SEAL],
        },
        ("custom", "paper_with_text_dropped_in_area"): lambda t, c: {
            **t.text_condition("paper_with_text_in_area", c),
            "area": t.var(c, "area_key"),
            "object": PAPER,
        },
        ("custom", "object_in_area"): lambda t, c: {
            "kind": "object_on_ground",
            "objects": [t.var(c, "obj_key")],
            "area": t.var(c, "area_key"),
        },
        ("state", "paper_text_equals_in_hands"): lambda t, c: {
            **t.text_condition("paper_text_equals_in_hands", c),
            "where": "hands+equipped",
        },
    },
)
