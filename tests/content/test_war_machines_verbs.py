"""The `war_machines` pack's verbs (rules/war_machines/) on AgentOdyssey's robot_kingdom: salvage,
rally (and the rallied attack), siphon, jam, overload (and the aura in rhythm combat), scavenge.
Every refusal leaves the state untouched; every number is checked on a seeded stage; the draws of
`jam` and `scavenge` are checked statistically (4000 seeded trials, 4.5 standard deviations)."""

from __future__ import annotations

import pytest
from harness import (
    act,
    agent,
    check_refused,
    give,
    main_events,
    move_to,
    put_on_ground,
    spawn_npc,
    stage_fixtures,
    valid_params,
    within,
)
from war_machines_helper import (
    BARRACKS,
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

from agentodyssey_pz.world.agents import Engagement

shared, game = stage_fixtures(new_game, stage)


# ------------------------------------------------------------------------------------ salvage
def test_salvage_refusals(game) -> None:
    check_refused(game, "salvage nothing_at_all", "salvage.unknown")
    give(game, "agent_0", "obj_repair_kit")
    res = check_refused(game, "salvage repair_kit", "salvage.not_material")
    assert "scrap_iron" in res.feedback_text("agent_0")
    put_on_ground(game, YARD, "obj_scrap_iron", 1)
    check_refused(game, "salvage scrap_iron", "salvage.too_few")
    agent(game).hands.clear()
    put_on_ground(game, YARD, "obj_scrap_iron", 1)
    check_refused(game, "salvage scrap_iron", "salvage.no_tool")


@pytest.mark.parametrize(
    ("material", "count", "stat", "bonus"),
    [
        ("obj_scrap_iron", 2, "attack", 3),
        ("obj_cog", 2, "attack", 3),
        ("obj_fiend_plate", 1, "defense", 2),
        ("obj_demon_core_shard", 1, "defense", 2),
    ],
)
def test_salvage_recipes(game, material, count, stat, bonus) -> None:
    me = agent(game)
    give(game, "agent_0", "obj_repair_kit")
    put_on_ground(game, YARD, material, count + 1)
    before = (me.min_attack, me.attack, me.defense)
    name = game.world.objects[material].name
    assert valid_params(game, "salvage") == [(name,)]
    res = act(game, "agent_0", f"salvage {name}")
    assert res.action_ok["agent_0"]
    assert game.world.areas[YARD].objects[material] == 1
    assert me.hands == {"obj_repair_kit": 1}  # the kit stays
    gained = 3 if stat == "attack" else 0
    assert (me.min_attack, me.attack) == (before[0] + gained, before[1] + gained)
    assert me.defense == before[2] + (bonus if stat == "defense" else 0)
    assert main_events(res) == [
        (
            "material_salvaged",
            {
                "material_id": material,
                "material_count": count,
                "stat_name": stat,
                "stat_bonus": bonus,
                "area_id": YARD,
            },
        )
    ]


def test_salvaged_attack_survives_death_and_defense_does_not(game) -> None:
    me = agent(game)
    give(game, "agent_0", "obj_repair_kit")
    put_on_ground(game, YARD, "obj_scrap_iron", 2)
    put_on_ground(game, YARD, "obj_fiend_plate", 1)
    act(game, "agent_0", "salvage scrap_iron")
    act(game, "agent_0", "salvage fiend_plate")
    base = me.min_attack
    me.hp = 0
    step(game, "death_and_respawn_step")
    assert me.attack == me.min_attack == base and me.defense == 0


# -------------------------------------------------------------------------------------- rally
def test_rally_refusals(game) -> None:
    give(game, "agent_0", "obj_coin", 100)
    check_refused(game, "rally kael_ashworth", "rally.not_here")
    enemy = foe(game, agent_id=None)
    check_refused(game, f"rally {enemy.name}", "rally.enemy")
    guide = spawn_npc(game, GUIDE, YARD)
    check_refused(game, f"rally {guide.name}", "rally.guide")
    kael = spawn_npc(game, KAEL, YARD, 3)
    agent(game).hands["obj_coin"] = 8 + 4 * 3 - 1
    check_refused(game, "rally kael_ashworth", "rally.too_poor")
    agent(game).hands["obj_coin"] = 100
    assert valid_params(game, "rally") == [(kael.name,)]
    assert act(game, "agent_0", "rally kael_ashworth").action_ok["agent_0"]
    assert valid_params(game, "rally") == []
    check_refused(game, "rally kael_ashworth", "rally.has_ally")


def test_rally_pays_from_hands_then_inventory(game) -> None:
    me = agent(game)
    marshal = spawn_npc(game, MARSHAL, YARD, 2)  # cost 8 + 4 x 2 = 16, bonus 6 + 3 x 2 = 12
    give(game, "agent_0", "obj_coin", 10)
    box = game.world.new_instance("obj_small_bag")
    me.equipped[box], me.inventory_id = 1, box
    game.world.containers[box].items["obj_coin"] = 10
    res = act(game, "agent_0", "rally old_marshal")
    assert res.action_ok["agent_0"]
    assert "obj_coin" not in me.hands and game.world.containers[box].items["obj_coin"] == 4
    ally = {
        "npc_id": marshal.id,
        "npc_name": "old_marshal",
        "rounds_left": 3,
        "bonus_damage": 12,
        "area_id": YARD,
    }
    assert me.progress["war_machines"]["ally"] == ally
    assert main_events(res) == [
        (
            "npc_rallied",
            {"npc_id": marshal.id, "cost": 16, "rounds": 3, "bonus_damage": 12, "area_id": YARD},
        )
    ]


def test_the_ally_adds_its_bonus_for_three_attacks(game) -> None:
    me = agent(game)
    spawn_npc(game, MARSHAL, YARD, 1)  # bonus 9
    give(game, "agent_0", "obj_coin", 12)
    act(game, "agent_0", "rally old_marshal")
    enemy = foe(game, agent_id=None, hp=1000, max_hp=1000)
    hits = []
    for _ in range(4):
        me.stamina, me.consecutive_attacks = 1.0, 0
        before = enemy.hp
        act(game, "agent_0", f"attack {enemy.name}")
        hits.append(before - enemy.hp)
        me.combats.clear()
    assert hits == [me.attack + 9] * 3 + [me.attack]
    assert "ally" not in me.progress["war_machines"]


def test_an_ally_left_behind_is_dropped_without_bonus(game) -> None:
    me = agent(game)
    spawn_npc(game, MARSHAL, YARD, 1)
    give(game, "agent_0", "obj_coin", 12)
    act(game, "agent_0", "rally old_marshal")
    move_to(game, "agent_0", BARRACKS)
    enemy = foe(game, BARRACKS, agent_id=None, hp=1000, max_hp=1000)
    act(game, "agent_0", f"attack {enemy.name}")
    assert enemy.hp == 1000 - me.attack and "ally" not in me.progress["war_machines"]


# ------------------------------------------------------------------------------------- siphon
def test_siphon_refusals(game) -> None:
    give(game, "agent_0", "obj_repair_kit")
    check_refused(game, "siphon repair_kit nobody", "siphon.not_here")
    spawn_npc(game, MARSHAL, YARD)
    check_refused(game, "siphon repair_kit old_marshal", "siphon.not_enemy")
    idle = foe(game, agent_id=None)
    check_refused(game, f"siphon repair_kit {idle.name}", "siphon.not_fighting")
    enemy = foe(game)
    check_refused(game, f"siphon cog {enemy.name}", "siphon.not_held")
    give(game, "agent_0", "obj_paper")
    paper = game.world.name_of(next(o for o in agent(game).hands if o.startswith("obj_paper")))
    check_refused(game, f"siphon {paper} {enemy.name}", "siphon.instance")
    give(game, "agent_0", "obj_workbench")
    bench = game.world.objects["obj_workbench"].name
    check_refused(game, f"siphon {bench} {enemy.name}", "siphon.station")


def test_siphon_heals_and_weakens(game) -> None:
    me = agent(game)
    enemy = foe(game, attack_power=10)
    give(game, "agent_0", "obj_repair_kit", 2)  # value 20: heal <= 20, attack -6
    me.hp = 90
    assert (("repair_kit", enemy.name)) in valid_params(game, "siphon")
    res = act(game, "agent_0", f"siphon repair_kit {enemy.name}")
    assert me.hp == 100 and enemy.attack_power == 4 and me.hands["obj_repair_kit"] == 1
    assert main_events(res) == [
        (
            "energy_siphoned",
            {
                "npc_id": enemy.id,
                "obj_id": "obj_repair_kit",
                "conduit_value": 20,
                "hp_restored": 10,
                "atk_reduction": 6,
                "area_id": YARD,
            },
        )
    ]
    act(game, "agent_0", f"siphon repair_kit {enemy.name}")
    assert enemy.attack_power == 0  # not below 0


# ---------------------------------------------------------------------------------------- jam
def test_jam_refusals(game) -> None:
    give(game, "agent_0", "obj_coin")
    coin = game.world.objects["obj_coin"].name  # crown_shard
    enemy = foe(game, combat_pattern=("attack",))
    check_refused(game, f"jam {coin} {enemy.name}", "jam.too_simple")
    enemy.combat_pattern = ("attack", "wait")
    check_refused(game, f"jam {coin} {enemy.name}", "jam.currency")
    check_refused(game, f"jam cog {enemy.name}", "jam.not_held")
    assert valid_params(game, "jam") == []


def test_jam_removes_an_action_and_moves_my_index(game) -> None:
    me = agent(game)
    enemy = foe(game, combat_pattern=("wait", "wait", "wait", "defend"))  # no attack: one choice
    me.combats[enemy.id] = Engagement(3, YARD)
    give(game, "agent_0", "obj_cog")
    res = act(game, "agent_0", f"jam cog {enemy.name}")
    removed = main_events(res)[0][1]
    assert removed["removed_action"] in ("wait", "defend")
    assert len(enemy.combat_pattern) == 3 and "obj_cog" not in me.hands
    assert removed["remaining_pattern"] == list(enemy.combat_pattern)
    assert me.combats[enemy.id].rhythm_index in (2, 0)  # back one, or wrapped


def test_jam_picks_an_attack_with_the_weighted_chance(game) -> None:
    """hellcoal: value 6, size 1 -> w = 9, chance min(0.9, 0.6 + 0.045) = 0.645."""
    hits = 0
    for seed in range(TRIALS):
        stage(game, seed)
        enemy = foe(game, combat_pattern=("attack", "wait"))
        give(game, "agent_0", "obj_hellcoal")
        res = act(game, "agent_0", f"jam hellcoal {enemy.name}")
        hits += main_events(res)[0][1]["removed_action"] == "attack"
    assert within(hits, TRIALS, 0.645)


# ----------------------------------------------------------------------------------- overload
def test_overload_refusals_and_effect(game) -> None:
    me = agent(game)
    check_refused(game, "overload nothing_at_all", "overload.unknown")
    check_refused(game, "overload cog", "overload.not_component")
    check_refused(game, "overload hellcoal", "overload.not_held")
    give(game, "agent_0", "obj_hellcoal", 2)
    check_refused(game, "overload hellcoal", "overload.no_armor")
    me.equipped["obj_iron_scale_armor"] = 1
    assert valid_params(game, "overload") == [("hellcoal",)]
    act(game, "agent_0", "overload hellcoal")
    res = act(game, "agent_0", "overload hellcoal")
    assert me.progress["war_machines"]["aura_pct"] == 20 and "obj_hellcoal" not in me.hands
    assert main_events(res) == [
        (
            "armor_overloaded",
            {
                "component_id": "obj_hellcoal",
                "armor_id": "obj_iron_scale_armor",
                "aura_pct_added": 10,
                "total_aura_pct": 20,
                "area_id": YARD,
            },
        )
    ]


def test_the_aura_strikes_back_in_rhythm_combat(game) -> None:
    me = agent(game)
    me.defense, me.progress["war_machines"] = 16, {"aura_pct": 25}  # counter max(1, 4) = 4
    enemy = foe(game, hp=50, attack_power=30)
    res = step(game, "combat_rhythm_step")
    assert enemy.hp == 46 and me.hp == 100 - 14
    assert ("overload_aura_damage", {"npc_id": enemy.id, "counter_damage": 4, "aura_pct": 25,
            "area_id": YARD}) in main_events(res)  # fmt: skip


def test_an_aura_kill_skips_the_defeat_check(game) -> None:
    me = agent(game)
    me.defense, me.progress["war_machines"] = 1, {"aura_pct": 10}  # counter max(1, 0) = 1
    me.hp = 5
    enemy = foe(game, hp=1, attack_power=50)
    res = step(game, "combat_rhythm_step")
    kinds = [kind for kind, _ in main_events(res)]
    assert kinds == ["agent_damaged", "overload_aura_damage", "npc_killed"]
    assert me.hp <= 0 and enemy.hp == 0 and enemy.area_id is None and me.combats == {}
    assert me.kills == 1
    res = step(game, "death_and_respawn_step")
    assert me.hp == me.max_hp and "aura_pct" not in me.progress["war_machines"]


# ----------------------------------------------------------------------------------- scavenge
def test_scavenge_refusals(game) -> None:
    foe(game)
    check_refused(game, "scavenge", "scavenge.in_combat")
    agent(game).combats.clear()
    agent(game).progress["war_machines"] = {"scavenged": {YARD: game.tick_index - 4}}
    check_refused(game, "scavenge", "scavenge.cooldown")
    assert valid_params(game, "scavenge") == []
    agent(game).progress["war_machines"] = {"scavenged": {YARD: game.tick_index - 5}}
    assert valid_params(game, "scavenge") == [()]


def test_scavenge_finds_with_the_tier_chance_and_records_the_tick(game) -> None:
    found = 0
    for seed in range(TRIALS):
        stage(game, seed)
        res = act(game, "agent_0", "scavenge")
        kind, data = main_events(res)[-1]
        if kind == "area_scavenged":
            found += 1
            assert data["tier_discovery_prob"] == 0.30 and data["unique_kills"] == 0
            assert 1 <= sum(data["found_items"].values()) <= 1
            for def_id in data["found_items"]:
                obj = game.world.objects[def_id]
                assert obj.level <= 1 and obj.category not in ("station", "currency")
        else:
            assert kind == "scavenge_failed"
        assert agent(game).progress["war_machines"]["scavenged"] == {YARD: game.tick_index}
    assert within(found, TRIALS, 0.30)


def test_scavenge_tiers_follow_unique_kills(game) -> None:
    for seed in range(200):
        stage(game, seed)
        for k in range(10):
            agent(game).unique_kills[f"npc_x_{k}"] = None
        res = act(game, "agent_0", "scavenge")
        kind, data = main_events(res)[-1]
        if kind == "area_scavenged":
            assert data["tier_discovery_prob"] == 0.95 and data["unique_kills"] == 10
            assert 1 <= sum(data["found_items"].values()) <= 3
            assert all(game.world.objects[d].level <= 3 for d in data["found_items"])


# ------------------------------------------------------------------------- more refusals
def test_siphon_refuses_a_thing_without_value(game) -> None:
    enemy = foe(game)
    give(game, "agent_0", "obj_coin")  # currency: no value
    coin = game.world.objects["obj_coin"].name
    check_refused(game, f"siphon {coin} {enemy.name}", "siphon.no_value")
    give(game, "agent_0", "obj_war_engine_heart")
    heart = game.world.objects["obj_war_engine_heart"].name
    check_refused(game, f"siphon {heart} {enemy.name}", "siphon.no_value")
    assert valid_params(game, "siphon") == []


def test_jam_refusals_shared_with_siphon(game) -> None:
    give(game, "agent_0", "obj_cog")
    check_refused(game, "jam cog nobody", "jam.not_here")
    spawn_npc(game, MARSHAL, YARD)
    check_refused(game, "jam cog old_marshal", "jam.not_enemy")
    idle = foe(game, agent_id=None)
    check_refused(game, f"jam cog {idle.name}", "jam.not_fighting")
    enemy = foe(game)
    give(game, "agent_0", "obj_paper")
    paper = game.world.name_of(next(o for o in agent(game).hands if o.startswith("obj_paper")))
    check_refused(game, f"jam {paper} {enemy.name}", "jam.instance")
    give(game, "agent_0", "obj_workbench")
    bench = game.world.objects["obj_workbench"].name
    check_refused(game, f"jam {bench} {enemy.name}", "jam.station")
    assert valid_params(game, "jam") == [("cog", enemy.name)]


def test_death_clears_the_ally(game) -> None:
    me = agent(game)
    spawn_npc(game, MARSHAL, YARD, 1)
    give(game, "agent_0", "obj_coin", 12)
    act(game, "agent_0", "rally old_marshal")
    assert me.progress["war_machines"]["ally"]["rounds_left"] == 3
    me.hp = 0
    step(game, "death_and_respawn_step")
    assert "ally" not in me.progress["war_machines"]


# ----------------------------------------------------------------------- scavenge's draws
def test_scavenge_draw_counts_and_weights(game) -> None:
    """Top tier (10 kills: chance 0.95, 1-3 items, level bonus 2) in the courtyard (level 1): the
    count is `randint(1, 3)` (each 1/3), each find one `choices` draw weighted 1.0 at the area's
    level, 0.5 one level off, 0.2 two off, x1.5 without a recipe; levels above 3 never come.
    Per-draw shares of every kind against their weights (4.5 standard deviations)."""
    world = game.world
    banned = set(world.definition.initializations.undistributable_objects)
    weights = {}
    for obj in world.objects.values():
        if obj.category in ("station", "currency", "container") or obj.usage == "writable":
            continue
        if obj.id in banned or obj.quest or obj.level > 3:
            continue
        w = {0: 1.0, 1: 0.5, 2: 0.2}[abs(obj.level - 1)]
        weights[obj.id] = w * (1.5 if not obj.craft.ingredients else 1.0)
    total = sum(weights.values())
    counts = {1: 0, 2: 0, 3: 0}
    drawn: dict[str, int] = {}
    rolls = TRIALS // 2
    for seed in range(rolls):
        stage(game, seed)
        for k in range(10):
            agent(game).unique_kills[f"npc_x_{k}"] = None
        kind, data = main_events(act(game, "agent_0", "scavenge"))[-1]
        if kind != "area_scavenged":
            continue
        found = data["found_items"]
        counts[sum(found.values())] += 1
        for def_id, n in found.items():
            assert def_id in weights
            drawn[def_id] = drawn.get(def_id, 0) + n
    finds = sum(counts.values())
    assert within(finds, rolls, 0.95)
    assert all(within(counts[n], finds, 1 / 3) for n in (1, 2, 3))
    draws = sum(drawn.values())
    for def_id, w in weights.items():
        assert within(drawn.get(def_id, 0), draws, w / total), def_id
