"""The `saltglass` pack's salt glaze (`salt_glaze_step`, rules/saltglass/glaze.py) on AgentOdyssey's
saltglass: when it draws and what, the reduction of each armour, every reason to skip (without a
draw), both ways it clears, the shared definition and its equip/unequip quirk (as published), and
a saved game resumed mid-glaze and after it cleared. The chance statistically: 4000 seeded trials,
4.5 standard deviations (harness.SIGMAS)."""

from __future__ import annotations

import json
import math

import attrs
import pytest
from harness import act, agent, give, move_to, stage_fixtures, within
from saltglass_helper import (
    ARMORY,
    GUARD,
    HALL,
    LENS,
    LIBRARY,
    OBSERVATORIES,
    OPEN_SALT,
    VEST,
    mirror,
    new_game,
    of_type,
    rule,
    stage,
    step,
)

from agentodyssey_pz.engine.game import Game

GLAZE = "salt_glaze_step"
EMPTY = {"active": False, "obj_id": None, "stat": None, "amount": 0}
TRIALS = 4000


shared, game = stage_fixtures(new_game, stage)


def wear(game, def_id: str, agent_id: str = "agent_0") -> None:
    game.agents[agent_id].equipped[def_id] = 1


def record(game, agent_id: str = "agent_0") -> dict:
    return game.agents[agent_id].progress["salt_glaze"]


def always(game, monkeypatch) -> None:
    """The glaze forms whenever it may (chance 1)."""
    glaze = rule(game, GLAZE)
    monkeypatch.setattr(glaze, "settings", {**glaze.settings, "chance": 1.0})


# ---------------------------------------------------------------------------- forming
def test_chance_and_choice_follow_the_draws(game) -> None:
    """Candidates are hand items then worn ones; one `random()` against 0.2, then `choice`."""
    world = game.world
    give(game, "agent_0", LENS)
    give(game, "agent_0", VEST)  # in hand: a candidate too, before the worn guard
    wear(game, GUARD)
    candidates = [(VEST, "defense", 4), (GUARD, "defense", 8)]
    formed, picked = 0, {VEST: 0, GUARD: 0}
    for seed in range(TRIALS):
        game.rng.seed(seed)
        future = mirror(game)
        res = step(game, GLAZE)
        events = of_type(res, "salt_glaze_formed")
        if future.random() >= 0.2:
            assert not events and record(game) == EMPTY
            continue
        oid, stat, value = future.choice(candidates)
        amount = max(1, math.ceil(value * 0.25))
        assert [e.data for e in events] == [
            {"area_id": HALL, "obj_id": oid, "stat": stat, "amount": amount}
        ]
        assert record(game) == {"active": True, "obj_id": oid, "stat": stat, "amount": amount}
        assert getattr(world.objects[oid], stat) == value - amount
        assert res.feedback_keys("agent_0") == ["salt_glaze.formed"]
        assert game.rng.getstate() == future.getstate()
        formed, picked[oid] = formed + 1, picked[oid] + 1
        move_to(game, "agent_0", LIBRARY)  # clear it for the next trial
        step(game, GLAZE)
        move_to(game, "agent_0", HALL)
        assert world.objects[oid].defense == value
    assert within(formed, TRIALS, 0.2)
    assert within(picked[VEST], formed, 0.5)


@pytest.mark.parametrize(
    ("def_id", "defense", "amount"),
    [
        ("obj_wrap_vest", 4, 1),
        ("obj_glass_guard", 8, 2),
        ("obj_bar_mail", 13, 4),
        ("obj_orrery_plate", 19, 5),
        ("obj_void_plate", 25, 7),
    ],
)
def test_reduction_is_a_quarter_rounded_up(game, monkeypatch, def_id, defense, amount) -> None:
    always(game, monkeypatch)
    give(game, "agent_0", LENS)
    wear(game, def_id)
    assert game.world.objects[def_id].defense == defense
    (event,) = of_type(step(game, GLAZE), "salt_glaze_formed")
    assert event.data["amount"] == amount
    assert game.world.objects[def_id].defense == defense - amount


@pytest.mark.parametrize("where", OPEN_SALT)
def test_it_forms_in_every_open_salt_area(game, monkeypatch, where) -> None:
    always(game, monkeypatch)
    move_to(game, "agent_0", where)
    give(game, "agent_0", LENS)
    wear(game, GUARD)
    assert of_type(step(game, GLAZE), "salt_glaze_formed")[0].data["area_id"] == where


