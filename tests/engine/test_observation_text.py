"""The text observation: a golden trajectory on the tiny world, and the reference's layout and
names.

docs/mechanics/observations.md#the-observation-text. The golden file holds every agent's text for a
bootstrap and five scripted ticks (two agents, seed 0); regenerate it after an intended wording
change with `AGENTODYSSEY_UPDATE_GOLDEN=1 pytest tests/engine/test_observation_text.py` and review
the diff.
"""

from __future__ import annotations

import difflib
import os
import re
from typing import Any

import attrs
import numpy as np
import pytest
from adapter.rollouts import random_actions
from harness import DATA, TINY, agent, clear_world, give, make_game, put_on_ground, spawn_npc
from worlds_helper import bundled_worlds

import agentodyssey_pz
from agentodyssey_pz.adapter.spaces import sanitize
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.observe import text as text_module
from agentodyssey_pz.observe.text import (
    INTRO,
    ItemLists,
    item_list,
    observation_text,
    tick_observation,
)

GOLDEN = DATA / "golden" / "tiny_observation.txt"
UPDATE = os.environ.get("AGENTODYSSEY_UPDATE_GOLDEN") == "1"
SCRIPT = [
    {"agent_0": "pick up coin", "agent_1": "pick up crate_0"},
    {"agent_0": "pick up quill", "agent_1": "equip crate_0"},
    {"agent_0": "dance", "agent_1": "enter rows"},
    {"agent_0": "enter rows", "agent_1": "attack wasp_0"},
    {"agent_0": "enter vats", "agent_1": "store 1 pear inventory"},
]


def observe(game: Game, result: Any, agent_id: str) -> str:
    return tick_observation(
        game, agent_id, result.feedback(agent_id), bootstrap=result.bootstrap,
        terminated=result.terminated,
    )  # fmt: skip


def golden_trajectory() -> str:
    game = Game(TINY, 2)
    results = [game.reset(0)]
    parts = []
    for step in [None, *SCRIPT]:
        result = results[-1] if step is None else game.tick(step)
        for aid in game.agent_ids:
            parts.append(f"===== tick {result.tick} {aid} =====\n{observe(game, result, aid)}")
    return "".join(parts)


def test_golden_trajectory_on_the_tiny_world() -> None:
    text = golden_trajectory()
    if UPDATE:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), text.splitlines(True), "golden", "now", n=2
            )
        )
        pytest.fail(f"text observations differ from {GOLDEN.name}:\n{diff}")


def test_the_golden_file_covers_what_it_should() -> None:
    """The scripted ticks reach every variable part: intro, feedback, held / equipped / ground
    lists, NPCs and agents nearby, damage, XP, and the empty-list phrases."""
    expected = GOLDEN.read_text(encoding="utf-8")
    assert expected.count(INTRO) == 2  # bootstrap only, once per agent
    assert expected.count("===== tick") == 2 * (1 + len(SCRIPT))
    for needle in (
        "I am holding: 1 coin, 1 quill.", "I have equipped: 1 crate_0.",
        "Here with me: wasp_0, agent_1.", "Invalid action", "My health is 86 of 100.",
        "My experience is 5 of 100", "Here with me: no one.", "I am holding: nothing.",
    ):  # fmt: skip
        assert needle in expected, needle


# ------------------------------------------------------------------------------ layout
ELEMENTS = [  # in order: (tag, pattern of the line)
    ("time", r"Current Time: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d"),
    ("location", r"Current Location: .+, .+"),
    ("hands", r"I am holding: .+\."),
    ("equipped", r"I have equipped: .+\."),
    ("ground", r"On the ground here I see: .+\."),
    ("people", r"Here with me: .+\."),
    ("level", r"My level is \d+\."),
    ("attack", r"My attack is \d+\."),
    ("defense", r"My defense is \d+\."),
    ("health", r"My health is -?\d+ of \d+\."),
    ("experience", r"My experience is \d+ of \d+ toward the next level\."),
    ("neighbours", r"Neighboring areas: .+\."),
]
SKELETON = [
    "", "time", "location", "", "feedback", "", "hands", "equipped", "ground", "people", "",
    "level", "attack", "defense", "health", "experience", "", "neighbours",
]  # fmt: skip


def skeleton(text: str) -> list[str]:
    """Each line replaced by its element tag; consecutive feedback lines collapse into one."""
    assert text.endswith("\n")
    tags: list[str] = []
    for line in text[:-1].split("\n"):
        tag = next((t for t, p in ELEMENTS if re.fullmatch(p, line)), "feedback" if line else "")
        if not (tag == "feedback" and tags and tags[-1] == "feedback"):
            tags.append(tag)
    return tags


@pytest.fixture
def crowded() -> tuple[Game, Any, str]:
    """agent_0 at the gate with a level-3 body, holding coin and a crate, wearing the apron, with
    things on the ground, a hermit and agent_1 nearby; returns the game, the tick and the crate."""
    game = make_game(agents=2)
    clear_world(game)
    spawn_npc(
        game, "npc_wasp", "area_gate", enemy=False, role="hermit", name="hermit", inventory={}
    )
    put_on_ground(game, "area_gate", "obj_pear", 4)
    (crate,) = give(game, "agent_0", "obj_crate")
    give(game, "agent_0", "obj_apron")
    me = agent(game)
    me.level, me.xp, me.hp, me.max_hp, me.min_attack = 3, 42, 77, 140, 12
    result = game.tick({"agent_0": "equip apron", "agent_1": "wait"})
    give(game, "agent_0", "obj_coin")
    return game, result, crate


