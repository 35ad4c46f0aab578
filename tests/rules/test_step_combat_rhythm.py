"""combat_rhythm_step (docs/mechanics/combat.md#rhythm-combat): engaged NPCs act on their
pattern."""

from __future__ import annotations

import pytest
from harness import agent, blank_game, make_game, run_step, spawn_npc, step_rule

from agentodyssey_pz.world.agents import Engagement

RULE = "combat_rhythm_step"
AREA = "area_rows"
PATTERN = ("attack", "defend", "attack", "wait")


def fight_setup(attack_power: int = 12, pattern: tuple[str, ...] = PATTERN, agents: int = 1):
    game = blank_game(agents=agents, at=AREA)
    npc = spawn_npc(game, "npc_wasp", AREA, attack_power=attack_power, combat_pattern=pattern)
    for a in game.agents.values():
        a.combats[npc.id] = Engagement(0, AREA)
    return game, npc


def damage_events(res, agent_id="agent_0"):
    return [e.data for e in res.events_of(agent_id, "agent_damaged")]


def test_damage_per_beat_over_a_whole_pattern_cycle():
    game, npc = fight_setup(attack_power=12)
    me = agent(game)
    seen = []
    for _ in range(5):  # one full cycle and the first beat of the next
        res = run_step(game, RULE)
        seen.append(
            (res.feedback_keys("agent_0"), me.hp, me.combats[npc.id].rhythm_index, len(res.events))
        )
    assert seen == [
        (["combat.npc_attacks"], 88, 1, 1),
        (["combat.npc_defends"], 88, 2, 0),
        (["combat.npc_attacks"], 76, 3, 1),
        (["combat.npc_waits"], 76, 0, 0),
        (["combat.npc_attacks"], 64, 1, 1),
    ]


def test_attack_event_payload_is_exact():
    game, npc = fight_setup(attack_power=12)
    res = run_step(game, RULE)
    assert [(e.type, e.agent_id, e.data) for e in res.events] == [
        (
            "agent_damaged",
            "agent_0",
            {
                "npc_id": npc.id,
                "damage": 12,
                "area_id": AREA,
                "rhythm_action": "attack",
                "agent_defended": False,
            },
        )
    ]


@pytest.mark.parametrize(
    ("attack_power", "armour", "defending", "damage"),
    [
        (37, False, False, 37),
        (37, False, True, 3),  # int(37 * 0.1)
        (37, True, False, 34),  # apron: defense 3
        (37, True, True, 3),  # int(34 * 0.1)
        (19, False, True, 1),  # int(1.9)
        (9, False, True, 0),  # 0 damage is still reported
        (2, True, False, 0),  # defense above attack: max(0, 2 - 3)
    ],
)
def test_defend_and_armour_reduce_rhythm_damage(attack_power, armour, defending, damage):
    game, npc = fight_setup(attack_power=attack_power, pattern=("attack",))
    me = agent(game)
    if armour:
        me.equipped["obj_apron"] = 1
        me.defense = game.world.objects["obj_apron"].defense
    me.defending = defending
    res = run_step(game, RULE)
    assert damage_events(res) == [
        {
            "npc_id": npc.id,
            "damage": damage,
            "area_id": AREA,
            "rhythm_action": "attack",
            "agent_defended": defending,
        }
    ]
    assert me.hp == 100 - damage


def test_defeat_ends_all_combats_and_does_not_advance_the_index():
    game, first = fight_setup(attack_power=10, pattern=("attack", "wait"))
    second = spawn_npc(game, "npc_wasp", AREA, attack_power=50, combat_pattern=("attack",))
    me = agent(game)
    me.combats[second.id] = Engagement(0, AREA)
    first_engagement, second_engagement = me.combats[first.id], me.combats[second.id]
    me.hp, me.stamina, me.consecutive_attacks = 10, 0.4, 3
    res = run_step(game, RULE)
    assert me.hp == 0
    assert me.combats == {}
    assert (me.stamina, me.consecutive_attacks) == (1.0, 0)
    assert first_engagement.rhythm_index == 0  # not advanced by the killing beat
    assert second_engagement.rhythm_index == 0  # later NPCs did not act
    assert [(e.type, e.data["npc_id"]) for e in res.events] == [
        ("agent_damaged", first.id),
        ("agent_defeated_in_combat", first.id),
    ]
    assert res.events[1].data == {"npc_id": first.id, "area_id": AREA}
    assert res.feedback_keys("agent_0") == ["combat.npc_attacks", "combat.defeated"]


def make_stale(game, npc, kind):
    me = agent(game)
    if kind == "other_area":
        me.combats[npc.id].area_id = "area_vats"
    elif kind == "npc_missing":
        game.world.delete_npc(npc.id)
    elif kind == "npc_dead":
        npc.hp = 0
    elif kind == "npc_left_area":
        game.world.place_npc(npc.id, "area_vats")


