"""`attack <npc>`: damage, stamina and streak, kills (tracking, loot, map), combat start, failures.

docs/mechanics/verbs.md#attack and docs/mechanics/combat.md#attack-damage. Numbers are the page's
formula evaluated by hand: damage = int(attack * stamina), x0.1 (truncated) when the NPC defends
this round; stamina max(0.2, s - 0.2) from the second attack of a streak on.
"""

from __future__ import annotations

from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_exact,
    events,
    give,
    make_game,
    move_to,
    restage,
    spawn_npc,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement

HERE = "area_rows"
ELSEWHERE = "area_vats"


@pytest.fixture
def game() -> Game:
    return blank_game(at=HERE)


def wasp(game: Game, area: str = HERE, **overrides: Any) -> Any:
    """A level-1 wasp (25 HP) carrying nothing unless told otherwise."""
    overrides.setdefault("inventory", {})
    return spawn_npc(game, "npc_wasp", area, **overrides)


def keys(res: Any) -> list[str]:
    return res.feedback_keys("agent_0")


# ------------------------------------------------------------------ success: first hit
def test_first_hit_on_enemy_starts_combat(game: Game) -> None:
    npc = wasp(game)
    res = act(game, "agent_0", f"attack {npc.name}")
    a = agent(game)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert keys(res) == ["attack.hit", "attack.engaged"]
    assert npc.hp == 15
    assert a.combats == {npc.id: Engagement(0, HERE)}
    assert (a.consecutive_attacks, a.stamina) == (1, 1.0)
    assert events(res) == [
        ("combat_started", {"npc_id": npc.id, "area_id": HERE}),
        ("npc_attacked", {"npc_id": npc.id, "damage": 10, "area_id": HERE}),
    ]


def test_second_hit_keeps_engagement_and_emits_no_combat_start(game: Game) -> None:
    npc = wasp(game, hp=100, combat_pattern=("attack", "wait"))
    act(game, "agent_0", f"attack {npc.name}")
    agent(game).combats[npc.id].rhythm_index = 1  # as the rhythm rule would advance it
    res = act(game, "agent_0", f"attack {npc.name}")
    assert keys(res) == ["attack.hit", "attack.tired"]
    assert agent(game).combats == {npc.id: Engagement(1, HERE)}
    assert events(res) == [("npc_attacked", {"npc_id": npc.id, "damage": 10, "area_id": HERE})]
    assert npc.hp == 80


# ------------------------------------------------------------------ damage table
@pytest.mark.parametrize(
    ("attack", "stamina", "npc_action", "damage"),
    [
        (10, 1.0, None, 10),
        (10, 0.8, None, 8),
        (15, 0.6000000000000001, None, 9),
        (7, 0.8, None, 5),  # 5.6000000000000005 truncated
        (33, 0.4000000000000001, "attack", 13),
        (10, 0.2, "wait", 2),
        (10, 1.0, "defend", 1),
        (25, 1.0, "defend", 2),  # int(25 * 0.1) = int(2.5)
        (30, 1.0, "defend", 3),  # 3.0000000000000004 truncated
        (8, 1.0, "defend", 0),  # a defended weak blow does nothing
        (33, 0.6000000000000001, "defend", 1),  # int(int(19.8) * 0.1) = int(1.9)
    ],
)
def test_damage_formula(
    game: Game, attack: int, stamina: float, npc_action: Any, damage: int
) -> None:
    """int(attack * stamina), then x0.1 truncated when the NPC's rhythm action is `defend`."""
    npc = wasp(game, hp=1000)
    a = agent(game)
    a.attack, a.stamina = attack, stamina
    if npc_action is not None:
        # An existing engagement whose index points at `npc_action` (pattern index 5 % 3 = 2).
        npc.combat_pattern = ("attack", "wait", npc_action)
        a.combats[npc.id] = Engagement(5, HERE)
    res = act(game, "agent_0", f"attack {npc.name}")
    assert npc.hp == 1000 - damage
    assert res.events[-1].data["damage"] == damage
    assert ("attack.npc_defended" in keys(res)) == (npc_action == "defend")


def test_new_engagement_ignores_pattern(game: Game) -> None:
    """On a new engagement the NPC's action is None even if its pattern starts with defend."""
    npc = wasp(game, hp=100, combat_pattern=("defend",))
    act(game, "agent_0", f"attack {npc.name}")
    assert npc.hp == 90


