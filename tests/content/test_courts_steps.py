"""The courts pack's step rules on AgentOdyssey's metropolis, read from the user's copy: the legal
paradox, binding precedents and trial proceedings (every branch, number, draw and event, seeded;
probabilities over thousands of seeded trials with the tolerance each test states)."""

from __future__ import annotations

import random

import attrs
from courts_helper import CLERKS, EVIDENCE, LOBBY, MARKET, doc_on_ground, held_doc, new_game, stage
from harness import give, move_to, run_step, spawn_npc, stage_fixtures, step_rule

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import Engagement

shared, game = stage_fixtures(new_game, stage)


def kinds(res: RuleResult) -> list[str]:
    return [e.type for e in res.events if not e.type.startswith("track.")]


# ------------------------------------------------------------------------------ legal paradox
PARADOX_TEXTS = ("Open every passage", "All doors remain sealed", "Ban attack on sight")


def test_paradox_needs_three_sorted_documents_and_a_contradiction(game: Game) -> None:
    from_rule = step_rule(game, "legal_paradox_step")
    paradox = type(from_rule).__module__
    in_paradox = __import__(paradox, fromlist=["in_paradox"]).in_paradox
    world = game.world
    doc_on_ground(game, LOBBY, "Open every passage")
    doc_on_ground(game, LOBBY, "All doors remain sealed")
    assert not in_paradox(world, LOBBY)  # two documents
    doc_on_ground(game, LOBBY, "a grocery list")  # sorted into no group: ignored
    assert not in_paradox(world, LOBBY)
    doc_on_ground(game, LOBBY, "reveal the hidden")  # gravity; passage + seal oppose
    assert in_paradox(world, LOBBY)
    world.areas[CLERKS].objects.clear()
    for text in ("reveal the hidden", "open court", "be silent"):  # gravity, passage, pacify
        doc_on_ground(game, CLERKS, text)
    assert not in_paradox(world, CLERKS)
    doc_on_ground(game, EVIDENCE, "ban attack")  # pacify and aggress in one document
    doc_on_ground(game, EVIDENCE, "float")
    doc_on_ground(game, EVIDENCE, "float again")
    assert in_paradox(world, EVIDENCE)
    doc_on_ground(game, MARKET, "   ")  # blank: not written
    doc_on_ground(game, MARKET, "open")
    doc_on_ground(game, MARKET, "sealed")
    assert not in_paradox(world, MARKET)


def paradox_stage(game: Game):
    """The lobby in paradox-to-be: its three exits (one locked with a key), an enemy fought by
    agent_0, a stack and a stick on the ground."""
    world = game.world
    world.graph.set_locked(LOBBY, CLERKS, True)
    world.graph.path(LOBBY, CLERKS)["key"] = "obj_key"
    npc = spawn_npc(game, "npc_rogue_advocate", LOBBY)
    npc.combat_pattern = ("attack", "defend")
    agent = game.agents["agent_0"]
    agent.combats[npc.id] = Engagement(0, LOBBY)
    agent.stamina, agent.consecutive_attacks = 0.5, 2
    world.areas[LOBBY].add_objects("obj_wood_log", 3)
    world.areas[LOBBY].add_objects("obj_iron_bar", 1)
    world.areas[LOBBY].add_objects("obj_coin", 5)  # currency: never warped
    for text in PARADOX_TEXTS:
        doc_on_ground(game, LOBBY, text)
    return npc


def test_paradox_start_shuffles_exits_freezes_and_warps_as_drawn(game: Game) -> None:
    world = game.world
    npc = paradox_stage(game)
    attack = npc.attack_power
    exits = list(world.graph.neighbors(LOBBY))
    before = {n: (p["locked"], p["key"]) for n, p in world.graph.neighbors(LOBBY).items()}
    mirror = random.Random()
    mirror.setstate(game.rng.getstate())
    res = run_step(game, "legal_paradox_step")
    # The same draws: shuffles until the order differs, a sample of the warp, a coin per pick.
    order, tries = list(exits), 0
    while order == exits and tries < 10:
        mirror.shuffle(order)
        tries += 1
    for old, new in zip(exits, order, strict=True):
        path = world.graph.path(LOBBY, new)
        assert (path["locked"], path["key"]) == before[old]
    logs = world.areas[LOBBY].objects
    candidates = ["obj_wood_log", "obj_iron_bar"]
    chosen = mirror.sample(candidates, max(1, int(len(candidates) * 0.25)))
    expect = {"obj_wood_log": 3, "obj_iron_bar": 1}
    for oid in chosen:
        expect[oid] += 1 if mirror.random() < 0.5 else -1
    assert {k: logs.get(k, 0) for k in expect} == expect and logs["obj_coin"] == 5
    assert game.rng.getstate() == mirror.getstate()
    state = world.auxiliary["legal_paradox"][LOBBY]
    assert state["active"] and set(state["shuffled_paths"]) == set(exits)
    assert state["frozen_npcs"] == {
        npc.id: {"original_attack_power": attack, "original_combat_pattern": ["attack", "defend"]}
    }
    assert npc.attack_power == 0 and npc.combat_pattern == ()
    agent = game.agents["agent_0"]
    assert agent.combats == {} and agent.stamina == 1.0 and agent.consecutive_attacks == 0
    [started] = [e for e in res.events if e.type == "legal_paradox_started"]
    assert started.agent_id == "env" and started.data == {"area_id": LOBBY}
    keys = [k for k, _ in res.feedback["agent_0"]]
    assert keys[0] == "paradox.started" and "paradox.frozen" in keys
    assert keys[-1] == "paradox.persists"


