"""The page: self-contained, its data inert, hostile strings kept as data (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

from viewer_helper import (
    DATA_OPEN,
    HOSTILE,
    HOSTILE_AREA_NAMES,
    LONE_SURROGATE,
    LONG_LINE,
    Elements,
    embedded,
)

from agentodyssey_pz.viewer.build import write_pages
from agentodyssey_pz.viewer.deltas import decode
from agentodyssey_pz.viewer.page import render_page, script_json


def test_hostile_strings_stay_inside_the_data_element() -> None:
    data = {"strings": [*HOSTILE, LONE_SURROGATE, LONG_LINE], "nested": {s: [s] for s in HOSTILE}}
    html = render_page(data)
    parsed = Elements()
    parsed.feed(html)
    assert [t for t, _ in parsed.tags if t == "script"] == ["script", "script"]
    assert [a.get("type") for t, a in parsed.tags if t == "script"] == ["application/json", None]
    plain = Elements()
    plain.feed(render_page({}))
    assert parsed.tags == plain.tags  # not one element more: no <img>, <svg onload> ...
    assert all(not k.startswith("on") for _, attrs in parsed.tags for k in attrs)
    assert embedded(html) == data
    text = script_json(data)
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"} and text.isascii()


def test_the_page_is_the_same_around_any_data() -> None:
    plain, hostile = render_page({"a": 1}), render_page({"a": HOSTILE})
    cut = re.compile(re.escape(DATA_OPEN) + ".*?</script>", re.S)
    assert cut.sub("", plain) == cut.sub("", hostile)


def test_the_page_fetches_nothing_and_allows_only_its_own_script() -> None:
    html = render_page({})
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert "default-src 'none'" in policy and "script-src 'sha256-" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    code = "\n".join(line.split("//")[0] for line in html.splitlines())  # comments aside
    for sink in (".innerHTML", ".outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function", "setTimeout(\"", "srcdoc"):  # fmt: skip
        assert sink not in code


def test_a_hostile_run_is_written_and_its_data_decodes(hostile: Path, tmp_path: Path) -> None:
    (page,) = write_pages(hostile, tmp_path / "hostile.html")
    html = page.read_text(encoding="utf-8")
    data = embedded(html)
    frames = decode(data["run"])
    feedback = frames[3]["steps"]["agent_0"]["feedback"]
    assert feedback == f"{HOSTILE[3]}\n{LONG_LINE}"
    assert frames[4]["steps"]["agent_1"]["feedback"].endswith(LONE_SURROGATE)
    llm = frames[5]["steps"]["agent_0"]["llm"]
    assert llm["answer"] == llm["reasoning"] == HOSTILE[5] and llm["format_error"] is False
    assert set(data["policies"].values()) == {HOSTILE[0]}
    parsed = Elements()
    parsed.feed(html)
    assert [t for t, _ in parsed.tags if t == "script"] == ["script", "script"]


def test_hostile_names_from_a_world_file_stay_data(hostile_world: Path, tmp_path: Path) -> None:
    (page,) = write_pages(hostile_world, tmp_path / "world.html")
    html = page.read_text(encoding="utf-8")
    parsed, plain = Elements(), Elements()
    parsed.feed(html)
    plain.feed(render_page({}))
    assert parsed.tags == plain.tags
    names = {a["name"] for a in embedded(html)["layout"]["areas"]}
    assert names == set(HOSTILE_AREA_NAMES)
