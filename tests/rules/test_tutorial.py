"""tutorial_room_step (docs/mechanics/tutorial.md) and the tutorial data (world/tutorial_data.py,
world/tutorial_roles.py).

Every agent that has not passed gets its own room behind a personal locked path; the 28 steps of the
default data are followed through `Game.tick` with exact stage numbers, in every bundled world
(forced on where the world does not enable it, so its roles are inferred). Multi-agent tests check
that rooms, keys and take-backs never cross between agents.
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any

import cattrs
import pytest
from harness import TINY, give, make_game, run_step
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import game_state_data, state_hash
from agentodyssey_pz.errors import QuestDataError
from agentodyssey_pz.resources import default_quest_file
from agentodyssey_pz.world.agents import AgentState, possession
from agentodyssey_pz.world.quests import load_quests
from agentodyssey_pz.world.world import World

RULE = "tutorial_room_step"
KEY = "tutorial_room"
STEPS = 28
# What an agent following the instructions types at each stage (names filled from the state).
SCRIPT = [
    "pick up {bag_name}",
    "equip {bag_name}",
    "inspect inventory",
    "unequip {bag_name}",
    "store 1 {coin_name} {bag_name}",
    "inspect {bag_name}",
    "take out {coin_name} {bag_name}",
    "drop {coin_name}",
    "equip {bag_name}",
    "store 1 {coin_name} inventory",
    "discard 1 {coin_name} inventory",
    "pick up {pen_name}",
    "pick up {note_name}",
    'write "hello world" {note_name}',
    "store {log_value} {coin_name} inventory",
    "talk to {merchant_name}",
    "buy 1 {log_name} {merchant_name}",
    "inspect {log_name}",
    "store 1 {note_name} inventory",
    "pick up {log_name}",
    "sell 1 {log_name} {merchant_name}",
    "attack {raider_name}",
    "pick up {bar_name}",
    "craft 1 {blank_name}",
    "pick up {blank_name}",
    "craft 1 {key_name}",
    "pick up {key_name}",
    "enter {spawn_name}",
]
HINTS = [
    "pick up the bag", "equip the bag", "inspect the inventory", "unequip the bag",
    "store a coin in the held bag", "inspect the bag", "take the coin out of the bag",
    "drop the coin", "equip the bag again", "store a coin in the inventory", "discard the coin",
    "pick up the writing tool", "pick up the note", "write on the note", "gather coins",
    "talk to the merchant", "buy from the merchant", "inspect an item", "free a hand",
    "pick up the bought item", "sell to the merchant", "fight the raider",
    "pick up a crafting material", "craft a key blank", "pick up the blank", "craft the key",
    "pick up the key", "leave the room",
]  # fmt: skip


def tutorial_game(world: str = "glasswick", agents: int = 1, **config: Any) -> Game:
    return make_game(world, agents, tutorial=True, **config)


def room_of(game: Game, agent_id: str = "agent_0") -> dict[str, Any]:
    return game.world.auxiliary[KEY]["rooms"][agent_id]


def names(game: Game, agent_id: str = "agent_0") -> dict[str, Any]:
    """Everything the script needs, read from the state (not from the rule's code)."""
    world, roles = game.world, game.quests.tutorial.roles
    values: dict[str, Any] = {
        f"{role}_name": world.objects[oid].name for role, oid in roles.items()
    }
    values["log_value"] = world.objects[roles["log"]].value
    values["spawn_name"] = world.areas[world.spawn_area].name
    room = game.world.auxiliary[KEY]["rooms"].get(agent_id)
    if room is not None:
        for role, iid in room["instances"].items():
            values[f"{role}_name"] = world.name_of(iid)
        for role, npc_id in room["npcs"].items():
            values[f"{role}_name"] = world.npcs[npc_id].name
    return values


def command(game: Game, agent_id: str = "agent_0") -> str:
    stage = game.agents[agent_id].tutorial_stage
    return SCRIPT[stage].format(**names(game, agent_id))


def zero(result: Any, agent_id: str) -> bool:
    return result.rewards[agent_id].is_zero


# ------------------------------------------------------------------------- one agent, every world
@pytest.mark.parametrize("world", bundled_worlds())
def test_following_the_instructions_passes_all_28_steps_and_leaves(world: str) -> None:
    game = tutorial_game(world)
    me, spawn = game.agents["agent_0"], game.world.spawn_area
    room = room_of(game)
    area = game.world.areas[room["area_id"]]
    place = game.world.places[area.place_id]
    assert (me.area_id, me.tutorial_stage, me.tutorial_passed) == (area.id, 0, False)
    assert (area.name, area.level, area.light) == ("room", 1, True)
    assert (place.name, place.unlocked, place.area_ids) == ("Tutorial", True, [area.id])
    assert game.tutorial_active and game.in_tutorial_room(me)
    path = game.world.graph.path(area.id, spawn)
    assert path["locked"] and path["key"] == game.quests.tutorial.roles["key"]
    assert path["owner"] == "agent_0"
    bag, note = room["instances"]["bag"], room["instances"]["note"]
    for stage in range(STEPS):
        result = game.tick({"agent_0": command(game)})
        assert me.tutorial_stage == stage + 1, (stage, result.feedback("agent_0"))
        assert [e.data for e in result.events_of("agent_0", "tutorial_stage_advanced")] == [
            {"from": stage, "to": stage + 1}
        ]
        assert zero(result, "agent_0"), (stage, result.rewards["agent_0"])
        if stage < STEPS - 1:
            assert me.area_id == area.id and not me.tutorial_passed
            hints = result.events_of("agent_0", "dep_tracker_hint")
            assert [e.data for e in hints] == [{"hint": f"tutorial: {HINTS[stage]}"}]
            json.dumps(game.world.auxiliary[KEY])  # saved with the world: plain JSON
    # Left at stage 28: passed, at spawn, the room and everything the tutorial lent are gone.
    assert (me.area_id, me.tutorial_stage, me.tutorial_passed) == (spawn, 28, True)
    assert me.progress[KEY] == {"stage": 28, "passed": True}
    assert [e.data for e in result.events_of("agent_0", "tutorial_completed")] == [
        {"spawn_area_id": spawn}
    ]
    assert [e.data for e in result.events_of("env", "tutorial_room_removed")] == [
        {"area_id": area.id, "place_id": place.id}
    ]
    assert (me.hands, me.equipped, me.inventory_id) == ({}, {}, None)
    assert game.quests.tutorial.roles["bar"] not in me.craft_credit
    assert area.id not in game.world.areas and area.id not in game.world.graph
    assert place.id not in game.world.places
    assert game.world.auxiliary[KEY] == {"place_id": place.id, "rooms": {}, "removed": True}
    assert not game.tutorial_active
    for iid in (bag, note):
        assert game.world.find_def(iid) is None
        assert iid not in game.world.obj_name_to_id.values()
    tutorial_npcs = {n.id for n in game.quests.tutorial.npcs}
    assert not [n for n in game.world.npcs.values() if n.def_id in tutorial_npcs]
    # The tutorial earned nothing: no kills, crafts or trades were tracked.
    assert (me.kills, me.crafted, me.traded, me.xp) == (0, {}, {}, 0)


def test_the_last_tick_reports_completion_then_the_main_quest_starts() -> None:
    game = tutorial_game()
    for _ in range(STEPS - 1):
        game.tick({"agent_0": command(game)})
    result = game.tick({"agent_0": "enter {spawn_name}".format(**names(game))})
    keys = result.feedback_keys("agent_0")
    assert keys[:6] == [
        "enter.unlocked",
        "enter.done",
        "tutorial.step_done",
        "tutorial.completed",
        "tutorial.taken_back",
        "quest.intro",
    ]
    assert "I stand in quayside now" in result.feedback("agent_0")


def test_the_exit_needs_the_key_in_hand() -> None:
    game = tutorial_game()
    for _ in range(STEPS - 2):
        game.tick({"agent_0": command(game)})
    result = game.tick({"agent_0": "enter {spawn_name}".format(**names(game))})  # key on the floor
    assert "enter.locked" in result.feedback_keys("agent_0")
    assert game.agents["agent_0"].tutorial_stage == STEPS - 2
    assert game.world.graph.is_locked(room_of(game)["area_id"], game.world.spawn_area)


def test_instructions_repeat_and_a_warning_follows_the_second_miss() -> None:
    game = Game("glasswick", 1)
    boot = game.reset(0)
    # Everyone waits on the bootstrap tick (docs/mechanics/index.md#the-bootstrap-tick), then the
    # tutorial starts.
    assert boot.feedback_keys("agent_0") == ["wait.done", "tutorial.intro", "tutorial.instruction"]
    assert "Tutorial step 1 of 28: " in boot.feedback("agent_0")
    # The bootstrap tick already counted as one miss (docs/mechanics/tutorial.md#each-tick), so the
    # first idle tick warns.
    result = game.tick({"agent_0": "wait"})
    assert result.feedback_keys("agent_0")[-2:] == ["tutorial.warning", "tutorial.instruction"]
    result = game.tick({"agent_0": command(game)})
    assert "tutorial.warning" not in result.feedback_keys("agent_0")
    assert room_of(game)["misses"] == 0
    result = game.tick({"agent_0": "wait"})
    assert result.feedback_keys("agent_0")[-1:] == ["tutorial.instruction"]
    result = game.tick({"agent_0": "wait"})
    assert result.feedback_keys("agent_0")[-2:] == ["tutorial.warning", "tutorial.instruction"]
    assert room_of(game)["misses"] == 2


# ---------------------------------------------------------------------------- setups
def play_to(game: Game, stage: int, agent_id: str = "agent_0") -> None:
    while game.agents[agent_id].tutorial_stage < stage:
        game.tick({agent_id: command(game, agent_id)})


def test_merchant_stock_grows_once_per_step_and_it_is_friendly() -> None:
    game = tutorial_game()
    roles = game.quests.tutorial.roles
    play_to(game, 15)
    merchant = game.world.npcs[room_of(game)["npcs"]["merchant"]]
    assert (merchant.id, merchant.name) == ("npc_tutor_pedlar_0", "pedlar_0")
    assert (merchant.role, merchant.coins, merchant.quest, merchant.enemy) == (
        "merchant",
        1000,
        True,
        False,
    )
    assert merchant.combat_pattern == ()
    assert merchant.inventory == {roles["log"]: 1}
    assert "driftwood at 2 coin apiece" in merchant.dialogue
    run_step(game, RULE)  # the same step again (a re-run): nothing is added twice
    assert merchant.inventory == {roles["log"]: 1}
    play_to(game, 16)
    assert merchant.inventory == {roles["log"]: 2}
    play_to(game, 17)  # bought one, then the next step adds one
    assert merchant.inventory == {roles["log"]: 2}
    play_to(game, 21)
    raider = game.world.npcs[room_of(game)["npcs"]["raider"]]
    assert (raider.hp, raider.attack_power, raider.enemy, raider.combat_pattern) == (1, 0, True, ())
    assert room_of(game)["ensured"] == {"merchant": [15, 16, 17, 18, 19, 20], "raider": [21]}


def test_the_bag_is_never_duplicated_wherever_it_is() -> None:
    game = tutorial_game()
    world, me = game.world, game.agents["agent_0"]
    room = room_of(game)
    bag, note = room["instances"]["bag"], room["instances"]["note"]
    floor = world.areas[room["area_id"]].objects
    assert floor == {bag: 1}  # step 1's setup put my bag down
    play_to(game, 8)  # step 9 (equip the bag again): the bag is in my hand
    assert bag in me.hands and bag not in floor
    game.tick({"agent_0": "drop {bag_name}".format(**names(game))})
    assert floor.get(bag) == 1
    game.tick({"agent_0": "pick up {bag_name}".format(**names(game))})
    assert bag in me.hands and bag not in floor
    play_to(game, 12)  # step 13 (pick up the note): the note lies on the floor
    assert floor.get(note) == 1
    # My note inside my bag, lying on the floor: still mine, nothing new appears.
    del floor[note]
    me.equipped.pop(bag)
    me.inventory_id = None
    floor[bag] = 1
    world.containers[bag].items[note] = 1
    writables = dict(world.writables)
    game.tick({"agent_0": "wait"})
    assert note not in floor and world.writables == writables


def test_coins_are_topped_up_to_the_deficit_only() -> None:
    game = tutorial_game()
    world, roles = game.world, game.quests.tutorial.roles
    play_to(game, 13)
    me, room = game.agents["agent_0"], room_of(game)
    floor = world.areas[room["area_id"]].objects
    coin = roles["coin"]
    world.containers[me.inventory_id].items[coin] = 1  # I carry 1 of the 2 the next step wants
    floor.pop(coin, None)
    given = room["given"][coin]
    game.tick({"agent_0": command(game)})  # write: step 15 (gather coins) starts
    assert me.tutorial_stage == 14
    assert floor[coin] == 1 and room["given"][coin] == given + 1


def test_the_bar_is_handed_out_again_if_lost_before_crafting() -> None:
    """Our softlock guard: step 24 gives a bar when I have none and none lies here."""
    game = tutorial_game()
    roles = game.quests.tutorial.roles
    play_to(game, 23)
    me, floor = game.agents["agent_0"], game.world.areas[room_of(game)["area_id"]].objects
    me.hands.pop(roles["bar"])
    game.tick({"agent_0": "wait"})
    assert floor[roles["bar"]] == 1
    assert room_of(game)["given"][roles["bar"]] == 2


# ---------------------------------------------------------------------------- take-back
def test_only_what_the_tutorial_handed_out_is_taken_back() -> None:
    game = tutorial_game()
    world, roles = game.world, game.quests.tutorial.roles
    play_to(game, 27)
    me, room = game.agents["agent_0"], room_of(game)
    coin, spawn = roles["coin"], world.spawn_area
    # 2 coins placed by setups + 1 paid by my merchant for the log: 3 coins handed out.
    assert room["given"] == {
        coin: 3, roles["pen"]: 1, roles["log"]: 1, roles["bar"]: 1, roles["bench"]: 1,
        roles["furnace"]: 1, roles["blank"]: 1, roles["key"]: 1,
    }  # fmt: skip
    bag = world.containers[me.inventory_id]
    bag.items[coin] = bag.items.get(coin, 0) + 5  # coins the tutorial never gave (0 carried so far)
    coins_at_spawn = world.areas[spawn].objects.get(coin, 0)
    bag_name, note_name = world.name_of(bag.id), world.name_of(room["instances"]["note"])
    pen_name, coin_name = world.objects[roles["pen"]].name, world.objects[coin].name
    result = game.tick({"agent_0": command(game)})
    assert me.area_id == spawn and me.tutorial_passed
    assert (
        "The things the tutorial lent me stay behind: "
        f"1 {pen_name}, 1 {bag_name}, 1 {note_name}, 3 {coin_name}."
    ) in result.feedback("agent_0")
    # The 2 coins that were mine were in the bag, which stays behind: they land at my feet.
    assert world.areas[spawn].objects[coin] == coins_at_spawn + 2
    assert possession(world, me) == {}


# ---------------------------------------------------------------------------- many agents
PERIODS = {"agent_0": 1, "agent_1": 1, "agent_2": 2, "agent_3": 3, "agent_4": 4, "agent_5": 5}


def test_eight_agents_each_in_their_own_room_at_their_own_pace() -> None:
    game = tutorial_game(agents=8)
    world, spawn, roles = game.world, game.world.spawn_area, game.quests.tutorial.roles
    rooms = {aid: room_of(game, aid)["area_id"] for aid in game.agent_ids}
    assert len(set(rooms.values())) == 8
    place = world.places[world.areas[rooms["agent_0"]].place_id]
    assert place.area_ids == list(rooms.values())
    assert rooms["agent_0"] == "area_tutorial_room" and rooms["agent_7"] == "area_tutorial_room_7"
    for aid, area_id in rooms.items():
        assert game.agents[aid].area_id == area_id
        assert list(world.graph.neighbors(area_id)) == [spawn]
        path = world.graph.path(area_id, spawn)
        assert (path["locked"], path["key"], path["owner"]) == (True, roles["key"], aid)
        seen = [n for n in world.graph.visible_neighbors(spawn, aid) if n in rooms.values()]
        assert seen == [area_id]  # at spawn, nobody sees another agent's room
    expected = dict.fromkeys(game.agent_ids, 0)
    finished: list[str] = []
    tick = 0
    while len(finished) < len(PERIODS):
        tick += 1
        actions = {aid: "wait" for aid in game.agent_ids}
        for aid, period in PERIODS.items():
            if aid not in finished and tick % period == 0:
                actions[aid] = command(game, aid)
                expected[aid] += 1
        if "agent_0" in finished:  # an early finisher plays the real game meanwhile
            actions["agent_0"] = early_finisher_action(game, tick)
        result = game.tick(actions)
        assert {a: game.agents[a].tutorial_stage for a in game.agent_ids} == expected, tick
        removed = [e.data["area_id"] for e in result.events_of("env", "tutorial_room_removed")]
        done_now = [a for a in PERIODS if a not in finished and game.agents[a].tutorial_passed]
        assert removed == [rooms[a] for a in done_now]  # one room per finisher, in the same tick
        finished += done_now
        for aid in game.agent_ids:
            if aid not in finished:  # still inside: no reward at all
                assert game.agents[aid].area_id == rooms[aid] and zero(result, aid), (tick, aid)
            assert (rooms[aid] in world.areas) == (aid not in finished)
        for aid in game.agent_ids:  # every remaining exit stays locked whoever opened theirs
            if aid not in finished:
                assert world.graph.is_locked(rooms[aid], spawn)
    assert finished == ["agent_0", "agent_1", "agent_2", "agent_3", "agent_4", "agent_5"]
    assert tick == 5 * STEPS
    # The idle agents are still in their rooms: the place stays.
    assert place.id in world.places and place.area_ids == [rooms["agent_6"], rooms["agent_7"]]
    assert game.tutorial_active
    # agent_0 kept what it found in the real world through every later removal.
    zero_agent = game.agents["agent_0"]
    assert zero_agent.hands == {roles["coin"]: 1}
    assert zero_agent.crafted == {roles["note"]: 1}
    # A finished agent cannot walk back into any room.
    result = game.tick(
        {aid: "enter room" if aid == "agent_0" else "wait" for aid in game.agent_ids}
    )
    assert "enter.no_path" in result.feedback_keys("agent_0")
    assert game.agents["agent_0"].area_id == spawn


def early_finisher_action(game: Game, tick: int) -> str:
    """agent_0, done at tick 28: picks up a coin at spawn, then crafts a note from a given
    ingredient (early finishers are tracked and rewarded while others are still inside)."""
    world, roles = game.world, game.quests.tutorial.roles
    note = world.objects[roles["note"]]
    if tick == 29:
        return f"pick up {world.objects[roles['coin']].name}"
    if tick == 30:
        (ingredient,) = note.craft.ingredients
        give(game, "agent_0", ingredient)
        return f"craft 1 {note.name}"
    return "wait"


def test_early_finishers_are_rewarded_for_real_play() -> None:
    """Quirk "tracking held back per agent"
    (docs/mechanics/rewards.md#quirk-tracking-held-back-per-agent): the reference tracks no kill,
    craft or purchase of anyone while any agent is still in the tutorial; we hold tracking back only
    for the agents still in it."""
    game = tutorial_game(agents=2)
    for _ in range(STEPS):
        game.tick({"agent_0": command(game), "agent_1": "wait"})
    assert game.agents["agent_0"].tutorial_passed and not game.agents["agent_1"].tutorial_passed
    note = game.world.objects[game.quests.tutorial.roles["note"]]
    (ingredient,) = note.craft.ingredients
    give(game, "agent_0", ingredient)
    result = game.tick({"agent_0": f"craft 1 {note.name}", "agent_1": "wait"})
    assert result.rewards["agent_0"].craft == 1 and result.rewards["agent_0"].xp_total == 5
    assert zero(result, "agent_1")


def test_an_agent_leaving_early_passes_without_completion() -> None:
    """A key from elsewhere opens the agent's own exit at stage 0: it leaves, its room goes, no
    `tutorial_completed`; the other agent's room and exit are untouched."""
    game = tutorial_game(agents=2)
    world, roles, spawn = game.world, game.quests.tutorial.roles, game.world.spawn_area
    room_0, room_1 = room_of(game, "agent_0")["area_id"], room_of(game, "agent_1")["area_id"]
    give(game, "agent_0", roles["key"])
    result = game.tick({"agent_0": "enter {spawn_name}".format(**names(game)), "agent_1": "wait"})
    me = game.agents["agent_0"]
    assert (me.area_id, me.tutorial_stage, me.tutorial_passed) == (spawn, 0, True)
    assert "tutorial.left_early" in result.feedback_keys("agent_0")
    assert result.events_of("agent_0", "tutorial_completed") == []
    assert [e.data["area_id"] for e in result.events_of("env", "tutorial_room_removed")] == [room_0]
    assert world.graph.is_locked(room_1, spawn) and room_1 in world.areas
    assert game.tutorial_active and game.in_tutorial_room(game.agents["agent_1"])
    # The last room going takes the place with it.
    give(game, "agent_1", roles["key"])
    result = game.tick({"agent_0": "wait", "agent_1": "enter {spawn_name}".format(**names(game))})
    assert "place_tutorial" not in world.places and not game.tutorial_active
    assert world.auxiliary[KEY]["removed"] is True
    assert "place_tutorial" not in world.places[world.areas[spawn].place_id].neighbors


# ---------------------------------------------------------------------------- switches and worlds
def test_forcing_the_tutorial_on_for_thornvale_infers_every_role() -> None:
    assert "tutorial" not in bundled_definition("thornvale").custom_events
    plain = make_game("thornvale")
    assert plain.quests.tutorial is None and KEY not in plain.world.auxiliary
    assert plain.agents["agent_0"].tutorial_passed
    game = tutorial_game("thornvale")
    assert game.quests.tutorial.roles == {
        "coin": "obj_coin", "bag": "obj_flour_sack", "note": "obj_rushleaf",
        "pen": "obj_charcoal_stylus", "log": "obj_alder_log", "key": "obj_key",
        "blank": "obj_ward_blank", "bar": "obj_wrought_bar", "bench": "obj_trestle",
        "furnace": "obj_bloomery",
    }  # fmt: skip
    assert game.in_tutorial_room(game.agents["agent_0"])


def test_cinderdeep_skips_raw_materials_no_merchant_would_buy() -> None:
    roles = tutorial_game("cinderdeep").quests.tutorial.roles
    assert roles["log"] == "obj_pit_prop"  # birchbark and jute_tow (value 1) sell for nothing


def test_config_switch_turns_the_tutorial_off_for_glasswick() -> None:
    assert "tutorial" in bundled_definition("glasswick").custom_events
    game = make_game("glasswick", 2, tutorial=False)
    assert game.quests.tutorial is None
    for _ in range(3):
        result = game.tick({"agent_0": "wait", "agent_1": "wait"})
        assert result.events_of("agent_0", "dep_tracker_hint") == []
    assert KEY not in game.world.auxiliary and "place_tutorial" not in game.world.places
    for me in game.agents.values():
        assert (me.area_id, me.tutorial_passed, me.tutorial_stage) == (
            game.world.spawn_area,
            True,
            0,
        )
        assert KEY not in me.progress


def test_a_world_the_default_cannot_serve_plays_without_it_and_says_why(caplog) -> None:
    """The tiny world has no level-1 raw material worth 2 (the default's kindling stands in for
    the log) and no station for its bar: the default tutorial is switched off, never a refusal."""
    caplog.set_level(logging.WARNING, "agentodyssey_pz.world")
    game = Game(TINY, 1, make_config(tutorial=True))
    assert game.quests.tutorial is None
    assert "obj_tutorial_kindling" not in {o.id for o in game.definition.entities.objects}
    (warning,) = [r.getMessage() for r in caplog.records if "switched off" in r.getMessage()]
    assert warning == (
        f"{TINY}: $: the game's setting tutorial=True uses the default tutorial section "
        f"({default_quest_file('tutorial')}), which this world cannot play, so the tutorial is "
        "switched off: $.roles.furnace: no furnace given and none can be inferred: the bar "
        "'obj_pear' is crafted at no station"
    )
    result = game.reset(0)
    me = game.agents["agent_0"]
    assert (me.tutorial_passed, me.area_id) == (True, game.world.spawn_area)
    assert "tutorial.intro" not in result.feedback_keys("agent_0")
    assert KEY not in game.world.auxiliary and KEY not in me.progress
    assert game.tick({"agent_0": "wait"}).feedback_keys("agent_0") == ["wait.done"]


def test_a_worlds_own_section_lacking_roles_is_a_precise_error() -> None:
    data = default_data()
    del data["stand_ins"]
    with pytest.raises(QuestDataError) as caught:
        load_quests({"tutorial": data}, tiny_definition())
    assert [str(p) for p in caught.value.problems] == [
        "$.tutorial.roles.log: no log given and none can be inferred: the world has no level-1 raw "
        "material worth at least 2",
        "$.tutorial.roles.furnace: no furnace given and none can be inferred: the bar 'obj_pear' "
        "is crafted at no station",
    ]


def tiny_definition() -> Any:
    from agentodyssey_pz.world.validate import load_definition

    return load_definition(TINY)


def make_config(**fields: Any) -> Any:
    from agentodyssey_pz.engine.config import GameConfig

    return GameConfig(**fields)


def default_data() -> dict[str, Any]:
    with open(default_quest_file("tutorial"), encoding="utf-8") as fh:
        return json.load(fh)


def problems_of(section: dict[str, Any], world: str = "glasswick") -> list[str]:
    with pytest.raises(QuestDataError) as caught:
        load_quests({"tutorial": section}, bundled_definition(world))
    return [str(p) for p in caught.value.problems]


def test_given_roles_are_checked_and_do_not_cascade() -> None:
    data = default_data()
    data["roles"] = {"bag": "obj_coin", "key": "obj_nothing", "lantern": "obj_coin"}
    assert problems_of(data) == [
        "$.tutorial.roles.lantern: unknown role (expected bag, note, coin, pen, log, bar, bench, "
        "furnace, blank, key)",
        "$.tutorial.roles.bag: 'obj_coin' cannot be the bag: it is not a container",
        "$.tutorial.roles.key: 'obj_nothing' cannot be the key: unknown object",
    ]


def test_the_crafting_chain_must_be_walkable() -> None:
    data = default_data()
    data["roles"] = {"key": "obj_sluice_key"}  # needs a blank and a bar, which step 26 lacks
    assert problems_of(data, "cinderdeep") == [
        "$.tutorial.steps[25]: step 'craft_key' crafts 'obj_sluice_key', whose recipe needs 0.5 "
        "'obj_verdite_bar': no setup of this step or an earlier one hands out that many, and no "
        "earlier step crafts it",
    ]


def test_data_problems_come_with_their_json_paths() -> None:
    data = default_data()
    data["steps"][0]["setup"] = [{"kind": "teleport"}]
    data["steps"][1]["done_any"][0]["payload"] = {"obj_id": "$lantern_instance"}
    data["steps"][2]["colour"] = "red"
    data["steps"][3]["instruction"] = "Now {dance}."
    data["steps"][4]["id"] = "pick_up_bag"
    data["steps"][14]["setup"][0]["objects"] = {"$coin": 0, "$lantern": 1}
    data["merchant"]["npc"] = "npc_tutor_footpad"
    checks = [
        "$.tutorial.merchant.npc: the merchant must not be an enemy",
        "$.tutorial.steps[0].setup[0].kind: unknown setup kind 'teleport' (one of "
        "instance_on_ground, give_if_lacking, give_up_to, ground_at_least, ensure_npc, lock_exit)",
        "$.tutorial.steps[1].done_any[0].payload.obj_id: unknown variable '$lantern_instance'",
        "$.tutorial.steps[3].instruction: unknown variable '{dance}' in text",
        "$.tutorial.steps[14].setup[0].objects.$coin: expected a positive whole number, got 0",
        "$.tutorial.steps[14].setup[0].objects.$lantern: unknown object '$lantern'",
        "$.tutorial.steps[4].id: duplicate step id 'pick_up_bag' (first at [0])",
    ]
    # A shape error in one step: that step waits, every other step and part is still checked.
    assert problems_of(data) == ["$.tutorial.steps[2]: unknown key: colour", *checks]
    del data["steps"][2]["colour"]
    assert problems_of(data) == checks
    # A malformed step keeps its place: the paths of the steps after it are unchanged.
    data["steps"][2] = "not a step"
    assert problems_of(data) == [
        "$.tutorial.steps[2]: expected an object, got a string",
        *checks,
    ]


def test_the_default_data_has_the_28_steps_with_setups_and_conditions() -> None:
    tutorial = tutorial_game().quests.tutorial
    assert len(tutorial.steps) == STEPS
    assert [s.hint for s in tutorial.steps] == [f"tutorial: {h}" for h in HINTS]
    assert all(s.done_any for s in tutorial.steps)
    assert {n.id for n in tutorial.npcs} == {"npc_tutor_pedlar", "npc_tutor_footpad"}


# ---------------------------------------------------------------------------- resume
def resumed(game: Game) -> Game:
    """A copy rebuilt from plain JSON state with fresh rule instances (what a checkpoint gives)."""
    data = json.loads(json.dumps(game_state_data(game)))
    clone = copy.deepcopy(game)
    clone.world = World.from_dict(data["world"])
    converter = cattrs.Converter()
    clone.agents = {a["id"]: converter.structure(a, AgentState) for a in data["agents"]}
    clone.step_rules = [type(rule)() for rule in game.step_rules]
    return clone


def test_a_resumed_game_recreates_nothing_and_continues_identically() -> None:
    game = tutorial_game(agents=2)
    while game.agents["agent_0"].tutorial_stage < 17:
        game.tick({"agent_0": command(game, "agent_0"), "agent_1": "wait"})
    game.tick({"agent_0": "wait", "agent_1": command(game, "agent_1")})
    clone = resumed(game)
    assert state_hash(clone) == state_hash(game)
    npcs_before = sorted(game.world.npcs)
    for _ in range(STEPS):
        actions = {
            aid: "wait" if game.agents[aid].tutorial_passed else command(game, aid)
            for aid in game.agent_ids
        }
        game.tick(actions)
        clone.tick(actions)
        assert state_hash(clone) == state_hash(game)
    assert sorted(clone.world.npcs) == sorted(game.world.npcs)
    assert [n for n in npcs_before if n.startswith("npc_tutor")] == ["npc_tutor_pedlar_0"]
    assert all(a.tutorial_passed for a in clone.agents.values())
