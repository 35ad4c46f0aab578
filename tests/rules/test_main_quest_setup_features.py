"""Quest set-up and effects (docs/world-format.md#111-main-quest): NPCs placed as synthesis makes
them (enemies that fight and ambush, items restored, an NPC already there used, a unique one moved),
`pick_areas` keeping the first, `place_object`, and `give` with `unless_on_ground`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import give, move_to, put_on_ground
from quest_world import (
    GATE,
    ROWS,
    VATS,
    VAULT,
    base_module,
    completed,
    quest_game,
    variables,
    waits,
)

from agentodyssey_pz.engine.game import Game


def placed(tmp_path: Path, setup: list[dict[str, Any]], **kw: Any) -> Game:
    return quest_game(tmp_path, [], setup=setup, **kw)


# ---------------------------------------------------------------------------- place_npc
def test_a_placed_enemy_has_synthesis_stats_at_its_areas_level(tmp_path: Path) -> None:
    for seed in range(5):
        game = placed(
            tmp_path, [{"let": "brute", "place_npc": "npc_q_brute", "in": ROWS}], seed=seed
        )
        brute = game.world.npcs[variables(game)["brute"]]
        assert (brute.id, brute.name, brute.area_id, brute.level) == (
            "npc_q_brute_0",
            "brute_0",
            ROWS,
            2,
        )
        assert (brute.hp, brute.max_hp, brute.attack_power) == (50, 50, 7)  # 40+10, 5+2 at level 2
        assert brute.enemy and brute.owner is None and brute.combat_pattern == ("attack", "wait")
        assert 40 <= brute.coins <= 100  # 20 to 50 per level
        assert set(brute.inventory) == {"obj_pear", "obj_label"}
        assert min(brute.inventory.values()) >= 1


def test_a_placed_enemy_can_be_fought_and_ambushes_like_any_enemy(tmp_path: Path) -> None:
    """At level 2 of a world whose top level is 3, an enemy ambushes with chance 0.10 a tick:
    over 400 ticks, 6% to 14% (more than 3 standard deviations either way)."""
    game = placed(tmp_path, [{"let": "brute", "place_npc": "npc_q_brute", "in": ROWS}], seed=3)
    world = game.world
    brute = world.npcs[variables(game)["brute"]]
    for npc_id in list(world.areas[ROWS].npcs):  # the brute alone with the agent
        if npc_id != brute.id:
            world.remove_npc_from_map(npc_id)
    move_to(game, "agent_0", ROWS)
    body = game.agents["agent_0"]
    body.max_hp = body.hp = 10**6
    hits = 0
    ticks = 400
    for _ in range(ticks):
        result = game.tick(waits(game))
        hits += sum(
            1 for e in result.events_of("agent_0", "agent_damaged") if e.data["npc_id"] == brute.id
        )
    assert 0.06 <= hits / ticks <= 0.14, hits
    result = game.tick(waits(game, agent_0=f"attack {brute.name}"))
    assert result.action_ok["agent_0"] and brute.hp < brute.max_hp
    assert brute.id in body.combats  # now it fights in rhythm: attack, wait, attack ...
    assert "combat.npc_attacks" in result.feedback_keys("agent_0")
    result = game.tick(waits(game, agent_0="defend"))
    assert "combat.npc_waits" in result.feedback_keys("agent_0")


def test_items_that_came_out_with_none_get_the_prototype_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the synthesis variant rolls (here: every item rolled to none and dropped), each
    item of the prototype is there at its prototype count."""
    game = placed(tmp_path, [{"let": "brute", "place_npc": "npc_q_brute", "in": ROWS}])
    setup = base_module(game, "quest_setup")
    made = setup.create_npc

    def without_items(*args: Any) -> Any:
        npc = made(*args)
        npc.inventory.clear()
        return npc

    monkeypatch.setattr(setup, "create_npc", without_items)
    game.reset(0)
    assert game.world.npcs[variables(game)["brute"]].inventory == {"obj_pear": 2, "obj_label": 1}


def test_a_living_npc_of_the_definition_standing_there_is_used(tmp_path: Path) -> None:
    setup = [
        {"let": "a", "place_npc": "npc_q_brute", "in": ROWS},
        {"let": "b", "place_npc": "npc_q_brute", "in": ROWS, "min_coins": 999},
        {"let": "c", "place_npc": "npc_q_brute", "in": VATS},
    ]
    game = placed(tmp_path, setup)
    names = variables(game)
    assert names["a"] == names["b"] == "npc_q_brute_0" and names["c"] == "npc_q_brute_1"
    assert game.world.npcs[names["a"]].coins == 999
    assert game.world.npc_count["npc_q_brute"] == 2


