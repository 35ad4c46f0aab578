"""side_quest_step (docs/mechanics/quests.md#side-quests): unlocking, the four scenarios, per-agent
guides, and the `side_quests` data section (default data, malformed data with JSON paths).

Worlds are the tiny test world with a blank stage (`clear_world`) and exactly the things a test
needs. Travel is either the real `enter` verb or `move_to` followed by a tick (visits are recorded
by the engine during the tick). Completions go through real verbs inside `Game.tick`.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from typing import Any

import pytest
from conftest import load_raw
from harness import (
    agent,
    blank_game,
    clear_world,
    give,
    make_game,
    move_to,
    put_on_ground,
    run_step,
    spawn_npc,
)
from worlds_helper import PROCGEN_PRESETS, bundled_definition, bundled_worlds

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.worldpack import WorldPack
from agentodyssey_pz.errors import QuestDataError
from agentodyssey_pz.resources import default_quest_file
from agentodyssey_pz.world.quests import default_section, load_quests
from agentodyssey_pz.world.side_quest_data import SCENARIOS, SideGuideDef
from agentodyssey_pz.world.validate import parse_definition
from agentodyssey_pz.world.world import World

RULE = "side_quest_step"
GUIDE_PROTO = "npc_side_errand_broker"
DEFAULT = json.loads(default_quest_file("side_quests").read_text(encoding="utf-8"))
POOL = DEFAULT["guide"]["names"]
ROWS, VATS, GATE, VAULT = "area_rows", "area_vats", "area_gate", "area_vault"


def side_world_raw() -> dict[str, Any]:
    """The tiny world plus a raw quest object (relic), a raw object without a price (twine) and a
    craftable quest object (charm)."""
    raw = load_raw("tiny_world.json")
    objects = raw["entities"]["objects"]
    objects.append(
        {"type": "object", "id": "obj_relic", "name": "relic", "category": "material",
         "usage": "craft", "value": 9, "size": 1, "quest": True,
         "craft": {"ingredients": {}, "dependencies": []}}
    )  # fmt: skip
    objects.append(
        {"type": "object", "id": "obj_twine", "name": "twine", "category": "material",
         "usage": "craft", "value": None, "size": 1,
         "craft": {"ingredients": {}, "dependencies": []}}
    )  # fmt: skip
    objects.append(
        {"type": "object", "id": "obj_charm", "name": "charm", "category": "tool", "usage": "craft",
         "value": 5, "size": 1, "quest": True,
         "craft": {"ingredients": {"obj_pear": 1}, "dependencies": []}}
    )  # fmt: skip
    return raw


def sq_game(agents: int = 1, seed: int = 0, world: Any = None, **config: Any) -> Game:
    definition = world if world is not None else parse_definition(side_world_raw())
    return blank_game(definition, agents=agents, seed=seed, side_quest=True, **config)


def tick(game: Game, **commands: str) -> Any:
    return game.tick({aid: commands.get(aid, "wait") for aid in game.agents})


def travel(game: Game, agent_id: str, *areas: str) -> Any:
    """Teleport then tick (everyone waits) once per area; returns the last tick's result."""
    result = None
    for area in areas:
        move_to(game, agent_id, area)
        result = tick(game)
    return result


def progress(game: Game, agent_id: str = "agent_0") -> dict[str, Any]:
    return game.agents[agent_id].progress["side_quest"]


def guide_of(game: Game, agent_id: str = "agent_0") -> Any:
    return game.world.npcs[progress(game, agent_id)["guide"]]


def hermit(game: Game, area: str, name: str = "hermit") -> Any:
    """A friendly, non-merchant, non-quest NPC."""
    return spawn_npc(game, "npc_wasp", area, enemy=False, role="hermit", name=name, inventory={})


def expected_names(seed: int, count: int) -> list[str]:
    pool = list(POOL)
    random.Random(seed ^ 0x5A5A5A5A).shuffle(pool)
    return pool[:count]


def twin(game: Game) -> random.Random:
    """A copy of the game's generator, to replay the draws a rule is about to make."""
    rng = random.Random()
    rng.setstate(game.rng.getstate())
    return rng


def side_events(result: Any, agent_id: str = "agent_0") -> list[dict[str, Any]]:
    return [e.data for e in result.events_of(agent_id, "side_quest_completed")]


def sq_module(game: Game) -> Any:
    """The loaded side-quest rule module (rule packs live under a private module namespace)."""
    rule = next(r for r in game.step_rules if r.name == RULE)
    return sys.modules[type(rule).__module__]


