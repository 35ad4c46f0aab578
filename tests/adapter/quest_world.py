"""A two-area world whose one-stage main quest (walk into the barn) ends the episode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# One place, two areas; walking into the barn completes the only stage of the main quest.
QUEST_WORLD: dict[str, Any] = {
    "entities": {
        "places": [
            {
                "type": "place", "id": "place_yard", "name": "Yard", "unlocked": True,
                "areas": [
                    {"type": "area", "id": "area_gate", "name": "gate", "level": 1},
                    {"type": "area", "id": "area_barn", "name": "barn", "level": 1},
                ],
            }
        ],
        "objects": [
            {
                "type": "object", "id": "obj_coin", "name": "coin", "category": "currency",
                "usage": "exchange", "value": None, "size": 0, "level": 1,
                "craft": {"ingredients": {}, "dependencies": []},
            },
            {
                "type": "object", "id": "obj_straw", "name": "straw", "category": "material",
                "usage": "craft", "value": 1, "size": 1, "level": 1, "areas": ["area_barn"],
                "craft": {"ingredients": {}, "dependencies": []},
            },
            {
                "type": "object", "id": "obj_bale", "name": "bale", "category": "material",
                "usage": "craft", "value": 3, "size": 2, "level": 1,
                "craft": {"ingredients": {"obj_straw": 3}, "dependencies": []},
            },
        ],
        "npcs": [],
    },
    "initializations": {
        "spawn": {"area": "area_gate", "npcs": {}, "objects": {"obj_coin": 2}},
        "undistributable_objects": [],
    },
    "custom_events": ["main_quest"],
}  # fmt: skip

QUEST_DATA: dict[str, Any] = {
    "main_quest": {
        "title": "Errand",
        "guide": {"npc": "npc_test_guide", "names": ["Ann", "Bob", "Cyd", "Dee"]},
        "npcs": [
            {
                "type": "npc", "id": "npc_test_guide", "name": "guide", "enemy": False,
                "unique": False, "role": "guide", "objects": [],
            }
        ],
        "chapters": [
            {
                "id": "chapter_one", "title": "One",
                "stages": [
                    {
                        "id": "stage_barn", "objective": "Walk to the barn.",
                        "done_all": [{"kind": "in_area", "area": "area_barn"}],
                        "quest_complete": True,
                    }
                ],
            }
        ],
    }
}  # fmt: skip

# The text command and catalogue label that complete the quest.
FINISHING_COMMAND = "enter barn"


def write_quest_world(folder: Path) -> str:
    """world.json + quests.json in `folder` (created); returns the folder as a string."""
    folder.mkdir(parents=True)
    (folder / "world.json").write_text(json.dumps(QUEST_WORLD), encoding="utf-8")
    (folder / "quests.json").write_text(json.dumps(QUEST_DATA), encoding="utf-8")
    return str(folder)