def test_a_world_npc_standing_there_is_used_too(tmp_path: Path) -> None:
    """A wasp synthesis put in some area: placing a wasp there takes that one."""
    for seed in range(20):
        plain = placed(tmp_path, [], seed=seed)
        world = plain.world
        here = [a for a in (ROWS, VATS, VAULT) if any(
            world.npcs[n].def_id == "npc_wasp" for n in world.areas[a].npcs
        )]  # fmt: skip
        if here:
            break
    else:
        pytest.fail("no seed puts a wasp away from the gate")
    first = next(n for n in world.areas[here[0]].npcs if world.npcs[n].def_id == "npc_wasp")
    game = placed(tmp_path, [{"let": "w", "place_npc": "npc_wasp", "in": here[0]}], seed=seed)
    assert variables(game)["w"] == first
    assert game.world.npc_count["npc_wasp"] == plain.world.npc_count["npc_wasp"]


def test_a_unique_npc_the_world_placed_elsewhere_is_moved_there(tmp_path: Path) -> None:
    plain = placed(tmp_path, [])
    home = plain.world.npcs["npc_cider_seller"].area_id
    assert home is not None
    there = next(a for a in (ROWS, VATS, VAULT) if a != home)
    step = {"let": "seller", "place_npc": "npc_cider_seller", "in": there,
            "stock": {"obj_pear": 3}, "min_coins": 500}  # fmt: skip
    game = placed(tmp_path, [step])
    seller = game.world.npcs[variables(game)["seller"]]
    assert seller.id == "npc_cider_seller" and seller.area_id == there
    assert seller.id not in game.world.areas[home].npcs
    assert seller.inventory["obj_pear"] == 3 and seller.coins >= 500
    assert [n.id for n in game.world.npcs.values() if n.def_id == "npc_cider_seller"] == [seller.id]


# ---------------------------------------------------------------------------- pick_areas keep
@pytest.mark.parametrize("seed", range(4))
def test_keep_first_stores_one_area_and_uses_up_them_all(tmp_path: Path, seed: int) -> None:
    kept = placed(
        tmp_path,
        [{"let": "x", "pick_areas": 2, "keep": "first"}, {"let": "next", "pick_area": True}],
        seed=seed,
    )
    every = placed(
        tmp_path, [{"let": "x", "pick_areas": 2}, {"let": "next", "pick_area": True}], seed=seed
    )
    both = variables(every)["x"]
    assert variables(kept)["x"] == both[0]
    assert variables(kept)["next"] == variables(every)["next"]
    assert variables(kept)["next"] not in both  # three areas besides the spawn: the third one


# ---------------------------------------------------------------------------- place_object
def ground_units(game: Game, area_id: str, def_id: str) -> int:
    world = game.world
    return sum(
        n for oid, n in world.areas[area_id].objects.items() if world.def_of(oid).id == def_id
    )


def test_place_object_puts_one_unit_on_the_ground(tmp_path: Path) -> None:
    plain = placed(tmp_path, [])
    game = placed(tmp_path, [{"let": "note", "place_object": "obj_label", "in": VATS}])
    assert variables(game)["note"] == "obj_label"
    assert ground_units(game, VATS, "obj_label") == ground_units(plain, VATS, "obj_label") + 1
    new = set(game.world.areas[VATS].objects) - set(plain.world.areas[VATS].objects)
    assert [game.world.writables[oid].text for oid in new] == [""]  # a blank note
    game = placed(tmp_path, [{"let": "c", "place_object": "obj_cider", "in": VAULT}])
    assert ground_units(game, VAULT, "obj_cider") == ground_units(plain, VAULT, "obj_cider") + 1


SEAL = {
    "id": "obj_q_seal", "name": "seal", "category": "material", "usage": "quest", "value": 5,
    "size": 1, "level": 1, "quest": True, "craft": {"ingredients": {}, "dependencies": []},
}  # fmt: skip


def test_unless_anywhere_on_ground_places_nothing_when_a_unit_lies_somewhere(
    tmp_path: Path,
) -> None:
    plain = placed(tmp_path, [])
    assert ground_units(plain, GATE, "obj_label") == 1  # the spawn's label
    step = {"let": "note", "place_object": "obj_label", "in": VATS,
            "unless_anywhere_on_ground": True}  # fmt: skip
    game = placed(tmp_path, [step])
    assert variables(game)["note"] == "obj_label"
    assert ground_units(game, VATS, "obj_label") == ground_units(plain, VATS, "obj_label")
    seal = {**step, "place_object": "obj_q_seal", "in": VAULT}  # lies nowhere: placed
    game = placed(tmp_path, [seal], objects=[SEAL], undistributable=["obj_q_seal"])
    world = game.world
    assert [a for a in world.areas if ground_units(game, a, "obj_q_seal")] == [VAULT]
    twice = [seal, {**seal, "let": "again", "in": ROWS}]  # the second finds the first
    game = placed(tmp_path, twice, objects=[SEAL], undistributable=["obj_q_seal"])
    assert [a for a in game.world.areas if ground_units(game, a, "obj_q_seal")] == [VAULT]