def draws(
    game: Game, plan: list[tuple[list[Any], tuple[int, int]]]
) -> tuple[list[tuple[Any, int]], random.Random]:
    """The (choice, coins) pairs the rule will draw for `plan` (candidates, reward range) in
    scenario order - one uniform choice, then the reward - and the generator after them."""
    rng = twin(game)
    return [(rng.choice(cands), rng.randint(*span)) for cands, span in plan], rng


# ----------------------------------------------------------------------------- unlocking
def test_unlocks_on_the_tick_the_agent_stands_in_its_second_explored_area() -> None:
    """The reference lags one tick (areas_visited is written by the reward function); our engine
    records visits before the step rules, so the unlock happens in the entering tick."""
    game = sq_game()
    game.world.graph.set_locked(GATE, VATS, False)
    first = tick(game, agent_0="enter rows")
    assert progress(game)["unlocked"] is False
    assert "side_quest.unlocked" not in first.feedback_keys("agent_0")
    tick(game, agent_0="enter gate")  # back at spawn: still one explored area
    assert progress(game)["unlocked"] is False
    result = tick(game, agent_0="enter vats")
    assert progress(game)["unlocked"] is True
    assert result.feedback_keys("agent_0")[-1] == "side_quest.unlocked"
    guide = guide_of(game)
    (name,) = expected_names(0, 1)
    assert (guide.name, guide.area_id, guide.def_id) == (name, VATS, GUIDE_PROTO)
    assert guide.owner == "agent_0"
    assert result.feedback("agent_0").endswith(
        f"Word of my travels has spread: {name} has errands for me. "
        f"I can talk to {name} to hear them."
    )
    assert progress(game)["last_visited_areas_count"] == 3


def test_revisiting_areas_does_not_unlock_and_the_spawn_area_never_counts() -> None:
    game = sq_game()
    travel(game, "agent_0", ROWS, GATE, ROWS, GATE)
    assert progress(game)["unlocked"] is False and progress(game)["guide"] is None
    assert not any(n.def_id == GUIDE_PROTO for n in game.world.npcs.values())


def test_agents_in_the_tutorial_are_skipped() -> None:
    game = sq_game()
    agent(game).tutorial_passed = False
    travel(game, "agent_0", ROWS, VATS)
    assert progress(game)["unlocked"] is False and progress(game)["guide"] is None
    agent(game).tutorial_passed = True
    result = tick(game)  # passed now: the areas explored so far count at once
    assert progress(game)["unlocked"] is True
    assert "side_quest.unlocked" in result.feedback_keys("agent_0")


def test_disabled_side_quests_do_nothing() -> None:
    game = make_game(parse_definition(side_world_raw()), side_quest=False)
    travel(game, "agent_0", ROWS, VATS, VAULT)
    assert game.quests.side_quests is None
    assert "side_quest" not in game.world.auxiliary and agent(game).progress == {}


# ----------------------------------------------------------------------------- guide names
def test_names_come_from_the_seeded_shuffle_by_sorted_agent_id() -> None:
    definition = parse_definition(side_world_raw())
    game = Game(definition, ["zed", "amy", "kim"], GameConfig(side_quest=True))
    game.reset(41)
    names = expected_names(41, 3)
    assert game.world.auxiliary["side_quest"] == {
        "run_seed": 41,
        "guide_names": {"amy": names[0], "kim": names[1], "zed": names[2]},
    }
    assert progress(game, "zed")["guide_name"] == names[2]


def test_beyond_the_pool_agents_get_numbered_fallback_names() -> None:
    game = sq_game(agents=10, seed=3)
    names = game.world.auxiliary["side_quest"]["guide_names"]
    ids = sorted(game.agents)  # string order: agent_0, agent_1, ..., agent_9
    assert [names[a] for a in ids[:8]] == expected_names(3, 8)
    assert [names[a] for a in ids[8:]] == ["Hollis", "Hollis2"]


def test_names_other_npcs_already_carry_are_skipped() -> None:
    assign = sq_module(make_game()).assign_guide_names
    guide = SideGuideDef(npc=GUIDE_PROTO, names=("Ana", "Bo", "Cy"), fallback_name="Dee")
    pool = ["Ana", "Bo", "Cy"]
    random.Random(7 ^ 0x5A5A5A5A).shuffle(pool)
    assert assign(guide, ["a1", "a0", "a2"], 7, {pool[0]}) == {
        "a0": pool[1],
        "a1": pool[2],
        "a2": "Dee",
    }
    assert assign(guide, ["a0"], 7, {"Ana", "Bo", "Cy", "Dee"}) == {"a0": "Dee2"}


