"""Fixtures of the adapter tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from adapter.quest_world import write_quest_world


@pytest.fixture
def quest_world(tmp_path: Path) -> str:
    """A world folder (world.json + quests.json) whose main quest ends the episode; its path."""
    return write_quest_world(tmp_path / "errand")
