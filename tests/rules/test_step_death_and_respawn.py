"""death_and_respawn_step (docs/mechanics/combat.md#death-and-respawn): drop everything where I
fell, respawn."""

from __future__ import annotations

import pytest
from harness import (
    agent,
    blank_game,
    give,
    move_to,
    run_step,
    spawn_npc,
    step_rule,
)

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import Engagement

RULE = "death_and_respawn_step"
DIED_IN = "area_rows"
SPAWN = "area_gate"


def dying_agent_setup(agents: int = 1):
    """agent_0 in the rows at -4 HP holding a pruner and a label, wearing the apron and a crate
    (as inventory, 3 pears inside), mid-fight with a wasp."""
    game = blank_game(agents=agents)
    move_to(game, "agent_0", DIED_IN)
    me = agent(game)
    give(game, "agent_0", "obj_pruner")
    (label,) = give(game, "agent_0", "obj_label")
    crate = game.world.new_instance("obj_crate")
    game.world.containers[crate].items["obj_pear"] = 3
    me.equipped.update({crate: 1, "obj_apron": 1})
    me.inventory_id = crate
    me.defense = 3
    wasp = spawn_npc(game, "npc_wasp", DIED_IN)
    me.combats[wasp.id] = Engagement(2, DIED_IN)
    me.hp, me.min_attack, me.attack = -4, 15, 22
    me.stamina, me.consecutive_attacks = 0.4, 3
    me.xp, me.level, me.max_hp = 40, 2, 120
    return game, me, label, crate


def test_items_are_dropped_where_the_agent_died():
    game, me, label, crate = dying_agent_setup()
    run_step(game, RULE)
    assert game.world.areas[DIED_IN].objects == {
        "obj_pruner": 1,
        label: 1,
        crate: 1,
        "obj_apron": 1,
    }
    assert game.world.containers[crate].items == {"obj_pear": 3}  # the inventory keeps its contents
    assert game.world.areas[SPAWN].objects == {}
    assert (me.hands, me.equipped, me.inventory_id) == ({}, {}, None)


def test_respawn_location_and_stats():
    game, me, _, _ = dying_agent_setup()
    visited = dict(me.visited)
    res = run_step(game, RULE)
    assert me.area_id == SPAWN
    assert [a.id for a in game.agents_in(SPAWN)] == ["agent_0"]
    assert list(game.agents_in(DIED_IN)) == []
    assert (me.hp, me.max_hp, me.attack, me.min_attack, me.defense) == (120, 120, 15, 15, 0)
    assert (me.xp, me.level, me.deaths) == (40, 2, 1)
    assert me.visited == visited
    assert res.feedback_keys("agent_0") == ["death.died", "death.respawned"]
    assert [(e.type, e.agent_id, e.data) for e in res.events] == [
        ("agent_died", "agent_0", {"area_id": DIED_IN})
    ]


def test_quirk_ambush_death_leaves_no_stale_combat():
    """The reference keeps combat entries after an ambush death; they are cleared here."""
    game, me, _, _ = dying_agent_setup()
    run_step(game, RULE)
    assert me.combats == {}
    assert (me.stamina, me.consecutive_attacks) == (1.0, 0)


def test_quirk_equipped_items_are_tracked_from_equip():
    """Framework 5: the reference records equipped drops as moving from `hand`."""
    game, _, label, crate = dying_agent_setup()
    res = RuleResult(game.agent_ids, tracking=True)
    step_rule(game, RULE).apply(RuleContext(game, game.world, None, "", (), game.tick_index), res)
    moves = [
        (e.agent_id, e.data["obj_id"], e.data["src"]["kind"], e.data["dst"])
        for e in res.events
        if e.type == "track.move"
    ]
    dst = {"kind": "area", "id": DIED_IN}
    assert moves == [
        ("env", "obj_pruner", "hand", dst),
        ("env", label, "hand", dst),
        ("env", crate, "equip", dst),
        ("env", "obj_apron", "equip", dst),
    ]


@pytest.mark.parametrize(("hp", "dies"), [(0, True), (-30, True), (1, False)])
def test_only_agents_at_zero_hp_or_below_die(hp, dies):
    game, me, _, _ = dying_agent_setup(agents=2)
    me.hp = hp
    other = agent(game, "agent_1")
    res = run_step(game, RULE)
    assert (me.area_id == SPAWN) is dies
    assert me.deaths == int(dies)
    assert other.deaths == 0 and other.hp == 100
    assert [e.agent_id for e in res.events] == (["agent_0"] if dies else [])


def test_ambush_death_while_engaged_in_a_full_tick():
    """An ambush takes the last HP; the same tick the agent respawns with no fight left and the
    reward reports one death."""
    game, me, _, _ = dying_agent_setup()
    ambusher = spawn_npc(game, "npc_wasp", DIED_IN, attack_power=40)
    foe = next(iter(me.combats))
    game.world.npcs[foe].combat_pattern = ("wait",)
    me.hp = 5

    class AlwaysHit:
        def random(self):
            return 0.0

    game.rng = AlwaysHit()
    result = game.tick({"agent_0": "wait"})
    assert [
        (e.type, e.data.get("npc_id"))
        for e in result.events_of("agent_0")
        if e.type in ("agent_damaged", "agent_died")
    ] == [
        ("agent_damaged", ambusher.id),
        ("agent_died", None),
    ]
    assert me.area_id == SPAWN and me.combats == {} and me.hp == me.max_hp
    assert result.rewards["agent_0"].death == 1