# ----------------------------------------------------------------------------- candidates
def test_collect_candidates_are_raw_non_quest_kinds_in_e_absent_from_g() -> None:
    game = sq_game()
    for area, def_id, n in [
        (GATE, "obj_relic", 2), (GATE, "obj_coin", 3), (GATE, "obj_press", 1),
        (ROWS, "obj_pear", 4), (ROWS, "obj_quill", 2), (ROWS, "obj_label", 1),
        (ROWS, "obj_coin", 1),
        (VATS, "obj_quill", 1),
    ]:  # fmt: skip
        put_on_ground(game, area, def_id, n)
    cands = sq_module(game).collect_candidates(game.world, [GATE, ROWS], VATS)
    assert cands == [("obj_coin", 4), ("obj_pear", 4)]


def test_craft_candidates_need_everything_in_reach_and_travel_for_a_raw_ingredient() -> None:
    game = sq_game()
    craft = sq_module(game).craft_candidates
    me = agent(game)
    give(game, "agent_0", "obj_cider")
    put_on_ground(game, ROWS, "obj_pear", 2)
    put_on_ground(game, VATS, "obj_pear", 1)
    visited = [GATE, ROWS, VATS]
    # With the guide at the vats one pear is at hand: only the pruner (2 pears) needs travel.
    assert craft(game.world, me, visited, VATS) == ["obj_pruner"]
    # With the guide at the gate no pear is at hand; the quest charm is never offered.
    assert craft(game.world, me, visited, GATE) == ["obj_cider", "obj_label", "obj_pruner"]
    me.crafted["obj_pruner"] = 1  # already crafted once: no longer offered
    assert craft(game.world, me, visited, GATE) == ["obj_cider", "obj_label"]


def test_talk_candidates_are_friendly_non_quest_npcs_in_e() -> None:
    game = sq_game()
    near = hermit(game, ROWS)
    spawn_npc(game, "npc_wasp", ROWS)  # an enemy
    hermit(game, ROWS, name="oracle").quest = True
    hermit(game, ROWS, name="ghost").hp = 0
    far = hermit(game, GATE, name="miller")
    hermit(game, VATS, name="cooper")  # stands with the guide (G)
    spawn_npc(game, GUIDE_PROTO, ROWS, quest=False)  # a side guide, even without the quest flag
    cands = sq_module(game).talk_candidates(game.world, [GATE, ROWS], GUIDE_PROTO)
    assert cands == [(far.id, GATE), (near.id, ROWS)]


def test_quirk_trade_candidates_only_offer_priced_items() -> None:
    """The reference offers stock whose value is None, which `buy` refuses."""
    game = sq_game()
    stock = {"obj_cider": 2, "obj_twine": 3, "obj_relic": 1, "obj_nothing": 1, "obj_label": 0}
    seller = spawn_npc(game, "npc_cider_seller", ROWS, inventory=stock)
    spawn_npc(game, "npc_wasp", ROWS, role="merchant", inventory={"obj_pear": 3})  # an enemy
    spawn_npc(game, "npc_wasp", VATS, enemy=False, role="merchant", inventory={"obj_pear": 3})
    cands = sq_module(game).trade_candidates(game.world, [GATE, ROWS])
    assert cands == [("obj_cider", seller.id, ROWS)]


# ----------------------------------------------------------------------------- generation
def test_unlock_publishes_one_task_per_scenario_from_the_game_rng() -> None:
    game = sq_game()
    me = agent(game)
    put_on_ground(game, ROWS, "obj_pear", 5)
    give(game, "agent_0", "obj_pear", 1)
    friend = hermit(game, GATE, name="miller")
    seller = spawn_npc(game, "npc_cider_seller", ROWS, inventory={"obj_cider": 2, "obj_label": 1})
    travel(game, "agent_0", ROWS)
    move_to(game, "agent_0", VATS)
    mod = sq_module(game)
    world, visited = game.world, [GATE, ROWS, VATS]
    me.visited[VATS] = None
    plan = [
        (mod.collect_candidates(world, [GATE, ROWS], VATS), (1, 3)),
        (mod.craft_candidates(world, me, visited, VATS), (3, 6)),
        (mod.talk_candidates(world, [GATE, ROWS], GUIDE_PROTO), (1, 3)),
        (mod.trade_candidates(world, [GATE, ROWS]), (3, 6)),
    ]
    assert plan[1][0] == ["obj_press", "obj_apron"]  # cider and label need no travel
    assert len(plan[2][0]) == 2 and len(plan[3][0]) == 2
    expected, after = draws(game, plan)
    run_step(game, RULE)
    tasks = progress(game)["tasks"]
    (pear, total), collect_coins = expected[0]
    assert (pear, total) == ("obj_pear", 5)
    assert tasks["collect"] == {
        "target": "obj_pear", "target_name": "pear", "target_count": 1 + 2,
        "description": "Carry 3 pear at once.",
        "scenario": "collect", "type": "collect", "reward_coins": collect_coins,
    }  # fmt: skip
    product, craft_coins = expected[1]
    name = world.objects[product].name
    assert tasks["craft"] == {
        "target": product, "target_name": name, "description": f"Craft one {name}.",
        "scenario": "craft", "type": "craft", "reward_coins": craft_coins,
    }  # fmt: skip
    (npc_id, area), talk_coins = expected[2]
    npc = world.npcs[npc_id]
    place = "Pear Orchard, gate" if area == GATE else "Pear Orchard, rows"
    assert tasks["talk"] == {
        "target_npc": npc_id, "target_name": npc.name, "target_area": area,
        "description": f"Talk to {npc.name} in {place}.",
        "scenario": "talk", "type": "talk", "reward_coins": talk_coins,
    }  # fmt: skip
    assert {friend.id, seller.id} == {n for n, _ in plan[2][0]}
    (item, merchant_id, _), trade_coins = expected[3]
    item_name = world.objects[item].name
    assert tasks["trade"] == {
        "target": item, "target_name": item_name, "target_npc": merchant_id,
        "npc_name": "cider_seller", "target_area": ROWS,
        "description": f"Buy {item_name} from cider_seller in Pear Orchard, rows.",
        "scenario": "trade", "type": "trade", "reward_coins": trade_coins,
    }  # fmt: skip
    assert progress(game)["task_published_areas"] == dict.fromkeys(SCENARIOS, visited)
    assert game.rng.getstate() == after.getstate()  # nothing else was drawn