# ------------------------------------------------------------------ stamina and streak
STREAK = [  # (damage dealt, stamina after, streak after) for attack 10 from a rested start
    (10, 1.0, 1),
    (10, 0.8, 2),
    (8, 0.6000000000000001, 3),
    (6, 0.4000000000000001, 4),
    (4, 0.20000000000000007, 5),
    (2, 0.2, 6),
    (2, 0.2, 7),
]


def test_stamina_streak_table(game: Game) -> None:
    """1.0 -> 0.8 -> 0.6 -> 0.4 -> 0.2 floor in exact float arithmetic; a drop weakens the NEXT
    blow, and the tiredness line appears only when stamina actually dropped."""
    npc = wasp(game, hp=1000, combat_pattern=("attack",))
    a = agent(game)
    for damage, stamina, streak in STREAK:
        hp, stamina_before = npc.hp, a.stamina
        res = act(game, "agent_0", f"attack {npc.name}")
        assert (hp - npc.hp, a.stamina, a.consecutive_attacks) == (damage, stamina, streak)
        assert ("attack.tired" in keys(res)) == (stamina < stamina_before)


@pytest.mark.parametrize(
    ("between", "stamina", "streak"),
    [
        ("wait", 1.0, 1),  # wait resets the streak and (in combat) refills stamina
        ("defend", 0.9, 1),  # defend resets the streak and recovers half the missing 0.2
        ("pick up pear", 0.6000000000000001, 3),  # other verbs do not reset anything
        ("inspect pear", 0.6000000000000001, 3),
    ],
)
def test_streak_reset_only_by_wait_and_defend(
    game: Game, between: str, stamina: float, streak: int
) -> None:
    npc = wasp(game, hp=1000, combat_pattern=("attack",))
    game.world.areas[HERE].add_objects("obj_pear", 1)
    act(game, "agent_0", f"attack {npc.name}")
    act(game, "agent_0", f"attack {npc.name}")
    act(game, "agent_0", between)
    act(game, "agent_0", f"attack {npc.name}")
    a = agent(game)
    assert (a.stamina, a.consecutive_attacks) == (stamina, streak)


def test_quirk_18_3_non_fighting_target_still_tires(game: Game) -> None:
    """Quirk "attacks on a target that never fights back still tire" (kept): hitting a target that
    never enters combat still counts in the streak and drains stamina; no combat starts."""
    merchant = spawn_npc(game, "npc_cider_seller", HERE, hp=5000)
    for _ in range(3):
        res = act(game, "agent_0", "attack cider_seller")
        assert not res.has_event("combat_started")
    a = agent(game)
    assert (a.consecutive_attacks, a.stamina, a.combats) == (3, 0.6000000000000001, {})
    assert merchant.hp == 5000 - 10 - 10 - 8


@pytest.mark.parametrize(
    ("overrides", "engages"),
    [
        ({}, True),
        ({"combat_pattern": ()}, False),  # an enemy without a pattern never fights in rhythm
        ({"enemy": False}, False),  # a friendly NPC with a pattern: no combat either
    ],
)
def test_combat_start_needs_enemy_with_pattern(game: Game, overrides: dict, engages: bool) -> None:
    npc = wasp(game, hp=100, **overrides)
    res = act(game, "agent_0", f"attack {npc.name}")
    assert res.has_event("combat_started") == engages
    assert (npc.id in agent(game).combats) == engages
    assert res.has_event("npc_attacked")


# ------------------------------------------------------------------ kills
def test_kill_moves_loot_records_and_removes_npc(game: Game) -> None:
    npc = wasp(game, hp=10, coins=40, inventory={"obj_pear": 2, "obj_label": 1, "obj_crate": 2})
    game.tracker = True  # switch tracking events on
    writables, containers = dict(game.world.writable_count), dict(game.world.container_count)
    res = act(game, "agent_0", f"attack {npc.name}")
    a, world = agent(game), game.world
    label = f"obj_label_{writables.get('obj_label', 0)}"
    crate0 = f"obj_crate_{containers.get('obj_crate', 0)}"
    crate1 = f"obj_crate_{containers.get('obj_crate', 0) + 1}"
    assert keys(res) == ["attack.killed", "attack.loot"]
    assert world.areas[HERE].objects == {"obj_pear": 2, label: 1, crate0: 1, crate1: 1}
    assert world.containers[crate0].items == {} and world.writables[label].text == ""
    assert (npc.hp, npc.area_id, npc.inventory, npc.coins) == (0, None, {}, 40)
    assert npc.id in world.npcs and npc.id not in world.areas[HERE].npcs
    assert world.npc_name_to_id[npc.name] == npc.id
    assert (a.kills, a.killed, a.unique_kills) == (1, {npc.id: 1}, {"npc_wasp_1": None})
    spawn = [(e.data["obj_id"], e.data["amount"]) for e in res.events if e.type == "track.spawn"]
    assert spawn == [("obj_pear", 2), (label, 1), (crate0, 1), (crate1, 1)]
    assert [e.type for e in res.events][-1] == "npc_killed"
    assert res.events[-1].data == {"npc_id": npc.id, "area_id": HERE}
    assert not res.has_event("npc_attacked") and not res.has_event("combat_started")


