"""The courts pack's verbs and its older background rules on AgentOdyssey's metropolis, read from
the user's copy: every refusal and branch of `invoke law`, `file objection` and `appeal verdict`,
the expiries, contempt, contraband and the nightly rewrite, with their numbers; probabilities over
thousands of seeded trials with the tolerance each test states."""

from __future__ import annotations

import random

import pytest
from courts_helper import CLERKS, COURT, EVIDENCE, LOBBY, held_doc, new_game, stage
from harness import act, give, move_to, run_step, spawn_npc, stage_fixtures

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.agents import Engagement

shared, game = stage_fixtures(new_game, stage)


def keys(res: RuleResult, agent_id: str = "agent_0") -> list[str]:
    return res.feedback_keys(agent_id)


# ------------------------------------------------------------------------------ invoke law
def test_invoke_law_refusals_in_order(game: Game) -> None:
    world = game.world
    res = act(game, "agent_0", "invoke law nothing_such")
    assert keys(res) == ["invoke_law.unknown"]
    give(game, "agent_0", "obj_pen")
    assert keys(act(game, "agent_0", "invoke law decree_stylus")) == ["invoke_law.not_writable"]
    [(far, _)] = world.spawn_on_ground(LOBBY, "obj_paper", 1)
    world.writables[far].text = "open"
    name = world.name_of(far)
    assert keys(act(game, "agent_0", f"invoke law {name}")) == ["invoke_law.not_held"]
    blank = held_doc(game, "   ")
    assert keys(act(game, "agent_0", f"invoke law {world.name_of(blank)}")) == ["invoke_law.blank"]
    law = held_doc(game, "Unlock it")
    world.auxiliary["active_invocations"] = {
        "inv_x": {"agent_id": "agent_1", "area_id": LOBBY, "effect_type": "unlock_doors",
                  "remaining": 1, "saved_state": {}},
    }  # fmt: skip
    assert keys(act(game, "agent_0", f"invoke law {world.name_of(law)}")) == ["invoke_law.active"]
    world.auxiliary["active_invocations"]["inv_x"]["remaining"] = 0  # spent: no longer blocks
    assert keys(act(game, "agent_0", f"invoke law {world.name_of(law)}")) == ["invoke_law.no_shard"]


@pytest.mark.parametrize(
    ("text", "effect"),
    [("the PASSAGE", "unlock_doors"), ("please open", "unlock_doors"),
     ("reveal gravity", "reveal_hidden"),
     ("hidden", "reveal_hidden"), ("silence!", "pacify_npcs"), ("nullify", "pacify_npcs"),
     ("gravity opens", "unlock_doors")],
)  # fmt: skip
def test_invoke_law_keyword_table_first_match(game: Game, text: str, effect: str) -> None:
    law = held_doc(game, text)
    give(game, "agent_0", "obj_statute_shard")
    res = act(game, "agent_0", f"invoke law {game.world.name_of(law)}")
    [ev] = [e for e in res.events if e.type == "law_invoked"]
    assert ev.data["effect_type"] == effect and ev.data["duration"] == 3
    assert ev.data["invocation_id"] == f"inv_agent_0_{game.tick_index}"


