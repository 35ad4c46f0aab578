"""The main quest's condition kinds that read the state as it is now
(docs/world-format.md#111-main-quest): text matching and the writable's object, where carried things
are looked for, armour level, an NPC's coins, objects on a ground, areas clear of enemies, visit
histories, NPCs dead. Each is judged the way the quest judges it (`quest_world.holds`), true and
false."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import equip_inventory, give, hold_crate, put_on_ground, spawn_npc
from quest_world import GATE, ROWS, VATS, VAULT, holds, progress, quest_game, variables

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import add_count

SCROLL = {
    "id": "obj_q_scroll", "name": "scroll", "category": "tool", "usage": "writable", "value": 2,
    "size": 1, "text": "", "max_text_length": 60, "level": 1,
    "craft": {"ingredients": {}, "dependencies": []},
}  # fmt: skip
MAIL = {
    "id": "obj_q_mail", "name": "mail", "category": "armor", "usage": "defend", "value": 9,
    "size": 2, "defense": 4, "level": 3, "craft": {"ingredients": {}, "dependencies": []},
}  # fmt: skip
SETUP = [
    {"let": "word", "value": "Brine"},
    {"let": "fence", "place_npc": "npc_q_fence", "in": GATE},
    {"let": "brute", "place_npc": "npc_q_brute", "in": ROWS},
    {"let": "cellar", "areas": [VATS, VAULT]},
    {"let": "pear_id", "value": "obj_pear"},
    {"let": "vault", "area": VAULT},
]


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return quest_game(tmp_path, [], setup=SETUP, objects=[SCROLL, MAIL], agents=2)


def written(game: Game, def_id: str, text: str) -> str:
    """A fresh writable instance bearing `text` (placed nowhere yet); its id."""
    inst = game.world.new_instance(def_id)
    game.world.writables[inst].text = text
    return inst


# ---------------------------------------------------------------------------- texts
def test_a_text_on_the_ground_matches_equal_or_contained(game: Game) -> None:
    game.world.areas[GATE].add_objects(written(game, "obj_label", "  The BRINE runs deep "), 1)
    equals = {"kind": "paper_text_equals_in_area", "text": "$word"}
    assert not holds(game, equals)
    assert holds(game, {**equals, "match": "contains"})
    assert not holds(game, {**equals, "match": "contains", "area": VATS})  # another ground
    game.world.areas[GATE].add_objects(written(game, "obj_label", "brine  "), 1)
    assert holds(game, equals)  # case and surrounding spaces ignored
    assert holds(game, {"kind": "paper_with_text_in_area", "text": "brine", "area": GATE})


def test_the_object_parameter_counts_only_writables_of_that_object(game: Game) -> None:
    game.world.areas[VATS].add_objects(written(game, "obj_label", "brine"), 1)
    with_text = {"kind": "paper_with_text_in_area", "text": "brine", "area": VATS}
    assert holds(game, {**with_text, "object": "obj_label"})
    assert not holds(game, {**with_text, "object": "obj_q_scroll"})
    [scroll] = give(game, "agent_0", "obj_q_scroll")
    game.world.writables[scroll].text = "Brine"
    carried = {"kind": "writable_text_equals_in_inventory", "text": "brine"}
    assert holds(game, {**carried, "object": "obj_q_scroll"})
    assert not holds(game, {**carried, "object": "obj_label"})


def place_text(game: Game, where: str, text: str) -> None:
    """A label bearing `text` in one part of agent_0's reach."""
    body = game.agents["agent_0"]
    label = written(game, "obj_label", text)
    if where == "hands":
        add_count(body.hands, label, 1)
    elif where == "equipped":
        add_count(body.equipped, label, 1)
    elif where == "inventory":
        game.world.containers[equip_inventory(game)].items[label] = 1
    else:  # held: inside a crate in hand
        game.world.containers[hold_crate(game)].items[label] = 1


SCOPES = {
    # where -> the parts of the reach it searches
    "hands": {"hands"},
    "hands+equipped": {"hands", "equipped"},
    "hands+inventory": {"hands", "inventory"},
    "hands+inventory+held": {"hands", "inventory", "held"},
    "hands+equipped+inventory": {"hands", "equipped", "inventory"},
    "carried": {"hands", "equipped", "inventory", "held"},
    None: {"hands", "equipped", "inventory", "held"},  # without `where`: everything carried
}


CARRIED_TEXT_KINDS = ["paper_text_equals_in_hands", "writable_text_equals_in_inventory"]


@pytest.mark.parametrize("kind", CARRIED_TEXT_KINDS)
@pytest.mark.parametrize("part", ["hands", "equipped", "inventory", "held"])
@pytest.mark.parametrize("where", list(SCOPES))
def test_where_says_which_parts_of_the_reach_a_carried_text_is_looked_for_in(
    tmp_path: Path, kind: str, part: str, where: str | None
) -> None:
    game = quest_game(tmp_path, [], setup=SETUP)
    place_text(game, part, "an oath of brine")
    cond: dict[str, Any] = {"kind": kind, "text": "brine", "match": "contains"}
    if where is not None:
        cond["where"] = where
    assert holds(game, cond) == (part in SCOPES[where])
    assert not holds(game, {**cond, "text": "salt"})


