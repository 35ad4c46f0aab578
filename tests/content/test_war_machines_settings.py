"""The `war_machines` pack's settings for robot_kingdom's published quirks (docs/rule-packs.md
"The war_machines pack"), each tested both ways on a seeded stage: the default is what the
published game does, the setting gives the sane behaviour. Also the pack's `attack` on the base
hook `extra_damage` and its rhythm rule on `after_hit`, and the trade listings with instances in
hand (the published game's listing fix)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from harness import (
    act,
    agent,
    give,
    main_events,
    move_to,
    put_on_ground,
    spawn_npc,
    stage_fixtures,
    valid_params,
)
from war_machines_helper import BARRACKS, CELLAR, KAEL, YARD, foe, new_game, rule, stage, step

from agentodyssey_pz.world.agents import Engagement

shared, game = stage_fixtures(new_game, stage)


@contextmanager
def setting(game: Any, rule_name: str, key: str, value: Any) -> Iterator[None]:
    """One setting of one rule of this (shared) game, for the duration of the block."""
    found = game.engine.rules.get(rule_name) or rule(game, rule_name)
    before = found.settings
    found.settings = {**before, key: value}
    try:
        yield
    finally:
        found.settings = before


def kinds(res: Any) -> list[str]:
    return [kind for kind, _ in main_events(res)]


# ------------------------------------------------------------------ the aura's kill
def aura_kill_stage(game: Any) -> Any:
    me = agent(game)
    me.defense, me.progress["war_machines"] = 1, {"aura_pct": 10}  # counter max(1, 0) = 1
    me.hp = 5
    other = foe(game, hp=500, combat_pattern=("wait", "wait"))  # engaged after the killed one
    killer = foe(game, hp=1, attack_power=50)
    me.combats = {killer.id: Engagement(0, YARD), other.id: Engagement(0, YARD)}
    return me, killer, other


def test_an_aura_kill_skips_the_defeat_check_as_published(game) -> None:
    me, killer, other = aura_kill_stage(game)
    res = step(game, "combat_rhythm_step")
    assert kinds(res) == ["agent_damaged", "overload_aura_damage", "npc_killed"]
    assert me.combats == {other.id: Engagement(1, YARD)}  # the next NPC still moved
    assert "combat.npc_waits" in res.feedback_keys("agent_0")
    assert killer.hp == 0 and me.hp == 5 - 49


def test_aura_kill_checks_defeat_runs_the_defeat_check(game) -> None:
    me, killer, _ = aura_kill_stage(game)
    with setting(game, "combat_rhythm_step", "aura_kill_checks_defeat", True):
        res = step(game, "combat_rhythm_step")
    assert kinds(res) == [
        "agent_damaged",
        "overload_aura_damage",
        "npc_killed",
        "agent_defeated_in_combat",
    ]
    assert me.combats == {} and killer.hp == 0 and killer.area_id is None
    assert main_events(res)[-1][1] == {"npc_id": killer.id, "area_id": YARD}


def test_aura_kill_checks_defeat_leaves_a_standing_agent_fighting(game) -> None:
    me, _, other = aura_kill_stage(game)
    me.hp = 100
    with setting(game, "combat_rhythm_step", "aura_kill_checks_defeat", True):
        res = step(game, "combat_rhythm_step")
    assert "agent_defeated_in_combat" not in kinds(res)
    assert me.combats == {other.id: Engagement(1, YARD)}


# ------------------------------------------------------------- the aura without armour
def test_the_aura_strikes_without_armour_as_published(game) -> None:
    me = agent(game)
    me.defense, me.progress["war_machines"] = 16, {"aura_pct": 25}
    enemy = foe(game, hp=50, attack_power=30)
    assert not me.equipped
    step(game, "combat_rhythm_step")
    assert enemy.hp == 46


def test_aura_needs_armor_strikes_only_while_armour_is_worn(game) -> None:
    me = agent(game)
    me.defense, me.progress["war_machines"] = 16, {"aura_pct": 25}
    enemy = foe(game, hp=50, attack_power=30)
    with setting(game, "combat_rhythm_step", "aura_needs_armor", True):
        res = step(game, "combat_rhythm_step")
        assert enemy.hp == 50 and "overload_aura_damage" not in kinds(res)
        me.equipped["obj_iron_scale_armor"] = 1
        me.combats[enemy.id].rhythm_index = 0
        step(game, "combat_rhythm_step")
    assert enemy.hp == 46


# ---------------------------------------------------------------- jam and other agents
def jam_stage(game: Any) -> tuple[Any, Any, Any]:
    me, other = agent(game), agent(game, "agent_1")
    enemy = foe(game, combat_pattern=("wait", "defend", "wait", "defend"))  # no attack
    me.combats[enemy.id] = Engagement(3, YARD)
    other.combats[enemy.id] = Engagement(3, YARD)
    give(game, "agent_0", "obj_cog")
    return me, other, enemy


def test_jam_moves_only_the_jammers_index_as_published(game) -> None:
    me, other, enemy = jam_stage(game)
    act(game, "agent_0", f"jam cog {enemy.name}")
    assert len(enemy.combat_pattern) == 3
    assert me.combats[enemy.id].rhythm_index in (0, 2)
    assert other.combats[enemy.id].rhythm_index == 3  # now past the end of the pattern


def test_adjusts_every_index_moves_every_fighters_index(game) -> None:
    me, other, enemy = jam_stage(game)
    with setting(game, "jam", "adjusts_every_index", True):
        act(game, "agent_0", f"jam cog {enemy.name}")
    assert other.combats[enemy.id].rhythm_index == me.combats[enemy.id].rhythm_index
    assert me.combats[enemy.id].rhythm_index in (0, 2)


# ------------------------------------------------------------- the drain after death
def drained(game: Any) -> Any:
    me = agent(game)
    move_to(game, "agent_0", BARRACKS)
    give(game, "agent_0", "obj_scrap_iron", 5)  # excess 2: 4 HP
    me.hp = 3
    return me


def test_a_drained_agent_waits_at_zero_hp_as_published(game) -> None:
    me = drained(game)
    res = step(game, "devil_forged_corruption_step")
    assert me.hp == 0 and me.area_id == BARRACKS and me.deaths == 0
    assert kinds(res)[-1] == "agent_defeated_by_corruption"


def test_dies_at_once_hands_the_agent_to_the_death_rule(game) -> None:
    me = drained(game)
    me.progress["war_machines"] = {"aura_pct": 10}
    with setting(game, "devil_forged_corruption_step", "dies_at_once", True):
        res = step(game, "devil_forged_corruption_step")
    assert me.hp == me.max_hp and me.area_id == game.world.spawn_area and me.deaths == 1
    assert kinds(res)[-2:] == ["agent_defeated_by_corruption", "agent_died"]
    assert game.world.areas[BARRACKS].objects["obj_scrap_iron"] == 5  # dropped where it fell
    assert "aura_pct" not in me.progress["war_machines"]  # the pack's death


# ------------------------------------------------------- the presence record at death
def presence_after_death(game: Any) -> Any:
    me = agent(game)
    step(game, "united_presence_step")
    assert me.defense == 2
    me.hp = 0
    step(game, "death_and_respawn_step")  # both stay in the courtyard (the spawn area)
    assert me.defense == 0
    step(game, "united_presence_step")
    return me


def test_the_bonus_is_not_given_back_after_death_as_published(game) -> None:
    me = presence_after_death(game)
    assert me.defense == 0 and me.progress["war_machines"]["presence_bonus"] == 2


def test_clears_presence_gives_the_bonus_back_after_death(game) -> None:
    with setting(game, "death_and_respawn_step", "clears_presence", True):
        me = presence_after_death(game)
    assert me.defense == 2 and me.progress["war_machines"]["presence_bonus"] == 2


# ------------------------------------------------------------ quest objects on floors
QUEST_OBJECT = "obj_quest_war_banner"  # the main quest's banner: undistributable, not `quest`


def quest_floor(game: Any, area: str) -> None:
    assert QUEST_OBJECT in game.world.objects
    assert QUEST_OBJECT in game.world.definition.initializations.undistributable_objects
    put_on_ground(game, area, QUEST_OBJECT, 1)  # value 30
    put_on_ground(game, area, "obj_scrap_iron", 1)  # value 4


@pytest.mark.parametrize("protect", [False, True], ids=["published", "protected"])
def test_cannibalizing_and_quest_objects(game, protect: bool) -> None:
    quest_floor(game, YARD)
    enemy = foe(game, hp=1)
    with setting(game, "war_machine_cannibalize_step", "protect_quest_objects", protect):
        res = step(game, "war_machine_cannibalize_step")
    eaten = main_events(res)[0][1]["consumed_obj_id"]
    assert eaten == ("obj_scrap_iron" if protect else QUEST_OBJECT)
    assert enemy.hp == 1 + (2 if protect else 15)


@pytest.mark.parametrize("protect", [False, True], ids=["published", "protected"])
def test_corruption_decay_and_quest_objects(game, protect: bool) -> None:
    quest_floor(game, YARD)
    game.world.auxiliary["corruption_decay"] = {"marked": {YARD: 0}, "decay": {}}
    with setting(game, "corruption_decay_step", "protect_quest_objects", protect):
        for tick in range(0, 16, 2):
            game.tick_index = tick
            step(game, "corruption_decay_step")
    ground = game.world.areas[YARD].objects
    assert "obj_scrap_iron" not in ground
    assert (QUEST_OBJECT in ground) == protect


@pytest.mark.parametrize("protect", [False, True], ids=["published", "protected"])
def test_reclamation_and_quest_objects(game, protect: bool) -> None:
    quest_floor(game, CELLAR)
    with setting(game, "territory_reclamation_step", "protect_quest_objects", protect):
        for tick in range(1, 11):
            game.tick_index = tick
            res = step(game, "territory_reclamation_step")
    decayed = next(
        d["decayed_items"]
        for k, d in main_events(res)
        if k == "territory_reclamation_tick" and d["area_id"] == CELLAR
    )
    expected = {"obj_scrap_iron": 1} if protect else {QUEST_OBJECT: 1, "obj_scrap_iron": 1}
    assert decayed == expected


# ----------------------------------------------------------------- the pack's attack, hooked
def test_the_rallied_attack_is_the_base_attack_with_an_extra(game) -> None:
    from agentodyssey_pz.rules.packs import bundled_pack

    attack = game.engine.rules["attack"]
    base = {r.name: r for r in bundled_pack("base").action_rules}["attack"]
    assert isinstance(attack, base) and type(attack).apply is base.apply
    steps = {r.name: r for r in game.step_rules}
    rhythm = type(steps["combat_rhythm_step"])
    assert rhythm._fight is rhythm.__mro__[1]._fight  # the base round, hooks only


def test_the_ally_bonus_is_added_to_a_defended_and_tired_blow(game) -> None:
    me = agent(game)
    spawn_npc(game, "npc_old_marshal", YARD, 1)  # bonus 9
    give(game, "agent_0", "obj_coin", 12)
    act(game, "agent_0", "rally old_marshal")
    enemy = foe(game, combat_pattern=("defend",), hp=1000, max_hp=1000)
    me.attack, me.consecutive_attacks = 30, 1
    res = act(game, "agent_0", f"attack {enemy.name}")
    assert enemy.hp == 1000 - (int(30 * 0.1) + 9)  # this blow at full stamina, the next tired
    assert me.stamina == 0.8
    assert res.feedback_keys("agent_0")[:2] == ["rally.strike", "attack.npc_defended"]
    assert me.progress["war_machines"]["ally"]["rounds_left"] == 2


# ------------------------------------------------------------------- trade listings
def test_trade_listings_with_instances_in_hand(game) -> None:
    """The published game lists instance ids in hand under their definition's name (`get_def_id`)
    for `sell`, where selling then refuses them; here the listings name only what takes effect:
    containers and writables are not traded, nothing crashes, stock is listed by definition."""
    kael = spawn_npc(game, KAEL, YARD, 2, coins=500)
    bag = give(game, "agent_0", "obj_small_bag")[0]
    paper = give(game, "agent_0", "obj_paper")[0]
    give(game, "agent_0", "obj_scrap_iron", 2)
    give(game, "agent_0", "obj_coin", 40)
    assert game.world.is_instance(bag) and game.world.is_instance(paper)
    sells = valid_params(game, "sell")
    assert {p[1] for p in sells} == {game.world.objects["obj_scrap_iron"].name}
    bag_name = game.world.objects["obj_small_bag"].name
    assert ("1", bag_name, kael.name) in valid_params(game, "buy")
    res = act(game, "agent_0", f"buy 1 {bag_name} {kael.name}")
    assert res.action_ok["agent_0"]
    near = [*agent(game).hands, *game.world.areas[YARD].objects]  # (full hands: on the ground)
    bought = [o for o in near if game.world.def_of(o).id == "obj_small_bag"]
    assert len(bought) == 2 and all(game.world.is_instance(o) for o in bought)
    assert {p[1] for p in valid_params(game, "sell")} == {p[1] for p in sells}
