"""A rule that raises in the middle of a tick, and other ways pack code meets a running game.

A rule's exception leaves the tick's changes so far in the state (agents before it acted, the rule
itself may have half-written). The game then stops: the error names the rule, its file, the tick
and the command; later ticks and saves are refused until `reset()` or a load; a checkpoint folder
still holds the state before the failed tick, which is what a resume gives. Also here: the
bootstrap tick dispatches `wait` by id (a pack may rename its phrase), policies find the base pack
when a pack overrides base rules, a checkpoint warns when a pack's code has changed since it was
saved, and the CLI takes `--rule-pack`.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from harness import TINY

import agentodyssey_pz
from agentodyssey_pz import cli
from agentodyssey_pz.checkpoint import resume
from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.errors import RuleCodeWarning, RuleError

HEADER = "from agentodyssey_pz.rules.base import BaseActionRule, BaseStepRule, CatalogueShape\n"

BOOM = """
class Boom(BaseActionRule):
    name = "boom"
    verb = "boom"

    def apply(self, ctx, res):
        ctx.actor.hp -= 50  # half-written: then it fails
        raise ValueError("the fuse was wet")
"""

STEP_BOOM = """
class Quake(BaseStepRule):
    name = "quake_step"
    priority = 5

    def apply(self, ctx, res):
        if ctx.game.tick_index >= 1:
            raise KeyError("no such fault line")
"""

DIG = """
CHANCE = {chance}


class Dig(BaseActionRule):
    name = "dig"
    verb = "dig"
    catalogue = CatalogueShape("none")

    def apply(self, ctx, res):
        found = ctx.game.rng.random() < CHANCE
        res.say(ctx.actor.id, "dig.done", "I found a worm." if found else "I found nothing.")

    def mask_targets(self, ctx):
        return [(None, ())]
"""

REST = """
class Rest(BaseActionRule):
    name = "wait"
    verb = "rest"
    catalogue = CatalogueShape("none")

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "wait.done", "I rested.")

    def mask_targets(self, ctx):
        return [(None, ())]
"""

NO_RHYTHM = """
class NoRhythm(BaseStepRule):
    name = "combat_rhythm_step"
    priority = 2

    def apply(self, ctx, res):
        pass