def test_invoke_law_takes_the_shard_from_the_first_store(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    [bag] = give(game, "agent_0", "obj_small_bag")
    world.containers[bag].items["obj_statute_shard"] = 2
    law = held_doc(game, "open")
    act(game, "agent_0", f"invoke law {world.name_of(law)}")
    assert world.containers[bag].items["obj_statute_shard"] == 1
    give(game, "agent_0", "obj_statute_shard")
    world.auxiliary["active_invocations"].clear()
    law = held_doc(game, "open")
    act(game, "agent_0", f"invoke law {world.name_of(law)}")
    assert "obj_statute_shard" not in agent.hands and world.containers[bag].items == {
        "obj_statute_shard": 1
    }


def test_reveal_hidden_spawns_randint_of_pool_materials(game: Game) -> None:
    """2000 seeded reveals in the courtroom (level 3): 1..3 draws, each of the level-2..4 raw
    materials with areas; counts uniform (each within 0.035 of 1/3)."""
    world = game.world
    move_to(game, "agent_0", COURT)
    pool = [
        d.id for d in world.objects.values()
        if d.category == "material" and not d.craft.ingredients and d.areas
        and abs(d.level - 3) <= 1
    ]  # fmt: skip
    assert pool
    counts = {1: 0, 2: 0, 3: 0}
    trials = 2000
    for seed in range(trials):
        world.areas[COURT].objects.clear()
        world.auxiliary["active_invocations"] = {}
        law = held_doc(game, "hidden")
        give(game, "agent_0", "obj_statute_shard")
        game.rng.seed(seed)
        mirror = random.Random(seed)
        n = mirror.randint(1, 3)
        expect: dict[str, int] = {}
        for _ in range(n):
            pick = mirror.choice(pool)
            expect[pick] = expect.get(pick, 0) + 1
        act(game, "agent_0", f"invoke law {world.name_of(law)}")
        assert world.areas[COURT].objects == expect
        counts[n] += 1
        game.agents["agent_0"].hands.pop(law)
    assert all(abs(c / trials - 1 / 3) < 0.035 for c in counts.values())


def test_pacify_law_then_expiry_restores_the_foes(game: Game) -> None:
    world = game.world
    npc = spawn_npc(game, "npc_rogue_advocate", LOBBY)
    npc.combat_pattern = ("attack", "wait")
    attack = npc.attack_power
    friend = spawn_npc(game, "npc_clerk_aldiss", LOBBY)
    for agent_id in ("agent_0", "agent_1"):
        game.agents[agent_id].combats[npc.id] = Engagement(0, LOBBY)
        game.agents[agent_id].stamina = 0.3
    law = held_doc(game, "pacify all")
    give(game, "agent_0", "obj_statute_shard")
    act(game, "agent_0", f"invoke law {world.name_of(law)}")
    assert npc.attack_power == 0 and npc.combat_pattern == () and npc.enemy
    assert friend.attack_power > 0
    assert all(not a.combats and a.stamina == 1.0 for a in game.agents.values())
    [inv] = world.auxiliary["active_invocations"].values()
    assert inv["saved_state"] == {
        "npcs": {npc.id: {"attack_power": attack, "combat_pattern": ["attack", "wait"]}}
    }
    for left in (2, 1):
        res = run_step(game, "invoke_law_expiry_step")
        assert inv["remaining"] == left and "invoke_law.holds" in keys(res)
    res = run_step(game, "invoke_law_expiry_step")
    assert npc.attack_power == attack and npc.combat_pattern == ("attack", "wait")
    [ev] = res.events
    assert (ev.type, ev.agent_id, ev.data["effect_type"]) == (
        "law_expired",
        "agent_0",
        "pacify_npcs",
    )


# ------------------------------------------------------------------------------ file objection
def fight(game: Game, pattern: tuple[str, ...], agent_id: str = "agent_0"):
    npc = spawn_npc(game, "npc_rogue_advocate", LOBBY, hp=300)
    npc.combat_pattern = pattern
    game.agents[agent_id].combats[npc.id] = Engagement(0, LOBBY)
    return npc


@pytest.mark.parametrize(
    ("text", "pattern", "keyword"),
    [
        ("no consecutive strikes", ("attack", "attack"), "no consecutive"),
        ("Mandatory Defend", ("attack", "wait"), "mandatory defend"),
        ("cannot open with a blow", ("attack", "defend"), "cannot open with"),
        ("require wait", ("attack", "defend"), "require wait"),
        ("peaceful conduct", ("wait", "attack"), "peaceful conduct"),
    ],
)
def test_objection_sustained_by_each_law(game: Game, text, pattern, keyword) -> None:
    npc = fight(game, pattern)
    held_doc(game, "nothing relevant")
    law = held_doc(game, text)
    res = act(game, "agent_0", f"file objection {npc.name}")
    [ev] = [e for e in res.events if e.type == "objection_sustained"]
    assert ev.data == {
        "npc_id": npc.id, "document": game.world.name_of(law), "keyword": keyword,
        "pacify_duration": 5, "area_id": LOBBY,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("ban consecutive", ("attack", "defend", "attack")),  # no wrap-around
        ("must defend", ("defend",)),
        ("no first attack", ("wait", "attack")),
        ("must wait", ("wait",)),
        ("ban attack", ("defend", "wait")),
        ("no first attack", ()),
    ],
)
def test_objection_overruled_when_no_law_is_broken(game: Game, text, pattern) -> None:
    npc = fight(game, pattern)
    held_doc(game, text)
    res = act(game, "agent_0", f"file objection {npc.name}")
    assert [e.type for e in res.events] == ["objection_overruled"]
    assert game.world.auxiliary["objection_skip_turn"]["agent_0"] is True
    assert npc.enemy and npc.id in game.agents["agent_0"].combats


