"""The pages in a real browser (headless Chromium): the rendered DOM, not the source.

An element per area; the timeline moves the agents to where the log says they stand; the agent
panel shows the logged command and feedback of a chosen tick (also when the URL fragment names
it); keys, play and filters work; a run full of hostile strings shows them as text and runs none.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helper import headless_chromium
from viewer_helper import HOSTILE, HOSTILE_AREA_NAMES, HOSTILE_KEY_NAME, LONG_LINE

from agentodyssey_pz.evaluate.trajectory import read_trajectory
from agentodyssey_pz.viewer.build import write_pages
from agentodyssey_pz.viewer.record import record
from agentodyssey_pz.viewer.source import find_episodes


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium() as session:
        yield session


@pytest.fixture(scope="module")
def pages(evaluation: Path, hostile: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("pages")
    return {
        "evaluation": write_pages(evaluation, folder / "evaluation.html")[0],
        "hostile": write_pages(hostile, folder / "hostile.html")[0],
    }


def open_page(browser: Any, page: Path, fragment: str = "") -> None:
    browser.get(page.as_uri() + fragment)
    for _ in range(500):  # 10 s at most: a loaded machine (a page opens in well under 1 s)
        if browser.execute_script("return document.body.getAttribute('data-ready')") == "1":
            return
        time.sleep(0.02)
    raise AssertionError(f"{page} did not finish loading: {console_errors(browser)}")


def console_errors(browser: Any) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def text(browser: Any, selector: str) -> str:
    return browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", selector
    )


def move_timeline(browser: Any, frame: int) -> None:
    browser.execute_script(
        "const r = document.getElementById('timeline'); r.value = String(arguments[0]);"
        "r.dispatchEvent(new Event('input', {bubbles: true}));",
        frame,
    )


def markers(browser: Any) -> dict[str, tuple[str, float, float]]:
    """agent -> (area it is drawn at, x, y) of each marker on the map."""
    return {
        m["agent"]: (m["area"], m["x"], m["y"])
        for m in browser.execute_script(
            "return [...document.querySelectorAll('#map g.agent-marker')].map(m => {"
            "  const t = /translate\\(([-\\d.]+),([-\\d.]+)\\)/.exec(m.getAttribute('transform'));"
            "  return {agent: m.dataset.agent, area: m.dataset.area, x: +t[1], y: +t[2]}; })"
        )
    }


def area_centres(browser: Any) -> dict[str, tuple[float, float]]:
    return {
        a["id"]: (a["x"], a["y"])
        for a in browser.execute_script(
            "return [...document.querySelectorAll('#map g.area-node')].map(g => {"
            "  const c = g.querySelector('circle.body');"
            "  return {id: g.dataset.area, x: +c.getAttribute('cx'), y: +c.getAttribute('cy')}; })"
        )
    }


def logged(evaluation: Path) -> tuple[dict, dict[int, dict[str, dict]]]:
    header, steps = read_trajectory(find_episodes(evaluation)[0].path)
    by_tick: dict[int, dict[str, dict]] = {}
    for step in steps:
        by_tick.setdefault(step["tick"], {})[step["agent"]] = step
    return header, by_tick


def test_the_graph_has_an_element_per_area(browser: Any, pages: dict, evaluation: Path) -> None:
    open_page(browser, pages["evaluation"])
    world = record(find_episodes(evaluation)[0]).world
    assert sorted(area_centres(browser)) == sorted(world.areas)
    drawn = browser.execute_script(
        "return [...document.querySelectorAll('#map g.area-node text.area-label')]"
        ".map(t => t.textContent)"
    )
    assert sorted(drawn) == sorted(a.name for a in world.areas.values())
    assert console_errors(browser) == []


def test_the_timeline_moves_the_agents_where_the_log_says(
    browser: Any, pages: dict, evaluation: Path
) -> None:
    header, by_tick = logged(evaluation)
    open_page(browser, pages["evaluation"])
    centres = area_centres(browser)
    for tick in (1, 2, 5, 11, 17, 23, header["steps"], 9):
        move_timeline(browser, tick)
        assert text(browser, "#tick-label") == f"tick {tick} of {header['steps']}"
        drawn = markers(browser)
        for agent, step in by_tick[tick].items():
            area, x, y = drawn[agent]
            assert area == step["area"], (tick, agent)
            cx, cy = centres[area]
            assert math.hypot(x - cx, y - cy) < 60  # on its ring around the area's circle
    body = browser.find_element("tag name", "body")
    body.send_keys("\ue014")  # the right arrow: one tick on
    assert text(browser, "#tick-label").startswith("tick 10 ")
    assert {a: m[0] for a, m in markers(browser).items()} == {
        a: s["area"] for a, s in by_tick[10].items()
    }
    assert console_errors(browser) == []


def test_the_panel_shows_the_logged_command_and_feedback(
    browser: Any, pages: dict, evaluation: Path
) -> None:
    _, by_tick = logged(evaluation)
    for tick, agent in ((7, "agent_2"), (1, "agent_0"), (19, "agent_1")):
        open_page(browser, pages["evaluation"], f"#t={tick}&a={agent}")
        step = by_tick[tick][agent]
        assert text(browser, "#agent-detail h2").startswith(agent)
        assert text(browser, "#step-command") == step["command"]
        assert text(browser, "#step-feedback") == step["feedback"]
        assert (text(browser, "#step-ok") == "yes") == step["flags"]["action_ok"]
        status = browser.execute_script(
            "return document.querySelector('#agent-status dd[data-area]').dataset.area"
        )
        assert status == step["area"]
        assert f"{step['progress']['hp']} of" in text(browser, "#agent-status")
    body = browser.find_element("tag name", "body")
    body.send_keys("1")  # agent_0's panel; the fragment follows
    assert text(browser, "#agent-detail h2").startswith("agent_0")
    assert browser.execute_script("return location.hash") == "#t=19&a=agent_0"
    assert text(browser, "#step-command") == by_tick[19]["agent_0"]["command"]


def test_the_panel_lists_what_an_action_used_and_what_used_it(
    browser: Any, tracked: Path, tmp_path: Path
) -> None:
    (page,) = write_pages(tracked, tmp_path / "tracked.html")
    deps = record(find_episodes(tracked)[0]).deps
    nodes = deps["nodes"]
    craft = next(c for p, c in deps["edges"] if nodes[c][2] == "craft" and nodes[c][1] == 0)
    tick = nodes[craft][0]
    used = sorted(nodes[p][0] for p, c in deps["edges"] if c == craft)
    open_page(browser, page, f"#t={tick}&a=agent_0")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#agent-deps ul.uses button')]"
        ".map(b => b.textContent)"
    )
    assert sorted(int(s.split()[1]) for s in shown) == used
    assert all(" · agent_0 · " in s or " · world · " in s for s in shown)
    browser.execute_script("document.querySelector('#agent-deps ul.uses button').click()")
    assert text(browser, "#tick-label").startswith(f"tick {used[0]} ")
    assert console_errors(browser) == []


def test_areas_appear_when_a_world_expansion_adds_them(
    browser: Any, expanding: Path, tmp_path: Path
) -> None:
    (page,) = write_pages(expanding, tmp_path / "expanding.html")
    since = record(find_episodes(expanding)[0]).since
    first_new = min(t for t in since.values() if t > 0)
    shown = (
        "return [...document.querySelectorAll('#map g.area-node:not(.hidden)')]"
        ".map(g => g.dataset.area)"
    )
    open_page(browser, page, "#t=0")
    for tick in (0, first_new - 1, first_new, max(since.values()), 1):
        move_timeline(browser, tick)  # frame n is tick n in an evaluation's log
        visible = browser.execute_script(shown)
        assert sorted(visible) == sorted(a for a, t in since.items() if t <= tick), tick
    assert console_errors(browser) == []


def test_play_pause_speed_and_filters(browser: Any, pages: dict) -> None:
    open_page(browser, pages["evaluation"], "#t=0&a=agent_0")
    browser.execute_script(
        "const s = document.getElementById('speed'); s.value = '32';"
        "s.dispatchEvent(new Event('change'));"
    )
    body = browser.find_element("tag name", "body")
    body.send_keys(" ")
    assert text(browser, "#play").endswith("Pause")
    time.sleep(0.4)
    body.send_keys(" ")
    assert text(browser, "#play").endswith("Play")
    tick = int(text(browser, "#tick-label").split()[1])
    assert tick >= 3
    time.sleep(0.2)
    assert int(text(browser, "#tick-label").split()[1]) == tick  # paused
    browser.execute_script(
        "const box = document.querySelector('#agent-list input[type=checkbox]'); box.click();"
    )
    hidden = browser.execute_script(
        "const q = (s) => document.querySelector(s);"
        "return [q('#map g.agent-marker[data-agent=agent_0]').getBoundingClientRect().width,"
        " getComputedStyle(q('#chart polyline[data-agent=agent_0]')).display]"
    )
    assert hidden == [0, "none"]
    body.send_keys("2")  # agent_1; f centres the map on its area, 0 shows it all again
    whole = browser.execute_script("return document.getElementById('map').getAttribute('viewBox')")
    body.send_keys("-")
    body.send_keys("f")
    x, y, w, h = map(float, browser.execute_script(
        "return document.getElementById('map').getAttribute('viewBox')").split())  # fmt: skip
    area = markers(browser)["agent_1"][0]
    cx, cy = area_centres(browser)[area]
    assert abs(x + w / 2 - cx) < 1 and abs(y + h / 2 - cy) < 1
    body.send_keys("0")
    assert browser.execute_script(
        "return document.getElementById('map').getAttribute('viewBox')"
    ).split() == [f"{float(v):.1f}" for v in whole.split()]


def test_a_hostile_run_renders_as_text_and_runs_no_script(browser: Any, pages: dict) -> None:
    open_page(browser, pages["hostile"], "#t=3&a=agent_0")
    assert text(browser, "#step-feedback") == f"{HOSTILE[3]}\n{LONG_LINE}"
    assert text(browser, "#agent-detail h2") == f"agent_0 ({HOSTILE[0]})"
    frames = int(browser.execute_script("return document.getElementById('timeline').max"))
    for frame in range(frames + 1):  # every tick, every agent's panel, the feed
        move_timeline(browser, frame)
        for key in ("1", "2"):
            browser.find_element("tag name", "body").send_keys(key)
    move_timeline(browser, 5)
    browser.find_element("tag name", "body").send_keys("1")
    assert text(browser, ".llm-answer") == HOSTILE[5]
    assert text(browser, "#step-command") == HOSTILE[5]
    policy_curves = browser.execute_script(
        "return [...document.querySelectorAll('#chart polyline.policy-curve')]"
        ".map(p => p.dataset.policy)"
    )
    assert policy_curves == [HOSTILE[0]]  # both agents "play" it: their mean curve, named
    assert browser.execute_script("return window.__pwned") is None
    assert (
        browser.execute_script(
            "return document.querySelectorAll("
            "'img, iframe, object, embed, script:not([id=run-data])').length"
        )
        == 1
    )  # the page's own script, nothing more
    from selenium.common.exceptions import NoAlertPresentException

    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018
    assert console_errors(browser) == []


def test_hostile_names_from_a_world_file_render_as_text(
    browser: Any, hostile_world: Path, tmp_path: Path
) -> None:
    (page,) = write_pages(hostile_world, tmp_path / "world.html")
    open_page(browser, page, "#t=0&a=agent_0")
    labels = browser.execute_script(
        "const all = (s) => [...document.querySelectorAll(s)].map(e => e.textContent);"
        "return [all('#map text.area-label'), all('#map text.place-label'),"
        " all('#map text.key-label')]"
    )
    assert sorted(labels[0]) == sorted(HOSTILE_AREA_NAMES)
    assert sorted(labels[1]) == sorted([f"{HOSTILE[0]}", f"{HOSTILE[1]} (locked at the start)"])
    assert HOSTILE_KEY_NAME in labels[2]
    frames = int(browser.execute_script("return document.getElementById('timeline').max"))
    for frame in range(frames + 1):
        move_timeline(browser, frame)
    assert browser.execute_script("return window.__pwned") is None
    assert browser.execute_script("return document.querySelectorAll('img, i, b').length") == 0
    assert console_errors(browser) == []