@pytest.mark.parametrize("kind", ["other_area", "npc_missing", "npc_dead", "npc_left_area"])
def test_stale_engagement_is_dropped_and_rest_restores_stamina(kind):
    game, npc = fight_setup(attack_power=12)
    me = agent(game)
    me.stamina, me.consecutive_attacks = 0.6, 2
    make_stale(game, npc, kind)
    res = run_step(game, RULE)
    assert me.combats == {}
    assert (me.stamina, me.consecutive_attacks) == (1.0, 0)
    assert res.events == [] and me.hp == 100


def test_stale_engagement_dropped_while_a_live_one_acts():
    game, stale = fight_setup(attack_power=12)
    live = spawn_npc(game, "npc_wasp", AREA, attack_power=5, combat_pattern=("attack",))
    me = agent(game)
    me.combats[live.id] = Engagement(0, AREA)
    stale.hp = 0
    me.stamina = 0.6
    res = run_step(game, RULE)
    assert list(me.combats) == [live.id]
    assert me.stamina == 0.6  # still fighting: no rest
    assert [e.data["npc_id"] for e in res.events] == [live.id]
    assert me.hp == 95


def test_empty_pattern_stays_registered_and_does_nothing():
    game, npc = fight_setup(pattern=())
    me = agent(game)
    me.stamina = 0.4
    res = run_step(game, RULE)
    assert me.combats == {npc.id: Engagement(0, AREA)}
    assert me.stamina == 0.4 and res.events == [] and res.feedback_keys("agent_0") == []


def test_no_combats_means_no_stamina_reset():
    game = make_game()
    me = agent(game)
    me.stamina, me.consecutive_attacks = 0.4, 3
    run_step(game, RULE)
    assert (me.stamina, me.consecutive_attacks) == (0.4, 3)


def test_one_npc_hits_two_agents_independently():
    game, npc = fight_setup(attack_power=12, agents=2)
    agent(game, "agent_1").combats[npc.id].rhythm_index = 1  # agent_1 is one beat further
    res = run_step(game, RULE)
    assert [(e.agent_id, e.data["damage"]) for e in res.events] == [("agent_0", 12)]
    assert res.feedback_keys("agent_1") == ["combat.npc_defends"]
    assert [a.combats[npc.id].rhythm_index for a in game.agents.values()] == [1, 2]


def test_dead_agents_and_agents_in_the_tutorial_room_are_skipped():
    game, npc = fight_setup(attack_power=12, agents=2)
    agent(game, "agent_0").hp = 0
    # A stand-in tutorial: the fight's place plays the tutorial place.
    place = game.world.areas[AREA].place_id
    game.world.auxiliary["tutorial_room"] = {
        "place_id": place,
        "rooms": {"agent_1": {"area_id": AREA}},
    }
    res = run_step(game, RULE)
    assert res.events == []
    assert [a.combats[npc.id].rhythm_index for a in game.agents.values()] == [0, 0]


def test_rhythm_beat_in_a_full_tick_sees_this_ticks_defend():
    """Through a real tick: the beat resolves after the actions, so `defend` this tick counts;
    the engaged NPC does not also ambush, and the index advances once."""
    game, npc = fight_setup(attack_power=12)
    result = game.tick({"agent_0": "defend"})
    damaged = [e.data for e in result.events if e.type == "agent_damaged"]
    assert damaged == [
        {
            "npc_id": npc.id,
            "damage": 1,
            "area_id": AREA,
            "rhythm_action": "attack",
            "agent_defended": True,
        }
    ]
    assert agent(game).hp == 99 and agent(game).defending is False
    assert agent(game).combats[npc.id].rhythm_index == 1


# ----------------------------------------------------------------------------- hooks for packs
def test_an_npc_that_may_not_move_loses_its_move_and_its_index_advances():
    game, npc = fight_setup(attack_power=12)
    me = agent(game)
    asked = []

    def npc_moves(ctx, res, who, whom):
        asked.append((who.id, whom.id))
        return False

    step_rule(game, RULE).npc_moves = npc_moves
    res = run_step(game, RULE)
    assert asked == [("agent_0", npc.id)]
    assert (me.hp, me.combats[npc.id].rhythm_index, res.events) == (100, 1, [])


def test_after_hit_that_removes_the_npc_drops_the_fight_without_a_defeat():
    game, npc = fight_setup(attack_power=150)  # the hit brings the agent below 0 HP
    me = agent(game)
    step_rule(game, RULE).after_hit = lambda ctx, res, who, whom, area: True
    res = run_step(game, RULE)
    assert me.hp == -50 and npc.id not in me.combats
    assert [e.type for e in res.events] == ["agent_damaged"]  # no agent_defeated_in_combat


def test_after_hit_that_keeps_the_npc_leaves_the_defeat_check_as_it_was():
    game, _ = fight_setup(attack_power=150)
    me = agent(game)
    step_rule(game, RULE).after_hit = lambda ctx, res, who, whom, area: False
    res = run_step(game, RULE)
    assert [e.type for e in res.events] == ["agent_damaged", "agent_defeated_in_combat"]
    assert me.combats == {}