def test_kill_of_engaged_npc_ends_combat_and_rests(game: Game) -> None:
    npc = wasp(game, hp=12, combat_pattern=("attack",))
    act(game, "agent_0", f"attack {npc.name}")  # 10 damage: 2 HP left, engaged, streak 1
    act(game, "agent_0", f"attack {npc.name}")  # 10 more (the drop to 0.8 comes after the blow)
    a = agent(game)
    assert npc.hp == 0
    assert (a.combats, a.stamina, a.consecutive_attacks) == ({}, 1.0, 0)


def test_kill_with_other_combat_left_keeps_streak(game: Game) -> None:
    first = wasp(game, hp=100, combat_pattern=("attack",))
    second = wasp(game, hp=15, combat_pattern=("attack",))
    act(game, "agent_0", f"attack {first.name}")
    act(game, "agent_0", f"attack {second.name}")  # 10 damage, engaged, stamina -> 0.8
    res = act(game, "agent_0", f"attack {second.name}")  # 8 damage: 15 - 10 - 8 < 0
    a = agent(game)
    assert keys(res) == ["attack.killed", "attack.tired"]
    assert list(a.combats) == [first.id]
    assert (a.stamina, a.consecutive_attacks) == (0.6000000000000001, 3)


def test_kill_in_one_blow_never_starts_combat(game: Game) -> None:
    npc = wasp(game, hp=10)
    res = act(game, "agent_0", f"attack {npc.name}")
    assert [e.type for e in res.events] == ["npc_killed"]
    assert agent(game).combats == {}
    assert keys(res) == ["attack.killed"]  # no loot, no loot line


def test_repeat_kills_count_but_unique_once(game: Game) -> None:
    for _ in range(2):
        npc = wasp(game, hp=5)
        act(game, "agent_0", f"attack {npc.name}")
    npc = wasp(game, hp=5, level=2)
    act(game, "agent_0", f"attack {npc.name}")
    a = agent(game)
    assert a.kills == 3 and len(a.killed) == 3
    assert list(a.unique_kills) == ["npc_wasp_1", "npc_wasp_2"]


def test_kill_not_recorded_before_tutorial_passed(game: Game) -> None:
    """Tracking held back per agent (docs/mechanics/rewards.md#quirk-tracking-held-back-per-agent):
    everything happens but the kill tracking."""
    npc = wasp(game, hp=5, inventory={"obj_pear": 1})
    agent(game).tutorial_passed = False
    res = act(game, "agent_0", f"attack {npc.name}")
    a = agent(game)
    assert (a.kills, a.killed, a.unique_kills) == (0, {}, {})
    assert npc.area_id is None and game.world.areas[HERE].objects == {"obj_pear": 1}
    assert res.has_event("npc_killed")


def test_coins_in_npc_inventory_drop_but_coin_purse_stays(game: Game) -> None:
    npc = wasp(game, hp=5, coins=33, inventory={"obj_coin": 4})
    act(game, "agent_0", f"attack {npc.name}")
    assert game.world.areas[HERE].objects == {"obj_coin": 4}
    assert npc.coins == 33


# ------------------------------------------------------------------ failures
def _guide(g: Game) -> str:
    return spawn_npc(g, "npc_cider_seller", HERE, quest=True).name


def _powerless(g: Game, attack: int, name: str) -> str:
    agent(g).attack = attack
    return name


def _killed(g: Game) -> str:
    npc = wasp(g)
    g.world.remove_npc_from_map(npc.id)
    return npc.name


FAILURES = [  # (case, setup -> target name, expected key)
    ("unknown name", lambda g: "nobody", "attack.not_here"),
    ("elsewhere", lambda g: wasp(g, ELSEWHERE).name, "attack.not_here"),
    ("off the map", _killed, "attack.not_here"),
    ("guide", _guide, "attack.protected"),
    ("guide, no power", lambda g: _powerless(g, 0, _guide(g)), "attack.protected"),
    ("no power", lambda g: _powerless(g, 0, wasp(g).name), "attack.no_power"),
    ("negative power", lambda g: _powerless(g, -3, wasp(g).name), "attack.no_power"),
    ("elsewhere, no power", lambda g: _powerless(g, 0, wasp(g, ELSEWHERE).name), "attack.not_here"),
]


