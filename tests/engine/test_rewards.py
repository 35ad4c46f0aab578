"""Rewards through `Game.tick`: every component, the four totals, XP and levelling.

docs/mechanics/rewards.md. Each scenario plays real commands on the tiny world (a
blank stage from `clear_world` where NPCs would get in the way) and compares the tick's whole
`RewardBreakdown` - eight components and four totals, written out by hand - with the page's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest
from harness import TINY, agent, clear_world, give, make_game, move_to, put_on_ground, spawn_npc
from worlds_helper import bundled_definition

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.tick import gain_experience
from agentodyssey_pz.engine.worldpack import WorldPack
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.rewards import COMPONENTS, RewardBreakdown, RewardFunction

GATE, ROWS, VATS, VAULT = "area_gate", "area_rows", "area_vats", "area_vault"
TOTALS = ("total", "xp_total", "rl_total", "score_total")
ZERO = {**dict.fromkeys(COMPONENTS, 0), **dict.fromkeys(TOTALS, 0)}


def expect(**given: int) -> dict[str, int]:
    """A full breakdown: the components named (others 0) and all four totals, given by hand."""
    missing = [t for t in TOTALS if t not in given]
    assert not missing, f"write the totals out: {missing}"
    return {**dict.fromkeys(COMPONENTS, 0), **given}


def reward(result: Any, agent_id: str = "agent_0") -> dict[str, int]:
    return result.rewards[agent_id].as_dict()


def tick(game: Game, command: str = "wait", agent_id: str = "agent_0") -> Any:
    return game.tick({aid: command if aid == agent_id else "wait" for aid in game.agents})


@pytest.fixture
def game() -> Game:
    g = make_game(agents=2)
    clear_world(g)
    return g


# ------------------------------------------------------------------------------ exploration
def test_entering_a_new_area_pays_exploration_once(game: Game) -> None:
    me = agent(game)
    first = tick(game, "enter rows")
    assert reward(first) == expect(exploration=1, total=1, xp_total=5, rl_total=5, score_total=1)
    assert reward(first, "agent_1") == ZERO
    assert (me.xp, list(me.visited)) == (5, [GATE, ROWS])
    assert reward(tick(game, "enter gate")) == ZERO  # the spawn area was visited from the start
    assert reward(tick(game, "enter rows")) == ZERO  # rows again: nothing new
    assert me.xp == 5
    assert game.scores["agent_0"].components() == {**dict.fromkeys(COMPONENTS, 0), "exploration": 1}


# ------------------------------------------------------------------------------ craft
def test_first_craft_of_a_kind_pays_and_a_repeat_does_not(game: Game) -> None:
    me = agent(game)
    give(game, "agent_0", "obj_pear", 2)
    first = tick(game, "craft 1 label")
    assert first.events_of("agent_0", "object_crafted")
    assert reward(first) == expect(craft=1, total=1, xp_total=5, rl_total=5, score_total=1)
    again = tick(game, "craft 1 label")
    assert again.events_of("agent_0", "object_crafted")  # crafted again, but not a new kind
    assert reward(again) == ZERO
    assert (me.crafted, me.xp) == ({"obj_label": 2}, 5)


# ------------------------------------------------------------------------------ kills
def test_kills_and_unique_kills_by_kind_and_level(game: Game) -> None:
    me = agent(game)

    def kill(level: int) -> Any:
        npc = spawn_npc(game, "npc_wasp", GATE, level=level, hp=1, inventory={})
        result = tick(game, f"attack {npc.name}")
        assert [e.data["npc_id"] for e in result.events_of("agent_0", "npc_killed")] == [npc.id]
        return result

    assert reward(kill(1)) == expect(
        kill=1, unique_kill=1, total=2, xp_total=5, rl_total=10, score_total=1
    )
    # The same kind at the same level again: a kill, not a unique kill.
    assert reward(kill(1)) == expect(kill=1, total=1, xp_total=5, rl_total=5, score_total=0)
    # The same kind at another level is a new unique kill
    # (docs/mechanics/rewards.md#quirk-distinct-kills-depend-on-the-level).
    assert reward(kill(2)) == expect(
        kill=1, unique_kill=1, total=2, xp_total=5, rl_total=10, score_total=1
    )
    assert (me.kills, list(me.unique_kills), me.xp) == (3, ["npc_wasp_1", "npc_wasp_2"], 15)


# ------------------------------------------------------------------------------ trade
def test_first_purchase_of_a_kind_pays_and_selling_never_does(game: Game) -> None:
    me = agent(game)
    game.world.place_npc("npc_cider_seller", GATE)
    give(game, "agent_0", "obj_coin", 9)
    bought = tick(game, "buy 1 cider cider_seller")
    assert bought.feedback_keys("agent_0") == ["buy.done"]
    assert reward(bought) == expect(trade=1, total=1, xp_total=10, rl_total=10, score_total=1)
    again = tick(game, "buy 1 cider cider_seller")
    assert again.feedback_keys("agent_0") == ["buy.done"]
    assert reward(again) == ZERO
    other_kind = tick(game, "buy 1 label cider_seller")
    assert reward(other_kind) == expect(trade=1, total=1, xp_total=10, rl_total=10, score_total=1)
    give(game, "agent_0", "obj_cider")
    sold = tick(game, "sell 1 cider cider_seller")
    assert sold.events_of("agent_0", "object_sold")
    assert reward(sold) == ZERO
    assert (me.traded, me.xp) == ({"obj_cider": 2, "obj_label": 1}, 20)


# ------------------------------------------------------------------------------ quests
def test_a_main_quest_stage_pays_one_quest_point_and_20_xp() -> None:
    """The default main quest's first stage: stand with the surveyor (placed in the vats)."""
    game = make_game(main_quest=True)
    me = agent(game)
    area = game.world.auxiliary["main_quest"]["vars"]["surveyor_area"]
    me.visited[area] = None  # known already: this tick is about the quest alone
    move_to(game, "agent_0", area)
    result = tick(game)
    assert [e.data for e in result.events_of("agent_0", "quest_stage_advanced")] == [
        {"chapter": 0, "stage": 1}
    ]
    assert reward(result) == expect(quest=1, total=1, xp_total=20, rl_total=20, score_total=1)
    assert me.xp == 20


