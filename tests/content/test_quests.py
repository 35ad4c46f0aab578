"""The bundled worlds' main quests: their data validates and loads, and each completes end to end.

The end-to-end runs use `quest_solver.QuestSolver`, a scripted player that issues text commands
through `Game.tick` only. Agent stats are the defaults (no `start_hp` / `start_attack` boost): the
solver's agent may die along the way and fetch its things back, as any player would. The only
GameConfig change is `tutorial=False`, because the tutorial room (enabled in some worlds) is a
separate rule set with its own tests; the main quest waits for it and is otherwise unaffected.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from quest_solver import QuestSolver, Stuck, run
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.resources import default_quest_file, resolve_world_file
from agentodyssey_pz.rules.events import MAIN_QUEST_COMPLETE, QUEST_STAGE_ADVANCED
from agentodyssey_pz.world.quest_records import Condition, MainQuestDef
from agentodyssey_pz.world.quests import load_quests

WORLDS = bundled_worlds()
SEEDS = (0, 1, 2, 3, 4)
MAX_TICKS = 1500  # the solver needs about 120-210 ticks per bundled quest
CONFIG = {"tutorial": False}
DATA = Path(__file__).resolve().parent.parent / "data"
NO_QUEST_WORLD = DATA / "default_quest_world.json"  # lists main_quest, brings no quest data
SMITE_PACK = DATA / "packs" / "smite"  # a verb that kills any NPC, another agent's boss included

# Condition kinds the quests are meant to exercise between them.
SHOWCASE_KINDS = {
    "in_area", "in_area_with_npc", "visited_k_of_area_set", "paper_text_equals_in_area",
    "has_any_of", "has_category", "has_item_count", "boss_already_defeated", "killed_n_enemies",
    "stage_completed", "event:object_crafted", "event:object_bought",
}  # fmt: skip


def raw_quests(name: str) -> dict[str, Any]:
    path = resolve_world_file(name).parent / "quests.json"
    return json.loads(path.read_text(encoding="utf-8"))


def main_quest(name: str) -> MainQuestDef:
    quest = load_quests(raw_quests(name), bundled_definition(name)).main_quest
    assert quest is not None
    return quest


def default_raw() -> dict[str, Any]:
    return json.loads(default_quest_file("main_quest").read_text(encoding="utf-8"))


def walk(conditions: Iterable[Condition]) -> Iterable[Condition]:
    for cond in conditions:
        yield cond
        yield from walk(cond.conditions)


def conditions_of(quest: MainQuestDef) -> Iterable[Condition]:
    """Every condition of every stage, nested ones included."""
    for chapter in quest.chapters:
        for stage in chapter.stages:
            yield from walk((*(stage.done_all or ()), *(stage.done_any or ())))


def kinds_used(quest: MainQuestDef) -> set[str]:
    return {
        f"event:{cond.params['type']}" if cond.kind == "event" else cond.kind
        for cond in conditions_of(quest)
    }


def texts(raw: dict[str, Any]) -> set[str]:
    """Every player-facing text of a main quest section."""
    quest = raw.get("main_quest", raw)
    found = {quest["title"], quest.get("intro", ""), quest.get("completion_text", "")}
    for chapter in quest["chapters"]:
        found |= {chapter["title"], chapter.get("intro", ""), chapter.get("root_goal", "")}
        for stage in chapter["stages"]:
            found |= {stage["objective"], stage.get("hint", ""), stage.get("complete_text", "")}
    return found - {""}


def ids(raw: dict[str, Any]) -> set[str]:
    """Stage, NPC and object ids a main quest section defines."""
    quest = raw.get("main_quest", raw)
    stages = {s["id"] for c in quest["chapters"] for s in c["stages"]}
    return (
        stages
        | {n["id"] for n in quest.get("npcs", ())}
        | {o["id"] for o in quest.get("objects", ())}
    )


def new_game(world: Any, agents: int = 1, seed: int = 0, **config: Any) -> Game:
    game = Game(world, agents, GameConfig(**{**CONFIG, **config}))
    game.reset(seed)
    return game


# ---------------------------------------------------------------------------- the data
@pytest.mark.parametrize("name", WORLDS)
def test_every_bundled_world_ships_a_main_quest_that_validates(name: str) -> None:
    quest = main_quest(name)
    assert len(quest.chapters) >= 3
    assert sum(len(c.stages) for c in quest.chapters) >= 9


@pytest.mark.parametrize("name", WORLDS)
def test_the_game_runs_the_worlds_own_quest_instead_of_the_default(name: str) -> None:
    game = new_game(name)
    assert game.quests.main_quest == main_quest(name)
    assert game.quests.main_quest.title != default_raw()["title"]
    # The quest's own NPCs and objects joined the world; quest objects never spawn naturally.
    quest = game.quests.main_quest
    assert {n.id for n in quest.npcs} <= set(game.world.npc_protos)
    assert set(quest.undistributable) <= set(
        game.definition.initializations.undistributable_objects
    )


@pytest.mark.parametrize("name", WORLDS)
def test_quest_has_a_goal_graph_chapter_with_a_root_goal_and_an_auto_closing_stage(
    name: str,
) -> None:
    graphs = [c for c in main_quest(name).chapters if c.is_goal_graph]
    assert graphs
    for chapter in graphs:
        assert chapter.root_goal
        closing = [s for s in chapter.stages if s.requires and not s.has_conditions]
        assert closing, chapter.id


@pytest.mark.parametrize("name", WORLDS)
def test_quest_uses_a_variety_of_conditions_effects_and_its_own_npcs(name: str) -> None:
    quest = main_quest(name)
    assert len(kinds_used(quest)) >= 9, sorted(kinds_used(quest))
    effects = [e for c in quest.chapters for s in c.stages for e in (*s.on_start, *s.on_complete)]
    bosses_spawned = {e.spawn_boss for e in effects if e.spawn_boss}
    assert bosses_spawned == set(quest.bosses)  # every boss appears through a stage
    assert any(e.give and "$currency" in e.give for e in effects)
    assert any(step.place_npc for step in quest.setup)
    protos = {n.id: n for n in quest.npcs}
    for boss in quest.bosses.values():
        proto = protos[boss.npc]  # the quest brings its own bosses ...
        assert proto.enemy and "wait" in proto.pattern  # ... with a rhythm to read
    defeated = {c.params["boss"] for c in conditions_of(quest) if c.kind == "boss_already_defeated"}
    assert defeated == set(quest.bosses)


def test_the_quests_between_them_showcase_the_condition_kinds() -> None:
    used = set().union(*(kinds_used(main_quest(name)) for name in WORLDS))
    assert used >= SHOWCASE_KINDS, sorted(SHOWCASE_KINDS - used)


@pytest.mark.parametrize("name", WORLDS)
def test_every_stage_tells_the_player_what_to_do_and_what_happened(name: str) -> None:
    for chapter in main_quest(name).chapters:
        assert chapter.intro
        for stage in chapter.stages:
            assert stage.objective and stage.complete_text, stage.id
            if stage.has_conditions:
                assert stage.hint, stage.id


@pytest.mark.parametrize("name", WORLDS)
def test_quest_objectives_teach_the_worlds_own_crafts_and_trade(name: str) -> None:
    world_objects = {o.id for o in bundled_definition(name).entities.objects}
    quest = main_quest(name)
    named: dict[str, set[str]] = {"object_crafted": set(), "object_bought": set()}
    for cond in conditions_of(quest):
        if cond.kind == "event" and cond.params["type"] in named:
            named[cond.params["type"]] |= set(cond.params.get("objects", ()))
    assert named["object_crafted"] & world_objects
    assert named["object_bought"] & world_objects


def test_the_quests_are_original() -> None:
    """No quest repeats the default quest's or another world's ids or texts."""
    seen_texts, seen_ids = texts(default_raw()), ids(default_raw())
    for name in WORLDS:
        raw = raw_quests(name)
        assert not texts(raw) & seen_texts, name
        assert not ids(raw) & seen_ids, name
        seen_texts |= texts(raw)
        seen_ids |= ids(raw)


# ---------------------------------------------------------------------------- end to end
def assert_completed_by(game: Game, results: list[Any], agent_id: str) -> None:
    """The run ended on its last tick, which carries the completion; every stage paid once."""
    final = results[-1]
    assert final.terminated, f"not finished after {len(results)} ticks"
    assert [e.agent_id for e in final.events if e.type == MAIN_QUEST_COMPLETE] == [agent_id]
    assert not any(r.terminated for r in results[:-1])
    stages = [s.id for c in game.quests.main_quest.chapters for s in c.stages]
    progress = game.agents[agent_id].progress["main_quest"]
    assert progress["complete"]
    assert sorted(progress["completed"]) == sorted(stages)
    assert sum(r.rewards[agent_id].quest for r in results) == len(stages)
    assert game.scores[agent_id].quest == len(stages)
    # The finished state (bosses spawned and beaten, every stage done) saves and loads: the
    # shapes the quest rules declare for their saved state hold for real play.
    with tempfile.TemporaryDirectory() as folder:
        game.save(Path(folder) / "end.json")
        assert (
            Game.load(Path(folder) / "end.json").agents[agent_id].progress
            == game.agents[agent_id].progress
        )
    with pytest.raises(RuntimeError):
        game.tick({agent_id: "wait"})


@pytest.mark.parametrize(("name", "seed"), [(w, s) for w in WORLDS for s in SEEDS])
def test_main_quest_completes_end_to_end(name: str, seed: int) -> None:
    game = new_game(name, seed=seed)
    results = run(game, {"agent_0": QuestSolver(game, "agent_0")}, MAX_TICKS)
    assert_completed_by(game, results, "agent_0")


@pytest.mark.parametrize("seed", (0, 1, 2))
def test_default_quest_completes_on_a_world_without_quest_data(seed: int) -> None:
    game = new_game(NO_QUEST_WORLD, seed=seed)
    assert "main_quest" in game.definition.custom_events
    assert game.pack.quest_data is None
    assert game.quests.main_quest.title == default_raw()["title"]
    results = run(game, {"agent_0": QuestSolver(game, "agent_0")}, MAX_TICKS)
    assert_completed_by(game, results, "agent_0")


# ---------------------------------------------------------------------------- many agents
SPEEDS = {"agent_0": 1, "agent_1": 2, "agent_2": 3, "agent_3": 5}  # act every n ticks
MULTI_SEEDS = {"thornvale": 0, "glasswick": 1, "cinderdeep": 0}


@pytest.mark.parametrize("name", WORLDS)
def test_eight_agents_progress_independently_and_the_first_to_finish_ends_the_episode(
    name: str,
) -> None:
    """Four solvers at different speeds and four idle agents share one world. A slow solver may
    find the fast one took what it needed and give up (then it waits); the fast one may not."""
    game = new_game(name, agents=8, seed=MULTI_SEEDS.get(name, 0))
    solvers = {aid: QuestSolver(game, aid) for aid in SPEEDS}
    stuck: set[str] = set()
    results = []
    for tick in range(MAX_TICKS):
        acting = {aid for aid, n in SPEEDS.items() if tick % n == 0 and aid not in stuck}
        actions = dict.fromkeys(game.agent_ids, "wait")
        for aid in sorted(acting):
            try:
                actions[aid] = solvers[aid].command()
            except Stuck:
                assert aid != "agent_0"
                stuck.add(aid)
        before = {
            aid: list(a.progress.get("main_quest", {}).get("completed", ()))
            for aid, a in game.agents.items()
        }
        result = game.tick(actions)
        results.append(result)
        for aid, solver in solvers.items():
            solver.observe(result, acted=aid in acting)
        # One agent's progress never moves another's: each new stage is its own advance event.
        for aid, agent in game.agents.items():
            new = agent.progress["main_quest"]["completed"][len(before[aid]) :]
            advances = [e for e in result.events_of(aid, QUEST_STAGE_ADVANCED)]
            assert len(new) == len(advances), (tick, aid)
            if aid not in SPEEDS:
                assert agent.progress["main_quest"]["completed"] == [], (tick, aid)
        if result.terminated:
            break
    assert_completed_by(game, results, "agent_0")
    progress = {aid: a.progress["main_quest"] for aid, a in game.agents.items()}
    assert not any(p["complete"] for aid, p in progress.items() if aid != "agent_0")
    assert any(progress[aid]["completed"] for aid in ("agent_1", "agent_2", "agent_3"))
    # Each agent has its own guide, named differently, and its own bosses.
    world = game.world
    guides = {aid: world.npcs[p["guide"]] for aid, p in progress.items()}
    assert len({g.id for g in guides.values()}) == len({g.name for g in guides.values()}) == 8
    assert all(g.owner == aid for aid, g in guides.items())
    bosses = [(aid, npc_id) for aid, p in progress.items() for npc_id in p["bosses"].values()]
    assert len({npc_id for _, npc_id in bosses}) == len(bosses)
    assert all(world.npcs[npc_id].owner == aid for aid, npc_id in bosses)


def test_a_boss_killed_by_another_agent_counts_for_its_owner() -> None:
    """Bosses are personal: another agent cannot `attack` one, but a pack verb that kills any NPC
    (the test pack `smite`) can, and the kill completes the owner's boss stage."""
    game = new_game("thornvale", agents=2, rule_packs=(str(SMITE_PACK),))
    owner, helper = QuestSolver(game, "agent_0"), QuestSolver(game, "agent_1")
    for _ in range(MAX_TICKS):  # the owner plays until its first boss stands in its lair
        if game.agents["agent_0"].progress.get("main_quest", {}).get("bosses"):
            break
        result = game.tick({"agent_0": owner.command(), "agent_1": "wait"})
        owner.observe(result)
    progress = game.agents["agent_0"].progress["main_quest"]
    ((key, boss_id),) = progress["bosses"].items()
    boss = game.world.npcs[boss_id]
    walk_there = helper.goto(boss.area_id)
    for command in walk_there:  # the helper walks to the lair while the owner waits
        helper.observe(game.tick({"agent_0": "wait", "agent_1": command}))
    result = game.tick({"agent_0": "wait", "agent_1": f"attack {boss.name}"})
    assert not result.action_ok["agent_1"]  # not its boss: it cannot even see it
    completed = list(progress["completed"])
    result = game.tick({"agent_0": "wait", "agent_1": f"smite {boss.name}"})
    assert result.action_ok["agent_1"]
    assert progress["bosses_defeated"] == {key: True}
    assert len(progress["completed"]) == len(completed) + 1  # the owner's boss stage closed
    assert result.events_of("agent_0", QUEST_STAGE_ADVANCED)
    assert game.agents["agent_0"].kills == 0  # credited as defeated, not as the owner's kill
    helper_progress = game.agents["agent_1"].progress["main_quest"]
    assert helper_progress["bosses_defeated"] == {} and helper_progress["bosses"] == {}
    assert progress["completed"][-1] not in helper_progress["completed"]
