"""base: picked areas, the chronicler and the tide merchant, two fire bosses."""

from agentodyssey_pz.world.published.quest_games.tables import (
    FIRE_BOSS_MODIFIERS,
    RELIC,
    TIDE_MERCHANT,
    QuestTables,
    boss,
    place,
)

TABLES = QuestTables(
    # base picks its areas from the map with the same picker our `pick_area` follows.
    picked={
        "ch1_guide_area": {"pick_area": True},
        "ch1_shrine_candidate_areas": {"pick_areas": 3},
        "ch1_shrine_area": {"farthest_of": "$ch1_shrine_candidate_areas"},
        "ch2_merchant_area": {"pick_area": True},
        "ch2_lair_candidate_areas": {"pick_areas": 3},
        "ch2_boss_area": {"farthest_of": "$ch2_lair_candidate_areas"},
    },
    placed=[
        place("npc_quest_chronicler", "ch1_guide_npc", "ch1_guide_area"),
        place("npc_quest_tide_merchant", "ch2_merchant_npc", "ch2_merchant_area", **TIDE_MERCHANT),
    ],
    bosses={
        "ch1_boss_npc": boss("npc_boss_cinder_reaver", "ch1_shrine_area", 115, 20),
        "ch2_boss_npc": boss(
            "npc_boss_ember_warden",
            "ch2_boss_area",
            225,
            20,
            modifiers=[
                {**FIRE_BOSS_MODIFIERS[0], "unless_held": ["obj_wooden_sword"]},
                {**FIRE_BOSS_MODIFIERS[1], "when_held": ["obj_wooden_sword"]},
            ],
        ),
    },
    values={RELIC: 25},
    placeholders={
        "ch1_guide_name": "ch1_guide_npc",
        "ch2_merchant_name": "ch2_merchant_npc",
        "ch1_shrine_candidates": "ch1_shrine_candidate_areas",
        "ch2_lair_candidates": "ch2_lair_candidate_areas",
        "mq_guide_name": "guide",
    },
)