def test_paradox_persists_then_resolves_restoring_exits_and_npcs(game: Game) -> None:
    world = game.world
    npc = paradox_stage(game)
    attack = npc.attack_power
    before = {n: (p["locked"], p["key"]) for n, p in world.graph.neighbors(LOBBY).items()}
    run_step(game, "legal_paradox_step")
    shuffled = {n: (p["locked"], p["key"]) for n, p in world.graph.neighbors(LOBBY).items()}
    npc.attack_power = 7  # re-applied every tick while it lasts
    res = run_step(game, "legal_paradox_step")
    assert "legal_paradox_started" not in kinds(res) and npc.attack_power == 0
    assert {n: (p["locked"], p["key"]) for n, p in world.graph.neighbors(LOBBY).items()} == shuffled
    first = next(o for o in world.areas[LOBBY].objects if o in world.writables)
    world.areas[LOBBY].remove_objects(first, 1)  # two documents left: the paradox ends
    res = run_step(game, "legal_paradox_step")
    assert kinds(res) == ["legal_paradox_resolved"]
    assert {n: (p["locked"], p["key"]) for n, p in world.graph.neighbors(LOBBY).items()} == before
    assert npc.attack_power == attack and npc.combat_pattern == ("attack", "defend")
    assert world.auxiliary["legal_paradox"][LOBBY] == {
        "active": False, "shuffled_paths": {}, "frozen_npcs": {},
    }  # fmt: skip
    assert [k for k, _ in res.feedback["agent_0"]] == ["paradox.resolved"]


def test_paradox_frozen_npc_stays_frozen_elsewhere_until_it_ends(game: Game) -> None:
    world = game.world
    npc = paradox_stage(game)
    attack = npc.attack_power
    run_step(game, "legal_paradox_step")
    world.place_npc(npc.id, CLERKS)
    run_step(game, "legal_paradox_step")
    assert npc.attack_power == 0  # as published
    for oid in [o for o in world.areas[LOBBY].objects if o in world.writables]:
        world.areas[LOBBY].remove_objects(oid, 1)
    run_step(game, "legal_paradox_step")
    assert npc.attack_power == attack


def test_paradox_warp_adds_or_takes_with_even_odds(game: Game) -> None:
    """4000 seeded warps of one stack: a unit is added with probability 0.5 (3 sigma = 0.024)."""
    world = game.world
    for text in PARADOX_TEXTS:
        doc_on_ground(game, LOBBY, text)
    added, trials = 0, 4000
    for seed in range(trials):
        world.auxiliary["legal_paradox"] = {}
        world.areas[LOBBY].objects["obj_wood_log"] = 5
        game.rng.seed(seed)
        run_step(game, "legal_paradox_step")
        added += world.areas[LOBBY].objects["obj_wood_log"] == 6
    assert abs(added / trials - 0.5) < 0.025


def test_paradox_warp_samples_a_quarter_of_the_candidates(game: Game) -> None:
    world = game.world
    for text in PARADOX_TEXTS:
        doc_on_ground(game, LOBBY, text)
    stacks = ["obj_wood_log", "obj_iron_bar", "obj_marble_chunk", "obj_iron_filings",
              "obj_parchment_scrap", "obj_wax_seal", "obj_binding_thread", "obj_nullstone",
              "obj_statute_shard"]  # fmt: skip
    for oid in stacks:
        world.areas[LOBBY].objects[oid] = 5
    run_step(game, "legal_paradox_step")
    changed = [o for o in stacks if world.areas[LOBBY].objects.get(o) != 5]
    assert len(changed) == int(len(stacks) * 0.25)  # 9 candidates -> 2


