"""What each published game keeps as code rather than data, for importing its main quest.

Layer: world core. `quests.py` reads a game's quest (chapters, stages, texts, the plain-data
statements of its bootstrap) from the user's copy and translates it; the tables here hold, one
module per game, what cannot be read that way: which areas are picked from the map, which NPCs
are placed where, the bosses and their modifiers, and how the game's own condition kinds
translate into ours (docs/world-format.md#11-quest-data, docs/agentodyssey-games.md).
"""

from __future__ import annotations

from agentodyssey_pz.world.published.quest_games import (
    base,
    mark,
    metropolis,
    quarantine,
    remnant,
    robot_kingdom,
    saltglass,
)
from agentodyssey_pz.world.published.quest_games.tables import QuestTables

TABLES: dict[str, QuestTables] = {
    "base": base.TABLES,
    "remnant": remnant.TABLES,
    "mark": mark.TABLES,
    "metropolis": metropolis.TABLES,
    "robot_kingdom": robot_kingdom.TABLES,
    "quarantine": quarantine.TABLES,
    "saltglass": saltglass.TABLES,
}


def tables_of(game: str) -> QuestTables:
    """The game's tables; a game without any has empty ones (its bootstrap is all data)."""
    return TABLES.get(game) or QuestTables()


__all__ = ["TABLES", "QuestTables", "tables_of"]