def test_weapons_add_no_attack_so_only_armour_glazes(game, monkeypatch) -> None:
    """As published, the weapons' `attack_power` is not read: no weapon is a candidate."""
    always(game, monkeypatch)
    world = game.world
    for weapon in ("obj_salt_knife", "obj_lens_dagger", "obj_bar_spear"):
        assert world.objects[weapon].attack == 0
        give(game, "agent_0", weapon)
    before = game.rng.getstate()
    assert not step(game, GLAZE).events
    assert game.rng.getstate() == before  # no candidate: no draw
    # A world whose weapon has an attack: it is a candidate, stat "attack"
    knife = world.objects["obj_lens_dagger"]
    world.add_object_def(attrs.evolve(knife, attack=10))
    (event,) = of_type(step(game, GLAZE), "salt_glaze_formed")
    assert event.data == {"area_id": HALL, "obj_id": knife.id, "stat": "attack", "amount": 3}
    assert world.objects[knife.id].attack == 7


def skips_without_a_draw(game) -> None:
    before_state, before_rng = json.dumps(record(game)), game.rng.getstate()
    res = step(game, GLAZE)
    assert not res.events
    assert json.dumps(record(game)) == before_state and game.rng.getstate() == before_rng


def test_every_skip_draws_nothing(game, monkeypatch) -> None:
    wear(game, GUARD)
    skips_without_a_draw(game)  # no glass in hand
    give(game, "agent_0", "obj_paper")  # paper is listen-glass, not glass-like
    skips_without_a_draw(game)
    give(game, "agent_0", LENS)
    move_to(game, "agent_0", ARMORY)  # neither open salt nor observatory
    skips_without_a_draw(game)
    move_to(game, "agent_0", HALL)
    del agent(game).equipped[GUARD]
    skips_without_a_draw(game)  # glass, but nothing with a stat
    wear(game, GUARD)
    always(game, monkeypatch)
    assert of_type(step(game, GLAZE), "salt_glaze_formed")
    skips_without_a_draw(game)  # already glazed: one at a time
    assert game.world.objects[GUARD].defense == 6


# ---------------------------------------------------------------------------- clearing
@pytest.mark.parametrize("where", OBSERVATORIES)
def test_an_observatory_clears_it(game, monkeypatch, where) -> None:
    always(game, monkeypatch)
    give(game, "agent_0", LENS)
    wear(game, GUARD)
    step(game, GLAZE)
    move_to(game, "agent_0", where)
    res = step(game, GLAZE)
    assert [e.data for e in of_type(res, "salt_glaze_cleared")] == [
        {"reason": "observatory", "obj_id": GUARD, "stat": "defense", "amount": 2}
    ]
    assert res.feedback_keys("agent_0") == ["salt_glaze.cleared_observatory"]
    assert record(game) == EMPTY and game.world.objects[GUARD].defense == 8
    assert not step(game, GLAZE).events  # nothing left to clear


def test_death_clears_it_first(game, monkeypatch) -> None:
    always(game, monkeypatch)
    give(game, "agent_0", LENS)
    wear(game, GUARD)
    step(game, GLAZE)
    move_to(game, "agent_0", LIBRARY)  # an observatory too: death is checked first
    agent(game).hp = 0
    res = step(game, GLAZE)
    assert [e.data["reason"] for e in of_type(res, "salt_glaze_cleared")] == ["death"]
    assert res.feedback_keys("agent_0") == ["salt_glaze.cleared_death"]
    assert game.world.objects[GUARD].defense == 8
    move_to(game, "agent_0", HALL)
    before = game.rng.getstate()
    assert not step(game, GLAZE).events  # dead in open salt: no new glaze, no draw
    assert game.rng.getstate() == before


# ---------------------------------------------------------------------------- the shared definition
def test_two_glazes_on_one_definition_stack_and_unwind(game, monkeypatch) -> None:
    always(game, monkeypatch)
    world = game.world
    for agent_id in game.agents:
        give(game, agent_id, LENS)
        wear(game, GUARD, agent_id)
    res = step(game, GLAZE)
    amounts = [e.data["amount"] for e in of_type(res, "salt_glaze_formed")]
    assert amounts == [2, 2]  # 8 -> 6 (a quarter of 8), then a quarter of 6 rounded up
    assert world.objects[GUARD].defense == 4
    move_to(game, "agent_0", LIBRARY)
    step(game, GLAZE)
    assert world.objects[GUARD].defense == 6  # every copy, whoever holds it
    move_to(game, "agent_1", LIBRARY)
    step(game, GLAZE)
    assert world.objects[GUARD].defense == 8