@pytest.mark.parametrize(("case", "setup", "key"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any, key: str) -> None:
    check_refused(game, ("attack", [setup(game)]), key)


def test_quest_enemy_is_attackable(game: Game) -> None:
    """Only friendly quest NPCs are protected; a quest boss (enemy) can be fought."""
    npc = wasp(game, quest=True)
    assert act(game, "agent_0", f"attack {npc.name}").action_ok["agent_0"]


def test_quirk_18_2_help_text_says_ten_percent() -> None:
    """Quirk "the help text says a tenth": the reference's help text says a defending NPC takes 25%;
    its code (and ours) applies 10%, and so does our help text."""
    g = make_game()
    description = g.engine.rules["attack"].description
    assert "10%" in description and "25%" not in description


# ------------------------------------------------------------------ valid_params exactness
NPC_KINDS = ["wasp", "weak_wasp", "merchant", "guide", "quest_enemy", "shadow"]


def build_state(seed: int, g: Game) -> Game:
    """A random state: agent somewhere, NPCs of every kind here and elsewhere, attack power,
    engagements."""
    rng = restage(g, seed)
    areas = list(g.world.areas)
    move_to(g, "agent_0", rng.choice(areas))
    a = agent(g)
    for _ in range(rng.randint(0, 5)):
        kind = rng.choice(NPC_KINDS)
        area = a.area_id if rng.random() < 0.6 else rng.choice(areas)
        if kind in ("wasp", "weak_wasp", "quest_enemy"):
            npc = wasp(
                g,
                area,
                hp=rng.choice([1, 30]) if kind != "weak_wasp" else 1,
                quest=kind == "quest_enemy",
            )
            if rng.random() < 0.3:
                a.combats[npc.id] = Engagement(rng.randint(0, 5), npc.area_id)
        elif kind == "shadow":  # an NPC whose name a later NPC takes over
            wasp(g, area, name="twin")
            wasp(g, rng.choice(areas), name="twin")
        else:
            spawn_npc(g, "npc_cider_seller", area, quest=kind == "guide")
    a.attack = rng.choice([-1, 0, 10, 10, 25])
    a.stamina = rng.choice([1.0, 0.2])
    if rng.random() < 0.3:
        give(g, "agent_0", "obj_pruner")
    return g


def npc_names(g: Game) -> set[str]:
    """Every NPC name (current and taken over), and names of no NPC."""
    names = set(g.world.npc_name_to_id) | {n.name for n in g.world.npcs.values()}
    return names | {"nobody", "inventory", ""}


@pytest.mark.parametrize("chunk", range(4))
def test_valid_params_exact(chunk: int) -> None:
    """Every listed tuple succeeds on a fresh copy of the state; every other candidate fails and
    leaves the state as it was."""
    seeds = range(chunk * 50, chunk * 50 + 50)
    listed_total = check_valid_params_exact("attack", build_state, seeds, npc_names)
    assert listed_total > 20  # the states are not all trivially empty


# ------------------------------------------------------------------ the hook for packs
def test_extra_damage_hook_adds_after_tiring_uncut_by_defend(game: Game) -> None:
    """`Attack.extra_damage` (docs/rule-packs.md): asked once per blow that lands, after the base
    damage and the streak's tiring; what it returns is added whole, even to a defended blow."""
    rule = game.engine.rules["attack"]
    seen: list[tuple[str, int, float]] = []

    def extra(ctx: Any, res: Any, npc: Any) -> int:
        seen.append((npc.id, ctx.actor.consecutive_attacks, ctx.actor.stamina))
        res.say(ctx.actor.id, "test.extra", "")
        return 7

    rule.extra_damage = extra  # this game's instance only
    npc = wasp(game, hp=1000, combat_pattern=("defend",))
    a = agent(game)
    a.attack, a.consecutive_attacks = 30, 1
    a.combats[npc.id] = Engagement(0, HERE)
    res = act(game, "agent_0", f"attack {npc.name}")
    assert seen == [(npc.id, 2, 0.8)]  # tired first
    assert npc.hp == 1000 - (3 + 7)  # int(30 x 0.1), then the extra whole
    assert res.events[-1].data["damage"] == 10
    assert keys(res)[0] == "test.extra"
    check_refused(game, "attack nobody", "attack.not_here")
    assert len(seen) == 1  # not asked for a blow that does not land


def test_base_attack_adds_nothing(game: Game) -> None:
    npc = wasp(game)
    assert game.engine.rules["attack"].extra_damage(None, None, npc) == 0
