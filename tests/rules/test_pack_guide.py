"""The rule-pack guide (`docs/rule-packs.md`) is true: its example pack plays as the guide says.

Pack authors copy from the guide, so its code must run and its claims must hold. Every
`<!-- file: ... -->` code block is extracted into `tmp_path` and loaded into the default world with
two agents. The tests check that `dig` joins the discrete catalogue, that its mask entry is exact
over a few hundred random masked steps (unmasked: the action takes effect while the other agent
waits; masked: it does not), that `hunger_step` has the effect the guide describes, and that the
same seed and actions replay identically (`dig` draws from the game's generator). The guide's table
of base step rules and its list of catalogue target kinds are compared with the code.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import agentodyssey_pz
from agentodyssey_pz.adapter.parallel import AgentOdysseyParallelEnv
from agentodyssey_pz.resources import rules_dir
from agentodyssey_pz.rules.base import CATALOGUE_TARGETS
from agentodyssey_pz.rules.packs import load_pack

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "rule-packs.md"
FILE_BLOCK = re.compile(r"<!-- file: (?P<path>\S+) -->\n```python\n(?P<code>.*?)^```", re.S | re.M)
STEP_TABLE = re.compile(r"<!-- base-step-rules -->\n(?P<table>.*?)<!-- /base-step-rules -->", re.S)
STEP_ROW = re.compile(r"^\| (?P<priority>\d+) \| `(?P<name>\w+)` \|", re.M)
TARGET_KINDS = re.compile(r"one of the kinds (?P<kinds>.*?)\(`agentodyssey_pz\.rules\.base", re.S)
AGENTS = ("agent_0", "agent_1")


def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


@pytest.fixture
def dig_pack(tmp_path: Path) -> Path:
    """The guide's example pack, written file by file into tmp_path."""
    blocks = FILE_BLOCK.findall(guide())
    assert sorted(path for path, _ in blocks) == [
        "dig_pack/common.py",
        "dig_pack/dig.py",
        "dig_pack/hunger.py",
    ]
    for path, code in blocks:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(code, encoding="utf-8")
    return tmp_path / "dig_pack"


def make_env(pack: Path, **settings: Any) -> AgentOdysseyParallelEnv:
    return agentodyssey_pz.parallel_env(
        world="default", num_agents=2, tutorial=False, rule_packs=[str(pack)], **settings
    )


def pack_module(env: AgentOdysseyParallelEnv, pack: Path, name: str) -> ModuleType:
    """A module of the pack as the game loaded it (packs live under a private namespace)."""
    namespace = env.game.rule_set.namespace_of(pack)
    assert namespace is not None
    return sys.modules[f"{namespace}.{name}"]


def index_of(env: AgentOdysseyParallelEnv, label: str) -> int:
    [index] = [
        i for i in range(env.action_space("agent_0").n) if env.action_name("agent_0", i) == label
    ]
    return index


def hunger(env: AgentOdysseyParallelEnv, agent: str) -> int:
    return env.game.agents[agent].progress["dig_pack"]


# ----------------------------------------------------------------------------- the example pack
def test_the_example_pack_adds_dig_and_runs_hunger_between_the_base_step_rules(
    dig_pack: Path,
) -> None:
    env = make_env(dig_pack)
    assert type(env.game.engine.rules["dig"]).__name__ == "Dig"
    names = [rule.name for rule in env.game.step_rules]
    assert names.index("side_quest_step") < names.index("hunger_step")  # priority 3 < 4
    assert names.index("hunger_step") < names.index("new_craftable_feedback_step")  # 4 < 5


def test_dig_is_one_entry_of_the_discrete_catalogue_and_its_alias_is_understood(
    dig_pack: Path,
) -> None:
    env = make_env(dig_pack)
    dig = index_of(env, "dig")
    assert env.catalogue.entries[dig].verb == "dig"
    env.reset(seed=0)
    _, _, _, _, infos = env.step({"agent_0": dig, "agent_1": "dig here"})
    assert infos["agent_0"]["action_ok"] and infos["agent_1"]["action_ok"]
    spawn = env.game.world.spawn_area
    assert env.game.world.auxiliary["dig_pack"] == {spawn: 2}