"""


def pack(root: Path, source: str) -> str:
    root.mkdir(parents=True, exist_ok=True)
    (root / "rules_here.py").write_text(HEADER + source, encoding="utf-8")
    return str(root)


def test_an_action_rule_that_raises_stops_the_game_with_a_precise_error(tmp_path: Path) -> None:
    game = Game(TINY, 2, GameConfig(rule_packs=(pack(tmp_path / "boom", BOOM),)))
    game.reset(0)
    game.tick({"agent_0": "wait", "agent_1": "wait"})
    with pytest.raises(RuleError) as info:
        game.tick({"agent_0": "wait", "agent_1": "boom"})
    message = str(info.value)
    assert "Boom ('boom', " in message and str(tmp_path / "boom") in message
    assert (
        "ValueError: the fuse was wet during tick 2 (tick_index 1 while it ran), acting for "
        "agent_1: 'boom'" in message
    )
    assert isinstance(info.value.__cause__, ValueError)
    assert game.agents["agent_1"].hp == game.config.start_hp - 50  # what the rule half-wrote
    for refused in (lambda: game.tick({}), lambda: game.save(tmp_path / "s.json")):
        with pytest.raises(RuleError, match="stopped at tick 2, which raised half-way"):
            refused()
    assert not (tmp_path / "s.json").exists()
    game.reset(1)  # a new episode plays on
    assert game.tick({"agent_0": "wait", "agent_1": "wait"}).action_ok["agent_1"]


def test_a_step_rule_that_raises_stops_the_game_and_is_not_retried(tmp_path: Path) -> None:
    game = Game(TINY, 1, GameConfig(rule_packs=(pack(tmp_path / "quake", STEP_BOOM),)))
    game.reset(0)
    game.tick({"agent_0": "wait"})
    with pytest.raises(RuleError, match=r"Quake \('quake_step', .*KeyError: 'no such fault line'"):
        game.tick({"agent_0": "wait"})
    index = game.tick_index
    with pytest.raises(RuleError, match="stopped"):
        game.tick({"agent_0": "wait"})  # the actions are not run a second time
    assert game.tick_index == index == 1


ASKS_FOR_ACTOR = """
class Nosy(BaseStepRule):
    name = "nosy_step"
    priority = 50

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "nosy.said", "Who acted?")
"""


def test_a_step_rule_reading_the_actor_is_told_there_is_none(tmp_path: Path) -> None:
    game = Game(TINY, 1, GameConfig(rule_packs=(pack(tmp_path / "nosy", ASKS_FOR_ACTOR),)))
    with pytest.raises(RuleError) as info:
        game.reset(0)
    assert "Nosy ('nosy_step', " in str(info.value)
    assert "AttributeError: ctx.actor.id: step rules have no acting agent" in str(info.value)


def test_a_checkpoint_resumes_to_the_state_before_the_failed_tick(tmp_path: Path) -> None:
    boom = pack(tmp_path / "boom", BOOM)
    env = agentodyssey_pz.parallel_env(
        world=TINY, num_agents=2, tutorial=False, action_mode="text", rule_packs=(boom,),
        checkpoint_dir=str(tmp_path / "ck"), snapshot_every=1000,
    )  # fmt: skip
    env.reset(seed=3)
    env.step({"agent_0": "wait", "agent_1": "wait"})
    before = state_hash(env.game)
    with pytest.raises(RuleError):
        env.step({"agent_0": "wait", "agent_1": "boom"})
    with pytest.raises(RuleError, match="stopped"):
        env.step({"agent_0": "wait", "agent_1": "wait"})
    folder = env.checkpoint_folder
    env.close()
    resumed = resume(folder, TINY, rule_packs=(boom,), snapshot_every=None)
    assert resumed.tick_index == 1 and state_hash(resumed) == before


def test_the_bootstrap_tick_waits_by_id_whatever_the_phrase(tmp_path: Path) -> None:
    env = agentodyssey_pz.parallel_env(
        world=TINY, num_agents=1, tutorial=False, obs_mode="text",
        rule_packs=(pack(tmp_path / "rest", REST),),
    )  # fmt: skip
    observations, infos = env.reset(seed=0)
    assert infos["agent_0"]["action_ok"] and not infos["agent_0"]["invalid_action"]
    assert "I rested." in observations["agent_0"]["text"]


def test_policies_find_the_base_pack_when_a_pack_overrides_base_rules(tmp_path: Path) -> None:
    from agentodyssey_pz.policies import make_policy

    env = agentodyssey_pz.parallel_env(
        num_agents=1, tutorial=False, rule_packs=(pack(tmp_path / "calm", NO_RHYTHM),)
    )
    observations, infos = env.reset(seed=0)
    for name in ("explorer", "crafter", "fighter", "trader", "quester"):
        policy = make_policy(name)
        policy.bind(env, "agent_0", 0)
        for _ in range(5):
            action = policy(observations["agent_0"], infos["agent_0"])
            observations, _, _, _, infos = env.step({"agent_0": action})


def test_resuming_with_changed_pack_code_warns(tmp_path: Path) -> None:
    root = tmp_path / "dig"
    digger = pack(root, DIG.format(chance=0.3))
    env = agentodyssey_pz.parallel_env(
        world=TINY, num_agents=1, tutorial=False, rule_packs=(digger,),
        checkpoint_dir=str(tmp_path / "ck"), snapshot_every=4,
    )  # fmt: skip
    env.reset(seed=0)
    for _ in range(6):
        env.step({"agent_0": "dig"})
    folder = env.checkpoint_folder
    env.close()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # unchanged: no warning
        resume(folder, TINY, rule_packs=(digger,), snapshot_every=None)
    pack(root, DIG.format(chance=0.9))
    with pytest.warns(RuleCodeWarning, match=f"rule pack {root} has changed since"):
        resumed = resume(folder, TINY, rule_packs=(digger,), snapshot_every=None)
    assert resumed.tick_index == 6


def test_the_cli_takes_rule_packs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    digger = pack(tmp_path / "dig", DIG.format(chance=0.5))
    env = agentodyssey_pz.parallel_env(
        num_agents=1, tutorial=False, rule_packs=(digger,),
        checkpoint_dir=str(tmp_path / "ck"), snapshot_every=3,
    )  # fmt: skip
    env.reset(seed=0)
    for _ in range(4):
        env.step({"agent_0": "dig"})
    folder = env.checkpoint_folder
    env.close()
    assert cli.main(["resume", folder, "--snapshot-every", "100"]) == 1
    assert "(on the command line: --rule-pack)" in capsys.readouterr().err
    assert cli.main(["resume", folder, "--rule-pack", digger, "--ticks", "3"]) == 0
    assert "now at tick 7" in capsys.readouterr().out
    out = tmp_path / "eval"
    args = ["evaluate", "--rule-pack", digger, "--episodes", "1", "--steps", "5", "--agents", "2"]
    args += ["--policies", "random,wait"]
    args += ["--quiet", "--plot", "none", "-o", str(out)]
    assert cli.main(args) == 0
    report = (out / "report.json").read_text(encoding="utf-8")
    assert digger in report  # the episodes' env settings name the pack


PICKY = """
class Picky(BaseActionRule):
    name = "picky"
    verb = "picky"
    params = ("thing",)
    param_max = None

    def validate_params(self, ctx, res):
        return len(ctx.params) == 1  # says nothing when it refuses

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "picky.done", "Fine.")
"""

FRAGILE_MASK = """
class Fragile(BaseActionRule):
    name = "fragile"
    verb = "fragile"
    catalogue = CatalogueShape("none")

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "fragile.done", "Done.")

    def mask_targets(self, ctx):
        if ctx.game.tick_index >= 2:
            raise ZeroDivisionError("the mask broke")
        return [(None, ())]
