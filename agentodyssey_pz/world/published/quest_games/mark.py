"""mark: the librarian and the contact, two bosses (the root warden weakened by a promise),
text found inside what is written, a guide that comes back every 30 ticks."""

from agentodyssey_pz.world.published.quest_games.tables import QuestTables, boss, place

TABLES = QuestTables(
    placed=[
        place("npc_quest_librarian_v2", "ch1_librarian_npc", "ch1_library_area"),
        place(
            "npc_quest_contact_v2",
            "ch2_contact_npc",
            "ch2_contact_area",
            stock={"obj_tear_of_forest": 1},
            min_coins=300,
        ),
    ],
    named={"ch1_boss_name": "page_gnawer", "ch2_boss_name": "root_warden"},
    bosses={
        "ch1_boss_npc": boss("npc_boss_page_gnawer_v2", "ch1_boss_area", 80, 15),
        # Carrying the promise ("kindness") into its farm weakens the root warden once, for good.
        "ch2_boss_npc": boss(
            "npc_boss_root_warden_v2",
            "ch2_boss_area",
            160,
            36,
            modifiers=[
                {
                    "when_carrying_text": {"text": "$ch1_promise_line", "match": "contains"},
                    "where": "boss_home",
                    "attack_cap": 30,
                    "max_hp": 120,
                    "once": True,
                }
            ],
        ),
    },
    values={"obj_tear_of_forest": 10},
    placeholders={
        "ch1_librarian_name": "ch1_librarian_npc",
        "ch2_contact_name": "ch2_contact_npc",
        "mq_guide_name": "guide",
    },
    guide_extras={"name_order": "shuffled", "remind_every": 30},
    # Its words are looked for inside what is written.
    text_match="contains",
)
