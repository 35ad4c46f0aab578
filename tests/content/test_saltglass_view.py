"""What saltglass shows: a salt mirage is seen in the area's text (`1 <fake_name>`, after the
ground's objects) and nothing more (no catalogue entry, no listed command, no effect, not in the
vector observation); money is named by the game's own word, "saltmarks", in every text that names
it (`features.currency_name`: a merchant's prices, buy, sell, the side quests' errands and pay),
while a world that does not name it keeps the base wording."""

from __future__ import annotations

import json

import numpy as np
import pytest
from harness import (
    TINY,
    act,
    agent,
    blank_game,
    give,
    move_to,
    put_on_ground,
    spawn_npc,
    valid_params,
)
from saltglass_helper import BASIN, HALL, VESIN, YARD, new_game, rule, stage

import agentodyssey_pz
from agentodyssey_pz.observe.encode import ObservationLayout, VectorEncoder
from agentodyssey_pz.observe.text import observation_text
from agentodyssey_pz.world.validate import parse_definition


@pytest.fixture(scope="module")
def shared(published):
    return new_game()


@pytest.fixture
def game(shared):
    return stage(shared)


def mirage(game, area: str, name: str = "glass_guard", on_ground: bool = True) -> None:
    game.world.auxiliary.setdefault("salt_mirage", {"active": {}})["active"][area] = {
        "obj_id": f"_mirage_{area}_{game.tick_index}",
        "fake_name": name,
        "born_step": game.tick_index,
        "lifetime": 12,
        "on_ground": on_ground,
    }


def ground_line(game, agent_id: str = "agent_0") -> str:
    text = observation_text(game, agent(game, agent_id))
    return next(line for line in text.splitlines() if line.startswith("On the ground here"))


# ---------------------------------------------------------------------------- mirages
def test_a_mirage_is_seen_after_the_ground(game) -> None:
    assert ground_line(game) == "On the ground here I see: nothing."
    mirage(game, HALL)
    assert ground_line(game) == "On the ground here I see: 1 glass_guard."
    put_on_ground(game, HALL, "obj_coin", 3)
    assert ground_line(game) == "On the ground here I see: 3 saltmark, 1 glass_guard."
    mirage(game, HALL, on_ground=False)  # taken by the unattended collection: no longer seen
    assert ground_line(game) == "On the ground here I see: 3 saltmark."
    mirage(game, YARD)  # elsewhere: not here
    assert ground_line(game) == "On the ground here I see: 3 saltmark."
    assert rule(game, "salt_mirage_step").ground_sights(game.world, YARD) == ((1, "glass_guard"),)
    assert [r.name for r in game.hooks.sights] == ["salt_mirage_step"]


def test_a_mirage_cannot_be_picked_up_or_acted_on(game) -> None:
    mirage(game, HALL, "glass_guard")
    assert valid_params(game, "pick_up") == []
    assert not any("glass_guard" in c for verb in game.engine.rules for c in listed(game, verb))
    res = act(game, "agent_0", "pick up glass_guard")  # the real definition's name
    assert res.action_ok["agent_0"] is False and not agent(game).hands
    put_on_ground(game, HALL, "obj_glass_guard", 1)  # a real unit: that one is taken
    assert act(game, "agent_0", "pick up glass_guard").action_ok["agent_0"]
    assert agent(game).hands == {"obj_glass_guard": 1}
    assert ground_line(game) == "On the ground here I see: 1 glass_guard."  # the mirage still


def listed(game, verb: str) -> list[str]:
    rule_ = game.engine.rules[verb]
    from agentodyssey_pz.rules.context import RuleContext

    ctx = RuleContext(game, game.world, agent(game), verb, (), game.tick_index)
    return [" ".join(p) for p in rule_.valid_params(ctx)]


def test_the_vector_observation_does_not_show_a_mirage(game) -> None:
    encoder = VectorEncoder(ObservationLayout(game.definition), len(game.agents))
    put_on_ground(game, HALL, "obj_coin", 2)
    before = encoder.encode(game, agent(game)).copy()
    mirage(game, HALL)
    assert np.array_equal(encoder.encode(game, agent(game)), before)


