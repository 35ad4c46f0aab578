"""The verbs of the bundled pack `outbreak` (rules/outbreak/): barricade, concoct, shove,
eavesdrop, burn corpses and refuel, on AgentOdyssey's quarantine world (user's copy), every check
and number of docs/rule-packs.md#the-outbreak-pack; the eavesdrop alert's rate statistically.
"""

from __future__ import annotations

import pytest
from harness import act, check_refused, give, spawn_npc
from outbreak_helper import LOBBY, MORGUE, ROOFTOP, WARD, ward
from scavenging_helper import listed, mask_targets, mirror

from agentodyssey_pz.world.agents import Engagement
from agentodyssey_pz.world.entities import ContainerInstance

ALERT_TRIALS = 4000
ALERT_TOLERANCE = 0.025  # over 4 standard deviations of a 0.15 frequency over 4000 trials


@pytest.fixture(autouse=True)
def _copy(published):
    return published


def events_of(res, kind: str) -> list[dict]:
    return [e.data for e in res.events if e.type == kind]


def with_inventory(game, items: dict[str, int]) -> ContainerInstance:
    (bag,) = give(game, "agent_0", "obj_small_bag")
    body = game.agents["agent_0"]
    del body.hands[bag]
    body.inventory_id = bag
    game.world.containers[bag].items.update(items)
    return game.world.containers[bag]


# ------------------------------------------------------------------------------------ barricade
def test_barricade_takes_logs_first_hands_first_and_deletes_the_path() -> None:
    game = ward()
    give(game, "agent_0", "obj_wood_plank", 1)
    give(game, "agent_0", "obj_wood_log", 1)
    bag = with_inventory(game, {"obj_wood_log": 1, "obj_wood_plank": 2})
    game.tick_index = 12
    name = game.world.areas[LOBBY].name
    res = act(game, "agent_0", f"barricade {name}")
    assert res.action_ok["agent_0"]
    body = game.agents["agent_0"]
    assert body.hands == {}  # the log in hand, the log in the bag, then the plank in hand
    assert bag.items == {"obj_wood_plank": 2}
    assert game.world.graph.path(WARD, LOBBY) is None and game.world.graph.path(LOBBY, WARD) is None
    assert game.world.auxiliary["barricaded_paths"] == [
        {"from": WARD, "to": LOBBY, "agent_id": "agent_0", "step": 12}
    ]
    assert events_of(res, "path_barricaded") == [
        {"from_area": WARD, "to_area": LOBBY, "area_name": name, "wood_used": 3}
    ]


def test_barricade_refusals_in_order() -> None:
    game = ward()
    name = game.world.areas[LOBBY].name
    give(game, "agent_0", "obj_wood_log", 2)
    check_refused(game, f"barricade {name}", "barricade.no_wood")
    give(game, "agent_0", "obj_wood_plank", 1)
    check_refused(game, "barricade nowhere", "barricade.no_path")
    zombie = spawn_npc(game, "npc_zombie", WARD)
    game.agents["agent_0"].combats[zombie.id] = Engagement(0, WARD)
    check_refused(game, f"barricade {name}", "barricade.in_combat")
    assert listed(game, "barricade") == []
    game.agents["agent_0"].combats.clear()
    names = {game.world.areas[a].name for a in (LOBBY, MORGUE, ROOFTOP)}
    assert {p[0] for p in listed(game, "barricade")} == names
    assert act(game, "agent_0", f"barricade {name}").action_ok["agent_0"]


# ------------------------------------------------------------------------------------- concoct
POTENCIES = [
    ("obj_green_herb", "obj_green_herb", 20),
    ("obj_green_herb", "obj_red_herb", 40),
    ("obj_red_herb", "obj_red_herb", 60),
    ("obj_green_herb", "obj_blue_herb", 50),
    ("obj_red_herb", "obj_blue_herb", 70),
    ("obj_blue_herb", "obj_blue_herb", 90),
]


@pytest.mark.parametrize(("h1", "h2", "potency"), POTENCIES)
def test_concoct_potency_by_unordered_pair(h1: str, h2: str, potency: int) -> None:
    for first, second in ((h1, h2), (h2, h1)):
        game = ward()
        give(game, "agent_0", first)
        with_inventory(game, {second: 1})
        body = game.agents["agent_0"]
        body.hp = 5
        n1, n2 = game.world.objects[first].name, game.world.objects[second].name
        res = act(game, "agent_0", f"concoct {n1} {n2}")
        assert res.action_ok["agent_0"] and body.hp == 5 + potency
        assert events_of(res, "herbs_concocted") == [
            {
                "herb1": first,
                "herb2": second,
                "potency": potency,
                "actual_heal": potency,
                "area_id": WARD,
            }
        ]
        assert body.hands == {} and game.world.containers[body.inventory_id].items == {}


