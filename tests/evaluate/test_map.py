"""The SVG map: valid XML, one node per area, dashed locked paths named by their key, the spawn
marked, deterministic, and agents placed where a trajectory log says they stand."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from worlds_helper import bundled_worlds

from agentodyssey_pz import cli
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.evaluate import EvalConfig, evaluate
from agentodyssey_pz.observe.map_svg import map_svg, write_map
from agentodyssey_pz.policies.base import BasePolicy

SVG = "{http://www.w3.org/2000/svg}"


def parse(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def with_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if name in e.get("class", "").split()]


def started(world: str, agents: int = 1, seed: int = 0) -> Game:
    game = Game(world, agents)
    game.reset(seed)
    return game


@pytest.mark.parametrize("world", [*bundled_worlds(), "procgen:small"])
def test_map_has_one_node_per_area_and_dashed_locked_paths(world: str, tmp_path: Path) -> None:
    game = started(world, agents=2)
    root = parse(write_map(game, tmp_path / "map.svg"))
    areas = with_class(root, "g", "area")
    assert sorted(g.get("data-area") for g in areas) == sorted(game.world.areas)
    levels = {g.get("data-area"): int(g.get("data-level")) for g in areas}
    assert levels == {a.id: a.level for a in game.world.areas.values()}
    edges = list(game.world.graph.nx.edges(data=True))
    shared_locked = {frozenset((a, b)) for a, b, d in edges if d["locked"] and d["owner"] is None}
    locked_lines = with_class(root, "line", "locked")
    assert {frozenset((e.get("data-from"), e.get("data-to"))) for e in locked_lines} == (
        shared_locked
    )
    assert all(e.get("stroke-dasharray") for e in locked_lines)
    assert len(with_class(root, "line", "path")) == len(edges)
    unlocked = [e for e in with_class(root, "line", "path") if "locked" not in e.get("class")]
    assert not any(e.get("stroke-dasharray") and "personal" not in e.get("class") for e in unlocked)
    key_names = [t.text for t in with_class(root, "text", "key")]
    assert len(key_names) == len(shared_locked)
    objects = game.world.objects
    for *_, d in edges:
        if d["locked"] and d["owner"] is None and d["key"] in objects:
            assert objects[d["key"]].name in key_names
    spawn = [g for g in areas if g.find(f"{SVG}circle[@class='spawn']") is not None]
    assert [g.get("data-area") for g in spawn] == [game.world.spawn_area]
    places = with_class(root, "g", "place")
    assert len(places) == sum(1 for p in game.world.places.values() if p.area_ids)


def test_a_locked_place_is_drawn_dashed_and_labelled() -> None:
    game = started("default")
    root = ET.fromstring(map_svg(game.world))
    for group in with_class(root, "g", "place"):
        place = game.world.places[group.get("data-place")]
        box = group.find(SVG + "rect")
        label = group.find(SVG + "text").text
        assert bool(box.get("stroke-dasharray")) == (not place.unlocked)
        assert label.startswith(place.name) and label.endswith("(locked)") != place.unlocked


def test_personal_paths_are_dotted_not_locked() -> None:
    worlds = [
        w
        for w in bundled_worlds()
        if any(d["owner"] for *_, d in started(w, 2).world.graph.nx.edges(data=True))
    ]
    if not worlds:
        pytest.skip("no bundled world has personal paths")
    root = ET.fromstring(map_svg(started(worlds[0], 2).world))
    personal = with_class(root, "line", "personal")
    assert personal and not any("locked" in e.get("class") for e in personal)


def test_the_map_is_deterministic_and_the_layout_seed_matters() -> None:
    world = started("procgen:small").world
    assert map_svg(world, seed=3) == map_svg(started("procgen:small").world, seed=3)
    assert map_svg(world, seed=3) != map_svg(world, seed=4)


def test_agents_are_drawn_where_they_stand() -> None:
    game = started("default", agents=3)
    game.move_agent(
        game.agents["agent_2"], next(a for a in game.world.areas if a != game.world.spawn_area)
    )
    root = ET.fromstring(
        map_svg(game.world, agents={a.id: a.area_id for a in game.agents.values()})
    )
    drawn = {g.get("data-agent"): g.get("data-area") for g in with_class(root, "g", "agent")}
    assert drawn == {a.id: a.area_id for a in game.agents.values()}
    assert not with_class(ET.fromstring(map_svg(game.world)), "g", "agent")


def test_names_are_escaped() -> None:
    game = started("default")
    area = next(a for a in game.world.areas.values() if a.id != game.world.spawn_area)
    area.name = 'a <b> & "c"'
    root = ET.fromstring(map_svg(game.world))  # would not parse unescaped
    assert any(t.text == 'a <b> & "c"' for t in root.iter(SVG + "text"))


class Walker(BasePolicy):
    name = "walker"

    def __call__(self, observation, info):
        options = info["valid_actions"].get("enter") or ["wait"]
        return self.rng.choice(options)


def test_cli_map_draws_agents_at_a_tick_of_a_trajectory(tmp_path: Path) -> None:
    evaluate(
        EvalConfig(
            episodes=1,
            steps=12,
            num_agents=3,
            policies=(Walker,),
            seed=5,
            trajectory_dir=str(tmp_path),
        )
    )
    log = tmp_path / "episode-0000.jsonl"
    out = tmp_path / "tick7.svg"
    assert cli.main(["map", "--trajectory", str(log), "--tick", "7", "-o", str(out)]) == 0
    logged = {}
    for line in log.read_text(encoding="utf-8").splitlines()[1:]:
        record = json.loads(line)
        if record["tick"] == 7:
            logged[record["agent"]] = record["area"]
    drawn = {g.get("data-agent"): g.get("data-area") for g in with_class(parse(out), "g", "agent")}
    assert drawn == logged and len(logged) == 3
    spawn = started("default", seed=5).world.spawn_area
    assert any(area != spawn for area in logged.values())  # the agents did move


def test_cli_map_of_a_world_and_its_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.svg"
    assert cli.main(["map", "default", "--seed", "2", "-o", str(out)]) == 0
    assert "areas" in capsys.readouterr().out
    root = parse(out)
    assert len(with_class(root, "g", "area")) == len(started("default", seed=2).world.areas)
    assert not with_class(root, "g", "agent")
    assert cli.main(["map", "--tick", "3", "-o", str(out)]) == 1
    assert "--trajectory" in capsys.readouterr().err


def test_render_keeps_a_map_of_the_agents_up_to_date(tmp_path: Path, capsys) -> None:
    import agentodyssey_pz

    target = tmp_path / "live.svg"
    env = agentodyssey_pz.parallel_env(
        world="default", render_mode="human", render_map=str(target), tutorial=False
    )
    env.reset(seed=2)
    env.render()
    assert f"(map with the agents: {target})" in capsys.readouterr().out
    first = target.read_text(encoding="utf-8")
    assert ET.fromstring(first).tag.endswith("svg") and "tick 0" in first
    me = env.game.agents["agent_0"]
    neighbour = next(iter(env.game.world.graph.visible_neighbors(me.area_id, me.id)))
    name = env.game.world.areas[neighbour].name
    env.step({"agent_0": f"enter {name}", "agent_1": "wait", "agent_2": "wait"})
    env.render()
    second = target.read_text(encoding="utf-8")
    assert "tick 1" in second
    drawn = {
        g.get("data-agent"): g.get("data-area")
        for g in with_class(ET.fromstring(second), "g", "agent")
    }
    assert drawn["agent_0"] == neighbour == env.game.agents["agent_0"].area_id
