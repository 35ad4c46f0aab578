"""new_craftable_feedback_step (docs/mechanics/step-rules.md#new-craftable-feedback): recipe hints
on first carrying."""

from __future__ import annotations

import copy

from conftest import load_raw
from harness import agent, blank_game, give, put_on_ground, run_step

from agentodyssey_pz.world.validate import parse_definition

RULE = "new_craftable_feedback_step"
KEY = "new_craftable.uses"
# Products of pear, in definition order, each with its recipe as stored.
PEAR_USES = (
    "press (6 pear), cider (0.5 pear), label (1 pear), pruner (1 cider, 2 pear), apron (4 pear)"
)
CIDER_USES = "key (2 cider), crate (3 cider), pruner (1 cider, 2 pear)"


def lines(res, agent_id="agent_0"):
    return [(key, text) for key, text in res.feedback[agent_id]]


def test_new_ingredient_lists_its_products_with_recipes():
    game = blank_game()
    give(game, "agent_0", "obj_pear")
    res = run_step(game, RULE)
    ((key, text),) = lines(res)
    assert key == KEY
    assert "pear" in text and text.endswith(PEAR_USES + ".")
    assert [(e.type, e.agent_id, e.data) for e in res.events] == [
        ("new_crafting_recipe_seen", "agent_0", {"object_ids": ["obj_pear"]})
    ]
    assert list(agent(game).acquired) == ["obj_pear"]


def test_without_show_crafting_recipes_only_product_names():
    raw = load_raw("tiny_world.json")
    raw["features"] = {"show_crafting_recipes": False}
    game = blank_game(parse_definition(copy.deepcopy(raw)))
    give(game, "agent_0", "obj_pear")
    ((_, text),) = lines(run_step(game, RULE))
    assert text.endswith("press, cider, label, pruner, apron.")


def test_everything_carried_counts_one_line_per_ingredient_sorted():
    """Hands, a container held in hand, the equipped inventory and armour all count."""
    game = blank_game()
    me, world = agent(game), game.world
    give(game, "agent_0", "obj_cider")
    (held_crate,) = give(game, "agent_0", "obj_crate")
    world.containers[held_crate].items["obj_pear"] = 2
    bag = world.new_instance("obj_crate")
    world.containers[bag].items["obj_coin"] = 4
    me.equipped.update({bag: 1, "obj_apron": 1})
    me.inventory_id = bag
    res = run_step(game, RULE)
    texts = [text for _, text in lines(res)]
    assert [key for key, _ in lines(res)] == [KEY, KEY]
    assert texts[0].endswith(CIDER_USES + ".") and texts[1].endswith(PEAR_USES + ".")
    new = ["obj_apron", "obj_cider", "obj_coin", "obj_crate", "obj_pear"]
    assert [e.data for e in res.events] == [{"object_ids": new}]
    assert list(me.acquired) == new  # non-ingredients are remembered too


def test_quirk_nothing_new_means_no_line_and_no_event():
    """The reference emits an empty line and an empty event every tick."""
    game = blank_game()
    give(game, "agent_0", "obj_pear")
    run_step(game, RULE)
    give(game, "agent_0", "obj_pear")  # a second unit of a known kind is not new
    res = run_step(game, RULE)
    assert res.feedback["agent_0"] == [] and res.events == []
    empty = run_step(blank_game(), RULE)
    assert empty.feedback["agent_0"] == [] and empty.events == []


def test_non_ingredient_is_acquired_silently_but_reported_in_the_event():
    game = blank_game()
    give(game, "agent_0", "obj_key")  # used in no recipe
    res = run_step(game, RULE)
    assert lines(res) == []
    assert [e.data for e in res.events] == [{"object_ids": ["obj_key"]}]
    assert list(agent(game).acquired) == ["obj_key"]


def test_ground_items_do_not_count():
    game = blank_game()
    put_on_ground(game, agent(game).area_id, "obj_pear", 3)
    res = run_step(game, RULE)
    assert res.events == [] and agent(game).acquired == {}


def test_agents_are_handled_separately():
    game = blank_game(agents=2)
    give(game, "agent_0", "obj_pear")
    give(game, "agent_1", "obj_pear")
    agent(game, "agent_1").acquired["obj_pear"] = None
    res = run_step(game, RULE)
    assert [e.agent_id for e in res.events] == ["agent_0"]
    assert res.feedback["agent_1"] == []


def test_agent_still_in_the_tutorial_is_skipped():
    """Per-agent fix: an agent that has passed gets hints while another is still in the tutorial;
    one that has not passed (or stands in the room) does not, and acquires nothing yet."""
    game = blank_game(agents=3)
    for aid in game.agent_ids:
        give(game, aid, "obj_pear")
    game.agents["agent_1"].tutorial_passed = False
    # A stand-in tutorial: the cellar place plays the tutorial place, its vats area a room.
    game.world.auxiliary["tutorial_room"] = {
        "place_id": "place_cellar",
        "rooms": {"agent_2": {"area_id": "area_vats"}},
    }
    game.move_agent(game.agents["agent_2"], "area_vats")
    res = run_step(game, RULE)
    assert [e.agent_id for e in res.events] == ["agent_0"]
    assert [dict(a.acquired) for a in game.agents.values()] == [{"obj_pear": None}, {}, {}]