def test_objection_refusals_and_the_sustained_effects(game: Game) -> None:
    world = game.world
    assert keys(act(game, "agent_0", "file objection nobody")) == ["file_objection.unknown"]
    npc = spawn_npc(game, "npc_rogue_advocate", LOBBY)
    assert keys(act(game, "agent_0", f"file objection {npc.name}")) == [
        "file_objection.not_fighting"
    ]
    game.agents["agent_0"].combats[npc.id] = Engagement(0, LOBBY)
    npc.hp = 0
    assert keys(act(game, "agent_0", f"file objection {npc.name}")) == ["file_objection.gone"]
    npc.hp = 50
    npc.combat_pattern = ("attack",)
    game.agents["agent_1"].combats[npc.id] = Engagement(0, LOBBY)
    game.agents["agent_1"].stamina = 0.2
    [bag] = give(game, "agent_0", "obj_small_bag")
    law = held_doc(game, "ban attack")
    game.agents["agent_0"].hands.pop(law)
    world.containers[bag].items[law] = 1  # read from a held container too
    act(game, "agent_0", f"file objection {npc.name}")
    entry = world.auxiliary["pacified_npcs"][npc.id]
    assert entry == {
        "remaining": 5, "original_enemy": True, "original_attack_power": entry[
            "original_attack_power"], "original_combat_pattern": ["attack"],
        "area_id": LOBBY, "agent_id": "agent_0",
    }  # fmt: skip
    assert not npc.enemy and npc.attack_power == 0 and npc.combat_pattern == ()
    assert all(not a.combats and a.stamina == 1.0 for a in game.agents.values())
    for left in (4, 3, 2, 1):
        run_step(game, "objection_effects_step")
        assert entry["remaining"] == left
    res = run_step(game, "objection_effects_step")
    assert npc.enemy and npc.combat_pattern == ("attack",)
    assert [(e.type, e.agent_id, e.data) for e in res.events] == [
        ("objection_pacify_expired", "agent_0", {"npc_id": npc.id, "area_id": LOBBY})
    ]


# ------------------------------------------------------------------------------ appeal, death
def test_appeal_refusals(game: Game) -> None:
    agent = game.agents["agent_0"]
    assert keys(act(game, "agent_0", "appeal verdict")) == ["appeal_verdict.alive"]
    agent.hp = 0
    assert keys(act(game, "agent_0", "appeal verdict")) == ["appeal_verdict.no_coins"]
    agent.hp = 5
    game.world.auxiliary["pending_death"] = {"agent_0": True}
    give(game, "agent_0", "obj_coin", 3)
    res = act(game, "agent_0", "appeal verdict")
    assert res.action_ok["agent_0"] and agent.hp == agent.max_hp
    [ev] = [e for e in res.events if e.type == "appeal_verdict_granted"]
    assert ev.data == {"coins_sacrificed": 3, "defeating_npc_id": None, "area_id": LOBBY}


