"""remnant: three quest NPCs, five named bosses, the chronicle's derived text, two gifts."""

from agentodyssey_pz.world.published.quest_games.tables import (
    FIRE_BOSS_MODIFIERS,
    RELIC,
    TIDE_MERCHANT,
    QuestTables,
    boss,
    place,
)

_WORDS = ("ch2_salt_word", "ch3_iron_word", "ch4_wind_word")

TABLES = QuestTables(
    # The final chronicle is the three words, spaced and lower-cased.
    derived={"ch5_chronicle_text": lambda v: " ".join(str(v[k]) for k in _WORDS).strip().lower()},
    placed=[
        place("npc_quest_chronicler", "ch1_guide_npc", "ch1_guide_area"),
        place("npc_quest_tide_merchant", "ch2_merchant_npc", "ch2_merchant_area", **TIDE_MERCHANT),
        place("npc_quest_anvil_judge", "ch3_smith_npc", "ch3_smith_area"),
    ],
    # Fixed display names the texts use for the bosses (their prototypes' names).
    named={
        "ch1_boss_name": "cinder_reaver",
        "ch2_boss_name": "ember_warden",
        "ch3_boss_name": "iron_answer",
        "ch4_boss_name": "wind_answer",
        "ch5_boss_name": "confluence_warden",
    },
    bosses={
        "ch1_boss_npc": boss("npc_boss_cinder_reaver", "ch1_shrine_area", 115, 20),
        "ch2_boss_npc": boss(
            "npc_boss_ember_warden", "ch2_boss_area", 225, 20, modifiers=FIRE_BOSS_MODIFIERS
        ),
        "ch3_boss_npc": boss("npc_boss_iron_answer", "ch3_trial_area", 295, 12),
        "ch4_boss_npc": boss("npc_boss_wind_answer", "ch4_spire_area", 395, 20),
        "ch5_boss_npc": boss("npc_boss_confluence_warden", "ch5_engine_area", 400, 30),
    },
    # Stage completions that leave an object at the agent's feet unless one already lies there.
    gifts={"ch3_boss": "obj_prism_lens", "ch4_boss": "obj_storm_crest"},
    values={RELIC: 25},
    placeholders={
        "ch1_guide_name": "ch1_guide_npc",
        "ch2_merchant_name": "ch2_merchant_npc",
        "ch3_smith_name": "ch3_smith_npc",
        "ch1_shrine_candidates": "ch1_shrine_candidate_areas",
        "ch2_lair_candidates": "ch2_lair_candidate_areas",
        "mq_guide_name": "guide",
    },
    # The guide's names are shuffled per seed.
    guide_extras={"name_order": "shuffled"},
    # Visits count from the episode's start, not the quest's.
    visit_history="episode",
)
