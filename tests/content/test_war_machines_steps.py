"""The `war_machines` pack's step rules (rules/war_machines/) on AgentOdyssey's robot_kingdom:
united presence, cannibalising war machines, tactical warnings, corruption decay, intimidation,
territory reclamation, forge-echo migration and devil-forged corruption. Seeded stages; the
warning's chance statistically (4000 seeded trials, 4.5 standard deviations)."""

from __future__ import annotations

from harness import (
    agent,
    give,
    main_events,
    move_to,
    put_on_ground,
    spawn_npc,
    stage_fixtures,
    within,
)
from war_machines_helper import (
    BARRACKS,
    CELLAR,
    GUIDE,
    KAEL,
    MARSHAL,
    TRIALS,
    YARD,
    foe,
    new_game,
    stage,
    step,
)

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import Engagement

shared, game = stage_fixtures(new_game, stage)


# ---------------------------------------------------------------------------- united presence
def test_presence_bonus_comes_and_goes(game) -> None:
    a, b = agent(game), agent(game, "agent_1")
    step(game, "united_presence_step")
    assert (a.defense, b.defense) == (2, 2)
    step(game, "united_presence_step")
    assert (a.defense, b.defense) == (2, 2)  # unchanged bonus: nothing more
    move_to(game, "agent_1", BARRACKS)
    step(game, "united_presence_step")
    assert (a.defense, b.defense) == (0, 0)
    assert a.progress["war_machines"]["presence_bonus"] == 0


def test_removal_clamps_at_zero_after_death(game) -> None:
    a = agent(game)
    step(game, "united_presence_step")
    a.defense = 0  # as death leaves it, record kept
    move_to(game, "agent_1", BARRACKS)
    step(game, "united_presence_step")
    assert a.defense == 0


def test_hesitation_moves_the_index_and_shares_it(game) -> None:
    enemy = foe(game)  # pattern of 4
    agent(game, "agent_1").combats[enemy.id] = Engagement(3, YARD)
    res = step(game, "united_presence_step")
    assert agent(game).combats[enemy.id].rhythm_index == 1
    assert agent(game, "agent_1").combats[enemy.id].rhythm_index == 1
    assert (
        "united_presence_hesitation",
        {"area_id": YARD, "hesitated_npcs": [enemy.id], "agent_ids": ["agent_0", "agent_1"]},
    ) in main_events(res)


# ------------------------------------------------------------------------------- cannibalize
def test_a_wounded_machine_eats_the_most_valuable_item(game) -> None:
    enemy = foe(game)  # level 1: max HP is the prototype's
    top = game.world.npc_protos[enemy.def_id].hp_at(1)
    enemy.hp = top - 5
    put_on_ground(game, YARD, "obj_scrap_iron", 2)  # value 4
    put_on_ground(game, YARD, "obj_repair_kit", 1)  # value 20: heal 10, capped at max
    put_on_ground(game, YARD, "obj_coin", 50)  # currency: never eaten
    res = step(game, "war_machine_cannibalize_step")
    ground = game.world.areas[YARD].objects
    assert "obj_repair_kit" not in ground and ground["obj_scrap_iron"] == 2
    assert enemy.hp == top
    assert main_events(res)[0] == (
        "war_machine_cannibalize",
        {
            "npc_id": enemy.id,
            "area_id": YARD,
            "consumed_obj_id": "obj_repair_kit",
            "consumed_obj_name": "repair_kit",
            "hp_restored": 5,
            "npc_hp": top,
            "npc_max_hp": top,
        },
    )
    enemy.hp = 1
    step(game, "war_machine_cannibalize_step")
    assert enemy.hp == 1 + 2 and ground["obj_scrap_iron"] == 1  # max(2, int(4 x 0.5))
    enemy.hp = top
    step(game, "war_machine_cannibalize_step")
    assert ground["obj_scrap_iron"] == 1  # at full HP: nothing eaten


# --------------------------------------------------------------------------- tactical warning
def test_a_friend_warns_with_chance_point_three(game) -> None:
    warned = 0
    for seed in range(TRIALS):
        stage(game, seed)
        enemy = foe(game)
        spawn_npc(game, MARSHAL, YARD)
        res = step(game, "tactical_warning_step")
        found = [d for k, d in main_events(res) if k == "tactical_warning"]
        if found:
            warned += 1
            assert found[0]["predicted_action"] == "attack"
            assert found[0]["enemy_npc_id"] == enemy.id
    assert within(warned, TRIALS, 0.3)