@pytest.mark.parametrize("remember", [False, True])
def test_appeal_banishes_the_defeater_only_when_remembered(game: Game, remember: bool) -> None:
    """As published the defeat lies in the previous tick's events: no banishment; with
    `remember_defeater` the NPC is sent to a `choice` of the areas away from here."""
    world = game.world
    death = next(r for r in game.step_rules if r.name == "death_and_respawn_step")
    death.settings = {"remember_defeater": remember}
    try:
        npc = spawn_npc(game, "npc_rogue_advocate", LOBBY)
        agent = game.agents["agent_0"]
        agent.hp = 0
        res = RuleResult(game.agent_ids)
        res.emit("agent_defeated_in_combat", "agent_0", {"npc_id": npc.id, "area_id": LOBBY})
        run_step(game, "death_and_respawn_step", res)
        assert world.auxiliary["pending_death"]["agent_0"] is True
        give(game, "agent_0", "obj_coin", 1)
        mirror = random.Random()
        mirror.setstate(game.rng.getstate())
        res = act(game, "agent_0", "appeal verdict")
        banished = [e.data for e in res.events if e.type == "npc_banished"]
        if not remember:
            assert banished == [] and npc.area_id == LOBBY
            return
        near = set(world.graph.neighbors(LOBBY))
        options = [a for a in world.areas if a != LOBBY and a not in near]
        to = mirror.choice(options)
        assert banished == [{"npc_id": npc.id, "from_area": LOBBY, "to_area": to}]
        assert npc.area_id == to
        run_step(game, "death_and_respawn_step")  # the appeal used: no death
        assert agent.deaths == 0 and not world.auxiliary["pending_death"]["agent_0"]
    finally:
        death.settings = {"remember_defeater": False}