"""


FRAGILE_MASK_LIST = """
class FragileMask(BaseActionRule):  # its valid list is its mask list, written from mask_targets
    name = "fragile_mask"
    verb = "fragile mask"
    catalogue = CatalogueShape("none")
    valid_params_from_mask = True

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "fragile.done", "Done.")

    def valid_params(self, ctx, *, all_amounts=True):
        return [p for _, p in self.mask_targets(ctx)]

    def mask_targets(self, ctx):
        if ctx.game.tick_index >= 2:
            raise ZeroDivisionError("the mask broke")
        return [(None, ())]
"""

FRAGILE_COMMANDS = """
class FragileList(BaseActionRule):
    name = "fragile_list"
    verb = "fragile list"

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "fragile.done", "Done.")

    def valid_commands(self, ctx):
        if ctx.game.tick_index >= 2:
            raise KeyError("the list broke")
        return ["fragile list"]
"""


def test_a_silent_parameter_check_gets_feedback_not_an_index_error(tmp_path: Path) -> None:
    game = Game(TINY, 1, GameConfig(rule_packs=(pack(tmp_path / "picky", PICKY),)))
    game.reset(0)
    result = game.tick({"agent_0": "picky a b"})
    assert result.invalid["agent_0"] and not result.action_ok["agent_0"]
    assert "'picky' does not take these parameters ('picky <thing>')" in result.feedback("agent_0")


def test_a_mask_that_raises_stops_the_env_instead_of_playing_on(tmp_path: Path) -> None:
    env = agentodyssey_pz.parallel_env(
        world=TINY, num_agents=1, tutorial=False,
        rule_packs=(pack(tmp_path / "fragile", FRAGILE_MASK),),
    )  # fmt: skip
    env.reset(seed=0)
    env.step({"agent_0": "wait"})
    with pytest.raises(RuleError, match=r"Fragile \('fragile'\) raised ZeroDivisionError in mask_"):
        env.step({"agent_0": "wait"})
    tick = env.game.tick_index
    with pytest.raises(RuleError, match="stopped after tick 2, whose results could not be read"):
        env.step({"agent_0": "wait"})
    assert env.game.tick_index == tick == 2  # no tick was played unseen
    env.game.save(tmp_path / "whole.json")  # the tick itself was whole: its state may be saved


@pytest.mark.parametrize(
    ("source", "phrase", "message"),
    [
        (FRAGILE_MASK_LIST, "fragile mask", r"FragileMask \(.*ZeroDivisionError in mask_targets"),
        (FRAGILE_COMMANDS, "fragile list", r"FragileList \(.*KeyError in valid_commands"),
    ],
)
def test_a_valid_action_list_that_raises_names_the_method(
    tmp_path: Path, source: str, phrase: str, message: str
) -> None:
    """Text-only observations list valid actions without a mask: a verb that promises its valid
    list is its mask list is asked for its mask targets, any other for its commands; whichever
    raises is named, and the env stops."""
    env = agentodyssey_pz.parallel_env(
        world=TINY, num_agents=1, tutorial=False, obs_mode="text_only", action_mode="text",
        valid_actions_in_info=True, rule_packs=(pack(tmp_path / "fragile", source),),
    )  # fmt: skip
    infos = env.reset(seed=0)[1]
    assert infos["agent_0"]["valid_actions"][phrase] == [phrase]
    env.step({"agent_0": "wait"})
    with pytest.raises(RuleError, match=message):
        env.step({"agent_0": "wait"})
    with pytest.raises(RuleError, match="stopped after tick 2, whose results could not be read"):
        env.step({"agent_0": "wait"})
