"""The bundled rule pack `saltglass` (rules/saltglass/) on AgentOdyssey's saltglass: `listen`,
`refract` and the background rules, on the published files (`published` fixture)."""

from __future__ import annotations

import random

import pytest
from harness import act, agent, blank_game, give, move_to


@pytest.fixture
def game(published):
    return blank_game("agentodyssey:saltglass", agents=2, at="area_hall", tutorial=False)


def events(res, kind):
    return [e for e in res.events if e.type == kind]


def test_listen_checks_target_and_glass(game) -> None:
    assert not act(game, "agent_0", "listen sea").events
    res = act(game, "agent_0", "listen saltglass")
    assert not events(res, "saltglass_listened")  # open salt, nothing in hand
    move_to(game, "agent_0", "area_library")
    res = act(game, "agent_0", "listen  SaltGlass ")
    (ev,) = events(res, "saltglass_listened")
    assert ev.data["used_observatory"] is True and ev.data["used_glass_object_ids"] == []


def test_listen_hint_index_and_paper(game) -> None:
    paper = give(game, "agent_0", "obj_paper")[0]
    game.world.areas["area_hall"].objects["obj_coin"] = 3
    res = act(game, "agent_0", "listen saltglass")
    (ev,) = events(res, "saltglass_listened")
    assert ev.data["used_glass_object_ids"] == [paper]
    assert ev.data["hint_type"] == "nearby_object" and ev.data["obj_id"] == "obj_coin"


def test_refract_refuses_paper_and_reveals(game) -> None:
    give(game, "agent_0", "obj_paper")
    name = game.world.name_of(next(iter(agent(game).hands)))
    assert not events(act(game, "agent_0", f"refract {name}"), "refracted")
    give(game, "agent_0", "obj_lens_shard")
    lens = game.world.objects["obj_lens_shard"].name
    game.world.areas["area_hall"].objects["obj_coin"] = 2
    (ev,) = events(act(game, "agent_0", f"refract {lens}"), "refracted")
    assert ev.data == {"area_id": "area_hall", "glass_id": "obj_lens_shard", "reveals_count": 1}
    agent(game).progress["salt_glaze"] = {
        "active": True,
        "obj_id": "x",
        "stat": "defense",
        "amount": 1,
    }
    assert not events(act(game, "agent_0", f"refract {lens}"), "refracted")


def glaze_rule(game):
    return next(r for r in game.step_rules if r.name == "salt_glaze_step")


def test_glaze_forms_at_rate_and_clears(game) -> None:
    from agentodyssey_pz.rules.base import RuleResult
    from agentodyssey_pz.rules.context import RuleContext

    rule = glaze_rule(game)
    guard = "obj_glass_guard"
    base = game.world.objects[guard].defense
    assert base > 0
    give(game, "agent_0", "obj_lens_shard")
    agent(game).equipped[guard] = 1
    formed, trials = 0, 3000
    for seed in range(trials):
        game.rng.seed(seed)
        res = RuleResult(game.agent_ids)
        rule.apply(RuleContext(game, game.world, None, "", (), game.tick_index), res)
        ev = events(res, "salt_glaze_formed")
        if ev:
            formed += 1
            assert ev[0].data["amount"] == max(1, -(-base // 4))
            assert game.world.objects[guard].defense == base - ev[0].data["amount"]
            move_to(game, "agent_0", "area_library")
            res = RuleResult(game.agent_ids)
            rule.apply(RuleContext(game, game.world, None, "", (), game.tick_index), res)
            assert events(res, "salt_glaze_cleared")[0].data["reason"] == "observatory"
            assert game.world.objects[guard].defense == base
            move_to(game, "agent_0", "area_hall")
    assert abs(formed / trials - 0.2) < 0.03  # 0.2, about 4 standard deviations


def test_hostile_text_raises_nothing(game) -> None:
    rng = random.Random(0)
    words = ["listen", "refract", "saltglass", "lens_shard", "", "'", "\x00", "glass guard"]
    for _ in range(10_000):
        act(game, "agent_0", " ".join(rng.choice(words) for _ in range(rng.randint(0, 3))))