def test_the_dig_mask_entry_is_exact_over_random_masked_steps(dig_pack: Path) -> None:
    """Unmasked -> action_ok True, masked -> False, while the other agent waits; the valid-action
    list agrees with the mask. Agents also wander (random unmasked actions), so both fresh and
    dug-over areas are met; a dig that takes effect finds a root (hunger back to 0, then 1 after
    `hunger_step`) or nothing (hunger one more), and both happen."""
    env = make_env(dig_pack, valid_actions_in_info=True)
    common = pack_module(env, dig_pack, "common")
    dig, wait = index_of(env, "dig"), index_of(env, "wait")
    rng = random.Random(5)
    observations, infos = env.reset(seed=11)
    seen = {"unmasked": 0, "masked": 0, "found": 0, "nothing": 0}
    for step in range(300):
        agent, other = AGENTS[step % 2], AGENTS[1 - step % 2]
        mask = observations[agent]["action_mask"]
        assert ("dig" in infos[agent]["valid_actions"]) == bool(mask[dig])
        chance = 0.5 if mask[dig] else 0.1  # masked states are the common ones
        action = dig if rng.random() < chance else int(rng.choice(np.flatnonzero(mask)))
        before = hunger(env, agent)
        observations, _, _, _, infos = env.step({agent: action, other: wait})
        if action != dig:
            continue
        assert infos[agent]["action_ok"] is bool(mask[dig]), f"step {step}"
        seen["unmasked" if mask[dig] else "masked"] += 1
        if mask[dig]:
            seen["found" if hunger(env, agent) == 1 else "nothing"] += 1
            if hunger(env, agent) != 1:
                assert hunger(env, agent) == before + 1
        dug = env.game.world.auxiliary["dig_pack"]
        assert max(dug.values()) <= common.DIGS_PER_AREA
    assert min(seen.values()) >= 3, seen


def test_hunger_rises_every_tick_and_starving_costs_hp_each_tick(dig_pack: Path) -> None:
    env = make_env(dig_pack, obs_mode="text")
    common = pack_module(env, dig_pack, "common")
    wait = index_of(env, "wait")
    observations, _ = env.reset(seed=0)
    for tick in range(1, common.HUNGER_LIMIT + 4):
        assert [hunger(env, a) for a in AGENTS] == [tick, tick]  # the bootstrap tick counts
        hp = [env.game.agents[a].hp for a in AGENTS]
        observations, _, _, _, _ = env.step(dict.fromkeys(AGENTS, wait))
        starving = tick + 1 >= common.HUNGER_LIMIT
        for agent, before in zip(AGENTS, hp, strict=True):
            lost = common.STARVE_DAMAGE if starving else 0
            assert env.game.agents[agent].hp == before - lost, (tick, agent)
            assert ("I am starving" in observations[agent]["text"]) is starving


def test_the_same_seed_and_actions_give_the_same_observations_and_rewards(
    dig_pack: Path,
) -> None:
    def play(actions: list[dict[str, int]] | None) -> tuple[list[dict[str, int]], list[Any]]:
        env = make_env(dig_pack)
        dig = index_of(env, "dig")
        rng = random.Random(3)
        observations, _ = env.reset(seed=21)
        chosen, trace = [], [observations]
        for step in range(120):
            if actions is None:
                masks = {a: observations[a]["action_mask"] for a in AGENTS}
                move = {a: int(rng.choice(np.flatnonzero(masks[a]))) for a in AGENTS}
                if step % 3 == 0:
                    move["agent_0"] = dig  # masked or not: refusals replay too
            else:
                move = actions[step]
            observations, rewards, _, _, _ = env.step(move)
            chosen.append(move)
            trace += [observations, rewards]
        return chosen, trace

    actions, first = play(None)
    _, second = play(actions)
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert a.keys() == b.keys()
        for agent in a:
            if isinstance(a[agent], dict):
                for key in a[agent]:
                    np.testing.assert_array_equal(a[agent][key], b[agent][key])
            else:
                assert a[agent] == b[agent]


# ----------------------------------------------------------------------------- the guide's tables
def test_the_guide_table_of_base_step_rules_matches_the_code() -> None:
    table = STEP_TABLE.search(guide())
    assert table is not None
    documented = [(int(m["priority"]), m["name"]) for m in STEP_ROW.finditer(table["table"])]
    base = load_pack(rules_dir() / "base")
    assert documented == [(rule.priority, rule.name) for rule in base.step_rules]


def test_the_guide_lists_every_catalogue_target_kind() -> None:
    found = TARGET_KINDS.search(guide())
    assert found is not None
    assert tuple(re.findall(r"`(\w+)`", found["kinds"])) == CATALOGUE_TARGETS