def test_equipping_while_glazed_leaves_defense_off(game, monkeypatch) -> None:
    """As published: equip adds the definition's current defense, unequip subtracts it."""
    always(game, monkeypatch)
    give(game, "agent_0", LENS)
    give(game, "agent_0", GUARD)  # in hand: a candidate
    base = agent(game).defense
    (event,) = of_type(step(game, GLAZE), "salt_glaze_formed")
    assert event.data["obj_id"] == GUARD and event.data["amount"] == 2
    assert act(game, "agent_0", "equip glass_guard").action_ok["agent_0"]
    assert agent(game).defense == base + 6
    move_to(game, "agent_0", LIBRARY)
    step(game, GLAZE)
    assert act(game, "agent_0", "unequip glass_guard").action_ok["agent_0"]
    assert agent(game).defense == base - 2


# ---------------------------------------------------------------------------- saved games
def play(game: Game, plan: list[dict[str, str]]) -> list:
    """Tick through `plan`; what each tick changed: events and the guard's defense."""
    out = []
    for actions in plan:
        result = game.tick(actions)
        events = [(e.type, e.agent_id, e.data) for e in result.events if e.type.startswith("salt")]
        out.append((events, game.world.objects[GUARD].defense, dict(agent(game).progress)))
    return out


def test_a_saved_glaze_resumes_exactly(published, tmp_path) -> None:
    game = new_game()
    game.reset(5)
    for agent_id in game.agents:
        move_to(game, agent_id, HALL)
        give(game, agent_id, LENS)
        wear(game, GUARD, agent_id)
    waits = {"agent_0": "wait", "agent_1": "wait"}
    for _ in range(200):
        game.tick(waits)
        if record(game)["active"] or record(game, "agent_1")["active"]:
            break
    glazed = game.world.objects[GUARD].defense
    assert glazed < 8
    game.save(tmp_path / "mid.json")
    plan = [waits] * 6 + [{"agent_0": "enter library", "agent_1": "enter library"}] + [waits] * 4
    plan += [{"agent_0": "enter hall", "agent_1": "enter hall"}] + [waits] * 30
    went_on = play(game, plan)
    resumed = Game.load(tmp_path / "mid.json")
    assert resumed.world.objects[GUARD].defense == glazed  # rebuilt from the records
    assert resumed.world.auxiliary["salt_glaze"] == {GUARD: {"defense": 8}}
    assert play(resumed, plan) == went_on
    assert any(e[0] == "salt_glaze_cleared" for events, *_ in went_on for e in events)
    # after the glaze cleared (and maybe formed again): save, resume, same again
    game.save(tmp_path / "after.json")
    again = Game.load(tmp_path / "after.json")
    assert again.world.objects[GUARD].defense == game.world.objects[GUARD].defense
    tail = [waits] * 20
    assert play(again, tail) == play(game, tail)


# ---------------------------------------------------------------------------- on the agent
def on_agent(game, monkeypatch, chance: float = 1.0) -> None:
    """The setting `on_definition` false: the glaze weakens its holder only."""
    glaze = rule(game, GLAZE)
    monkeypatch.setattr(
        glaze, "settings", {**glaze.settings, "chance": chance, "on_definition": False}
    )


def test_on_the_agent_the_draws_and_events_are_the_same(game, monkeypatch) -> None:
    give(game, "agent_0", LENS)
    give(game, "agent_0", VEST)
    wear(game, GUARD)
    shared = []
    for seed in range(300):
        game.rng.seed(seed)
        shared.append([e.data for e in step(game, GLAZE).events])
        move_to(game, "agent_0", LIBRARY)
        step(game, GLAZE)
        move_to(game, "agent_0", HALL)
    on_agent(game, monkeypatch, chance=0.2)
    for seed in range(300):
        game.rng.seed(seed)
        assert [e.data for e in step(game, GLAZE).events] == shared[seed]
        assert game.world.objects[GUARD].defense == 8 and game.world.objects[VEST].defense == 4
        move_to(game, "agent_0", LIBRARY)
        step(game, GLAZE)
        move_to(game, "agent_0", HALL)
    assert sum(bool(events) for events in shared) > 30


