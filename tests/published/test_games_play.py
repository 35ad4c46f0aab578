"""AgentOdyssey's seven published games, from the user's copy: they load, validate and play
through the env's promises (PettingZoo's own checks, exact masks, the rule-pack audit) with the
tutorial on and off, and hostile text never breaks a tick.

Skipped without a copy (tests/published_copy.py); CI installs one.
"""

from __future__ import annotations

import contextlib
import functools
import io
import random
import string
from pathlib import Path

import pytest
from adapter import test_masks_exact as exact
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test

import agentodyssey_pz
from agentodyssey_pz.audit import audit
from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.worldpack import check_world, load_world_pack
from agentodyssey_pz.world.published.games import GAMES

NAMES = list(GAMES)
WORLDS = [f"agentodyssey:{name}" for name in NAMES]
# On: every game plays its tutorial (base's for the three that do not enable theirs); off: none.
TUTORIAL = pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])
DICT_OBSERVATION_WARNINGS = (
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
)


@pytest.fixture(autouse=True)
def _copy(published):
    """Every test here needs the user's copy (skipped without one)."""
    return published


def quiet(check, *args, **kwargs) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        check(*args, **kwargs)


# ---------------------------------------------------------------------------- loading
@pytest.mark.parametrize("world", WORLDS)
def test_every_game_validates(world: str) -> None:
    report = check_world(world)
    errors = [str(p) for _, p in report.problems if p.severity == "error"]
    assert report.definition is not None and not errors, errors


@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_every_game_plays_with_the_tutorial_on_and_off(world: str, tutorial) -> None:
    game = Game(world, 2, GameConfig(tutorial=tutorial))
    game.reset(seed=5)
    for _ in range(30):
        game.tick({"agent_0": "wait", "agent_1": "look around"})
    in_room = any(game.in_tutorial_room(a) for a in game.agents.values())
    assert in_room == tutorial  # 30 waits never finish a tutorial


@pytest.mark.parametrize("name", NAMES)
def test_every_published_file_given_by_path_loads_with_warnings_only(published, name) -> None:
    path = Path(published.path(GAMES[name].world_file))
    report = check_world(path)
    assert report.definition is not None
    assert all(p.severity == "warning" for _, p in report.problems)
    said = " ".join(p.message for _, p in report.problems)
    assert f"agentodyssey:{name}" in said  # points to the game itself
    pack = load_world_pack(path)
    variant = GAMES[name].synthesis
    assert pack.definition.features.synthesis == (None if variant == "base" else variant)
    Game(pack, 2).reset(seed=1)


def test_undefined_ids_in_a_file_given_by_path_are_named(published) -> None:
    path = Path(published.path(GAMES["remnant"].world_file))
    said = [p.message for _, p in check_world(path).problems]
    assert any("obj_wooden_strip" in m for m in said)
    assert any("obj_stone_chunk" in m and "npc_old_mason" in m for m in said)


# ---------------------------------------------------------------------------- PettingZoo
@TUTORIAL
@pytest.mark.parametrize(
    ("obs_mode", "action_mode"), [("vector", "discrete"), ("text_only", "text")]
)
@pytest.mark.parametrize("world", WORLDS)
def test_parallel_api_test(world: str, obs_mode: str, action_mode: str, tutorial) -> None:
    env = agentodyssey_pz.parallel_env(
        world=world, obs_mode=obs_mode, action_mode=action_mode, max_cycles=120, tutorial=tutorial
    )
    quiet(parallel_api_test, env, num_cycles=150)
    assert env.agents == []


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_api_test_on_the_aec_env(world: str, tutorial) -> None:
    env = agentodyssey_pz.env(world=world, max_cycles=80, tutorial=tutorial)
    quiet(api_test, env, num_cycles=100)


@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_parallel_seed_test(world: str, tutorial) -> None:
    factory = functools.partial(agentodyssey_pz.parallel_env, world=world, tutorial=tutorial)
    quiet(parallel_seed_test, factory)


# ---------------------------------------------------------------------------- exact masks
@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_masks_hold_over_many_states(world: str, tutorial, monkeypatch) -> None:
    """The broad sweep of tests/adapter/test_masks_exact.py: unmasked entries are taken, masked
    ones refused (in the dark, masked ones may be taken blind)."""
    monkeypatch.setattr(exact, "BROAD_STATES", 600)
    _env, unmasked, _ = exact.sweep(world, tutorial)
    assert "wait" in unmasked and len(unmasked) >= 6


@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_every_index_tried_through_restored_envs(world: str, tutorial) -> None:
    tried, wrong, _ = exact.try_every_index(world, tutorial, 4)
    assert tried > 4 * exact.MASKED_SAMPLE // 2
    assert not wrong, f"{len(wrong)} wrong of {tried}: {wrong[:10]}"


# ---------------------------------------------------------------------------- audit
@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_the_audit_finds_no_broken_promise(world: str, tutorial) -> None:
    report = audit(world, ticks=150, states=8, tutorial=tutorial, seed=3)
    assert report.ok, report.text()
    assert report.states == 8 and report.resumed == 50


