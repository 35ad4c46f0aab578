"""Side-quest data (placeholder until the side-quest section lands)."""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.schema import WorldDefinition


def load_section(raw: Any, definition: WorldDefinition, path: str, problems: Problems) -> Any:
    return None
