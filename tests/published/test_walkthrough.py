"""AgentOdyssey's published main quests played from the first stage to the end, two agents each.

Each game runs in our engine with two agents, both driven by the test solver
(`quest_solver.QuestSolver`, the `quester` policy's planner, text commands through `Game.tick`
only), until the episode ends with `main_quest_complete`. The solvers wait for each other at the
last stage when it only needs a shared boss beaten (`wait_for_team`): one kill then completes the
quest for both, in the same tick, and the episode ends with two finishers. Every stage must have
been completed by each agent, in the quest's order, with one `quest_stage_advanced` event each (9,
24 and 17 stages).

Seeds, and why. A run is deterministic: a seed that passes always passes. The seeds were chosen
where two agents can both finish; on many others the published worlds do not allow it, or the
planner falls short:

* base 4: the tide merchant stocks two hearts of the ocean (one on most seeds: a second agent can
  never buy one, and the first still needs its own). The world's one bag goes to the first agent;
  the second gets one the first makes for it (`teamwork.supply_teammates`).
* mark 0: mark's contact stocks one tear of the forest on every seed; the first agent passes its
  tear on once its stages no longer need it (`teamwork.pass_on`). On some seeds (2, for one) the
  first rooms hold copper for one key only: the second agent cannot open the way on.
* remnant 96: two hearts in stock, the spawn not sealed. On many remnant seeds the spawn's only
  exits are locked with keys no one can have there (the quest's final confluence key among
  them) and no picking tool is in reach: no player can leave. On others the second agent runs
  short of a second iron scale armour or water sword (seeds 21, 45), or the planner fills its
  bag with what it needs and cannot make room (seed 39).
* mark 1 with the tutorial on: each agent first passes mark's 28-step tutorial room.

Run time: about 0.1 s of play for base and mark, about 1 s (965 ticks) for remnant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from quarantine_solver import QuarantineSolver
from quest_solver import QuestSolver, run_team
from robot_solver import RobotSolver, robot_game

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.events import MAIN_QUEST_COMPLETE, QUEST_STAGE_ADVANCED

AGENTS = 2


@dataclass(frozen=True)
class Case:
    game: str
    seed: int
    stages: int  # the quest's stages: quest_stage_advanced events per finishing agent
    max_ticks: int  # the limit the run must finish within (it needs a good deal less)
    tutorial: bool = False


CASES = {
    "base": Case("base", 4, 9, 1000),
    "mark": Case("mark", 0, 17, 1000),
    "remnant": Case("remnant", 96, 24, 4000),
    "mark-tutorial": Case("mark", 1, 17, 1000, tutorial=True),
}


@dataclass
class Walk:
    game: Game
    results: list[Any]
    stuck: dict[str, str]


_WALKS: dict[str, Walk] = {}


def cached_walk(name: str, cases: dict[str, Case], solver: type[QuestSolver] = QuestSolver) -> Walk:
    """The case `cases[name]` played once per test session by one `solver` per agent (the tests
    read the same run; case names are unique across the tables)."""
    if name not in _WALKS:
        case = cases[name]
        game = Game(f"agentodyssey:{case.game}", AGENTS, GameConfig(tutorial=case.tutorial))
        game.reset(seed=case.seed)
        solvers = {aid: solver(game, aid, wait_for_team=True) for aid in game.agent_ids}
        results, stuck = run_team(game, solvers, case.max_ticks)
        _WALKS[name] = Walk(game, results, stuck)
    return _WALKS[name]


def walk(name: str) -> Walk:
    return cached_walk(name, CASES)


def assert_the_team_finished(played: Walk, max_ticks: int) -> None:
    """No solver stuck, the episode over before `max_ticks`, and every agent completing the main
    quest in its last tick (the shared last boss's one kill counts for all)."""
    game, last = played.game, played.results[-1]
    assert played.stuck == {}
    assert last.terminated
    assert len(played.results) < max_ticks
    assert {e.agent_id for e in last.events if e.type == MAIN_QUEST_COMPLETE} == set(game.agent_ids)


def stage_ids(game: Game) -> list[str]:
    return [stage.id for chapter in game.quests.main_quest.chapters for stage in chapter.stages]


@pytest.mark.parametrize("name", list(CASES))
def test_both_agents_play_the_quest_to_its_end(published, name: str) -> None:
    case, played = CASES[name], walk(name)
    game = played.game
    assert_the_team_finished(played, case.max_ticks)
    for aid in game.agent_ids:
        progress = game.agents[aid].progress["main_quest"]
        assert progress["complete"] is True
        assert progress["completed"] == stage_ids(game)  # every stage, in the quest's order
        assert len(progress["completed"]) == case.stages


@pytest.mark.parametrize("name", list(CASES))
def test_each_stage_is_announced_once_in_order(published, name: str) -> None:
    case, played = CASES[name], walk(name)
    for aid in played.game.agent_ids:
        advanced = [
            (e.data["chapter"], e.data["stage"])
            for result in played.results
            for e in result.events_of(aid, QUEST_STAGE_ADVANCED)
        ]
        assert len(advanced) == case.stages
        assert advanced == sorted(advanced)  # (chapter, next stage) only ever moves on
        assert len(set(advanced)) == case.stages


@pytest.mark.parametrize("name", list(CASES))
def test_a_shared_boss_killed_by_one_agent_counts_for_the_other(published, name: str) -> None:
    played = walk(name)
    game = played.game
    shared = game.world.auxiliary["main_quest"]["shared_bosses"]
    killers: dict[str, set[str]] = {}
    for result in played.results:
        for event in result.events:
            if event.type == "npc_killed" and event.data["npc_id"] in shared.values():
                killers.setdefault(event.data["npc_id"], set()).add(event.agent_id)
    quest = game.quests.main_quest
    final = quest.chapters[-1].stages[-1]
    boss = final.done_any[0].params["boss"]
    assert quest.bosses[boss].shared
    (killer,) = killers[shared[boss]]  # one blow ended it
    # The other agent completed the final stage in the same tick without killing the boss.
    other = next(aid for aid in game.agent_ids if aid != killer)
    assert game.agents[other].progress["main_quest"]["completed"][-1] == final.id
    assert other not in killers[shared[boss]]
    # Every shared boss was beaten exactly once, and both agents passed every boss stage.
    assert all(len(agents) == 1 for agents in killers.values())
    assert set(killers) == set(shared.values())


def test_the_tutorial_comes_first(published) -> None:
    played = walk("mark-tutorial")
    for aid in played.game.agent_ids:
        assert played.game.agents[aid].tutorial_passed
        first = next(
            i
            for i, result in enumerate(played.results)
            if result.events_of(aid, QUEST_STAGE_ADVANCED)
        )
        passed = next(
            i
            for i, result in enumerate(played.results)
            if result.events_of(aid, "tutorial_completed")
        )
        assert passed < first


def events_of_type(played: Walk, kind: str) -> list[tuple[int, str, dict[str, Any]]]:
    return [
        (r.tick, e.agent_id, e.data) for r in played.results for e in r.events if e.type == kind
    ]


def test_base_the_bagless_agent_gets_a_bag_made_by_the_other(published) -> None:
    """base has one bag, and a bag needs four units at once: two hands hold two."""
    played = walk("base")
    world = played.game.world
    bags = [o for o in world.objects.values() if o.is_container]
    made = [
        (aid, data["obj_id"])
        for _, aid, data in events_of_type(played, "object_crafted")
        if world.find_def(data["obj_id"]) in bags
    ]
    assert len(made) == 1
    maker = made[0][0]
    taker = next(aid for aid in played.game.agent_ids if aid != maker)
    taken = world.def_of(played.game.agents[taker].inventory_id).id
    assert taken == made[0][1]


def test_mark_the_one_tear_is_passed_on_by_its_buyer(published) -> None:
    """mark's contact stocks one tear of the forest, and each agent's stage wants one."""
    played = walk("mark")
    tear = "obj_tear_of_forest"
    bought = [aid for _, aid, d in events_of_type(played, "object_bought") if d["obj_id"] == tear]
    dropped = [aid for _, aid, d in events_of_type(played, "object_dropped") if d["obj_id"] == tear]
    assert len(bought) == 1 and dropped == bought
    other = next(aid for aid in played.game.agent_ids if aid != bought[0])
    assert "ch2_trade_tear" in played.game.agents[other].progress["main_quest"]["completed"]


def test_a_meal_comes_before_the_plan_when_a_blow_could_kill(published) -> None:
    """With an `eat` verb (mark's scavenging pack) and food carried, a hurt quester eats before
    its plan's next command; the plan then reads its own last command's outcome."""
    game = Game("agentodyssey:mark", 1, GameConfig(tutorial=False))
    game.reset(seed=0)
    solver = QuestSolver(game, "agent_0")
    game.tick({"agent_0": solver.command()})
    agent = game.agents["agent_0"]
    berries = [o for o in game.world.objects.values() if o.id == "obj_berry"]
    assert berries and solver.edibles()["obj_berry"] == 6
    agent.hands.clear()
    agent.hands["obj_berry"] = 1
    solver.last_ok = False
    agent.hp = agent.max_hp // 5
    assert solver.command() == "eat berry"
    game.tick({"agent_0": "eat berry"})
    solver.last_ok = True  # the meal worked ...
    assert agent.hp == agent.max_hp // 5 + 6
    solver.command()
    assert solver.last_ok is False  # ... but the plan sees the outcome of its own command


# ---------------------------------------------------------------------------------- metropolis
# metropolis's quest is three goal-graph chapters (31 stages: 17 with conditions, 14 that close
# when what they require is done), played with its `courts` pack. The episode ends with the first
# quest completed, and the last stage is no shared boss but an amended charter written and carried
# into Vosk's area: the first agent there ends the episode, the second is then still on its way
# (seed 5: agent_0 finishes at tick 219; seed 6 likewise at tick 274). Both agents play from the
# first stage; the test checks the finisher's every stage and the other's progress.
#
# The courts pack plays as published, and on many seeds it leaves the questers short of coins for
# chapter 3's purchases (the cipher fragments, a key): every kill of a common enemy is tried and,
# with no justification written, curses the killer's base attack (halved for 4 turns, deeper when
# repeated); an agent struck down by a kind with a precedent overturns it and that kind's enemies
# grow stronger; idling in one place (the planner's pauses after a setback) is fined 2 coins a
# turn from the fifth idle turn; carrying more than 8 units for 5 turns in one place gets some
# confiscated. The enemies a quester can still beat run out and both raise Stuck "no enemy I can
# beat" (seeds 2, 3, 12 and 15 within 700 ticks). Seeds 2 and 3 finished while a bagless
# teammate still had to earn its bag's price alone: the second agent lagged far behind (10 stages)
# and the first had chapter 3's coin sources to itself. Now the first makes the second a bag
# (`teamwork.supply_teammates`: a teammate who cannot afford the merchant's bag gets one made),
# both keep pace, and both run short. Seeds 4, 10, 11, 13 and 14 finish too.
METROPOLIS_SEEDS = {5: 400, 6: 400}  # seed -> tick limit
METROPOLIS_STAGES = 31


@pytest.fixture(scope="module", params=sorted(METROPOLIS_SEEDS))
def metropolis_walk(request, published) -> Walk:
    seed = request.param
    game = Game("agentodyssey:metropolis", AGENTS, GameConfig(tutorial=False))
    game.reset(seed=seed)
    solvers = {aid: QuestSolver(game, aid) for aid in game.agent_ids}
    results, stuck = run_team(game, solvers, METROPOLIS_SEEDS[seed])
    return Walk(game, results, stuck)


def test_metropolis_the_quest_is_played_to_its_end(metropolis_walk: Walk) -> None:
    game, results = metropolis_walk.game, metropolis_walk.results
    assert metropolis_walk.stuck == {}
    assert results[-1].terminated
    (finisher,) = {e.agent_id for e in results[-1].events if e.type == MAIN_QUEST_COMPLETE}
    progress = game.agents[finisher].progress["main_quest"]
    assert progress["complete"] is True
    assert sorted(progress["completed"]) == sorted(stage_ids(game))
    # The other agent played too: the first chapter is behind it.
    other = next(aid for aid in game.agent_ids if aid != finisher)
    done = set(game.agents[other].progress["main_quest"]["completed"])
    assert {s.id for s in game.quests.main_quest.chapters[0].stages} <= done
    # The courts pack ran all along: nights rewrote the law.
    assert any(e.type == "nightly_law_rewrite" for r in results for e in r.events)
    # The restoration clause went on an amended charter, written last, in Vosk's area (the
    # quester readies pen and blank first: a night would rewrite a charter written earlier).
    values = game.world.auxiliary["main_quest"]["vars"]
    last = results[-1].events_of(finisher, "writable_written")
    assert [e.data["written_text"] for e in last] == [values["ch3_restoration_text"]]
    assert game.world.def_of(last[0].data["obj_id"]).id == "obj_amended_charter"
    assert last[0].data["area_id"] == values["ch3_vosk_area"]


def test_metropolis_each_stage_is_announced_once_after_what_it_requires(
    metropolis_walk: Walk,
) -> None:
    game, results = metropolis_walk.game, metropolis_walk.results
    quest = game.quests.main_quest
    chapter_of = {s.id: c for c, ch in enumerate(quest.chapters) for s in ch.stages}
    requires = {s.id: set(s.requires or ()) for ch in quest.chapters for s in ch.stages}
    for aid in game.agent_ids:
        advanced = [
            e.data["stage"] for r in results for e in r.events_of(aid, QUEST_STAGE_ADVANCED)
        ]
        assert len(advanced) == len(set(advanced))  # once each
        assert advanced == game.agents[aid].progress["main_quest"]["completed"]
        chapters = [chapter_of[sid] for sid in advanced]
        assert chapters == sorted(chapters)  # chapter by chapter
        for i, sid in enumerate(advanced):
            assert requires[sid] <= set(advanced[:i])  # after every stage it requires
        if game.agents[aid].progress["main_quest"]["complete"]:
            assert len(advanced) == METROPOLIS_STAGES
            assert advanced[-1] == "ch3_root"


def test_metropolis_a_foe_killed_by_one_agent_counts_for_the_other(
    metropolis_walk: Walk,
) -> None:
    """The bailiff, the advocate and Vosk stand in the world from the start; a kill by anyone
    completes the kill stage for everyone (`npc_dead`)."""
    game, results = metropolis_walk.game, metropolis_walk.results
    values = game.world.auxiliary["main_quest"]["vars"]
    stage_of = {values["ch2_bailiff_npc"]: "ch2_defeat_bailiff"}
    stage_of[values["ch2_advocate_npc"]] = "ch2_defeat_advocate"
    for npc, stage in stage_of.items():
        (kill,) = [
            (r.tick, e.agent_id) for r in results for e in r.events
            if e.type == "npc_killed" and e.data["npc_id"] == npc
        ]  # fmt: skip
        for aid in game.agent_ids:
            (tick,) = [
                r.tick for r in results for e in r.events_of(aid, QUEST_STAGE_ADVANCED)
                if e.data["stage"] == stage
            ]  # fmt: skip
            assert tick == kill[0]  # the same tick, whoever struck the blow


# ---------------------------------------------------------------- robot_kingdom
# robot_kingdom's quest (4 goal-graph chapters, 40 stages) with two solvers, its `war_machines`
# pack active with the published defaults, tutorial off (as published), seed 17. One setting
# differs: intimidation spares the quest's friendly NPCs (`intimidation_step` `guides`,
# docs/agentodyssey-games.md#robotkingdoms-main-quest): as published the forgemaster, Vessa,
# Lyra, Kael and the marshal fall to it within about 15 to 100 ticks on most seeds, and their
# stages can then never be done. None of the pack's sane switches is on: the run needs none.
#
# The solvers are `robot_solver.RobotSolver` (tests/robot_solver.py: the quest solver with
# robot_kingdom's tactics, see its docstring): each makes a war banner and two rubble chunks
# early and keeps them for the banner stage and the suppression charge's oil flask (the grounds'
# cloth, logs and rubble are gone by tick 100), and hands its spare chunk to a teammate who has
# none; both besiege chapter 3's entrance area (the level-5 furnace room, with its two quest
# enemies and every enemy territory reclamation brought in) and the bosses together, striking
# the enemy one of them fights and guarding on the beat the enemy plays after united presence's
# hesitation; after a death each walks straight back, and while one of them stands in the room
# reclamation brings nothing new there. Before the final battle (the architect's kill drops the
# demon core where the last goal wants it, so it ends the quest) each waits until its teammate
# has nothing else left. Seed 17: both close chapter 2 at tick 94, the entrance at tick 293 (6
# enemies reclamation brought in among those killed), and the quest at tick 482 (482 ticks),
# with 22 and 31 deaths, 30 of them in the furnace room. About 1 s. With all six of the pack's
# sane switches on as well, both finish too (tick 493).
#
# Seeds 0 to 23, published defaults: both agents finish on 14 (0, 1, 4, 5, 6, 7, 10, 13, 15, 16,
# 17, 18, 21, 22; 404 to 1,478 ticks). On the others a solver gives up for want of a war banner
# it can make (6 seeds: the grounds' cloth and logs went before it made one), of a key for a
# locked way (3: the planner finds none it can reach without locks), or of both (seed 20).
ROBOT_SEED, ROBOT_TICKS = 17, 1000  # the run ends at tick 482
ROBOT_STAGES = 40
ROBOT_SWITCHES = {  # docs/rule-packs.md, "The war_machines pack": every switch on
    "combat_rhythm_step": {"aura_kill_checks_defeat": True, "aura_needs_armor": True},
    "jam": {"adjusts_every_index": True},
    "devil_forged_corruption_step": {"dies_at_once": True},
    "death_and_respawn_step": {"clears_presence": True},
    "war_machine_cannibalize_step": {"protect_quest_objects": True},
    "corruption_decay_step": {"protect_quest_objects": True},
    "territory_reclamation_step": {"protect_quest_objects": True},
}


_ROBOT: list[Walk] = []


def switches_on(game: Game) -> set[tuple[str, str]]:
    """The war_machines switches (ROBOT_SWITCHES's) a game runs with on."""
    rules = {rule.name: rule for rule in (*game.step_rules, *game.engine.rules.values())}
    return {
        (name, key)
        for name, keys in ROBOT_SWITCHES.items()
        for key in keys
        if rules[name].settings[key]
    }


def robot_walk() -> Walk:
    """The run, once per session: both solvers until the quest ends the episode."""
    if not _ROBOT:
        game = robot_game(AGENTS)
        game.reset(seed=ROBOT_SEED)
        solvers = {aid: RobotSolver(game, aid, wait_for_team=True) for aid in game.agent_ids}
        results, stuck = run_team(game, solvers, ROBOT_TICKS)
        _ROBOT.append(Walk(game, results, stuck))
    return _ROBOT[0]


def test_robot_kingdom_two_agents_complete_the_main_quest(published) -> None:
    played = robot_walk()
    game = played.game
    assert switches_on(game) == set()  # as published
    assert_the_team_finished(played, ROBOT_TICKS)  # the architect's one kill counts for both
    wanted = stage_ids(game)
    assert len(wanted) == ROBOT_STAGES
    for aid in game.agent_ids:
        progress = game.agents[aid].progress["main_quest"]
        assert progress["complete"] is True
        assert sorted(progress["completed"]) == sorted(wanted)  # every goal, once


def test_robot_kingdom_with_every_sane_switch_on_completes_too(published) -> None:
    game = robot_game(AGENTS, **ROBOT_SWITCHES)
    assert len(switches_on(game)) == 8
    game.reset(seed=ROBOT_SEED)
    solvers = {aid: RobotSolver(game, aid, wait_for_team=True) for aid in game.agent_ids}
    results, stuck = run_team(game, solvers, ROBOT_TICKS)
    assert_the_team_finished(Walk(game, results, stuck), ROBOT_TICKS)
    for aid in game.agent_ids:
        assert len(game.agents[aid].progress["main_quest"]["completed"]) == ROBOT_STAGES


def test_robot_kingdom_each_stage_is_announced_once_after_what_it_requires(published) -> None:
    played = robot_walk()
    quest = played.game.quests.main_quest
    chapter_of = {s.id: i for i, c in enumerate(quest.chapters) for s in c.stages}
    requires = {s.id: set(s.requires or ()) for c in quest.chapters for s in c.stages}
    for aid in played.game.agent_ids:
        advanced = [
            (e.data["chapter"], e.data["stage"])
            for result in played.results
            for e in result.events_of(aid, QUEST_STAGE_ADVANCED)
        ]
        order = [stage for _, stage in advanced]
        assert len(order) == len(set(order)) == ROBOT_STAGES  # once each
        assert all(chapter_of[stage] == chapter for chapter, stage in advanced)
        assert [c for c, _ in advanced] == sorted(c for c, _ in advanced)  # chapters in order
        for i, stage in enumerate(order):
            assert requires[stage] <= set(order[:i])  # after every stage it requires
        assert order == played.game.agents[aid].progress["main_quest"]["completed"]


def test_robot_kingdom_placed_enemies_and_bosses_count_for_both(published) -> None:
    """The scrap automaton, the ravagers, the ember scavenger and the three bosses stand in the
    world from the first tick; one kill of each (by whoever) closes its stage for both agents."""
    played = robot_walk()
    game = played.game
    variables = game.world.auxiliary["main_quest"]["vars"]
    kills: dict[str, list[str]] = {}
    for result in played.results:
        for e in result.events:
            if e.type == "npc_killed":
                kills.setdefault(e.data["npc_id"], []).append(e.agent_id)
    placed = ("ch2_scrap_npc", "ch2_warden_npc", "ch3_ravager1_npc", "ch3_ember_npc")
    placed += ("ch3_ravager2_npc", "ch4_colossus_npc", "ch4_architect_npc")
    for npc_var in placed:
        assert len(kills[variables[npc_var]]) == 1
    assert game.world.auxiliary["main_quest"]["defeated"] == dict.fromkeys(
        ("ch2_warden_npc", "ch4_colossus_npc", "ch4_architect_npc"), True
    )
    # The spared NPCs are alive, and the talks and the purchases saw them.
    for npc_var in ("ch1_marshal_npc", "ch2_lyra_npc", "ch2_merchant_npc", "ch3_dren_npc"):
        assert game.world.npcs[variables[npc_var]].hp > 0
    assert game.world.npcs[variables["ch4_vessa_npc"]].hp > 0


def test_robot_kingdom_entrance_is_cleared_while_reclamation_refills_it(published) -> None:
    """Territory reclamation brought enemies into the entrance area during the run, and the
    agents killed every one of them (`area_clear` held when the stage closed)."""
    played = robot_walk()
    area = played.game.world.auxiliary["main_quest"]["vars"]["ch3_entrance_area"]
    spawned = [
        r.tick for r in played.results for e in r.events
        if e.type == "territory_reclamation_tick" and e.data["area_id"] == area
        and e.data.get("spawned_npc")
    ]  # fmt: skip
    assert spawned
    (cleared,) = {
        r.tick for r in played.results for e in r.events
        if e.type == QUEST_STAGE_ADVANCED and e.data["stage"] == "ch3_clear_entrance"
    }  # fmt: skip
    assert min(spawned) < cleared


# ---------------------------------------------------------------------------- goal-graph games
# quarantine and saltglass run their quests as goal graphs: every goal whose requirements are done
# is open at once, and a parent completes with its last requirement. The solvers wait for each
# other at their last goal (`teamwork.waits_for_team`) and, before the act that completes it, for
# teammates to stand where it wants them: one act then ends the quest for both.
#
# * saltglass 0: the one survey seal Vesin stocks is bought by one agent and handed on to the
#   other (`teamwork.pass_on`); the world's one satchel goes to the first agent, and the other
#   gets one the first makes for it (`teamwork.supply_teammates`). Both finish in the tick the
#   chart and the seal lie together in the delivery area (tick 131; seed 1: tick 140). Seeds 1
#   to 3 work too (seed 1 below). The second agent, bagless with its pen in one hand, sets out to
#   earn a bag's price first; it can carry one saltmark only, so it gives up earning (`earn`:
#   no room) and takes the satchel made for it.
GRAPH_CASES = {
    "saltglass": Case("saltglass", 0, 9, 600),
    "saltglass-1": Case("saltglass", 1, 9, 600),
}


def graph_walk(name: str) -> Walk:
    return cached_walk(name, GRAPH_CASES)


def requirements(game: Game) -> dict[str, tuple[str, ...]]:
    return {s.id: s.requires or () for c in game.quests.main_quest.chapters for s in c.stages}


@pytest.mark.parametrize("name", list(GRAPH_CASES))
def test_both_agents_finish_a_goal_graph_quest_together(published, name: str) -> None:
    case, played = GRAPH_CASES[name], graph_walk(name)
    game = played.game
    assert_the_team_finished(played, case.max_ticks)
    for aid in game.agent_ids:
        progress = game.agents[aid].progress["main_quest"]
        assert progress["complete"] is True
        assert sorted(progress["completed"]) == sorted(stage_ids(game))
        assert len(progress["completed"]) == case.stages


@pytest.mark.parametrize("name", list(GRAPH_CASES))
def test_each_goal_is_announced_once_after_its_requirements(published, name: str) -> None:
    case, played = GRAPH_CASES[name], graph_walk(name)
    needs = requirements(played.game)
    for aid in played.game.agent_ids:
        advanced = [
            (e.data["chapter"], e.data["stage"])
            for result in played.results
            for e in result.events_of(aid, QUEST_STAGE_ADVANCED)
        ]
        assert len(advanced) == len(set(advanced)) == case.stages
        assert [c for c, _ in advanced] == sorted(c for c, _ in advanced)  # chapters in order
        order = [s for _, s in advanced]
        for position, stage in enumerate(order):
            assert all(r in order[:position] for r in needs[stage]), stage


def test_saltglass_the_one_seal_is_handed_on_and_one_delivery_ends_it(published) -> None:
    played = graph_walk("saltglass")
    game = played.game
    seal = "obj_survey_seal"
    bought = [aid for _, aid, d in events_of_type(played, "object_bought") if d["obj_id"] == seal]
    assert len(bought) == 1
    other = next(aid for aid in game.agent_ids if aid != bought[0])
    taken = [  # from the ground into hand or straight into the bag
        aid
        for kind in ("object_picked_up", "object_stored")
        for _, aid, d in events_of_type(played, kind)
        if d["obj_id"] == seal
    ]
    assert other in taken
    # Each agent bought its own chart paper (the stage is the purchase itself).
    papers = {
        aid for _, aid, d in events_of_type(played, "object_bought") if d["obj_id"] == "obj_paper"
    }
    assert papers == set(game.agent_ids)
    area = game.world.auxiliary["main_quest"]["vars"]["ch1_delivery_area"]
    ground = game.world.areas[area].objects
    assert any(game.world.def_of(o).id == seal for o in ground)


# quarantine: two test solvers with a team tactic for the last goal (`quarantine_solver`), default
# settings as published. Every goal but the last is the quester's; the last wants the tyrant dead
# (at the reactor area's level: 310 HP and 75 attack on both seeds below) and the serum left in
# the reactor area while both agents stand there. The solvers walk in, wait for each other at the
# tyrant and strike in the same tick; each keeps to its own rhythm with it (defend on its attack
# beats, strike on its defend and wait beats) and drinks concocted herbs on its defend beats.
# Where the darkness costs (the outbreak pack: ambushes x4 in the dark) the quester carries the
# lantern and holds it in the unlit areas (`policies.lighting`); corpses are burned where they
# fall when the fuel is at hand (`aftermath`).
#
# Seeds, and why: seeds 0-39 were played to 3,000 ticks. Both agents finish on 10, 21, 22, 26, 28
# and 32. On 21 and 26 both strike the tyrant in the same tick and nobody dies in that fight; on
# the others the reactor is at level 5 (330 HP, 90 attack) or in the lab entrance among the lab
# zombies, and agents die in the fight (2 to 32 deaths) and come back to it: the tyrant never gets
# its health back. On most other seeds a lockdown seals a way the quester needs and no key is left
# for it ("no way to get a key for a path locked with None": only the master keycard lifts a
# lockdown, and an `obj_key` opens a sealed path once), or the agents die over and over before the
# last goal; on 29 one agent finishes alone (its delivery ends the episode).
# * quarantine 26: 232 ticks, both at the last goal from tick 170; both strike the tyrant at tick
#   205 and kill it at 229 (4 concoctions in the fight, the lowest health 57 of 180), 8 deaths
#   before it.
# * quarantine 21: 226 ticks; the tyrant from tick 199 to 223, 10 deaths before it.
# Run time: about 0.5 s of play each.
QUARANTINE_CASES = {
    "quarantine": Case("quarantine", 26, 18, 600),
    "quarantine-21": Case("quarantine", 21, 18, 600),
}


def quarantine_walk(name: str = "quarantine") -> Walk:
    return cached_walk(name, QUARANTINE_CASES, QuarantineSolver)


@pytest.mark.parametrize("name", list(QUARANTINE_CASES))
def test_quarantine_both_agents_complete_the_main_quest(published, name: str) -> None:
    case, played = QUARANTINE_CASES[name], quarantine_walk(name)
    game = played.game
    assert_the_team_finished(played, case.max_ticks)
    needs = requirements(game)
    for aid in game.agent_ids:
        progress = game.agents[aid].progress["main_quest"]
        assert progress["complete"] is True
        assert sorted(progress["completed"]) == sorted(stage_ids(game))
        assert len(progress["completed"]) == case.stages
        advanced = [
            e.data["stage"]
            for result in played.results
            for e in result.events_of(aid, QUEST_STAGE_ADVANCED)
        ]
        assert len(advanced) == len(set(advanced)) == case.stages
        for position, stage in enumerate(advanced):
            assert all(r in advanced[:position] for r in needs[stage]), stage


@pytest.mark.parametrize("name", list(QUARANTINE_CASES))
def test_quarantine_both_fight_the_tyrant_and_one_serum_ends_it(published, name: str) -> None:
    played = quarantine_walk(name)
    game = played.game
    variables = game.world.auxiliary["main_quest"]["vars"]
    tyrant, reactor = variables["ch2_tyrant_npc"], variables["ch2_reactor_area"]
    assert game.world.npcs[tyrant].hp <= 0
    killed = [
        (t, aid) for t, aid, d in events_of_type(played, "npc_killed") if d["npc_id"] == tyrant
    ]
    assert len(killed) == 1
    fought = {
        aid for _, aid, d in events_of_type(played, "combat_started") if d["npc_id"] == tyrant
    }
    assert fought == set(game.agent_ids)  # both struck it
    assert events_of_type(played, "herbs_concocted")  # healing between its blows
    # One serum lies in the reactor area, where both agents stand at the end.
    serum = variables["ch2_serum_obj"]
    ground = game.world.areas[reactor].objects
    assert sum(n for o, n in ground.items() if game.world.def_of(o).id == serum) == 1
    assert {game.agents[aid].area_id for aid in game.agent_ids} == {reactor}


@pytest.mark.parametrize("name", list(QUARANTINE_CASES))
def test_quarantine_both_strike_the_tyrant_in_the_same_tick(published, name: str) -> None:
    """The two wait for each other at the tyrant, and nobody dies in that fight."""
    played = quarantine_walk(name)
    game = played.game
    tyrant = game.world.auxiliary["main_quest"]["vars"]["ch2_tyrant_npc"]
    starts = {
        aid: t for t, aid, d in events_of_type(played, "combat_started") if d["npc_id"] == tyrant
    }
    assert len(set(starts.values())) == 1
    (killed_at,) = [t for t, _, d in events_of_type(played, "npc_killed") if d["npc_id"] == tyrant]
    deaths = [t for t, _, _ in events_of_type(played, "agent_died")]
    assert not [t for t in deaths if min(starts.values()) <= t <= killed_at]


def test_quarantine_a_quest_enemy_killed_by_one_counts_for_both(published) -> None:
    played = quarantine_walk()
    game = played.game
    keeper = game.world.auxiliary["main_quest"]["vars"]["ch1_ward_zombie_2"]
    killers = [aid for _, aid, d in events_of_type(played, "npc_killed") if d["npc_id"] == keeper]
    assert len(killers) == 1
    other = next(aid for aid in game.agent_ids if aid != killers[0])
    assert "ch1_get_keycard" in game.agents[other].progress["main_quest"]["completed"]
    burned = events_of_type(played, "corpses_burned")
    assert burned  # the quester burns corpses where it can
