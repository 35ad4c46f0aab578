"""The robot_kingdom walkthrough's solver tactics (tests/robot_solver.py), each on its own."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from robot_solver import FINAL, RobotSolver, robot_game

from agentodyssey_pz.policies.planning import INFINITE

PATTERN = ("defend", "attack", "attack", "wait")


def fighter(aid: str, area: str, index: int | None, npc_id: str = "npc_x", hp: int = 50) -> object:
    combats = {} if index is None else {npc_id: SimpleNamespace(rhythm_index=index, area_id=area)}
    return SimpleNamespace(id=aid, hp=hp, area_id=area, combats=combats)


def beat(me: object, *agents: object) -> str:
    npc = SimpleNamespace(id="npc_x", combat_pattern=PATTERN, enemy=True, hp=30)
    solver = SimpleNamespace(agent=me, game=SimpleNamespace(agents={a.id: a for a in agents}))
    return RobotSolver.beat_now(solver, npc)


def test_alone_the_enemy_plays_its_recorded_beat() -> None:
    me = fighter("a0", "room", 1)
    assert beat(me, me, fighter("a1", "hall", 0)) == "attack"


def test_together_the_enemy_plays_the_beat_after_the_first_fighters() -> None:
    me, mate = fighter("a0", "room", 2), fighter("a1", "room", None)
    assert beat(me, me, mate) == "wait"  # index 2 moved on to 3
    # The first fighter in agent order sets everyone's index: mine (0) becomes its 1 + 1.
    first, me = fighter("a0", "room", 1), fighter("a1", "room", 0)
    assert beat(me, first, me) == "attack"


def test_a_dead_teammate_brings_no_hesitation() -> None:
    me, mate = fighter("a0", "room", 0), fighter("a1", "room", None, hp=0)
    assert beat(me, me, mate) == "defend"


@pytest.fixture
def solvers(published):
    game = robot_game(2)
    game.reset(seed=17)
    return game, {aid: RobotSolver(game, aid, wait_for_team=True) for aid in game.agent_ids}


def test_kept_materials_feed_only_their_own_products(solvers) -> None:
    _, by_id = solvers
    solver = by_id["agent_0"]
    kept = solver.kept_stock()
    assert {"obj_quest_war_banner", "obj_rubble_chunk", "obj_oil_flask"} <= kept
    assert kept <= solver.needed()  # never sold or left behind
    # The spiked club and the oil bomb would eat a kept chunk or flask: not made meanwhile.
    assert solver.craft_cost("obj_spiked_club", 1) == INFINITE
    assert solver.craft_cost("obj_oil_bomb", 1) == INFINITE
    # What the kept things become on the way to the stage's product may still be made.
    assert "obj_oil_flask" in solver.stock_chain()
    assert "obj_quest_suppression_charge" in solver.stock_chain()


def test_the_final_battle_waits_for_a_teammate_still_busy(solvers) -> None:
    game, by_id = solvers
    stages = {s.id: s for c in game.quests.main_quest.chapters for s in c.stages}
    for stage in FINAL:
        assert by_id["agent_0"].waits_for_team(stages[stage])  # agent_1 is in chapter 1
    assert not by_id["agent_0"].waits_for_team(stages["ch4_reach_gate"])