def test_no_candidates_means_no_task() -> None:
    game = sq_game()
    before = game.rng.getstate()
    travel(game, "agent_0", ROWS, VATS)
    assert progress(game)["tasks"] == dict.fromkeys(SCENARIOS)
    assert progress(game)["task_published_areas"] == {}
    assert game.rng.getstate() == before


# ----------------------------------------------------------------------------- completions
def unlock_at_vats(game: Game, agent_id: str = "agent_0") -> tuple[Any, random.Random]:
    """Visit the rows, then the vats (unlock there); returns the unlock tick and a copy of the
    generator as it was before that tick."""
    travel(game, agent_id, ROWS)
    before = twin(game)
    return travel(game, agent_id, VATS), before


def assert_paid(result: Any, game: Game, scenario: str, task: dict[str, Any], area: str) -> None:
    coins = task["reward_coins"]
    assert side_events(result) == [
        {"task_type": scenario, "reward_coins": coins, "description": task["description"]}
    ]
    assert game.world.areas[area].objects.get("obj_coin", 0) == coins
    assert result.rewards["agent_0"].side_quest == 1
    assert progress(game)["completed_count"][scenario] == 1
    name = guide_of(game).name
    label = DEFAULT["texts"]["scenario_names"][scenario]
    assert (
        f"I finished an errand ({label}): {task['description']} {name} paid me {coins} coin; they "
        f"lie at my feet. I can talk to {name} for more errands."
    ) in result.feedback("agent_0")


def test_collect_completes_when_enough_is_carried_and_pays_on_the_ground() -> None:
    game = sq_game()
    put_on_ground(game, ROWS, "obj_pear", 4)
    _, rng = unlock_at_vats(game)
    task = progress(game)["tasks"]["collect"]
    assert rng.choice([("obj_pear", 4)]) == ("obj_pear", 4)
    assert (task["target"], task["target_count"]) == ("obj_pear", 2)
    assert task["reward_coins"] == rng.randint(1, 3)
    move_to(game, "agent_0", ROWS)
    first = tick(game, agent_0="pick up pear")
    assert side_events(first) == [] and progress(game)["tasks"]["collect"] == task
    assert guide_of(game).area_id == VATS  # the guide stays put until a task is done
    done = tick(game, agent_0="pick up pear")
    assert_paid(done, game, "collect", task, ROWS)
    keys = done.feedback_keys("agent_0")
    assert keys.index("side_quest.guide_arrives") < keys.index("side_quest.completed")
    assert guide_of(game).area_id == ROWS
    # No area is new since the task was published: the slot stays empty for now.
    assert progress(game)["tasks"]["collect"] is None


def test_collect_is_state_based_so_items_given_any_way_count() -> None:
    game = sq_game()
    put_on_ground(game, ROWS, "obj_pear", 4)
    unlock_at_vats(game)
    give(game, "agent_0", "obj_pear", 2)
    result = tick(game)
    assert [e["task_type"] for e in side_events(result)] == ["collect"]


