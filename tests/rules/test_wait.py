"""`wait`: ends an attack streak; in combat it also refills stamina. Nothing else changes.

Spec: actions.md section 1.
"""

from __future__ import annotations

import pytest
from harness import act, agent, clear_world, make_game, move_to, spawn_npc, state_of

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import Engagement


@pytest.fixture
def game() -> Game:
    g = make_game()
    clear_world(g)
    move_to(g, "agent_0", "area_rows")
    return g


def engage(game: Game) -> str:
    npc = spawn_npc(game, "npc_wasp", "area_rows")
    agent(game).combats[npc.id] = Engagement(1, "area_rows")
    return npc.id


@pytest.mark.parametrize(
    ("in_combat", "stamina", "streak", "stamina_after", "key"),
    [
        (False, 0.6000000000000001, 3, 0.6000000000000001, "wait.done"),  # no refill outside
        (False, 1.0, 0, 1.0, "wait.done"),
        (True, 0.2, 5, 1.0, "wait.recovered"),
        (True, 0.8, 2, 1.0, "wait.recovered"),
        (True, 1.0, 0, 1.0, "wait.recovered"),
    ],
)
def test_wait_table(
    game: Game, in_combat: bool, stamina: float, streak: int, stamina_after: float, key: str
) -> None:
    a = agent(game)
    npc_id = engage(game) if in_combat else None
    a.stamina, a.consecutive_attacks = stamina, streak
    before = state_of(game)
    res = act(game, "agent_0", "wait")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == [key]
    assert (a.stamina, a.consecutive_attacks) == (stamina_after, 0)
    assert res.events == []
    # Nothing else changes: the combat stays, its rhythm index too.
    if npc_id is not None:
        assert a.combats == {npc_id: Engagement(1, "area_rows")}
    after = state_of(game)
    for data in (before, after):
        data["agents"][0].update(stamina=None, consecutive_attacks=None)
    assert after == before


@pytest.mark.parametrize("command", ["wait 1", "wait a b"])
def test_wrong_parameter_count_is_invalid_and_does_not_wait(game: Game, command: str) -> None:
    """A wrong arity is invalid and does nothing (not even the wait effects; spec 8.3 quirk)."""
    engage(game)
    agent(game).stamina, agent(game).consecutive_attacks = 0.2, 4
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] and not res.action_ok["agent_0"]
    assert res.feedback_keys("agent_0") == ["invalid.param_count"]
    assert state_of(game) == before


def test_valid_params_lists_the_bare_command(game: Game) -> None:
    """`wait` always succeeds: its one valid tuple is () (spec obs 10: always listed)."""
    ctx = RuleContext(game, game.world, agent(game), "wait", (), game.tick_index)
    assert game.engine.rules["wait"].valid_params(ctx) == [()]