def test_concoct_at_full_health_uses_the_herbs_and_caps_hp() -> None:
    game = ward()
    give(game, "agent_0", "obj_green_herb", 2)
    res = act(game, "agent_0", "concoct green_herb green_herb")
    assert res.action_ok["agent_0"] and game.agents["agent_0"].hp == 100
    assert events_of(res, "herbs_concocted")[0]["actual_heal"] == 0
    assert game.agents["agent_0"].hands == {}


def test_concoct_refusals() -> None:
    game = ward()
    give(game, "agent_0", "obj_green_herb", 1)
    check_refused(game, "concoct nothing green_herb", "concoct.unknown")
    check_refused(game, "concoct green_herb coin", "concoct.not_herb")
    check_refused(game, "concoct green_herb green_herb", "concoct.missing")
    check_refused(game, "concoct green_herb red_herb", "concoct.missing")


def test_concoct_lists_pairs_in_herb_order() -> None:
    game = ward()
    give(game, "agent_0", "obj_blue_herb", 1)
    with_inventory(game, {"obj_green_herb": 2, "obj_red_herb": 1})
    assert listed(game, "concoct") == [
        ("green_herb", "green_herb"),
        ("green_herb", "red_herb"),
        ("green_herb", "blue_herb"),
        ("red_herb", "blue_herb"),
    ]
    assert mask_targets(game, "concoct")[0] == ("obj_green_herb", ("green_herb", "green_herb"))


# --------------------------------------------------------------------------------------- shove
def test_shove_stuns_and_the_rhythm_loses_one_move() -> None:
    game = ward()
    game.world.spawn_on_ground(WARD, "obj_desk", 2)
    zombie = spawn_npc(game, "npc_zombie", WARD)
    body = game.agents["agent_0"]
    check_refused(game, f"shove desk {zombie.name}", "shove.not_fighting")
    body.combats[zombie.id] = Engagement(0, WARD)
    assert listed(game, "shove") == [("desk", zombie.name)]
    res = act(game, "agent_0", f"shove desk {zombie.name}")
    assert res.action_ok["agent_0"] and game.world.areas[WARD].objects == {"obj_desk": 1}
    assert game.world.auxiliary["stunned_npcs"] == {zombie.id: 1}
    assert events_of(res, "furniture_shoved") == [
        {"furniture_id": "obj_desk", "npc_id": zombie.id, "area_id": WARD}
    ]
    from harness import run_step

    hp = body.hp
    res = run_step(game, "combat_rhythm_step")
    assert body.hp == hp and res.feedback_keys("agent_0") == ["combat.npc_stunned"]
    assert body.combats[zombie.id].rhythm_index == 1 % len(zombie.combat_pattern)
    assert "stunned_npcs" not in game.world.auxiliary or not game.world.auxiliary["stunned_npcs"]


def test_shove_refusals_in_order() -> None:
    game = ward()
    zombie = spawn_npc(game, "npc_zombie", WARD)
    game.agents["agent_0"].combats[zombie.id] = Engagement(0, WARD)
    check_refused(game, f"shove nothing {zombie.name}", "shove.unknown")
    check_refused(game, f"shove coin {zombie.name}", "shove.not_furniture")
    check_refused(game, f"shove desk {zombie.name}", "shove.not_here")
    game.world.spawn_on_ground(WARD, "obj_shelf", 1)
    check_refused(game, "shove shelf nobody", "shove.no_npc")


# ----------------------------------------------------------------------------------- eavesdrop
def test_eavesdrop_hears_names_and_draws_only_with_enemies() -> None:
    game = ward()
    lobby = game.world.areas[LOBBY].name
    state = game.rng.getstate()
    res = act(game, "agent_0", f"eavesdrop {lobby}")
    assert res.action_ok["agent_0"] and game.rng.getstate() == state  # nobody there: no draw
    assert events_of(res, "eavesdrop") == [
        {"from_area": WARD, "target_area": LOBBY, "area_name": lobby, "npcs_heard": []}
    ]
    zombie = spawn_npc(game, "npc_zombie", LOBBY)
    res = act(game, "agent_0", f"eavesdrop {lobby}")
    assert events_of(res, "eavesdrop")[0]["npcs_heard"] == [zombie.name]
    assert game.rng.getstate() != state