def test_a_completed_side_quest_pays_one_point_and_5_xp() -> None:
    """A talk errand: the only friendly NPC in explored land is the hermit in the rows."""
    game = make_game(side_quest=True)
    clear_world(game)
    hermit = spawn_npc(
        game, "npc_wasp", ROWS, enemy=False, role="hermit", name="hermit", inventory={}
    )
    for area in (ROWS, VATS):  # two explored areas besides spawn unlock the side quests
        move_to(game, "agent_0", area)
        tick(game)
    task = agent(game).progress["side_quest"]["tasks"]["talk"]
    assert task["target_npc"] == hermit.id
    move_to(game, "agent_0", ROWS)  # visited already
    result = tick(game, "talk to hermit")
    assert [e.data["task_type"] for e in result.events_of("agent_0", "side_quest_completed")] == [
        "talk"
    ]
    assert reward(result) == expect(side_quest=1, total=1, xp_total=5, rl_total=5, score_total=1)


def test_an_area_entered_is_paid_even_if_the_agent_dies_in_the_same_tick(game: Game) -> None:
    """Visits are recorded by the engine right after the action phase (the reference judges
    exploration on the area the agent ends the tick in;
    docs/mechanics/step-rules.md#quirk-step-rules-see-this-ticks-visits): an agent that entered rows
    and was killed before the tick ended did visit rows, so it is paid now, once, and not again when
    it comes back."""
    me = agent(game)
    me.hp = 0  # dies in this tick's step phase, after it has acted
    result = tick(game, "enter rows")
    assert result.events_of("agent_0", "area_entered") and result.events_of("agent_0", "agent_died")
    assert me.area_id == GATE and list(me.visited) == [GATE, ROWS]
    assert reward(result)["exploration"] == 1 and reward(result)["death"] == 1
    assert reward(tick(game, "enter rows"))["exploration"] == 0