def test_every_element_in_the_spec_order_with_feedback(crowded: tuple[Game, Any, str]) -> None:
    game, result, _ = crowded
    text = observe(game, result, "agent_0")
    assert skeleton(text) == SKELETON
    lines = text.split("\n")
    assert lines[1] == "Current Time: 0001-01-01 08:10:00"
    assert lines[2] == "Current Location: Pear Orchard, gate"
    assert lines[4] == result.feedback("agent_0").strip()
    assert lines[6:10] == [
        f"I am holding: 1 {game.world.name_of(crowded[2])}, 1 coin.",
        "I have equipped: 1 apron.",
        "On the ground here I see: 4 pear.",
        "Here with me: hermit, agent_1.",  # NPCs first, then agents
    ]
    assert lines[11:16] == [
        "My level is 3.",
        "My attack is 12.",
        "My defense is 3.",
        "My health is 77 of 140.",
        "My experience is 42 of 100 toward the next level.",
    ]
    assert lines[17] == "Neighboring areas: rows, vats."


def test_without_feedback_two_blank_lines_follow_the_location(
    crowded: tuple[Game, Any, str],
) -> None:
    game, _, _ = crowded
    text = observation_text(game, agent(game))
    assert skeleton(text) == [*SKELETON[:4], "", *SKELETON[6:]]
    assert text.startswith("\nCurrent Time: ") and "gate\n\n\nI am holding" in text


def test_names_are_shown_never_ids(crowded: tuple[Game, Any, str]) -> None:
    game, result, crate = crowded
    text = observe(game, result, "agent_0")
    world = game.world
    hermit = next(n for n in world.npcs.values() if n.name == "hermit")
    ids = [crate, "obj_coin", "obj_apron", "obj_pear", hermit.id, "area_gate", "area_rows",
           "area_vats", "place_orchard"]  # fmt: skip
    assert [i for i in ids if i in text] == []
    assert not re.search(r"\b(obj|npc|area|place)_", text)
    for name in (world.name_of(crate), "coin", "apron", "pear", "hermit", "gate", "rows", "vats",
                 "Pear Orchard"):  # fmt: skip
        assert name in text, name


def test_the_intro_comes_only_with_the_bootstrap_observation() -> None:
    game = Game(TINY, 1)
    boot = game.reset(0)
    first = observe(game, boot, "agent_0")
    assert first.startswith(INTRO) and INTRO.startswith("\n") and INTRO.endswith("\n")
    assert first[len(INTRO) :] == observation_text(game, agent(game), boot.feedback("agent_0"))
    later = observe(game, game.tick({"agent_0": "wait"}), "agent_0")
    assert INTRO not in later and later.startswith("\nCurrent Time: ")


# ------------------------------------------------------------------------------ item lists memo
def test_remembered_item_lists_are_what_item_list_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ItemLists` answers by the items themselves, forgets everything when names or definitions
    change, and keeps at most ITEM_LIST_TEXTS texts."""
    game = make_game()
    world = game.world
    (crate,) = give(game, "agent_0", "obj_crate")
    memo = ItemLists()
    stacks = [{}, {"obj_pear": 2}, {"obj_pear": 2, crate: 1}, {crate: 1, "obj_pear": 2}]
    for items in [*stacks, *stacks]:
        assert memo.text(world, items) == item_list(world, items), items
    world.add_object_def(attrs.evolve(world.objects["obj_pear"], name="quince"))
    assert memo.text(world, {"obj_pear": 2}) == "2 quince"
    other = make_game()  # another World: its own names
    other.world.add_object_def(attrs.evolve(other.world.objects["obj_pear"], name="medlar"))
    assert memo.text(other.world, {"obj_pear": 2}) == "2 medlar"
    monkeypatch.setattr(text_module, "ITEM_LIST_TEXTS", 2)
    for n in range(1, 6):
        assert memo.text(world, {"obj_pear": n}) == f"{n} quince"
        assert len(memo._texts) <= 2


@pytest.mark.parametrize("expansion", [False, True], ids=["fixed", "expanding"])
@pytest.mark.parametrize("world", bundled_worlds())
def test_an_env_writes_the_text_it_would_write_afresh(world: str, expansion: bool) -> None:
    """An env's text observations (with its item-list memo) equal texts written without one, at
    every tick of a random walk, with world expansion switched off and on. The walk makes new
    instances (names change); 400 ticks explore too little for an expansion to add definitions,
    so a changed definition is the unit test's part above."""
    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=3, obs_mode="text", world_expansion=expansion, max_cycles=10**6
    )
    rng = np.random.default_rng(11)
    observations, _ = env.reset(seed=11)
    revisions = set()
    for _ in range(400):
        observations, _, _, _, _ = env.step(random_actions(env, observations, rng))
        game, last = env.game, env.last_result
        revisions.add(game.world.names_revision)
        for a in env.agents:
            fresh = tick_observation(game, a, last.feedback(a), bootstrap=False, terminated=False)
            assert observations[a]["text"] == sanitize(
                fresh, env._charset, env.config.text_max_length
            ), a
    assert len(revisions) > 1  # names changed on the way, so the memo had to start afresh