def test_an_env_plays_mirages_into_the_text(published) -> None:
    env = agentodyssey_pz.parallel_env(
        world="agentodyssey:saltglass", num_agents=2, obs_mode="text", tutorial=False
    )
    env.reset(seed=3)
    seen = 0
    for _ in range(60):
        observations, *_ = env.step(dict.fromkeys(env.agents, "wait"))
        game = env.game
        record = game.world.auxiliary["salt_mirage"]["active"].get(HALL)
        text = observations["agent_0"]["text"]
        if record and record["on_ground"]:
            seen += 1
            assert f", 1 {record['fake_name']}." in text or f": 1 {record['fake_name']}." in text
    assert seen


# ---------------------------------------------------------------------------- money's name
def test_the_game_names_its_money_saltmarks(game) -> None:
    world = game.world
    assert world.currency_name == "saltmarks"
    merchant = spawn_npc(game, VESIN, HALL, 1)
    merchant.inventory = {"obj_paper": 2}
    merchant.coins = 3
    res = act(game, "agent_0", f"talk to {merchant.name}")
    assert "2 chart_paper at 5 saltmarks each" in res.feedback_text("agent_0")
    res = act(game, "agent_0", f"buy 1 chart_paper {merchant.name}")
    assert "costs 5 saltmarks" in res.feedback_text("agent_0")
    give(game, "agent_0", "obj_coin", 5)
    res = act(game, "agent_0", f"buy 1 chart_paper {merchant.name}")
    assert "for 5 saltmarks" in res.feedback_text("agent_0")
    give(game, "agent_0", "obj_star_scrap", 2)
    merchant.coins = 1  # less than one unit's price (2)
    res = act(game, "agent_0", f"sell 2 star_scrap {merchant.name}")
    assert "has only 1 saltmarks" in res.feedback_text("agent_0")
    merchant.coins = 50
    res = act(game, "agent_0", f"sell 2 star_scrap {merchant.name}")
    text = res.feedback_text("agent_0")
    assert "for 4 saltmarks (2 each); the saltmarks are on the ground" in text


def test_side_quests_pay_in_saltmarks(published) -> None:
    game = new_game(agents=1)
    game.reset(0)
    for command in ("enter yard", "enter library"):  # a second area explored: errands open
        game.tick({"agent_0": command})
    quest = agent(game).progress["side_quest"]
    assert quest["unlocked"]
    guide = game.world.npcs[quest["guide"]]
    assert "saltmarks." in guide.dialogue
    task = quest["tasks"]["collect"]
    give(game, "agent_0", task["target"], task["target_count"])
    result = game.tick({"agent_0": "wait"})
    assert f"paid me {task['reward_coins']} saltmarks" in result.feedback("agent_0")


def prices(game) -> str:
    merchant = spawn_npc(game, "npc_cider_seller", game.agents["agent_0"].area_id, 1)
    merchant.inventory = {"obj_cider": 2}
    return act(game, "agent_0", f"talk to {merchant.name}").feedback_text("agent_0")


def test_a_world_without_a_name_for_money_keeps_the_base_wording() -> None:
    game = blank_game(agents=1)  # the tiny test world: no `currency_name`
    assert game.world.currency_name is None
    assert " coin each" in prices(game)


def test_a_world_names_its_money_by_features_currency_name() -> None:
    raw = json.loads(TINY.read_text())
    raw.setdefault("features", {})["currency_name"] = "pebbles"
    game = blank_game(parse_definition(raw), agents=1)
    assert game.world.currency_name == "pebbles"
    assert " pebbles each" in prices(game)


def test_only_saltglass_names_its_money(published) -> None:
    from agentodyssey_pz.world.published.games import GAMES

    for name, spec in GAMES.items():
        assert spec.currency_plural is (name == "saltglass")


def test_a_mirage_line_beside_other_people(game) -> None:
    for agent_id in game.agents:
        move_to(game, agent_id, BASIN)
    mirage(game, BASIN, "bench")
    assert ground_line(game) == "On the ground here I see: 1 bench."
    assert ground_line(game, "agent_1") == "On the ground here I see: 1 bench."