# ------------------------------------------------------------------------------ precedents
def killed(res: RuleResult, npc, agent_id: str = "agent_0") -> None:
    res.emit("npc_killed", agent_id, {"npc_id": npc.id, "area_id": npc.area_id or LOBBY})


def test_precedent_set_by_a_kill_weakens_that_kind_there_once(game: Game) -> None:
    world = game.world
    victim = spawn_npc(game, "npc_bailiff_construct", LOBBY)
    other = spawn_npc(game, "npc_bailiff_construct", LOBBY, hp=90, attack_power=30)
    other.combat_pattern = ("attack", "defend", "wait")
    short = spawn_npc(game, "npc_bailiff_construct", LOBBY, hp=3, attack_power=3)
    short.combat_pattern = ("attack", "wait")
    elsewhere = spawn_npc(game, "npc_bailiff_construct", CLERKS, hp=50)
    rogue = spawn_npc(game, "npc_rogue_advocate", LOBBY, hp=40)
    world.remove_npc_from_map(victim.id)
    victim.hp = 0
    res = RuleResult(game.agent_ids)
    res.emit("npc_killed", "agent_0", {"npc_id": victim.id, "area_id": LOBBY})
    run_step(game, "binding_precedent_step", res)
    state = world.auxiliary["binding_precedents"]
    assert state["area_precedents"] == {LOBBY: ["npc_bailiff_construct"]}
    assert [e.data for e in res.events if e.type == "precedent_established"] == [
        {"base_npc_id": "npc_bailiff_construct", "area_id": LOBBY}
    ]
    assert (other.hp, other.attack_power, other.combat_pattern) == (68, 23, ("attack", "defend"))
    assert (short.hp, short.attack_power, short.combat_pattern) == (3, 3, ("attack", "wait"))
    assert elsewhere.hp == 50 and rogue.hp == 40
    assert state["weakened_npcs"][other.id] == {
        "original_hp": 90, "original_attack_power": 30,
        "original_combat_pattern": ["attack", "defend", "wait"],
    }  # fmt: skip
    run_step(game, "binding_precedent_step")  # already weakened: once
    assert other.hp == 68
    tiny = spawn_npc(game, "npc_bailiff_construct", LOBBY, hp=1, attack_power=1)
    run_step(game, "binding_precedent_step")  # a newcomer is weakened too, never below 1 HP
    assert (tiny.hp, tiny.attack_power) == (1, 1)
    move_to(game, "agent_0", CLERKS)
    world.place_npc(other.id, CLERKS)
    run_step(game, "binding_precedent_step")
    assert other.hp == 68  # still weakened elsewhere
    other.hp = 0
    run_step(game, "binding_precedent_step")
    assert other.id not in state["weakened_npcs"]


def test_precedent_overturned_by_a_defeat_restores_and_boosts_the_kind(game: Game) -> None:
    world = game.world
    a = spawn_npc(game, "npc_bailiff_construct", LOBBY, hp=100, attack_power=40)
    b = spawn_npc(game, "npc_bailiff_construct", CLERKS, hp=50, attack_power=10)
    rogue = spawn_npc(game, "npc_rogue_advocate", LOBBY, hp=40)
    state_res = RuleResult(game.agent_ids)
    state_res.emit("npc_killed", "agent_0", {"npc_id": "npc_bailiff_construct_0", "area_id": LOBBY})
    run_step(game, "binding_precedent_step", state_res)
    assert (a.hp, a.attack_power) == (75, 30)
    res = RuleResult(game.agent_ids)  # a defeat by a kind without a precedent: nothing
    res.emit("agent_defeated_in_combat", "agent_1", {"npc_id": rogue.id, "area_id": LOBBY})
    run_step(game, "binding_precedent_step", res)
    assert "precedent_overturned" not in kinds(res) and rogue.hp == 40
    res = RuleResult(game.agent_ids)
    res.emit("agent_defeated_in_combat", "agent_1", {"npc_id": b.id, "area_id": CLERKS})
    run_step(game, "binding_precedent_step", res)
    overturned = [e for e in res.events if e.type == "precedent_overturned"]
    assert [(e.agent_id, e.data) for e in overturned] == [
        ("agent_1", {"base_npc_id": "npc_bailiff_construct"})
    ]
    state = world.auxiliary["binding_precedents"]
    assert state["area_precedents"] == {LOBBY: []} and state["weakened_npcs"] == {}
    assert state["overturned_types"] == {"npc_bailiff_construct": True}
    assert (a.hp, a.attack_power) == (120, 48)  # restored to 100/40, then +20%
    assert (b.hp, b.attack_power) == (60, 12)
    assert all("precedent.overturned" in [k for k, _ in res.feedback[x]] for x in game.agents)
    run_step(game, "binding_precedent_step", res)  # boosted once; overturned once
    assert (a.hp, b.hp) == (120, 60)
    res2 = RuleResult(game.agent_ids)
    res2.emit("npc_killed", "agent_0", {"npc_id": b.id, "area_id": CLERKS})
    run_step(game, "binding_precedent_step", res2)  # an overturned kind is never weakened again
    assert a.hp == 120