def test_a_second_friend_tries_when_the_first_stays_silent(game) -> None:
    """Two friends: 1 - 0.7 x 0.7 = 0.51; a guide never warns; one warning per enemy at most."""
    warned = 0
    for seed in range(TRIALS // 2):
        stage(game, seed)
        foe(game)
        spawn_npc(game, MARSHAL, YARD)
        spawn_npc(game, KAEL, YARD)
        spawn_npc(game, GUIDE, YARD)
        res = step(game, "tactical_warning_step")
        found = [d for k, d in main_events(res) if k == "tactical_warning"]
        assert len(found) <= 1
        warned += len(found)
    assert within(warned, TRIALS // 2, 0.51)


# ------------------------------------------------------------------------------ corruption
def test_a_battlefield_floor_rots_after_eight_even_ticks(game) -> None:
    put_on_ground(game, YARD, "obj_scrap_iron", 3)
    put_on_ground(game, YARD, "obj_coin", 3)
    enemy = foe(game)
    res = RuleResult(game.agent_ids)
    res.emit("npc_killed", "agent_0", {"npc_id": enemy.id, "area_id": YARD})
    rule = next(r for r in game.step_rules if r.name == "corruption_decay_step")
    from agentodyssey_pz.rules.context import RuleContext

    game.tick_index = 0
    rule.apply(RuleContext(game, game.world, None, "", (), 0), res)
    state = game.world.auxiliary["corruption_decay"]
    assert state["marked"] == {YARD: 0} and state["decay"][YARD] == {"obj_scrap_iron": 1}
    for tick in range(1, 15):
        game.tick_index = tick
        res = step(game, "corruption_decay_step")
        if tick == 10:
            assert res.feedback_keys("agent_0") == ["corruption.warning"]
    assert game.world.areas[YARD].objects == {"obj_coin": 3}
    assert main_events(res) == [
        ("corruption_destroyed", {"area_id": YARD, "obj_id": "obj_scrap_iron", "count": 3})
    ]
    assert YARD not in state["decay"] and YARD in state["marked"]


# ------------------------------------------------------------------------------ intimidation
def test_enemies_wear_friends_down_and_absorb_the_fallen(game) -> None:
    game.world.auxiliary.pop("intimidation", None)  # the bootstrap tick's, on the full map
    marshal = spawn_npc(game, MARSHAL, YARD, hp=7)
    weak = foe(game, agent_id=None, hp=10, attack_power=5)
    strong = foe(game, agent_id=None, hp=30, attack_power=5)
    res = step(game, "intimidation_step")
    assert marshal.hp == 1
    assert ("npc_intimidated", {"npc_id": marshal.id, "area_id": YARD, "damage": 6,
            "remaining_hp": 1, "num_enemies": 2}) in main_events(res)  # fmt: skip
    res = step(game, "intimidation_step")
    assert marshal.hp == 0 and marshal.area_id is None
    assert "old_marshal" not in game.world.npc_name_to_id and marshal.id in game.world.npcs
    assert (strong.attack_power, strong.hp, weak.hp) == (10, 45, 10)
    assert main_events(res)[-1] == (
        "npc_fallen_from_intimidation",
        {
            "fallen_npc_id": marshal.id,
            "fallen_npc_name": "old_marshal",
            "absorber_npc_id": strong.id,
            "absorber_npc_name": strong.name,
            "absorb_attack_bonus": 5,
            "absorb_hp_bonus": 15,
            "area_id": YARD,
        },
    )
    assert game.world.auxiliary["intimidation"][marshal.id] == {"total_damage": 12}


def test_intimidation_sees_npcs_come_go_and_die_between_ticks(game) -> None:
    """NPCs placed, moved away or killed after a tick count on the next one (what a cache of the
    areas' sides would have to get right)."""
    game.world.auxiliary.pop("intimidation", None)
    marshal = spawn_npc(game, MARSHAL, YARD, hp=100)
    first = foe(game, agent_id=None)
    damages = []

    def tick() -> None:
        res = step(game, "intimidation_step")
        hits = [d for t, d in main_events(res) if t == "npc_intimidated"]
        damages.append(hits[0]["damage"] if hits else 0)

    tick()  # one enemy: 3
    second = foe(game, agent_id=None)
    tick()  # it came in: 6
    game.world.place_npc(first.id, BARRACKS)
    tick()  # one moved away: 3
    second.hp = 0  # dead, still on the map
    tick()  # no living enemy: nothing
    game.world.place_npc(first.id, YARD)
    kael = spawn_npc(game, KAEL, YARD, hp=100)  # another friendly joins
    tick()
    assert damages == [3, 6, 3, 0, 3]
    assert (marshal.hp, kael.hp) == (100 - 15, 97)


# ----------------------------------------------------------------------------- reclamation
def test_an_empty_area_first_ticks_at_dormancy_eleven(game) -> None:
    put_on_ground(game, CELLAR, "obj_scrap_iron", 20)  # loses int(20 x 0.15) = 3
    put_on_ground(game, CELLAR, "obj_cog", 1)  # loses max(1, 0) = 1
    assert game.world.auxiliary["territory_reclamation"]["last_visited"][CELLAR] == -1  # bootstrap
    ticks = []
    for tick in range(1, 21):
        game.tick_index = tick
        res = step(game, "territory_reclamation_step")
        for kind, data in main_events(res):
            if kind == "territory_reclamation_tick" and data["area_id"] == CELLAR:
                ticks.append((tick, data))
    assert [t for t, _ in ticks] == [10, 13, 16, 19]  # dormancy 11, 14, 17, 20
    first = ticks[0][1]
    assert first["decayed_items"] == {"obj_scrap_iron": 3, "obj_cog": 1}
    assert first["dormancy_steps"] == 11 and first["tick"] == 1
    assert ticks[3][1]["spawned_npc"] is None  # three spawned already
    spawned = [d["spawned_npc"] for _, d in ticks[:3]]
    assert all(game.world.npcs[n].area_id == CELLAR for n in spawned)
    assert all(game.world.npcs[n].level == game.world.areas[CELLAR].level for n in spawned)
    assert YARD not in game.world.auxiliary["territory_reclamation"]["records"]  # spawn area


# ------------------------------------------------------------------------------ forge echo
def test_crafting_draws_a_merchant_and_it_goes_home(game) -> None:
    kael = spawn_npc(game, KAEL, BARRACKS)
    from agentodyssey_pz.rules.context import RuleContext

    rule = next(r for r in game.step_rules if r.name == "forge_echo_migration_step")
    game.tick_index = 2
    res = RuleResult(game.agent_ids)
    res.emit("object_crafted", "agent_0", {"obj_id": "x", "amount": 1, "area_id": YARD})
    rule.apply(RuleContext(game, game.world, None, "", (), 2), res)
    assert kael.area_id == YARD
    assert (
        "forge_echo_merchant_migrated",
        {"npc_id": kael.id, "npc_name": kael.name, "from_area": BARRACKS, "to_area": YARD,
         "echo_step": 2},
    ) in main_events(res)  # fmt: skip
    for tick in range(3, 11):
        game.tick_index = tick
        step(game, "forge_echo_migration_step")
        if tick < 10:
            assert kael.area_id == YARD
    assert kael.area_id == BARRACKS  # echo gone after 6 ticks, back home on the next even tick
    assert game.world.auxiliary["forge_echo"]["migration_targets"] == {}


# ---------------------------------------------------------------------------- devil-forged
def test_carrying_more_than_three_devil_forged_units_drains(game) -> None:
    me = agent(game)
    give(game, "agent_0", "obj_scrap_iron", 3)
    step(game, "devil_forged_corruption_step")
    assert me.hp == 100
    me.equipped["obj_cog"] = 2
    res = step(game, "devil_forged_corruption_step")
    assert me.hp == 96
    assert main_events(res) == [
        (
            "devil_forged_corruption",
            {"devil_forged_count": 5, "excess": 2, "damage": 4, "remaining_hp": 96,
             "area_id": YARD},
        )
    ]  # fmt: skip
    me.hp = 3
    res = step(game, "devil_forged_corruption_step")
    assert me.hp == 0
    assert main_events(res)[-1] == (
        "agent_defeated_by_corruption",
        {"devil_forged_count": 5, "area_id": YARD},
    )


# ------------------------------------------------------------------------- order and state
def test_the_rules_run_in_the_published_order(game) -> None:
    names = [r.name for r in game.step_rules]
    order = [
        "united_presence_step", "combat_rhythm_step", "war_machine_cannibalize_step",
        "tactical_warning_step", "death_and_respawn_step", "corruption_decay_step",
        "intimidation_step", "territory_reclamation_step", "forge_echo_migration_step",
        "devil_forged_corruption_step",
    ]  # fmt: skip
    assert [n for n in names if n in order] == order


def test_a_played_game_saves_and_resumes_exactly(game, tmp_path) -> None:
    from agentodyssey_pz.engine.game import Game

    for t in range(40):
        game.tick({"agent_0": "scavenge" if t % 6 == 0 else "wait", "agent_1": "wait"})
    path = tmp_path / "save.json"
    game.save(path)
    again = Game.load(path)
    for _ in range(15):
        game.tick({"agent_0": "wait", "agent_1": "wait"})
        again.tick({"agent_0": "wait", "agent_1": "wait"})
    assert game.world.auxiliary == again.world.auxiliary
    assert [a.progress for a in game.agents.values()] == [a.progress for a in again.agents.values()]


def test_the_guides_table_of_the_pack_matches_the_code(game) -> None:
    import re
    from pathlib import Path

    from agentodyssey_pz.resources import rules_dir

    guide = Path(__file__).resolve().parents[2] / "docs" / "rule-packs.md"
    table = re.search(
        r"<!-- war-machines-rules -->\n(?P<table>.*?)<!-- /", guide.read_text("utf-8"), re.S
    )
    assert table is not None
    rows = [
        (int(m["priority"]), m["name"])
        for m in re.finditer(r"^\| (?P<priority>\d+) \| `(?P<name>\w+)` \|", table["table"], re.M)
    ]
    namespace = game.rule_set.namespace_of(rules_dir() / "war_machines")
    assert namespace is not None
    pack = [r for r in game.step_rules if type(r).__module__.startswith(namespace + ".")]
    assert rows == [(r.priority, r.name) for r in pack]
