"""`defend`: guard up for this tick, streak ended; in combat half the missing stamina comes back.

docs/mechanics/verbs.md#defend (stamina = min(1.0, s + (1.0 - s) * 0.5), shown as int(s * 100)%).
"""

from __future__ import annotations

import pytest
from harness import act, agent, blank_game, engaged_wasp, events, state_of, valid_params

from agentodyssey_pz.engine.game import Game

HERE = "area_rows"


@pytest.fixture
def game() -> Game:
    return blank_game(at=HERE)


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
    engaged_wasp(game, HERE)
    a = agent(game)
    a.stamina, a.consecutive_attacks = stamina, 3
    res = act(game, "agent_0", "defend")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert (a.stamina, a.consecutive_attacks, a.defending) == (after, 0, True)
    assert res.feedback_keys("agent_0") == ["defend.recovering"]
    assert f"{percent}%" in res.feedback_text("agent_0")
    assert events(res) == [("agent_defending", {"area_id": HERE})]


def test_defend_sequence_from_the_floor(game: Game) -> None:
    engaged_wasp(game, HERE)
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
    assert events(res) == [("agent_defending", {"area_id": HERE})]
    after = state_of(game)
    before["agents"][0].update(consecutive_attacks=0, defending=True)
    assert after == before  # nothing else changed


def test_valid_params_lists_the_bare_command(game: Game) -> None:
    """`defend` always succeeds; it is always listed (docs/mechanics/verbs.md#defend)."""
    assert valid_params(game, "defend") == [()]
