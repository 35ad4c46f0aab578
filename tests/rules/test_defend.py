"""`defend`: guard up for this tick, streak ended; in combat half the missing stamina comes back.

Spec: actions.md section 2 (stamina = min(1.0, s + (1.0 - s) * 0.5), shown as int(s * 100)%).
"""

from __future__ import annotations

import pytest
from harness import act, agent, clear_world, make_game, move_to, spawn_npc, state_of

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import Engagement

HERE = "area_rows"


@pytest.fixture
def game() -> Game:
    g = make_game()
    clear_world(g)
    move_to(g, "agent_0", HERE)
    return g


def engage(game: Game) -> None:
    npc = spawn_npc(game, "npc_wasp", HERE)
    agent(game).combats[npc.id] = Engagement(0, HERE)


STAMINA = [  # (before, after, percent shown) in combat, exact float arithmetic
    (0.2, 0.6000000000000001, 60),
    (0.20000000000000007, 0.6000000000000001, 60),
    (0.4000000000000001, 0.7, 70),
    (0.6000000000000001, 0.8, 80),
    (0.8, 0.9, 90),
    (0.95, 0.975, 97),
    (1.0, 1.0, 100),
]


@pytest.mark.parametrize(("stamina", "after", "percent"), STAMINA)
def test_defend_in_combat_recovers_half_the_missing_stamina(
    game: Game, stamina: float, after: float, percent: int
) -> None:
    engage(game)
    a = agent(game)
    a.stamina, a.consecutive_attacks = stamina, 3
    res = act(game, "agent_0", "defend")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert (a.stamina, a.consecutive_attacks, a.defending) == (after, 0, True)
    assert res.feedback_keys("agent_0") == ["defend.recovering"]
    assert f"{percent}%" in res.feedback_text("agent_0")
    assert [(e.type, e.data) for e in res.events] == [("agent_defending", {"area_id": HERE})]


def test_defend_sequence_from_the_floor(game: Game) -> None:
    engage(game)
    a = agent(game)
    a.stamina = 0.2
    seen = []
    for _ in range(5):
        act(game, "agent_0", "defend")
        seen.append(a.stamina)
    assert seen == [0.6000000000000001, 0.8, 0.9, 0.95, 0.975]


def test_defend_out_of_combat_keeps_stamina(game: Game) -> None:
    a = agent(game)
    a.stamina, a.consecutive_attacks = 0.4000000000000001, 4
    before = state_of(game)
    res = act(game, "agent_0", "defend")
    assert res.feedback_keys("agent_0") == ["defend.done"]
    assert (a.stamina, a.consecutive_attacks, a.defending) == (0.4000000000000001, 0, True)
    assert [(e.type, e.data) for e in res.events] == [("agent_defending", {"area_id": HERE})]
    after = state_of(game)
    before["agents"][0].update(consecutive_attacks=0, defending=True)
    assert after == before  # nothing else changed


@pytest.mark.parametrize("command", ["defend me", "defend a b"])
def test_wrong_parameter_count_is_invalid(game: Game, command: str) -> None:
    engage(game)
    agent(game).stamina = 0.2
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] and not res.action_ok["agent_0"]
    assert res.feedback_keys("agent_0") == ["invalid.param_count"]
    assert res.events == []
    assert state_of(game) == before


def test_valid_params_lists_the_bare_command(game: Game) -> None:
    """`defend` always succeeds; spec obs 10 recommends listing it."""
    ctx = RuleContext(game, game.world, agent(game), "defend", (), game.tick_index)
    assert game.engine.rules["defend"].valid_params(ctx) == [()]