# ------------------------------------------------------------------------------ trials
def kill_event(game: Game, proto: str = "npc_rogue_advocate", area_id: str = LOBBY, **stats):
    npc = spawn_npc(game, proto, area_id, **stats)
    game.world.remove_npc_from_map(npc.id)
    npc.hp = 0
    res = RuleResult(game.agent_ids)
    res.emit("npc_killed", "agent_0", {"npc_id": npc.id, "area_id": area_id})
    return npc, res


def test_unjustified_kill_curses_base_attack_for_four_ticks(game: Game) -> None:
    world, agent = game.world, game.agents["agent_0"]
    agent.min_attack = 13
    count = world.npc_count.get("npc_spectral_judge", 0)
    npcs_before = set(world.npcs)
    mirror = random.Random()
    mirror.setstate(game.rng.getstate())
    npc, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    mirror.randint(20, 50)  # the judge's coins at the lobby's level 1
    assert game.rng.getstate() == mirror.getstate()
    judge = f"npc_spectral_judge_{count}"
    assert world.npc_count["npc_spectral_judge"] == count + 1
    assert set(world.npcs) == npcs_before | {npc.id} and judge not in world.npc_name_to_id.values()
    data = {"area_id": LOBBY, "killed_npc_id": npc.id, "judge_inst_id": judge}
    assert [(e.type, e.data) for e in res.events if e.type.startswith("trial")] == [
        ("trial_proceedings_initiated", data),
        ("trial_guilty", {**data, "curse_level": 1, "curse_duration": 4}),
    ]
    state = world.auxiliary["trial_proceedings"]["agent_0"]
    assert state == {
        "active_trials": [],
        "attack_curse": {"remaining": 3, "original_min_attack": 13, "curse_level": 1},
    }
    assert agent.min_attack == 6
    for left in (2, 1):
        res = run_step(game, "trial_proceedings_step")
        assert state["attack_curse"]["remaining"] == left and agent.min_attack == 6
    res = run_step(game, "trial_proceedings_step")
    assert agent.min_attack == 13 and state["attack_curse"] is None
    assert [(e.type, e.agent_id) for e in res.events] == [("trial_curse_expired", "agent_0")]


def test_second_guilty_verdict_deepens_the_curse(game: Game) -> None:
    agent = game.agents["agent_0"]
    agent.min_attack = 20
    _, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    _, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    curse = game.world.auxiliary["trial_proceedings"]["agent_0"]["attack_curse"]
    assert curse == {"remaining": 3, "original_min_attack": 20, "curse_level": 2}
    assert agent.min_attack == 5
    assert [e.data["curse_level"] for e in res.events if e.type == "trial_guilty"] == [2]


def test_curse_swallows_a_level_up_unless_keep_level_ups(game: Game) -> None:
    agent = game.agents["agent_0"]
    for keep, expect in ((False, 10), (True, 12)):
        step_rule(game, "trial_proceedings_step").settings = {"keep_level_ups": keep}
        game.world.auxiliary.pop("trial_proceedings", None)
        agent.min_attack = 10
        _, res = kill_event(game)
        run_step(game, "trial_proceedings_step", res)
        agent.min_attack += 2  # a level gained under the curse
        for _ in range(3):
            run_step(game, "trial_proceedings_step")
        assert agent.min_attack == expect
    step_rule(game, "trial_proceedings_step").settings = {"keep_level_ups": False}