def test_pending_death_drops_where_the_agent_stands_then_and_keeps_attack(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    agent.hp, agent.attack = -4, 33
    give(game, "agent_0", "obj_iron_bar", 2)
    res = run_step(game, "death_and_respawn_step")
    assert [e.type for e in res.events] == ["death_pending"]
    assert keys(res) == ["death.pending"] and "no coins" in res.feedback["agent_0"][0][1]
    move_to(game, "agent_0", CLERKS)  # moving relocates the drop
    agent.hp = 20  # even healed, it dies
    run_step(game, "death_and_respawn_step")
    assert agent.deaths == 1 and agent.hp == agent.max_hp and agent.attack == 33
    assert world.areas[CLERKS].objects.get("obj_iron_bar") == 2


# ------------------------------------------------------------------------------ contempt
def test_contempt_numbers(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    give(game, "agent_0", "obj_coin", 9)
    max_hp = agent.max_hp
    seen = []
    world.auxiliary["contempt_of_court"] = {}
    for tick in range(13):
        game.tick_index = tick
        world.auxiliary["courts_idle_action"] = {"agent_0": {"tick": tick, "verb": "defend"}}
        res = run_step(game, "contempt_of_court_step")
        seen.append([e.type for e in res.events if e.agent_id == "agent_0"])
    assert seen[:2] == [[], []]  # the first tick starts the record, then 1, 2 idle turns
    assert seen[3] == ["contempt_of_court_warning"]
    assert seen[4] == ["contempt_of_court_final_warning"]
    assert seen[5] == seen[6] == ["contempt_of_court_fine"]
    assert all(s == ["contempt_of_court_hp_penalty"] for s in seen[7:])
    assert agent.max_hp == max_hp - 30  # 5 a turn, at most 30
    assert "obj_coin" not in agent.hands  # 2 a turn until none
    game.tick_index = 13
    world.auxiliary["courts_idle_action"] = {}
    res = run_step(game, "contempt_of_court_step")  # another action: forgiven
    assert agent.max_hp == max_hp
    [ev] = [e for e in res.events if e.agent_id == "agent_0"]
    assert ev.data == {"hp_restored": 30, "area_id": LOBBY}


# ------------------------------------------------------------------------------ contraband
def test_contraband_threshold_reads_the_laws_on_the_ground(game: Game) -> None:
    world = game.world
    give(game, "agent_0", "obj_wood_log", 11)
    for text in ("free trade zone", "strict and restricted"):  # +4, -3
        [(oid, _)] = world.spawn_on_ground(LOBBY, "obj_paper", 1)
        world.writables[oid].text = text
    seen = []
    for _ in range(2):
        res = run_step(game, "contraband_suspicion_step")
        seen += [e.data for e in res.events if e.type == "contraband_warning"]
    assert seen == [{"total_carried": 11, "threshold": 9, "area_id": LOBBY, "turns_over": 2}]


def test_contraband_sequence_and_confiscation(game: Game) -> None:
    world = game.world
    agent = game.agents["agent_0"]
    give(game, "agent_0", "obj_wood_log", 20)  # excess 12 -> 6 confiscated
    merchant = spawn_npc(game, "npc_magistrate_vesper", CLERKS)
    bailiff = spawn_npc(game, "npc_bailiff_construct", EVIDENCE)
    stock = merchant.inventory.get("obj_wood_log", 0)
    kinds = []
    for _ in range(5):
        res = run_step(game, "contraband_suspicion_step")
        kinds.append([e.type for e in res.events])
    assert kinds[:2] == [[], ["contraband_warning"]]
    assert kinds[3] == ["contraband_bailiffs_dispatched"]
    assert kinds[4] == ["contraband_confiscated"]
    [ev] = res.events
    assert ev.data == {
        "confiscated": {"obj_wood_log": 6}, "redistributed_to": [merchant.name], "area_id": LOBBY,
    }  # fmt: skip
    assert agent.hands["obj_wood_log"] == 14 and merchant.inventory["obj_wood_log"] == stock + 6
    assert bailiff.area_id == EVIDENCE  # never moved
    assert world.auxiliary["contraband_suspicion"]["agent_0"]["turns_over"] == 0
    move_to(game, "agent_0", CLERKS)
    run_step(game, "contraband_suspicion_step")  # moved: the count starts over
    assert world.auxiliary["contraband_suspicion"]["agent_0"]["turns_over"] == 1


# ------------------------------------------------------------------------------ nightly rewrite
def night(game: Game, tick: int = 30) -> RuleResult:
    game.tick_index = tick
    return run_step(game, "nightly_law_rewrite_step")


def test_nightly_runs_every_30_ticks(game: Game) -> None:
    world = game.world
    for tick, expect in ((0, 0), (29, 0), (30, 1), (45, 1), (60, 2)):
        night(game, tick)
        assert world.auxiliary["nightly_law_rewrite"].get("night_count", 0) == expect
    assert world.auxiliary["nightly_law_rewrite"]["last_night_step"] == 60


def test_nightly_rewrites_every_written_document_from_the_pool(game: Game) -> None:
    world = game.world
    rule = next(r for r in game.step_rules if r.name == "nightly_law_rewrite_step")
    held = held_doc(game, "hello")
    blank = held_doc(game, "")
    [(ground, _)] = world.spawn_on_ground(CLERKS, "obj_paper", 1)
    world.writables[ground].text = "x"
    res = night(game)
    pool = rule.settings["law_pool"]
    limit = world.objects["obj_paper"].max_text_length
    assert world.writables[held].text in [t[:limit] for t in pool]
    assert world.writables[ground].text in [t[:limit] for t in pool]
    assert world.writables[blank].text == ""
    [ev] = [e for e in res.events if e.type == "nightly_law_rewrite"]
    assert ev.agent_id == "env" and ev.data["documents_rewritten"] >= 2


def test_nightly_chances(game: Game) -> None:
    """1500 seeded nights: each path toggles with 0.15 (within 0.01 over 14 paths a night), an
    area drifts with 0.2 (within 0.015), an enemy's tactic changes with 0.4 (within 0.02), the
    three tactics evenly (within 0.03)."""
    world = game.world
    paths = {frozenset((a, b)) for a in world.areas for b in world.graph.neighbors(a)}
    enemies = [spawn_npc(game, "npc_rogue_advocate", a) for a in (LOBBY, CLERKS, COURT)]
    toggled = drifted = changed = 0
    nights = 1500
    for seed in range(nights):
        for a in world.areas.values():
            a.objects.clear()
            a.objects["obj_wood_log"] = 1
        for npc in enemies:
            npc.combat_pattern = ("attack", "defend", "wait")
        world.auxiliary["nightly_law_rewrite"] = {}
        game.rng.seed(seed)
        ev = next(e for e in night(game).events if e.type == "nightly_law_rewrite")
        toggled += ev.data["paths_toggled"]
        changed += ev.data["npcs_shuffled"]
        drifted += sum(a.objects.get("obj_wood_log", 0) != 1 for a in world.areas.values()) > 0
    assert abs(toggled / (nights * len(paths)) - 0.15) < 0.01
    assert abs(changed / (nights * len(enemies)) - 0.4) < 0.02
    assert drifted > 0


def test_nightly_drift_and_tactics_draw_as_specified(game: Game) -> None:
    world = game.world
    npc = spawn_npc(game, "npc_rogue_advocate", LOBBY)
    npc.combat_pattern = ("attack", "defend", "wait", "attack")
    game.agents["agent_0"].combats[npc.id] = Engagement(2, LOBBY)
    world.areas[CLERKS].objects["obj_wood_log"] = 3
    world.areas[CLERKS].objects["obj_furnace"] = 1  # a station never drifts
    for seed in range(300):
        game.rng.seed(seed)
        mirror = random.Random(seed)
        locks = {
            (a, b): world.graph.is_locked(a, b)
            for a in world.areas
            for b in world.graph.neighbors(a)
        }
        ground = {a: dict(x.objects) for a, x in world.areas.items()}
        pattern = list(npc.combat_pattern)
        world.auxiliary["nightly_law_rewrite"] = {}
        night(game)
        done = set()
        for a in world.areas:  # the toggles, replayed
            for b in world.graph.neighbors(a):
                if frozenset((a, b)) not in done:
                    done.add(frozenset((a, b)))
                    flip = mirror.random() < 0.15
                    assert world.graph.is_locked(a, b) == (locks[a, b] != flip)
        for a in world.areas:  # the drift, replayed
            if mirror.random() > 0.2:
                continue
            cands = [o for o, n in ground[a].items() if o == "obj_wood_log" and n > 0]
            if cands:
                mirror.choice(cands)
                to = mirror.choice(list(world.graph.neighbors(a)))
                ground[a]["obj_wood_log"] -= 1  # it may drift on from there this night
                ground[to]["obj_wood_log"] = ground[to].get("obj_wood_log", 0) + 1
        if mirror.random() <= 0.4:  # the one enemy
            how = mirror.choice(["shuffle", "reverse", "rotate"])
            if how == "shuffle":
                mirror.shuffle(pattern)
            elif how == "reverse":
                pattern.reverse()
            else:
                k = mirror.randint(1, 3)
                pattern = pattern[k:] + pattern[:k]
            assert game.agents["agent_0"].combats[npc.id].rhythm_index == 0
            game.agents["agent_0"].combats[npc.id].rhythm_index = 2
        assert list(npc.combat_pattern) == pattern
        assert game.rng.getstate() == mirror.getstate()