# ------------------------------------------------------------------------------ death
def test_a_death_costs_ten_rl_points_and_no_xp(game: Game) -> None:
    me = agent(game)
    me.xp, me.hp = 40, 0
    result = tick(game)
    assert [e.data for e in result.events_of("agent_0", "agent_died")] == [{"area_id": GATE}]
    assert reward(result) == expect(death=1, total=-1, xp_total=0, rl_total=-10, score_total=-1)
    assert (me.xp, me.level) == (40, 1)  # dying never costs XP
    assert game.scores["agent_0"].death == 1


# ------------------------------------------------------------------------------ levels
def test_reaching_100_xp_levels_up_with_hp_and_base_attack(game: Game) -> None:
    me = agent(game)
    me.xp, me.hp = 95, 70
    result = tick(game, "enter rows")
    assert reward(result) == expect(exploration=1, total=1, xp_total=5, rl_total=5, score_total=1)
    assert (me.level, me.xp, me.max_hp, me.hp, me.min_attack) == (2, 0, 120, 90, 15)
    assert [e.data for e in result.events_of("agent_0", "agent_leveled_up")] == [
        {"levels_gained": 1}
    ]
    assert "progress.level_up" in result.feedback_keys("agent_0")
    # Fixed quirk ("a level-up raises attack at once"): the bonus is in `attack` at once, not after
    # the next tick's update.
    assert me.attack == 15
    tick(game)
    assert me.attack == 15


def test_the_level_up_bonus_is_in_the_very_next_attack(game: Game) -> None:
    """Quirk "a level-up raises attack at once": the reference's first attack after a level-up
    still did the old damage (docs/mechanics/rewards.md#quirk-a-level-up-raises-attack-at-once)."""
    me = agent(game)
    give(game, "agent_0", "obj_pear")  # an item in hand, worth no attack
    me.xp = 95
    tick(game, "enter rows")
    assert (me.level, me.min_attack, me.attack) == (2, 15, 15)
    npc = spawn_npc(game, "npc_wasp", "area_rows", hp=100, inventory={})
    result = tick(game, f"attack {npc.name}")
    assert [e.data["damage"] for e in result.events_of("agent_0", "npc_attacked")] == [15]


class FixedReward(RewardFunction):
    """Pays the same breakdown to agent_0 on every call and counts its calls."""

    def __init__(self, **parts: int) -> None:
        self.parts = parts
        self.calls = 0

    def compute(self, game: Any, before: Mapping[str, Any], res: Any) -> dict[str, RewardBreakdown]:
        self.calls += 1
        return {
            aid: RewardBreakdown(**self.parts) if aid == "agent_0" else RewardBreakdown()
            for aid in game.agents
        }


def test_several_levels_in_one_tick() -> None:
    game = Game(TINY, 1, reward_function=FixedReward(quest=11))  # 220 XP per tick
    game.reset(0)
    me = agent(game)
    me.xp, me.hp = 90, 50
    result = game.tick({"agent_0": "wait"})
    assert (me.level, me.xp, me.max_hp, me.hp, me.min_attack) == (4, 10, 160, 110, 25)
    assert [e.data for e in result.events_of("agent_0", "agent_leveled_up")] == [
        {"levels_gained": 3}
    ]
    assert "I leveled up 3 times" in result.feedback("agent_0")


def test_gain_experience_follows_the_spec_loop() -> None:
    """`gain_xp` exactly: 100 per level, +20 max HP and HP, +5 base attack per level."""
    me = agent(make_game())
    view = SimpleNamespace(config=GameConfig())
    res = RuleResult(["agent_0"])
    assert gain_experience(view, me, 99, res) == 0
    assert gain_experience(view, me, 1, res) == 1
    assert gain_experience(view, me, 250, res) == 2
    assert (me.level, me.xp, me.max_hp, me.hp, me.min_attack) == (4, 50, 160, 160, 25)