# ---------------------------------------------------------------------------- sixteen agents
CROWD = 16


@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_sixteen_agents_keep_every_promise(world: str, tutorial, monkeypatch) -> None:
    """A crowd in one world: PettingZoo's parallel API check, every unmasked index and a sample
    of masked ones (each through a restored env), and the audit's walk, replay and resume."""
    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=CROWD, max_cycles=30, tutorial=tutorial
    )
    quiet(parallel_api_test, env, num_cycles=30)
    monkeypatch.setattr(exact, "AGENTS", CROWD)
    tried, wrong, _ = exact.try_every_index(world, tutorial, 2)
    assert tried > exact.MASKED_SAMPLE
    assert not wrong, f"{len(wrong)} wrong of {tried}: {wrong[:10]}"
    report = audit(
        world,
        agents=CROWD,
        ticks=40,
        states=3,
        tutorial=tutorial,
        seed=11,
        masked_sample=8,
        valid_sample=8,
        resume_ticks=15,
        other_process=False,
    )
    assert report.ok, report.text()
    assert report.states == 3 and report.resumed == 15


# ---------------------------------------------------------------------------- hostile text
HOSTILE_ACTIONS = 10_000
AGENTS = 4


def hostile_commands(game: Game, rng: random.Random) -> list[str]:
    """Commands meant to break a parser or a rule: verbs with the wrong number of parameters,
    names of things out of reach or hidden in the dark, quotes, control and wide characters, huge
    numbers, markup, very long text, and random bytes."""
    world = game.world
    names = [*list(world.obj_name_to_id)[:60], *list(world.npc_name_to_id)[:40]]
    names += [a.name for a in world.areas.values()]
    verbs = [rule.verb for rule in game.engine.rules.values()]
    pieces = [
        *names, *verbs, "inventory", "-1", "0", "1e309", str(10**40), "NaN", "'", '"', '"unclosed',
        "\\", "$", "{guide}", "{0}", "%s", "<script>alert(1)</script>", "\x00", "\x1b[2J", "\u202e",
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "名前", " ", "\t", "\n", ";", "&&", "../../etc/passwd", "x" * 5000,
    ]  # fmt: skip
    out = []
    for _ in range(AGENTS):
        kind = rng.random()
        if kind < 0.5:
            words = [rng.choice(verbs), *rng.sample(pieces, rng.randint(0, 4))]
        elif kind < 0.8:
            words = rng.sample(pieces, rng.randint(1, 6))
        else:
            alphabet = string.printable + "\u00e9\u4e2d\U0001f600\x00\x7f"
            words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))]
        out.append(" ".join(words))
    return out


@pytest.mark.parametrize("world", WORLDS)
def test_ten_thousand_hostile_text_actions_break_nothing(world: str) -> None:
    env = agentodyssey_pz.parallel_env(
        world=world,
        num_agents=AGENTS,
        obs_mode="text_only",
        action_mode="text",
        valid_actions_in_info=True,
        max_cycles=10**6,
    )
    rng = random.Random(world)
    observations, _ = env.reset(seed=7)
    sent = invalid = 0
    while sent < HOSTILE_ACTIONS:
        commands = hostile_commands(env.game, rng)
        actions = dict(zip(env.agents, commands, strict=False))
        observations, _, _terminations, _truncations, infos = env.step(actions)
        sent += len(actions)
        invalid += sum(bool(infos[a]["invalid_action"]) for a in actions)
        for agent, obs in observations.items():
            assert isinstance(obs["text"], str) and obs["text"], agent
        if not env.agents:
            observations, _ = env.reset(seed=sent)
    assert invalid > HOSTILE_ACTIONS // 4  # most of it was refused as malformed


@pytest.mark.parametrize("world", WORLDS)
def test_catalogue_labels_are_unique(world: str) -> None:
    """A label is the command a masked entry runs: two entries with one label would make one of
    them run the other's command (quarantine's quest brings a second `nurse_chen` prototype)."""
    env = agentodyssey_pz.parallel_env(world=world)
    env.reset(seed=0)
    labels = [env.action_name("agent_0", i) for i in range(len(env.catalogue))]
    assert len(labels) == len(set(labels))


@pytest.mark.parametrize("world", ["agentodyssey:remnant", "agentodyssey:mark"])
def test_a_journaled_game_resumes_exactly(world: str, tmp_path: Path) -> None:
    """The checkpoint keeps the imported definition and quest data, so a resume rebuilds the
    same game (rule packs by name, the living world's state with it) and continues it."""
    from agentodyssey_pz.checkpoint import resume
    from agentodyssey_pz.engine.state import state_hash

    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=2, checkpoint_dir=str(tmp_path), tutorial=False
    )
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(130):
        env.step(
            {a: rng.choice(["wait", "defend", "pick up torch", "eat apple"]) for a in env.agents}
        )
    game = resume(str(tmp_path / "episode-00001"))
    assert game.tick_index == env.game.tick_index == 130
    assert state_hash(game) == state_hash(env.game)
    assert game.pack.source == world
