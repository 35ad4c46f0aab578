"""A boss a setup step placed (`placed`, docs/world-format.md#111-main-quest) and a setup variable
that is a second name for an earlier area (`area: "$variable"`): robot_kingdom's quest places its
warden, colossus guard and architect with its other NPCs, and names some areas twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import move_to
from quest_world import GATE, ROWS, VATS, completed, quest_game, variables, waits

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import QuestDataError
from agentodyssey_pz.world.agents import Engagement

BRUTE_AT_ROWS = {"let": "brute", "place_npc": "npc_q_brute", "in": ROWS}
PLACED = {"npc": "npc_q_brute", "in": ROWS, "shared": True, "placed": "$brute"}
APPROACH = {"id": "approach", "objective": "o", "done_all": [{"kind": "in_area", "area": VATS}]}
FIGHT = {
    "id": "fight",
    "objective": "Beat the brute.",
    "on_start": [{"spawn_boss": "brute"}],
    "done_any": [{"kind": "boss_already_defeated", "boss": "brute"}],
}


def placed_boss_game(
    tmp_path: Path, stages: list[dict[str, Any]], boss: dict[str, Any] | None = None, **kw: Any
) -> Game:
    return quest_game(
        tmp_path, stages, setup=[BRUTE_AT_ROWS], bosses={"brute": {**PLACED, **(boss or {})}}, **kw
    )


def brutes(game: Game) -> list[Any]:
    return [npc for npc in game.world.npcs.values() if npc.def_id == "npc_q_brute"]


def strike(game: Game, agent_id: str, npc: Any) -> Any:
    move_to(game, agent_id, npc.area_id)
    game.agents[agent_id].attack = 10_000
    result = game.tick(waits(game, **{agent_id: f"attack {npc.name}"}))
    assert result.action_ok[agent_id], result.feedback(agent_id)
    assert npc.hp <= 0
    return result


def test_the_placed_npc_is_the_boss_and_no_second_one_is_made(tmp_path: Path) -> None:
    game = placed_boss_game(tmp_path, [FIGHT], agents=2)
    [brute] = brutes(game)
    state = game.world.auxiliary["main_quest"]
    assert state["shared_bosses"] == {"brute": brute.id} == {"brute": variables(game)["brute"]}
    # Level-scaled prototype stats (no hp/attack given): 40+10, 5+2 at the rows' level 2.
    assert (brute.hp, brute.attack_power, brute.owner) == (50, 7, None)
    game.tick(waits(game))
    assert brutes(game) == [brute]


def test_a_kill_before_the_boss_stage_counts_for_everyone(tmp_path: Path) -> None:
    """Published, only the killer's kill in the boss stage's own tick counted (and the boss
    came back); here anyone's kill, whenever, beats the placed boss."""
    game = placed_boss_game(tmp_path, [APPROACH, FIGHT], agents=2)
    [brute] = brutes(game)
    strike(game, "agent_1", brute)
    assert completed(game, "agent_0") == [] and completed(game, "agent_1") == []
    assert game.world.auxiliary["main_quest"]["defeated"] == {"brute": True}
    move_to(game, "agent_0", VATS)
    game.tick(waits(game))  # approach done, fight starts and is already won
    game.tick(waits(game))
    assert completed(game, "agent_0") == ["approach", "fight"]
    assert brutes(game) == [brute]  # not made again


def beaten_by(game: Game, npc: Any, agent_id: str = "agent_0") -> None:
    move_to(game, agent_id, npc.area_id)
    game.agents[agent_id].hp = 1
    game.agents[agent_id].combats[npc.id] = Engagement(0, npc.area_id)  # pattern: attack first
    result = game.tick(waits(game))
    assert result.events_of(agent_id, "agent_defeated_in_combat")


def test_stage_start_reset_goes_back_to_the_health_at_the_stage_start_only(
    tmp_path: Path,
) -> None:
    """B4: before its stage the placed boss keeps what health it has after a win; once its stage
    has started (at 40 HP here), a win brings it back to 40."""
    game = placed_boss_game(tmp_path, [APPROACH, FIGHT], {"reset_hp_on_defeat": "stage_start"})
    [brute] = brutes(game)
    brute.hp = 30
    beaten_by(game, brute)
    assert brute.hp == 30  # nothing to go back to yet
    brute.hp = 40
    move_to(game, "agent_0", VATS)
    game.tick(waits(game))
    assert completed(game) == ["approach"]
    brute.hp = 10
    beaten_by(game, brute)
    assert brute.hp == 40


def test_a_placed_boss_must_be_shared_and_name_an_npc_variable(tmp_path: Path) -> None:
    with pytest.raises(QuestDataError, match="a placed boss is everyone's: set 'shared'"):
        placed_boss_game(tmp_path, [FIGHT], {"shared": False})
    with pytest.raises(QuestDataError, match="unknown variable '\\$nobody'"):
        placed_boss_game(tmp_path, [FIGHT], {"placed": "$nobody"})


def test_an_area_variable_can_be_named_twice(tmp_path: Path) -> None:
    setup = [
        {"let": "camp", "pick_areas": 2, "keep": "first"},
        {"let": "rally", "area": "$camp"},
        {"let": "fixed", "area": GATE},
    ]
    stage = {"id": "go", "objective": "Go to {rally}.", "done_all": [
        {"kind": "in_area", "area": "$rally"}
    ]}  # fmt: skip
    game = quest_game(tmp_path, [stage], setup=setup)
    found = variables(game)
    assert found["rally"] == found["camp"] != GATE and found["fixed"] == GATE
    move_to(game, "agent_0", found["rally"])
    game.tick(waits(game))
    assert completed(game) == ["go"]
    with pytest.raises(QuestDataError, match="'\\$go_list' is a list of areas, expected an area"):
        quest_game(
            tmp_path,
            [],
            setup=[{"let": "go_list", "pick_areas": 2}, {"let": "rally", "area": "$go_list"}],
        )
