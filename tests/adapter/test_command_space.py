"""The text action space holds every command the game offers: valid-action lists, including the
quests' texts to write (which may hold line breaks and letters beyond ASCII)."""

from __future__ import annotations

import random

import pytest
from worlds_helper import bundled_worlds

import agentodyssey_pz
from agentodyssey_pz.adapter.spaces import command_charset
from agentodyssey_pz.rules.parse import command_text
from agentodyssey_pz.world.quests import texts_to_write


def test_the_charset_covers_line_breaks_tabs_and_the_letters_of_texts_to_write() -> None:
    env = agentodyssey_pz.parallel_env(action_mode="text")
    chars = command_charset(env.game.definition, ["Zwölf Bäume\nund ein See"])
    assert {"\n", "\t", "ö", "ä"} <= chars
    assert "ö" not in command_charset(env.game.definition)  # only because a text asks for it
    assert "\x07" not in chars  # control characters stay out


def test_a_written_text_with_a_line_break_is_a_command_in_the_space() -> None:
    env = agentodyssey_pz.parallel_env(action_mode="text")
    env.reset(seed=0)
    command = command_text("write", ("first line\nsecond line", "note"))
    assert env.action_space("agent_0").contains(command)
    parsed = env.game.engine.parse(command)
    assert parsed.params == ("first line\nsecond line", "note")


@pytest.mark.parametrize("world", bundled_worlds())
def test_every_offered_command_and_quest_text_lies_in_the_action_space(world: str) -> None:
    env = agentodyssey_pz.parallel_env(
        world=world, action_mode="text", obs_mode="text_only", valid_actions_in_info=True
    )
    _, infos = env.reset(seed=3)
    space = env.action_space("agent_0")
    for text in texts_to_write(env.game.quests):
        assert space.contains(command_text("write", (text, "note"))), text
    rng = random.Random(3)
    for _ in range(150):
        actions = {}
        for agent in env.agents:
            offered = [c for lines in infos[agent]["valid_actions"].values() for c in lines]
            outside = [c for c in offered if not space.contains(c)]
            assert not outside, outside[:3]
            actions[agent] = rng.choice(offered)
        _, _, _, _, infos = env.step(actions)
