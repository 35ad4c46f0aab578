"""Two engine hooks for packs (docs/rule-packs.md): lost turns (`BaseStepRule.forced_command`, a
step rule making an agent play another command than its own) and replacing a verb on purpose
(`BaseActionRule.replaces`, silent)."""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from harness import TINY, act, make_game

import agentodyssey_pz
from agentodyssey_pz.errors import RulePackError
from agentodyssey_pz.rules.packs import load_pack

STUN_PACK = '''
from agentodyssey_pz.rules.base import BaseStepRule
from agentodyssey_pz.rules.parse import Command


class Stun(BaseStepRule):
    """agent_0 defends instead of acting while `stunned` counts down."""

    name = "stun_step"
    priority = 50

    def apply(self, ctx, res):
        pass

    def forced_command(self, game, agent):
        left = game.world.auxiliary.get("stunned", {}).get(agent.id, 0)
        return Command("defend", ()) if left > 0 else None

    def on_forced(self, ctx, res):
        ctx.world.auxiliary["stunned"][ctx.actor.id] -= 1
        res.say(ctx.actor.id, "stun.stunned", "I am stunned.")
'''


@pytest.fixture
def stun_pack(tmp_path: Path) -> Path:
    folder = tmp_path / "stun_pack"
    folder.mkdir()
    (folder / "stun.py").write_text(textwrap.dedent(STUN_PACK))
    return folder


def test_a_game_without_forcing_rules_asks_nothing() -> None:
    assert make_game().hooks.forcing == []


def test_a_forced_turn_plays_the_forced_command(stun_pack: Path) -> None:
    game = make_game(TINY, 2, rule_packs=(stun_pack,))
    assert [r.name for r in game.hooks.forcing] == ["stun_step"]
    game.world.auxiliary["stunned"] = {"agent_0": 2}
    result = game.tick({"agent_0": "inspect inventory", "agent_1": "wait"})
    # the own command is not played (not taken); the forced one ran after the rule's word
    assert not result.action_ok["agent_0"] and result.action_ok["agent_1"]
    assert result.feedback("agent_0").startswith("I am stunned.\n")
    assert result.feedback("agent_0") == "I am stunned.\nI raised my guard."
    assert game.world.auxiliary["stunned"]["agent_0"] == 1
    result = game.tick({"agent_0": "defend", "agent_1": "wait"})
    assert result.action_ok["agent_0"]  # the own command was the forced one
    assert game.world.auxiliary["stunned"]["agent_0"] == 0
    result = game.tick({"agent_0": "inspect inventory", "agent_1": "wait"})
    assert "stunned" not in result.feedback("agent_0")


def test_the_listings_of_a_forced_agent_offer_the_forced_command_alone(stun_pack: Path) -> None:
    env = agentodyssey_pz.parallel_env(
        world=str(TINY), num_agents=2, rule_packs=[stun_pack], valid_actions_in_info=True
    )
    env.reset(seed=0)
    env.game.world.auxiliary["stunned"] = {"agent_0": 2}
    infos = env.step({"agent_0": "wait", "agent_1": "wait"})[4]
    assert infos["agent_0"]["valid_actions"] == {"defend": ["defend"]}
    assert len(infos["agent_1"]["valid_actions"]) > 1
    infos = env.step({"agent_0": "defend", "agent_1": "wait"})[4]
    assert len(infos["agent_0"]["valid_actions"]) > 1  # free again


def test_the_mask_of_a_forced_agent_holds_the_forced_entry_alone(stun_pack: Path) -> None:
    env = agentodyssey_pz.parallel_env(world=str(TINY), num_agents=2, rule_packs=[stun_pack])
    env.reset(seed=0)
    env.game.world.auxiliary["stunned"] = {"agent_0": 5}
    obs, *_ = env.step({"agent_0": "wait", "agent_1": "wait"})
    mask = obs["agent_0"]["action_mask"]
    assert [env.action_name("agent_0", int(i)) for i in np.flatnonzero(mask)] == ["defend"]
    assert np.flatnonzero(obs["agent_1"]["action_mask"]).size > 1
    wait = next(i for i in range(len(mask)) if env.action_name("agent_0", i) == "wait")
    infos = env.step({"agent_0": wait, "agent_1": "wait"})[4]
    assert not infos["agent_0"]["action_ok"]  # a masked entry is refused
    defend = int(np.flatnonzero(mask)[0])
    infos = env.step({"agent_0": defend, "agent_1": "wait"})[4]
    assert infos["agent_0"]["action_ok"]
    # the harness's action-rules-only path refuses the own command too, and changes nothing
    assert not act(env.game, "agent_0", "wait").action_ok["agent_0"]


# ---------------------------------------------------------------------------- replaces
LOUD_WAIT = """
from agentodyssey_pz.rules.packs import bundled_pack

BASE = {rule.name: rule for rule in bundled_pack("base").action_rules}


class LoudWait(BASE["wait"]):
    {replaces}

    def apply(self, ctx, res):
        super().apply(ctx, res)
        res.say(ctx.actor.id, "wait.loud", "I waited, loudly.")
"""


def loud_pack(tmp_path: Path, replaces: str) -> Path:
    folder = tmp_path / f"loud_{abs(hash(replaces))}"
    folder.mkdir()
    (folder / "loud.py").write_text(textwrap.dedent(LOUD_WAIT).replace("{replaces}", replaces))
    return folder


@pytest.mark.parametrize(
    ("line", "warned"),
    [("replaces = 'wait'", False), ("pass", True), ("replaces = 'defend'", True)],
)
def test_replacing_a_verb_on_purpose_is_silent(
    tmp_path: Path, caplog: Any, line: str, warned: bool
) -> None:
    pack = loud_pack(tmp_path, line)
    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.rules"):
        game = make_game(rule_packs=(pack,))
    assert ("replaces the earlier 'wait'" in caplog.text) is warned
    assert act(game, "agent_0", "wait").feedback_keys("agent_0")[-1] == "wait.loud"


def test_replaces_must_name_a_verb(tmp_path: Path) -> None:
    with pytest.raises(RulePackError, match="`replaces` must be the id"):
        load_pack(loud_pack(tmp_path, "replaces = ''"))