def test_justified_kill_upgrades_a_carried_item(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    give(game, "agent_0", "obj_gavel_club")  # weapon level 1 -> marble_mace (level 2)
    doc_on_ground(game, LOBBY, "A license to kill is granted")
    _npc, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    assert "obj_gavel_club" not in agent.hands and agent.hands["obj_marble_mace"] == 1
    assert [e.type for e in res.events if e.type.startswith("trial")] == [
        "trial_proceedings_initiated", "trial_justified",
    ]  # fmt: skip
    assert world.auxiliary["trial_proceedings"]["agent_0"]["attack_curse"] is None


def test_justification_is_read_from_hands_inventory_and_held_containers(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    [bag] = give(game, "agent_0", "obj_small_bag")
    [paper] = give(game, "agent_0", "obj_paper")
    world.writables[paper].text = "SELF-DEFENSE applies"
    del agent.hands[paper]
    world.containers[bag].items[paper] = 1
    _, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    assert "trial_justified" in kinds(res)
    world.writables[paper].text = "self defence"  # not a keyword
    _, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    assert "trial_guilty" in kinds(res)


def test_justified_without_upgrade_pays_5_to_15_coins_here(game: Game) -> None:
    """3000 seeded verdicts: coins uniform on 5..15 (each value's share within 0.03 of 1/11)."""
    world = game.world
    move_to(game, "agent_0", CLERKS)
    held_doc(game, "kill order")  # writables are never upgraded
    counts: dict[int, int] = {}
    npc, res = kill_event(game, area_id=LOBBY)
    for seed in range(3000):
        world.areas[CLERKS].objects.clear()
        game.rng.seed(seed)
        mirror = random.Random(seed)
        mirror.randint(20, 50)
        expect = max(5, mirror.randint(5, 15))
        res = RuleResult(game.agent_ids)
        res.emit("npc_killed", "agent_0", {"npc_id": npc.id, "area_id": LOBBY})
        run_step(game, "trial_proceedings_step", res)
        coins = world.areas[CLERKS].objects["obj_coin"]
        assert coins == expect
        counts[coins] = counts.get(coins, 0) + 1
    assert set(counts) == set(range(5, 16))
    assert all(abs(n / 3000 - 1 / 11) < 0.03 for n in counts.values())


def test_upgrade_picks_evenly_among_upgradable_entries(game: Game) -> None:
    """2000 seeded verdicts with two upgradable entries: each chosen half the time (+-0.035)."""
    agent = game.agents["agent_0"]
    held_doc(game, "lawful execution")
    npc, _ = kill_event(game)
    first = 0
    for seed in range(2000):
        for oid in ("obj_gavel_club", "obj_parchment_wrap", "obj_marble_mace", "obj_clerks_robe"):
            agent.hands.pop(oid, None)
        give(game, "agent_0", "obj_gavel_club")
        give(game, "agent_0", "obj_parchment_wrap")
        game.rng.seed(seed)
        res = RuleResult(game.agent_ids)
        res.emit("npc_killed", "agent_0", {"npc_id": npc.id, "area_id": LOBBY})
        run_step(game, "trial_proceedings_step", res)
        first += "obj_marble_mace" in agent.hands
        assert ("obj_marble_mace" in agent.hands) != ("obj_clerks_robe" in agent.hands)
    assert abs(first / 2000 - 0.5) < 0.035


def test_upgrade_to_a_writable_is_a_fresh_instance(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    give(game, "agent_0", "obj_pen")  # tool level 1 -> the first level-2 tool
    doc_on_ground(game, LOBBY, "death warrant")
    _, res = kill_event(game)
    run_step(game, "trial_proceedings_step", res)
    [new] = [o for o in agent.hands if o != "obj_pen"]
    tools = [d for d in world.objects.values() if d.category == "tool" and d.level == 2]
    assert world.def_of(new).id == next(d.id for d in tools if not d.quest)
    if world.def_of(new).is_instanced:
        assert new in world.writables or new in world.containers


def test_no_trial_for_quest_npcs_judges_or_world_kills(game: Game) -> None:
    world = game.world
    judge = spawn_npc(game, "npc_spectral_judge", LOBBY)
    res = RuleResult(game.agent_ids)
    res.emit("npc_killed", "agent_0", {"npc_id": judge.id, "area_id": LOBBY})
    quest = spawn_npc(game, "npc_rogue_advocate", LOBBY, quest=True)
    res.emit("npc_killed", "agent_0", {"npc_id": quest.id, "area_id": LOBBY})
    boss = spawn_npc(game, "npc_bailiff_construct", LOBBY)  # a quest boss: of a quest prototype
    protos = world.npc_protos
    protos["npc_bailiff_construct"] = attrs.evolve(protos["npc_bailiff_construct"], quest=True)
    res.emit("npc_killed", "agent_0", {"npc_id": boss.id, "area_id": LOBBY})
    count = world.npc_count["npc_spectral_judge"]
    run_step(game, "trial_proceedings_step", res)
    assert world.npc_count["npc_spectral_judge"] == count
    assert world.auxiliary.get("trial_proceedings", {}) == {}
