"""Quest bosses (docs/world-format.md#111-main-quest): shared bosses (one for everyone, beaten for
everyone by anyone's kill, never made twice), the three ways a boss's health comes back after it
beats an agent, and modifiers (what is held or carried, where, capped, once and kept, recomputed
every tick). The fire boss and the root warden are AgentOdyssey's remnant and mark bosses in our
terms, with the tiny world's objects standing in for theirs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import equip_inventory, give, move_to
from quest_world import GATE, ROWS, VATS, VAULT, completed, quest_game, waits

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement

BOSS_NPC = {
    "id": "npc_q_warden", "name": "warden", "role": "boss", "enemy": True, "unique": False,
    "base_hp": 60, "base_attack_power": 9, "combat_pattern": ["attack", "wait"],
}  # fmt: skip
FIGHT = {
    "id": "fight",
    "objective": "Beat the warden.",
    "on_start": [{"spawn_boss": "warden"}],
    "done_any": [{"kind": "boss_already_defeated", "boss": "warden"}],
}


def boss_game(
    tmp_path: Path, boss: dict[str, Any], stages: list[dict[str, Any]], **kw: Any
) -> Game:
    return quest_game(
        tmp_path, stages, bosses={"warden": {"npc": "npc_q_warden", **boss}}, npcs=[BOSS_NPC], **kw
    )


def wardens(game: Game) -> list[Any]:
    return [npc for npc in game.world.npcs.values() if npc.def_id == "npc_q_warden"]


def kill(game: Game, agent_id: str, npc: Any) -> Any:
    """`agent_id` walks to the boss and kills it with one blow (everyone else waits)."""
    move_to(game, agent_id, npc.area_id)
    game.agents[agent_id].attack = 10_000
    result = game.tick(waits(game, **{agent_id: f"attack {npc.name}"}))
    assert result.action_ok[agent_id], result.feedback(agent_id)
    assert npc.hp <= 0
    return result


# ---------------------------------------------------------------------------- shared bosses
def test_a_shared_boss_of_a_unique_prototype_has_its_bare_name(tmp_path: Path) -> None:
    """As synthesis names a unique NPC (and AgentOdyssey's quest texts name their bosses):
    `warden`, not `warden_0`. A per-agent boss of the same prototype is numbered."""
    unique = {**BOSS_NPC, "unique": True}
    (tmp_path / "shared").mkdir()
    (tmp_path / "own").mkdir()
    shared = quest_game(
        tmp_path / "shared",
        [FIGHT],
        bosses={"warden": {"npc": "npc_q_warden", "in": ROWS, "shared": True}},
        npcs=[unique],
        agents=2,
    )
    [boss] = wardens(shared)
    assert (boss.id, boss.name) == ("npc_q_warden", "warden")
    kill(shared, "agent_1", boss)
    own = quest_game(
        tmp_path / "own",
        [FIGHT],
        bosses={"warden": {"npc": "npc_q_warden", "in": ROWS}},
        npcs=[unique],
        agents=2,
    )
    assert sorted(n.name for n in wardens(own)) == ["warden_0", "warden_1"]


def test_a_shared_boss_is_one_for_everyone_and_anyones_kill_beats_it_for_all(
    tmp_path: Path,
) -> None:
    again = {
        "id": "again",
        "objective": "It will not come back.",
        "on_start": [{"spawn_boss": "warden"}],
        "done_all": [{"kind": "stage_completed", "stage": "again"}],
    }
    game = boss_game(tmp_path, {"in": ROWS, "shared": True}, [FIGHT, again], agents=3)
    [boss] = wardens(game)  # three agents started the stage; one boss
    state = game.world.auxiliary["main_quest"]
    assert state["shared_bosses"] == {"warden": boss.id}
    assert boss.owner is None and boss.area_id == ROWS
    assert all(boss.id in game.world.visible_npcs(ROWS, a) for a in game.agents)
    assert all(not game.agents[a].progress["main_quest"]["bosses"] for a in game.agents)
    kill(game, "agent_2", boss)
    assert state["defeated"] == {"warden": True}
    assert all(completed(game, a) == ["fight"] for a in game.agents)  # the others waited
    game.tick(waits(game))
    assert len(wardens(game)) == 1  # `again` spawns it anew for nobody


def test_a_dead_shared_boss_is_not_made_again_until_its_instance_is_gone(
    tmp_path: Path,
) -> None:
    game = boss_game(tmp_path, {"in": ROWS, "shared": True}, [FIGHT], agents=2)
    [boss] = wardens(game)
    kill(game, "agent_0", boss)
    state = game.world.auxiliary["main_quest"]
    del state["defeated"]  # even unflagged, the dead instance stops a second one
    late = game.agents["agent_1"]
    late.progress.pop("main_quest")  # its quest starts again: the stage's on_start runs again
    game.tick(waits(game))
    assert wardens(game) == [boss]
    game.world.delete_npc(boss.id)
    late.progress.pop("main_quest")
    game.tick(waits(game))
    [new] = wardens(game)
    assert new.id != boss.id and new.hp > 0 and state["shared_bosses"] == {"warden": new.id}


def test_bosses_stay_per_agent_by_default(tmp_path: Path) -> None:
    game = boss_game(tmp_path, {"in": ROWS}, [FIGHT], agents=2)
    mine, theirs = sorted(wardens(game), key=lambda npc: npc.owner)
    assert (mine.owner, theirs.owner) == ("agent_0", "agent_1")
    kill(game, "agent_0", mine)
    assert completed(game) == ["fight"] and completed(game, "agent_1") == []
    assert "defeated" not in game.world.auxiliary["main_quest"]


# ---------------------------------------------------------------------------- health after a win
def beaten_by(game: Game, npc: Any, agent_id: str = "agent_0") -> None:
    """The boss's next rhythm blow defeats the agent."""
    move_to(game, agent_id, npc.area_id)
    body = game.agents[agent_id]
    body.hp = 1
    body.combats[npc.id] = Engagement(0, npc.area_id)  # the boss's pattern starts with attack
    result = game.tick(waits(game))
    assert result.events_of(agent_id, "agent_defeated_in_combat")


@pytest.mark.parametrize(("mode", "after"), [("max", 100), ("stage_start", 70), ("never", 20)])
@pytest.mark.parametrize("shared", [False, True])
def test_the_boss_health_after_it_beats_an_agent(
    tmp_path: Path, mode: str, after: int, shared: bool
) -> None:
    """Made when `approach` completes (100 HP), hurt to 70 before its stage starts, hurt to 20,
    then it wins a fight."""
    approach = {
        "id": "approach",
        "objective": "o",
        "done_all": [{"kind": "in_area", "area": VATS}],
        "on_complete": [{"spawn_boss": "warden"}],
    }
    wait_stage = {"id": "wait", "objective": "o", "done_all": [{"kind": "in_area", "area": GATE}]}
    boss = {"in": VAULT, "hp": 100, "attack": 30, "reset_hp_on_defeat": mode, "shared": shared}
    game = boss_game(tmp_path, boss, [approach, wait_stage, FIGHT])
    move_to(game, "agent_0", VATS)
    game.tick(waits(game))
    [npc] = wardens(game)
    assert (npc.hp, npc.max_hp) == (100, 100) and completed(game) == ["approach"]
    npc.hp = 70
    move_to(game, "agent_0", GATE)
    game.tick(waits(game))  # `fight` starts
    npc.hp = 20
    beaten_by(game, npc)
    assert npc.hp == after


# ---------------------------------------------------------------------------- modifiers
FIRE = {
    "in": ROWS, "hp": 225, "attack": 20,
    "modifiers": [
        {"when_held": ["obj_pruner"], "unless_held": ["obj_key"], "max_hp": 150, "attack": 20},
        {"when_held": ["obj_key"], "unless_held": ["obj_pruner"], "attack": 45},
    ],
}  # fmt: skip


def holding(game: Game, *def_ids: str, agent_id: str = "agent_0") -> None:
    game.agents[agent_id].hands.clear()
    for def_id in def_ids:
        give(game, agent_id, def_id)


def test_the_fire_boss_follows_what_its_owner_holds_and_the_attack_falls_back(
    tmp_path: Path,
) -> None:
    game = boss_game(tmp_path, FIRE, [FIGHT], agents=2)
    [npc] = [n for n in wardens(game) if n.owner == "agent_0"]
    holding(game, "obj_key")
    game.tick(waits(game))
    assert npc.attack_power == 20  # not with it
    move_to(game, "agent_0", ROWS)
    move_to(game, "agent_1", ROWS)
    holding(game, "obj_key", agent_id="agent_1")
    game.tick(waits(game))
    assert npc.attack_power == 45
    holding(game)
    game.tick(waits(game))
    assert npc.attack_power == 20  # the raised attack does not stick
    holding(game, "obj_pruner")
    npc.hp = 200
    game.tick(waits(game))
    assert (npc.max_hp, npc.hp, npc.attack_power) == (150, 150, 20)
    holding(game, "obj_pruner", "obj_key")
    game.tick(waits(game))
    assert (npc.max_hp, npc.attack_power) == (150, 20)  # neither applies; the drop stays
    holding(game)
    move_to(game, "agent_0", GATE)
    game.tick(waits(game))
    assert (npc.max_hp, npc.attack_power) == (150, 20)
    holding(game, "obj_key", agent_id="agent_1")  # agent_1 holds the key with agent_0's boss
    game.tick(waits(game))
    assert npc.attack_power == 20  # only its owner counts


def test_any_agent_whose_quest_runs_sets_off_a_shared_boss_modifier(tmp_path: Path) -> None:
    game = boss_game(tmp_path, {**FIRE, "shared": True}, [FIGHT], agents=2)
    [npc] = wardens(game)
    move_to(game, "agent_1", ROWS)
    holding(game, "obj_key", agent_id="agent_1")
    game.tick(waits(game))
    assert npc.attack_power == 45
    move_to(game, "agent_0", ROWS)
    holding(game, "obj_pruner")  # one agent drenches it, the other angers it: listed order
    game.tick(waits(game))
    assert (npc.max_hp, npc.attack_power) == (150, 45)
    game.agents["agent_1"].progress["main_quest"]["complete"] = True  # its quest is over
    game.tick(waits(game))
    assert npc.attack_power == 20


WARDEN = {
    "in": VATS, "hp": 160, "attack": 36, "shared": True,
    "modifiers": [
        {"when_carrying_text": {"text": "$promise", "match": "contains"}, "where": "boss_home",
         "once": True, "attack_cap": 30, "max_hp": 120},
    ],
}  # fmt: skip


def carry_note(game: Game, text: str) -> None:
    label = game.world.new_instance("obj_label")
    game.world.writables[label].text = text
    game.world.containers[equip_inventory(game)].items[label] = 1


def test_the_root_warden_is_weakened_for_good_by_a_promise_carried_into_its_home(
    tmp_path: Path,
) -> None:
    setup = [{"let": "promise", "value": "kindness"}]
    game = boss_game(tmp_path, WARDEN, [FIGHT], setup=setup)
    [npc] = wardens(game)
    game.world.place_npc(npc.id, VAULT)  # it wanders off: its home is still the vats
    carry_note(game, "Only KINDNESS opens the way")
    move_to(game, "agent_0", VAULT)  # with the boss, not in its home
    game.tick(waits(game))
    assert (npc.max_hp, npc.attack_power) == (160, 36)
    move_to(game, "agent_0", VATS)
    game.tick(waits(game))
    assert (npc.max_hp, npc.hp, npc.attack_power) == (120, 120, 30)
    game.agents["agent_0"].equipped.clear()
    game.agents["agent_0"].inventory_id = None
    move_to(game, "agent_0", GATE)
    game.tick(waits(game))
    assert (npc.max_hp, npc.attack_power) == (120, 30)  # once: kept
    assert game.world.auxiliary["main_quest"]["boss_kept"] == {npc.id: [0]}


def test_an_equal_text_is_wanted_unless_contains_is_asked_and_a_cap_only_lowers(
    tmp_path: Path,
) -> None:
    boss = {
        "in": VATS, "hp": 160, "attack": 36,
        "modifiers": [
            {"when_carrying_text": {"text": "kindness"}, "attack_cap": 30},
            {"when_held": ["obj_key"], "attack_cap": 50},
        ],
    }  # fmt: skip
    game = boss_game(tmp_path, boss, [FIGHT])
    [npc] = wardens(game)
    move_to(game, "agent_0", VATS)
    carry_note(game, "with kindness")
    game.tick(waits(game))
    assert npc.attack_power == 36  # "equals" by default
    carry_note(game, " Kindness ")
    holding(game, "obj_key")
    game.tick(waits(game))
    assert npc.attack_power == 30  # capped at 30, and a cap of 50 does not raise it
    game.agents["agent_0"].equipped.clear()
    game.agents["agent_0"].inventory_id = None
    game.tick(waits(game))
    assert npc.attack_power == 36  # not `once`: gone with the note