def test_craft_completes_on_this_agents_craft_event_for_the_target() -> None:
    game = sq_game(agents=2)
    agent(game).crafted["obj_cider"] = 1  # leaves the label as the only craft candidate
    put_on_ground(game, ROWS, "obj_pear", 1)
    unlock_at_vats(game)
    task = progress(game)["tasks"]["craft"]
    assert (task["target"], task["description"]) == ("obj_label", "Craft one label.")
    assert 3 <= task["reward_coins"] <= 6
    move_to(game, "agent_0", ROWS)
    picked = tick(game, agent_0="pick up pear")  # also finishes the collect task (1 pear)
    assert [e["task_type"] for e in side_events(picked)] == ["collect"]
    game.world.areas[ROWS].objects.pop("obj_coin")
    give(game, "agent_1", "obj_pear")  # another agent crafting a label does not count
    other = tick(game, agent_1="craft 1 label")
    assert other.events_of("agent_1", "object_crafted") and side_events(other) == []
    done = tick(game, agent_0="craft 1 label")
    assert_paid(done, game, "craft", task, ROWS)


def test_talk_completes_on_talking_to_the_target_npc() -> None:
    game = sq_game()
    target = hermit(game, ROWS)
    bystander = hermit(game, GATE, name="miller")
    game.world.remove_npc_from_map(bystander.id)  # off the map: the hermit is the only candidate
    unlock_at_vats(game)
    task = progress(game)["tasks"]["talk"]
    assert task["target_npc"] == target.id
    assert task["description"] == "Talk to hermit in Pear Orchard, rows."
    game.world.place_npc(bystander.id, ROWS)
    move_to(game, "agent_0", ROWS)
    wrong = tick(game, agent_0="talk to miller")
    assert side_events(wrong) == [] and progress(game)["tasks"]["talk"] == task
    done = tick(game, agent_0="talk to hermit")
    assert_paid(done, game, "talk", task, ROWS)
    assert done.rewards["agent_0"].xp_total == 5  # one side quest, nothing else new


def test_trade_completes_on_buying_the_item_from_that_merchant() -> None:
    game = sq_game()
    seller = spawn_npc(game, "npc_cider_seller", ROWS, inventory={"obj_cider": 2, "obj_twine": 4})
    unlock_at_vats(game)
    task = progress(game)["tasks"]["trade"]
    assert (task["target"], task["target_npc"]) == ("obj_cider", seller.id)
    assert task["description"] == "Buy cider from cider_seller in Pear Orchard, rows."
    spawn_npc(
        game, "npc_wasp", ROWS, enemy=False, role="merchant", name="peddler",
        inventory={"obj_cider": 3},
    )  # fmt: skip
    give(game, "agent_0", "obj_coin", 6)
    move_to(game, "agent_0", ROWS)
    wrong = tick(game, agent_0="buy 1 cider peddler")
    assert wrong.events_of("agent_0", "object_bought") and side_events(wrong) == []
    game.world.areas[ROWS].objects.clear()
    done = tick(game, agent_0="buy 1 cider cider_seller")
    assert_paid(done, game, "trade", task, ROWS)
    assert done.rewards["agent_0"].trade == 0  # cider was already traded (bought from peddler)


# ----------------------------------------------------------------------------- new tasks
def test_a_completed_slot_refills_at_once_when_new_areas_were_visited_meanwhile() -> None:
    game = sq_game()
    hermit(game, ROWS)
    unlock_at_vats(game)
    first = progress(game)["tasks"]["talk"]
    vault_hermit = hermit(game, VAULT, name="cooper")
    travel(game, "agent_0", VAULT)  # a new area while the talk slot is busy: nothing changes
    assert progress(game)["tasks"]["talk"] == first
    move_to(game, "agent_0", ROWS)
    before = twin(game)
    done = tick(game, agent_0="talk to hermit")
    assert [e["task_type"] for e in side_events(done)] == ["talk"]
    new = progress(game)["tasks"]["talk"]
    # The guide came to the rows (G), so the cooper in the vault is the only candidate left.
    assert before.choice([(vault_hermit.id, VAULT)]) == (vault_hermit.id, VAULT)
    assert new["target_npc"] == vault_hermit.id and new["reward_coins"] == before.randint(1, 3)
    assert progress(game)["task_published_areas"]["talk"] == [GATE, ROWS, VATS, VAULT]
    assert progress(game)["completed_count"]["talk"] == 1