# ------------------------------------------------------------------------------ the worked example
# docs/mechanics/rewards.md#worked-example: (breakdown components, xp_total, xp after, level after)
WORKED_EXAMPLE = [
    ({"exploration": 1, "quest": 1}, 25, 25, 1),
    ({"quest": 1}, 20, 45, 1),
    ({"exploration": 1, "quest": 1}, 25, 70, 1),
    ({"quest": 1}, 20, 90, 1),
    ({"kill": 1, "unique_kill": 1}, 5, 95, 1),
    ({"exploration": 1}, 5, 0, 2),
]


def test_worked_example_arithmetic() -> None:
    me = agent(make_game())
    view, res = SimpleNamespace(config=GameConfig()), RuleResult(["agent_0"])
    for parts, xp_total, xp_after, level in WORKED_EXAMPLE:
        breakdown = RewardBreakdown(**parts)
        assert breakdown.xp_total == xp_total
        gain_experience(view, me, breakdown.xp_total, res)
        assert (me.xp, me.level) == (xp_after, level)
    assert (me.max_hp, me.min_attack) == (120, 15)
    tick5 = RewardBreakdown(kill=1, unique_kill=1)
    assert (tick5.total, tick5.score_total, tick5.rl_total) == (2, 1, 10)
    death = RewardBreakdown(death=1)
    assert (death.total, death.xp_total, death.rl_total, death.score_total) == (-1, 0, -10, -1)
    # Every total is linear: a sum of breakdowns has the sum of their totals.
    both = RewardBreakdown(**WORKED_EXAMPLE[0][0])
    both.add(tick5)
    assert both.as_dict() == expect(
        exploration=1, quest=1, kill=1, unique_kill=1, total=4, xp_total=30, rl_total=35,
        score_total=3,
    )  # fmt: skip


def test_the_dict_form_agrees_with_the_totals_for_any_breakdown() -> None:
    import random

    rng = random.Random(0)
    for _ in range(500):
        breakdown = RewardBreakdown(**{c: rng.randint(0, 3) for c in COMPONENTS})
        as_dict = breakdown.as_dict()
        assert {c: as_dict[c] for c in COMPONENTS} == breakdown.components()
        for total in ("total", "xp_total", "rl_total", "score_total"):
            assert as_dict[total] == getattr(breakdown, total), total


def play_worked_example(**config: Any) -> tuple[Any, list[dict[str, int]]]:
    """The worked example's six ticks through the engine: the tiny world's default main quest,
    chapter 1."""
    game = make_game(main_quest=True, **config)
    world, me = game.world, agent(game)
    for npc_id in ("npc_wasp_0", "npc_wasp_1"):  # no ambushes
        world.remove_npc_from_map(npc_id)
    quest_vars = world.auxiliary["main_quest"]["vars"]
    assert (quest_vars["surveyor_area"], quest_vars["waystone_area"]) == (VATS, VAULT)
    world.graph.set_locked(GATE, VATS, False)
    world.graph.set_locked(VATS, VAULT, False)
    put_on_ground(game, VATS, "obj_pruner")
    (label,) = give(game, "agent_0", "obj_label")
    world.writables[label].text = quest_vars["mark_word"]
    rewards = []
    for command in ("enter vats", "pick up pruner", "enter vault", f"drop {world.name_of(label)}"):
        rewards.append(reward(tick(game, command)))
    (boss,) = [n for n in world.npcs.values() if n.def_id == "npc_boss_gloam_stalker"]
    boss.hp = 1
    rewards.append(reward(tick(game, f"attack {boss.name}")))
    move_to(game, "agent_0", ROWS)  # another new area
    rewards.append(reward(tick(game)))
    # Scores accumulate the eight fields of every tick (docs/mechanics/rewards.md#scores).
    assert game.scores["agent_0"].components() == {
        c: sum(r[c] for r in rewards) for c in COMPONENTS
    }
    return me, rewards