# ---------------------------------------------------------------------------- give unless
GIVE = {
    "id": "gift",
    "objective": "o",
    "done_all": [{"kind": "in_area", "area": VATS}],
    "on_complete": [{"give": {"obj_pear": 1, "obj_label": 1}, "unless_on_ground": True}],
}


@pytest.mark.parametrize("already", [(), ("obj_pear",), ("obj_pear", "obj_label")])
def test_give_unless_on_ground_skips_what_already_lies_at_the_agents_feet(
    tmp_path: Path, already: tuple[str, ...]
) -> None:
    game = quest_game(tmp_path, [GIVE])
    game.world.areas[VATS].objects.clear()
    for def_id in already:
        put_on_ground(game, VATS, def_id)
    move_to(game, "agent_0", VATS)
    result = game.tick(waits(game))
    assert completed(game) == ["gift"]
    spawned = [e.data["obj_id"] for e in result.events_of("agent_0", "quest_spawn")]
    assert spawned == [d for d in ("obj_pear", "obj_label") if d not in already]
    for def_id in ("obj_pear", "obj_label"):
        assert ground_units(game, VATS, def_id) == 1
    assert result.feedback("agent_0").count("appear at my feet") == len(spawned)


def test_give_unless_possessed_gives_each_agent_its_own(tmp_path: Path) -> None:
    """Two agents completing the stage in one place each get a unit (what `unless_on_ground`
    would refuse the second), but an agent already holding one gets none."""
    gift = {**GIVE, "on_complete": [{"give": {"obj_pear": 1}, "unless_possessed": True}]}
    game = quest_game(tmp_path, [gift], agents=3)
    game.world.areas[VATS].objects.clear()
    for agent_id in game.agents:
        move_to(game, agent_id, VATS)
    give(game, "agent_2", "obj_pear", 1)
    result = game.tick(waits(game))
    assert all(completed(game, a) == ["gift"] for a in game.agents)
    given = [a for a in game.agents if result.events_of(a, "quest_spawn")]
    assert given == ["agent_0", "agent_1"]
    assert ground_units(game, VATS, "obj_pear") == 2


def test_unless_possessed_goes_with_give(tmp_path: Path) -> None:
    from agentodyssey_pz.errors import QuestDataError

    bad = {**GIVE, "on_complete": [{"spawn_boss": "x", "unless_possessed": True}]}
    with pytest.raises(QuestDataError, match="'unless_possessed' goes with give"):
        quest_game(tmp_path, [bad])


# ---------------------------------------------------------------------------- stay_put, area alias
def test_stay_put_leaves_a_unique_npc_where_the_world_placed_it(tmp_path: Path) -> None:
    plain = placed(tmp_path, [])
    home = plain.world.npcs["npc_cider_seller"].area_id
    there = next(a for a in (ROWS, VATS, VAULT) if a != home)
    step = {"let": "seller", "place_npc": "npc_cider_seller", "in": there,
            "stock": {"obj_pear": 3}, "stay_put": True}  # fmt: skip
    game = placed(tmp_path, [step])
    seller = game.world.npcs[variables(game)["seller"]]
    assert seller.id == "npc_cider_seller" and seller.area_id == home
    assert seller.id not in game.world.areas[there].npcs
    assert seller.inventory["obj_pear"] == 3


def test_stay_put_goes_with_place_npc(tmp_path: Path) -> None:
    from agentodyssey_pz.errors import QuestDataError

    with pytest.raises(QuestDataError, match="'stay_put' goes with place_npc"):
        placed(tmp_path, [{"let": "x", "pick_area": True, "stay_put": True}])


def test_an_area_may_be_an_earlier_area_variable(tmp_path: Path) -> None:
    for seed in range(3):
        game = placed(
            tmp_path,
            [{"let": "first", "pick_area": True}, {"let": "again", "area": "$first"}],
            seed=seed,
        )
        assert variables(game)["again"] == variables(game)["first"]


def test_an_area_alias_must_name_an_area_variable(tmp_path: Path) -> None:
    from agentodyssey_pz.errors import QuestDataError

    with pytest.raises(QuestDataError, match="unknown variable '\\$nowhere'"):
        placed(tmp_path, [{"let": "again", "area": "$nowhere"}])
    with pytest.raises(QuestDataError, match="'\\$word' is"):
        placed(tmp_path, [{"let": "word", "value": "x"}, {"let": "again", "area": "$word"}])