def test_an_empty_slot_refills_when_the_agent_next_explores_a_new_area() -> None:
    game = sq_game()
    hermit(game, ROWS)
    unlock_at_vats(game)
    move_to(game, "agent_0", ROWS)
    tick(game, agent_0="talk to hermit")
    assert progress(game)["tasks"]["talk"] is None
    hermit(game, VAULT, name="cooper")
    travel(game, "agent_0", GATE, VATS)  # known areas only: still empty
    assert progress(game)["tasks"]["talk"] is None
    travel(game, "agent_0", VAULT)
    task = progress(game)["tasks"]["talk"]
    # The guide waits in the rows, so both hermits are candidates now.
    assert task["target_name"] in {"hermit", "cooper"}
    assert progress(game)["last_visited_areas_count"] == 4


# ----------------------------------------------------------------------------- the guide
def test_the_guide_lists_the_four_slots_and_an_agent_reads_them_by_talking() -> None:
    game = sq_game()
    hermit(game, ROWS)
    unlock_at_vats(game)
    coins = progress(game)["tasks"]["talk"]["reward_coins"]
    guide = guide_of(game)
    empty = "nothing for now. Come back after you have explored somewhere new."
    expected = "\n".join([
        "Errands in my ledger for you:",
        f"Gathering: {empty}",
        f"Crafting: {empty}",
        f"Messages: Talk to hermit in Pear Orchard, rows. Pays {coins} coin.",
        f"Shopping: {empty}",
    ])  # fmt: skip
    assert guide.dialogue == expected
    heard = tick(game, agent_0=f"talk to {guide.name}")
    assert f'{guide.name} says: "{expected}"' in heard.feedback("agent_0")


def test_the_guide_is_invincible_and_recreated_if_it_vanishes() -> None:
    game = sq_game()
    unlock_at_vats(game)
    guide = guide_of(game)
    assert (guide.enemy, guide.quest, guide.hp >= 10**9, guide.attack_power >= 10**6) == (
        False, True, True, True,
    )  # fmt: skip
    name, ledger = guide.name, guide.dialogue
    assert ledger.startswith("Errands in my ledger for you:")
    guide.hp = 5
    tick(game)
    assert guide.hp >= 10**9  # touched every tick
    game.world.delete_npc(guide.id)
    travel(game, "agent_0", GATE)
    again = guide_of(game)
    assert again.id != guide.id and (again.name, again.area_id) == (name, GATE)
    assert again.dialogue == ledger  # the new instance carries the ledger at once
    assert game.world.npc_name_to_id[name] == again.id


# ----------------------------------------------------------------------------- many agents
def test_eight_agents_have_their_own_guides_names_and_tasks_at_their_own_pace() -> None:
    """Agent i idles i ticks, walks rows -> gate -> vats (unlock) -> gate -> rows; the even ones
    then talk to the hermit (their talk task), the odd ones wait."""
    game = sq_game(agents=8, seed=5)
    game.world.graph.set_locked(GATE, VATS, False)
    target = hermit(game, ROWS)
    route = ["enter rows", "enter gate", "enter vats", "enter gate", "enter rows"]
    scripts = {
        f"agent_{i}": ["wait"] * i + route + (["talk to hermit"] if i % 2 == 0 else ["wait"])
        for i in range(8)
    }
    unlocked_at: dict[str, int] = {}
    paid: dict[str, tuple[int, int]] = {}
    for t in range(max(map(len, scripts.values()))):
        commands = {a: s[t] if t < len(s) else "wait" for a, s in scripts.items()}
        result = game.tick(commands)
        for aid in game.agents:
            if "side_quest.unlocked" in result.feedback_keys(aid):
                unlocked_at[aid] = t
            for event in result.events_of(aid, "side_quest_completed"):
                paid[aid] = (t, event.data["reward_coins"])
                assert result.rewards[aid].side_quest == 1
    ids = [f"agent_{i}" for i in range(8)]
    assert unlocked_at == {a: i + 2 for i, a in enumerate(ids)}
    assert {a: t for a, (t, _) in paid.items()} == {
        a: i + 5 for i, a in enumerate(ids) if i % 2 == 0
    }
    guides = [guide_of(game, a) for a in ids]
    assert len({g.id for g in guides}) == 8 and [g.owner for g in guides] == ids
    assert [g.name for g in guides] == expected_names(5, 8)
    assert [g.area_id for g in guides] == [ROWS if i % 2 == 0 else VATS for i in range(8)]
    for i, aid in enumerate(ids):
        talk = progress(game, aid)["tasks"]["talk"]
        assert progress(game, aid)["completed_count"] == {
            "collect": 0, "craft": 0, "talk": 1 - i % 2, "trade": 0,
        }  # fmt: skip
        assert game.scores[aid].side_quest == 1 - i % 2
        assert (talk is None) == (i % 2 == 0)
        assert talk is None or talk["target_npc"] == target.id
        assert ("Messages: Talk to hermit" in guides[i].dialogue) == (i % 2 == 1)
    coins = game.world.areas[ROWS].objects.get("obj_coin", 0)
    assert coins == sum(c for _, c in paid.values())