def test_on_the_agent_worn_armour_weakens_its_wearer_only(game, monkeypatch) -> None:
    on_agent(game, monkeypatch)
    for agent_id in game.agents:
        wear(game, GUARD, agent_id)
    give(game, "agent_0", LENS)
    me, other = agent(game), agent(game, "agent_1")
    mine, theirs = me.defense, other.defense
    (event,) = of_type(step(game, GLAZE), "salt_glaze_formed")
    assert event.data == {"area_id": HALL, "obj_id": GUARD, "stat": "defense", "amount": 2}
    assert record(game) == {
        "active": True,
        "obj_id": GUARD,
        "stat": "defense",
        "amount": 2,
        "applied": 2,
        "deaths": 0,
    }
    assert me.defense == mine - 2 and other.defense == theirs
    assert game.world.objects[GUARD].defense == 8  # the definition is untouched
    step(game, GLAZE)
    assert me.defense == mine - 2  # taken once, not every tick
    move_to(game, "agent_0", LIBRARY)
    (event,) = of_type(step(game, GLAZE), "salt_glaze_cleared")
    assert event.data == {"reason": "observatory", "obj_id": GUARD, "stat": "defense", "amount": 2}
    assert me.defense == mine and record(game) == EMPTY


def test_on_the_agent_equipping_leaves_no_lasting_error(game, monkeypatch) -> None:
    on_agent(game, monkeypatch)
    give(game, "agent_0", LENS)
    give(game, "agent_0", GUARD)  # in hand: glazed, but not worn yet
    base = agent(game).defense
    step(game, GLAZE)
    assert record(game)["applied"] == 0 and agent(game).defense == base
    assert act(game, "agent_0", "equip glass_guard").action_ok["agent_0"]
    assert agent(game).defense == base + 8
    step(game, GLAZE)  # settled at this rule: worn now
    assert agent(game).defense == base + 6
    assert act(game, "agent_0", "unequip glass_guard").action_ok["agent_0"]
    step(game, GLAZE)
    assert agent(game).defense == base  # not off by the amount, unlike the published glaze
    assert act(game, "agent_0", "equip glass_guard").action_ok["agent_0"]
    move_to(game, "agent_0", LIBRARY)
    step(game, GLAZE)
    assert agent(game).defense == base + 8


def test_on_the_agent_an_attack_glaze_holds_while_in_hand(game, monkeypatch) -> None:
    on_agent(game, monkeypatch)
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_lens_dagger"], attack=10))
    give(game, "agent_0", "obj_lens_dagger")  # glass-like and a candidate
    me = agent(game)
    me.attack = 20
    (event,) = of_type(step(game, GLAZE), "salt_glaze_formed")
    assert event.data["stat"] == "attack" and event.data["amount"] == 3
    assert me.attack == 17 and world.objects["obj_lens_dagger"].attack == 10
    me.attack = 20  # what the attack update (priority 1) works out afresh next tick
    step(game, GLAZE)
    assert me.attack == 17


def test_on_the_agent_a_respawn_takes_the_glaze_without_give_back(game, monkeypatch) -> None:
    on_agent(game, monkeypatch)
    give(game, "agent_0", LENS)
    wear(game, GUARD)
    me = agent(game)
    me.defense = 8
    step(game, GLAZE)
    assert me.defense == 6
    me.deaths += 1  # killed by an ambush (priority 6) and respawned (7): gear dropped, stats reset
    me.equipped.clear()
    me.defense = 0
    res = step(game, GLAZE)  # back in the hall (open salt), glass gone
    assert [e.data["reason"] for e in of_type(res, "salt_glaze_cleared")] == ["death"]
    assert me.defense == 0 and record(game) == EMPTY


def test_a_weapon_in_hand_adds_no_attack_as_published(game) -> None:
    give(game, "agent_0", "obj_spire_pike")  # attack_power 29 in the file, never read
    before = agent(game).attack
    game.tick({"agent_0": "wait", "agent_1": "wait"})
    assert agent(game).attack == before == agent(game).min_attack
    assert game.world.objects["obj_spire_pike"].extras == {"attack_power": 29}


def test_an_on_agent_record_is_a_valid_saved_state(game, monkeypatch) -> None:
    on_agent(game, monkeypatch)
    give(game, "agent_0", LENS)
    wear(game, GUARD)
    step(game, GLAZE)
    assert "applied" in record(game)
    assert rule(game, GLAZE).check_saved_state(game.world, game.agents) == []
    record(game)["applied"] = "two"
    assert rule(game, GLAZE).check_saved_state(game.world, game.agents)
