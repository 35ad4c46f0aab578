"""`wait`: ends an attack streak; in combat it also refills stamina. Nothing else changes.

docs/mechanics/verbs.md#wait.
"""

from __future__ import annotations

import pytest
from harness import act, agent, blank_game, engaged_wasp, state_of, valid_params

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement


@pytest.fixture
def game() -> Game:
    return blank_game(at="area_rows")


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
    npc_id = engaged_wasp(game, "area_rows", rhythm_index=1).id if in_combat else None
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


def test_valid_params_lists_the_bare_command(game: Game) -> None:
    """`wait` always succeeds: its one valid tuple is () (always listed)."""
    assert valid_params(game, "wait") == [()]