# ----------------------------------------------------------------------------- saved state
def scripted_run(seed: int) -> Game:
    game = sq_game(agents=2, seed=seed)
    hermit(game, ROWS)
    put_on_ground(game, ROWS, "obj_pear", 6)
    spawn_npc(game, "npc_cider_seller", VAULT, inventory={"obj_cider": 2, "obj_label": 3})
    travel(game, "agent_0", ROWS, VATS, VAULT)
    travel(game, "agent_1", ROWS, VATS)
    move_to(game, "agent_0", ROWS)
    tick(game, agent_0="talk to hermit", agent_1="pick up pear")
    return game


def test_progress_is_plain_json_and_survives_a_world_round_trip() -> None:
    game = scripted_run(9)
    for aid in game.agents:
        data = game.agents[aid].progress
        assert json.loads(json.dumps(data)) == data
    state = game.world.auxiliary["side_quest"]
    assert (
        World.from_dict(json.loads(json.dumps(game.world.to_dict()))).auxiliary["side_quest"]
        == state
    )


def test_same_seed_and_actions_give_the_same_tasks() -> None:
    runs = [scripted_run(9), scripted_run(9)]
    assert [a.progress for a in runs[0].agents.values()] == [
        a.progress for a in runs[1].agents.values()
    ]
    assert progress(runs[0])["completed_count"]["talk"] == 1


# ----------------------------------------------------------------------------- data
def world_definitions() -> list[Any]:
    tiny = parse_definition(load_raw("tiny_world.json"))
    return [("tiny", tiny), *((name, bundled_definition(name)) for name in bundled_worlds())]


@pytest.mark.parametrize(("name", "definition"), world_definitions())
def test_default_data_validates_against_every_world(name: str, definition: Any) -> None:
    section = default_section("side_quests", definition)
    assert section.unlock_after == 2
    assert {s: section.reward_range(s) for s in SCENARIOS} == {
        "collect": (1, 3), "craft": (3, 6), "talk": (1, 3), "trade": (3, 6),
    }  # fmt: skip
    names = section.guide.names
    assert len(names) == len(set(names)) == 8
    assert all(n.isalpha() and n[0].isupper() for n in (*names, section.guide.fallback_name))
    (proto,) = section.npcs
    assert proto.id == section.guide.npc and proto.id != "npc_side_quest_guide"
    assert (proto.enemy, proto.quest, proto.role) == (False, True, "guide")
    assert proto.hp_at_level_1 >= 10**9 and proto.attack_at_level_1 >= 10**6
    assert section.objects == () and section.undistributable == ()
    game = Game(definition, 1, GameConfig(side_quest=True))
    injected = {n.id: n for n in game.definition.entities.npcs}
    assert injected[proto.id].quest is True


@pytest.mark.parametrize("preset", PROCGEN_PRESETS)
def test_default_data_fits_generated_worlds(preset: str) -> None:
    game = Game(f"procgen:{preset}", 2, GameConfig(side_quest=True))
    assert game.quests.side_quests is not None


def test_the_default_names_differ_from_the_main_quest_guides() -> None:
    main = json.loads(default_quest_file("main_quest").read_text(encoding="utf-8"))
    assert not set(POOL) & set(main["guide"]["names"])


def test_a_world_s_own_side_quest_data_drives_the_rule() -> None:
    data = copy.deepcopy(DEFAULT)
    data["unlock_after"] = 1
    data["rewards"]["talk"] = [7, 7]
    data["guide"]["names"] = ["Ottilie"]
    data["texts"]["unlocked"] = "{guide} waves at me."
    data["texts"]["tasks"]["talk"] = "Greet {npc} ({area})."
    raw = side_world_raw()
    raw["custom_events"] = ["side_quest"]
    pack = WorldPack(parse_definition(raw), name="custom", quest_data={"side_quests": data})
    game = Game(pack, 1)
    game.reset(0)
    clear_world(game)
    hermit(game, GATE)
    result = travel(game, "agent_0", ROWS)  # one explored area is enough here
    assert result.feedback("agent_0").endswith("Ottilie waves at me.")
    assert progress(game)["tasks"]["talk"]["description"] == "Greet hermit (Pear Orchard, gate)."
    move_to(game, "agent_0", GATE)
    done = tick(game, agent_0="talk to hermit")
    assert side_events(done)[0]["reward_coins"] == 7
    assert game.world.areas[GATE].objects == {"obj_coin": 7}


def malformed(path: str, value: Any) -> dict[str, Any]:
    """The default data with one value replaced (`path` is dotted; `None` deletes the key)."""
    data = copy.deepcopy(DEFAULT)
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[key]
    if value is None:
        del node[last]
    else:
        node[last] = value
    return data