def test_worked_example_through_the_engine_with_the_reference_quest_points() -> None:
    """`reward_final_quest_stages=False` is the reference: a chapter's last stage pays nothing."""
    me, rewards = play_worked_example(reward_final_quest_stages=False)
    assert rewards == [
        expect(exploration=1, quest=1, total=2, xp_total=25, rl_total=25, score_total=2),
        expect(quest=1, total=1, xp_total=20, rl_total=20, score_total=1),
        expect(exploration=1, quest=1, total=2, xp_total=25, rl_total=25, score_total=2),
        expect(quest=1, total=1, xp_total=20, rl_total=20, score_total=1),
        expect(kill=1, unique_kill=1, total=2, xp_total=5, rl_total=10, score_total=1),
        expect(exploration=1, total=1, xp_total=5, rl_total=5, score_total=1),
    ]
    assert (me.level, me.xp, me.max_hp, me.hp, me.min_attack) == (2, 0, 120, 120, 15)


def test_the_default_config_pays_the_chapter_closing_stage_too() -> None:
    """Ours (GameConfig default): the boss stage also pays, so level 2 comes on tick 5."""
    me, rewards = play_worked_example()
    assert rewards[4] == expect(
        kill=1, unique_kill=1, quest=1, total=3, xp_total=25, rl_total=30, score_total=2
    )
    assert rewards[5] == expect(exploration=1, total=1, xp_total=5, rl_total=5, score_total=1)
    assert (me.level, me.xp) == (2, 20)


# ------------------------------------------------------------------------------ zero rewards
def test_the_bootstrap_tick_pays_nothing_and_custom_functions_are_used() -> None:
    paying = FixedReward(quest=1)
    game = Game(TINY, 2, reward_function=paying)
    boot = game.reset(0)
    assert game.reward_function is paying
    assert paying.calls == 0 and boot.bootstrap
    assert {aid: r.as_dict() for aid, r in boot.rewards.items()} == {
        "agent_0": ZERO,
        "agent_1": ZERO,
    }
    assert agent(game).xp == 0
    result = game.tick({"agent_0": "wait", "agent_1": "wait"})
    assert paying.calls == 1
    assert reward(result) == expect(quest=1, total=1, xp_total=20, rl_total=20, score_total=1)
    assert reward(result, "agent_1") == ZERO
    assert agent(game).xp == 20


def test_an_agent_standing_in_a_tutorial_room_earns_nothing() -> None:
    """A craft and a quest stage happen for an agent in its tutorial room: both would pay
    elsewhere; the whole breakdown is zero there, and no XP (one exclusion rule;
    docs/mechanics/rewards.md#quirk-the-tutorial-room-pays-nothing-at-all)."""
    # Glasswick's tutorial roles with the project's default main quest (whose variables we read).
    pack = WorldPack(bundled_definition("glasswick"), name="glasswick-default-quest")
    game = Game(pack, 1, GameConfig(tutorial=True, main_quest=True))
    game.reset(0)
    me = agent(game)
    assert game.in_tutorial_room(me)
    me.tutorial_passed = True  # tracked from now on (crafts, quests) while still in the room
    tick(game)  # the main quest begins for agents that passed
    surveyor = game.world.auxiliary["main_quest"]["vars"]["surveyor"]
    game.world.place_npc(surveyor, me.area_id)
    note = game.world.objects[game.quests.tutorial.roles["note"]]  # crafted from raw material only
    (ingredient, amount), *_ = note.craft.ingredients.items()
    give(game, "agent_0", ingredient, int(amount))
    result = tick(game, f"craft 1 {note.name}")
    assert game.in_tutorial_room(me)
    assert result.events_of("agent_0", "object_crafted") and me.crafted == {note.id: 1}
    assert result.events_of("agent_0", "quest_stage_advanced")
    assert reward(result) == ZERO
    assert me.xp == 0