def test_eavesdrop_alert_rate_and_effect() -> None:
    game = ward()  # built once; each trial puts the two back in the lobby and ends the fight
    a = spawn_npc(game, "npc_zombie", LOBBY)
    b = spawn_npc(game, "npc_licker", LOBBY)
    alerts = 0
    for seed in range(ALERT_TRIALS):
        for npc in (a, b):  # in this order: the alert's choice reads the lobby's order
            game.world.remove_npc_from_map(npc.id)
            game.world.place_npc(npc.id, LOBBY)
        game.agents["agent_0"].combats.clear()
        game.rng.seed(seed)
        draws = mirror(game)
        alert = draws.random() < 0.15
        chosen = draws.choice([a.id, b.id]) if alert else None
        res = act(game, "agent_0", f"eavesdrop {game.world.areas[LOBBY].name}")
        body = game.agents["agent_0"]
        if alert:
            alerts += 1
            assert game.world.npcs[chosen].area_id == WARD
            assert body.combats[chosen] == Engagement(0, WARD)
            assert events_of(res, "eavesdrop_alert") == [
                {"npc_id": chosen, "from_area": LOBBY, "to_area": WARD}
            ]
            assert events_of(res, "combat_started") == [{"npc_id": chosen, "area_id": WARD}]
        else:
            assert not body.combats and not events_of(res, "eavesdrop_alert")
    assert abs(alerts / ALERT_TRIALS - 0.15) < ALERT_TOLERANCE


def test_eavesdrop_refusals() -> None:
    game = ward()
    check_refused(game, "eavesdrop nowhere", "eavesdrop.no_path")
    zombie = spawn_npc(game, "npc_zombie", WARD)
    game.agents["agent_0"].combats[zombie.id] = Engagement(0, WARD)
    check_refused(game, f"eavesdrop {game.world.areas[LOBBY].name}", "eavesdrop.in_combat")
    assert listed(game, "eavesdrop") == []


# ---------------------------------------------------------------------------------- burn corpses
def test_burn_corpses() -> None:
    game = ward()
    check_refused(game, "burn corpses", "burn_corpses.none")
    aux = game.world.auxiliary
    aux["area_corpses"] = {WARD: ["npc_zombie", "npc_zombie"]}
    aux["area_corruption"] = {WARD: 12}
    aux["corruption_spawn_cooldown"] = {WARD: 3}
    give(game, "agent_0", "obj_chemical")
    check_refused(game, "burn corpses", "burn_corpses.no_fuel")
    with_inventory(game, {"obj_rag": 2, "obj_chemical": 1})
    assert listed(game, "burn_corpses") == [()]
    res = act(game, "agent_0", "burn corpses")
    assert res.action_ok["agent_0"]
    assert events_of(res, "corpses_burned") == [{"area_id": WARD, "num_burned": 2}]
    assert aux["area_corpses"][WARD] == [] and aux["area_corruption"][WARD] == 0
    assert aux["corruption_spawn_cooldown"][WARD] == 0
    body = game.agents["agent_0"]
    assert body.hands == {}  # the chemical in hand went first
    assert game.world.containers[body.inventory_id].items == {"obj_rag": 1, "obj_chemical": 1}


# ---------------------------------------------------------------------------------------- refuel
def test_refuel() -> None:
    game = ward()
    check_refused(game, "refuel nothing", "refuel.unknown")
    check_refused(game, "refuel coin", "refuel.not_light")
    check_refused(game, "refuel flashlight", "refuel.not_held")
    give(game, "agent_0", "obj_flashlight")
    check_refused(game, "refuel flashlight", "refuel.no_fuel")
    with_inventory(game, {"obj_lantern_fuel": 1})
    assert listed(game, "refuel") == [("flashlight",)]
    res = act(game, "agent_0", "refuel flashlight")
    assert res.action_ok["agent_0"]
    assert game.world.auxiliary["light_fuel"]["agent_0"] == {"obj_flashlight": 50}
    assert events_of(res, "light_source_refueled") == [{"obj_id": "obj_flashlight", "fuel": 50}]
    assert listed(game, "refuel") == []


def test_a_stun_belongs_to_the_npc_the_first_agent_processed_spends_it() -> None:
    """Two agents fight one zombie stunned once: agent_0's round is lost to the stun (index
    advanced, no blow), agent_1's is the NPC's usual move; the counter is gone after."""
    game = ward(agents=2)
    zombie = spawn_npc(game, "npc_zombie", WARD, attack_power=7)
    zombie.combat_pattern = ("attack", "attack")
    for body in game.agents.values():
        body.combats[zombie.id] = Engagement(0, WARD)
    game.world.auxiliary["stunned_npcs"] = {zombie.id: 1}
    from harness import run_step

    first, second = game.agents["agent_0"], game.agents["agent_1"]
    hp = (first.hp, second.hp)
    res = run_step(game, "combat_rhythm_step")
    assert res.feedback_keys("agent_0") == ["combat.npc_stunned"] and first.hp == hp[0]
    assert "combat.npc_stunned" not in res.feedback_keys("agent_1") and second.hp < hp[1]
    assert first.combats[zombie.id].rhythm_index == second.combats[zombie.id].rhythm_index == 1
    assert not game.world.auxiliary.get("stunned_npcs")