BAD_DATA = [
    ("rewards.craft", [6, 3], "$.side_quests.rewards.craft", "0 <= low <= high"),
    ("rewards.talk", [1], "$.side_quests.rewards.talk", "expected [low, high]"),
    ("rewards.trade", "3-6", "$.side_quests.rewards.trade", "expected a list"),
    ("rewards.fishing", [1, 2], "$.side_quests.rewards", "unknown key: fishing"),
    ("unlock_after", "2", "$.side_quests.unlock_after", "expected an integer"),
    ("unlock_after", -1, "$.side_quests.unlock_after", "must be 0 or more"),
    ("unlock_afer", 2, "$.side_quests", "unknown key: unlock_afer"),
    ("objects", [], "$.side_quests", "unknown key: objects"),
    ("guide.npc", "npc_nobody", "$.side_quests.guide.npc", "unknown NPC 'npc_nobody'"),
    ("guide.npc", "npc_wasp", "$.side_quests.guide.npc", "must not be an enemy"),
    ("guide.names", ["Ana", "Two Words"], "$.side_quests.guide.names[1]", "must be one word"),
    ("guide.names", ["Ana", "Ana"], "$.side_quests.guide.names", "must be distinct"),
    ("guide.names", [], "$.side_quests.guide.names", "at least one name"),
    ("guide.fallback_name", "Wenna", "$.side_quests.guide.fallback_name", "must differ"),
    ("guide.fallback_name", None, "$.side_quests.guide.fallback_name", "missing required key"),
    ("texts.tasks.collect", "Bring {amount} {object}.", "$.side_quests.texts.tasks.collect",
     "unknown variable '{amount}'"),
    ("texts.unlocked", " ", "$.side_quests.texts.unlocked", "must not be empty"),
    ("texts.dialogue_empty", "{scenario} {coins}", "$.side_quests.texts.dialogue_empty",
     "unknown variable '{coins}'"),
    ("texts.scenario_names.collect", 3, "$.side_quests.texts.scenario_names.collect",
     "expected a string"),
    ("npcs", [{"type": "npc", "id": "npc_side_errand_broker", "name": "x", "role": "guide"}] * 2,
     "$.side_quests.npcs[1].id", "listed twice"),
]  # fmt: skip


@pytest.mark.parametrize(("key", "value", "path", "fragment"), BAD_DATA)
def test_malformed_side_quest_data_names_the_json_path(
    key: str, value: Any, path: str, fragment: str
) -> None:
    definition = parse_definition(load_raw("tiny_world.json"))
    with pytest.raises(QuestDataError) as info:
        load_quests({"side_quests": malformed(key, value)}, definition)
    found = [(p.path, p.message) for p in info.value.problems]
    assert any(p == path and fragment in m for p, m in found), found


def test_every_problem_is_reported_at_once_and_a_world_without_money_is_refused() -> None:
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"] = [o for o in raw["entities"]["objects"] if o["id"] != "obj_coin"]
    raw["initializations"]["spawn"]["objects"].pop("obj_coin")
    data = malformed("rewards.craft", [6, 3])
    data["guide"]["npc"] = "npc_nobody"
    with pytest.raises(QuestDataError) as info:
        load_quests({"side_quests": data}, parse_definition(raw))
    assert sorted(p.path for p in info.value.problems) == [
        "$.side_quests.guide.npc", "$.side_quests.rewards", "$.side_quests.rewards.craft",
    ]  # fmt: skip
    assert "no object of category 'currency'" in str(info.value)


def test_a_shape_error_does_not_hide_the_other_parts_problems() -> None:
    """One pass: a malformed part is reported, every well-formed part is still checked, and a
    malformed NPC list does not make its guide "unknown"."""
    definition = parse_definition(load_raw("tiny_world.json"))
    data = malformed("unlock_after", "2")
    data["guide"]["npc"] = "npc_nobody"
    data["rewards"]["craft"] = [6, 3]
    with pytest.raises(QuestDataError) as info:
        load_quests({"side_quests": data}, definition)
    assert sorted(p.path for p in info.value.problems) == [
        "$.side_quests.guide.npc", "$.side_quests.rewards.craft", "$.side_quests.unlock_after",
    ]  # fmt: skip
    data = malformed("npcs", [{"type": "npc", "id": "npc_nobody", "name": 3, "role": "guide"}])
    data["guide"]["npc"] = "npc_nobody"
    with pytest.raises(QuestDataError) as info:
        load_quests({"side_quests": data}, definition)
    assert [p.path for p in info.value.problems] == ["$.side_quests.npcs[0].name"]