def test_has_category_where_leaves_containers_in_hand_out(game: Game) -> None:
    game.world.containers[hold_crate(game)].items["obj_pruner"] = 1  # a weapon in a held crate
    assert holds(game, {"kind": "has_category", "category": "weapon"})
    scoped = {"kind": "has_category", "category": "weapon", "where": "hands+equipped+inventory"}
    assert not holds(game, scoped)
    game.world.containers[equip_inventory(game)].items["obj_pruner"] = 1
    assert holds(game, scoped)
    assert not holds(game, {**scoped, "category": "armor"})


def test_equipped_min_level_wants_that_category_equipped_at_that_level(game: Game) -> None:
    body = game.agents["agent_0"]
    cond = {"kind": "equipped_min_level", "category": "armor", "min_level": 3}
    add_count(body.hands, "obj_q_mail", 1)
    assert not holds(game, cond)  # held, not equipped
    body.hands.clear()
    add_count(body.equipped, "obj_apron", 1)  # armour of level 1
    assert not holds(game, cond)
    assert holds(game, {**cond, "min_level": 1})
    add_count(body.equipped, "obj_q_mail", 1)
    assert holds(game, cond)
    assert not holds(game, {**cond, "min_level": 4})
    assert not holds(game, {**cond, "category": "weapon", "min_level": 0})


# ---------------------------------------------------------------------------- NPCs and grounds
def test_npc_coins_at_least(game: Game) -> None:
    fence = game.world.npcs[variables(game)["fence"]]
    fence.coins = 15
    assert holds(game, {"kind": "npc_coins_at_least", "npc": "$fence", "coins": 15})
    assert not holds(game, {"kind": "npc_coins_at_least", "npc": "$fence", "coins": 16})


def test_object_on_ground_anywhere_whoever_put_it_there(game: Game) -> None:
    world = game.world
    for area in world.areas.values():
        area.objects.pop("obj_pear", None)
    cond = {"kind": "object_on_ground", "objects": ["obj_pear"], "area": VAULT}
    assert game.agents["agent_0"].area_id == GATE
    assert not holds(game, cond)
    put_on_ground(game, VAULT, "obj_pear")
    assert holds(game, cond)  # the agent stands elsewhere
    assert holds(game, {**cond, "objects": ["$pear_id"]})  # a value variable holding its id
    assert holds(game, {**cond, "area": "$cellar"})  # any area of a list
    assert holds(game, {**cond, "area": "$vault"})
    assert not holds(game, {**cond, "area": ROWS})
    assert not holds(game, {**cond, "objects": ["obj_cider", "obj_label"]})
    put_on_ground(game, VATS, "obj_label")  # an instance counts as its object
    assert holds(game, {**cond, "objects": ["obj_label"], "area": "$cellar"})


def test_area_clear_counts_every_enemy_the_agent_can_see(game: Game) -> None:
    world = game.world
    for area in (ROWS, VATS, VAULT):  # the world's own NPCs away: only the quest's brute stays
        for npc_id in list(world.areas[area].npcs):
            if world.npcs[npc_id].def_id != "npc_q_brute":
                world.remove_npc_from_map(npc_id)
    brute = world.npcs[variables(game)["brute"]]
    assert brute.area_id == ROWS and brute.enemy
    assert not holds(game, {"kind": "area_clear", "area": ROWS})
    assert holds(game, {"kind": "area_clear", "area": VATS})  # never had an enemy
    assert holds(game, {"kind": "area_clear", "area": "$cellar"})
    spawn_npc(game, "npc_q_hermit", VAULT)  # a friendly NPC is no obstacle
    assert holds(game, {"kind": "area_clear", "area": "$cellar"})
    brute.hp = 0
    world.remove_npc_from_map(brute.id)
    assert holds(game, {"kind": "area_clear", "area": ROWS})
    wasp = spawn_npc(game, "npc_wasp", VATS)  # any enemy counts, not only quest ones
    assert not holds(game, {"kind": "area_clear", "area": "$cellar"})
    world.set_npc_owner(wasp.id, "agent_1")  # another agent's own enemy: agent_0 cannot see it
    assert holds(game, {"kind": "area_clear", "area": VATS})
    assert not holds(game, {"kind": "area_clear", "area": VATS}, "agent_1")


def test_npc_dead_by_health_or_by_a_recorded_kill(game: Game) -> None:
    brute = game.world.npcs[variables(game)["brute"]]
    cond = {"kind": "npc_dead", "npc": "$brute"}
    assert not holds(game, cond)
    brute.hp = 0
    assert holds(game, cond)
    brute.hp = brute.max_hp
    assert not holds(game, cond)
    game.world.auxiliary["main_quest"]["killed"] = [brute.id]  # killed once, then came back
    assert holds(game, cond)


# ---------------------------------------------------------------------------- visits
def test_visit_history_quest_episode_and_the_current_area(game: Game) -> None:
    body = game.agents["agent_0"]
    body.visited[VAULT] = None  # visited before its quest began
    mine = progress(game)
    mine["visited"] = [GATE, ROWS]
    cond = {"kind": "visited_k_of_area_set", "areas": [ROWS, VAULT, VATS], "k": 2}
    assert not holds(game, cond)
    assert not holds(game, {**cond, "history": "quest"})
    body.visited[ROWS] = None
    assert holds(game, {**cond, "history": "episode"})
    game.move_agent(body, VATS)  # not recorded by anyone yet
    assert not holds(game, {**cond, "k": 3, "history": "episode"})
    assert holds(game, {**cond, "k": 3, "history": "episode", "include_current": True})
    assert holds(game, {**cond, "include_current": True})  # quest: rows + here
    assert not holds(game, {**cond, "k": 3, "include_current": True})
