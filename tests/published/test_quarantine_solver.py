"""The quarantine test solver's beat against the tyrant (`tests/quarantine_solver.py`), on staged
states of AgentOdyssey's quarantine (user's copy): `defend` on its attack beats, a concoction on
its defend beats when the health missing takes a pair's potency, a blow otherwise, and a
concoction on any beat but an attack beat when the next run of its blows could kill."""

from __future__ import annotations

import pytest
from harness import give, spawn_npc
from outbreak_helper import WARD, ward
from quarantine_solver import QuarantineSolver

from agentodyssey_pz.world.agents import Engagement

AID = "agent_0"
PATTERN = ("attack", "attack", "attack", "defend", "wait", "attack", "attack", "defend")


@pytest.fixture(autouse=True)
def _copy(published):
    return published


def staged(hp: int, beat: int, herbs: dict[str, int]) -> tuple[QuarantineSolver, str]:
    """Me in the ward fighting a tyrant (level 4: 75 attack) at rhythm index `beat`, with `hp`
    health and these herbs in hand (two kinds at most)."""
    game = ward()
    tyrant = spawn_npc(game, "npc_tyrant", WARD, level=4, combat_pattern=PATTERN)
    body = game.agents[AID]
    body.combats[tyrant.id] = Engagement(beat, WARD)
    for did, n in herbs.items():
        give(game, AID, did, n)
    body.max_hp, body.hp = 180, hp  # level 5's health
    return QuarantineSolver(game, AID), tyrant.id


def test_on_its_attack_beats_i_defend() -> None:
    solver, tyrant = staged(40, 0, {"obj_blue_herb": 2})
    assert solver.beat(solver.world.npcs[tyrant]) == "defend"


def test_on_its_defend_beat_i_drink_when_the_pair_fits_what_is_missing() -> None:
    solver, tyrant = staged(90, 3, {"obj_blue_herb": 2})
    npc = solver.world.npcs[tyrant]
    assert solver.beat(npc) == "concoct blue_herb blue_herb"
    # With less than the pair's 90 missing, and no danger yet: a blow.
    solver.agent.hp = 100
    assert solver.beat(npc) == f"attack {npc.name}"


def test_on_its_wait_beat_i_strike_unless_its_next_blows_could_kill() -> None:
    solver, tyrant = staged(150, 4, {"obj_blue_herb": 1, "obj_red_herb": 1})
    npc = solver.world.npcs[tyrant]
    assert solver.beat(npc) == f"attack {npc.name}"
    # Two attack beats follow (a tenth of 75 each, 7) and an ambush's worth (37): 51 or less.
    solver.agent.hp = 50
    assert solver.beat(npc) == "concoct red_herb blue_herb"


def test_without_herbs_i_strike() -> None:
    solver, tyrant = staged(10, 4, {})
    npc = solver.world.npcs[tyrant]
    assert solver.beat(npc) == f"attack {npc.name}"
