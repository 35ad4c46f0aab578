"""benchmarks/compare_published_verbs.py: the side-by-side outcome checks run against AgentOdyssey's
engine and print (and write) their table; its classifying and agreement rules are checked on made-up
outcomes. Skipped without the published copy (tests/published_copy.py)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from published_copy import published_copy

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compare_published_verbs.py"


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("compare_published_verbs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # attrs classes resolve their module by name
    spec.loader.exec_module(module)
    return module


cpv = load_script()


def test_runs_a_deterministic_and_a_random_situation_on_both_engines(tmp_path: Path) -> None:
    published_copy()
    table = tmp_path / "table.md"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--situations", "salvage-ok,scavenge-random",
         "--random-seeds", "30", "--markdown", str(table)],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    if done.returncode == 2 and "needs gymnasium" in done.stderr:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    (salvage,) = [ln for ln in lines if "kit in hand, 2 scrap iron" in ln]
    assert salvage.split()[0:2] == ["robot_kingdom", "salvage"]
    assert "success 3" in salvage and salvage.rstrip().endswith("yes")
    (scavenge,) = [ln for ln in lines if "at the spawn, no kills" in ln]
    assert " 30 " in scavenge and scavenge.rstrip().endswith("yes")
    assert scavenge.count("±") == 2  # each engine's rate with its standard error
    rows = [ln for ln in table.read_text(encoding="utf-8").splitlines() if ln.startswith("| ")]
    assert len(rows) == 3  # the header and the two situations
    assert rows[0].startswith("| game | verb | situation |")
    assert rows[0].rstrip().endswith("| same seed by seed | agree |")


def test_the_edited_world_holds_what_the_verb_needs_and_no_quests() -> None:
    root = Path(published_copy().root)
    situation = next(s for s in cpv.SITUATIONS if s.key == "burn-ok")
    world = cpv.situation_world(root, situation)
    spawn = world["initializations"]["spawn"]
    assert spawn["objects"]["obj_chemical"] == 1 and spawn["objects"]["obj_rag"] == 1
    assert spawn["npcs"] == {"npc_zombie": 1}
    (zombie,) = [n for n in world["entities"]["npcs"] if n["id"] == "npc_zombie"]
    assert zombie["base_hp"] == 1 and zombie["slope_hp"] == 0
    assert world["custom_events"] == []
    assert world["features"]["rule_packs"] == ["outbreak"]
    assert world["features"]["synthesis"] == "quarantine"
    assert world["features"]["online_expansion"] is False
    # the game's own file is not touched
    original = json.loads(
        (root / "assets/world_definitions/generated/quarantine/default.json").read_text()
    )
    assert "obj_chemical" not in original["initializations"]["spawn"]["objects"]


def test_each_situation_names_distinct_kinds_and_a_known_rate() -> None:
    keys = [s.key for s in cpv.SITUATIONS]
    assert len(keys) == len(set(keys))
    for s in cpv.SITUATIONS:
        names = [k.name for k in s.kinds]
        assert len(names) == len(set(names)) and cpv.OTHER not in names, s.key
        assert s.rate is None or s.rate in names, s.key
        for kind in s.kinds:
            assert kind.ours.partition(":")[0] in ("key", "event", "text"), (s.key, kind)


def _row(ours: dict[str, int], theirs: dict[str, int], same: int, rate: str | None) -> Any:
    base = next(s for s in cpv.SITUATIONS if s.key == "scavenge-random")
    import attrs

    situation = attrs.evolve(base, rate=rate)
    seeds = sum(ours.values())
    return cpv.Row(situation, seeds, Counter(ours), Counter(theirs), same, ("", ""))


def test_agreement_within_three_standard_errors() -> None:
    # 0.30 against 0.36 over 400 seeds: the difference's SE is 0.0332, 3 SE = 0.0997
    assert _row({"found": 120, "nothing": 280}, {"found": 144, "nothing": 256}, 0, "found").agree
    # 0.30 against 0.45: 0.15 > 3 x 0.0341
    assert not _row(
        {"found": 120, "nothing": 280}, {"found": 180, "nothing": 220}, 0, "found"
    ).agree
    # a kind seen by one engine only, over many seeds, is a disagreement whatever the rates
    assert not _row(
        {"found": 120, "nothing": 280}, {"found": 120, "nothing": 279, "weird": 1}, 0, "found"
    ).agree
    # deterministic situations: every seed the same kind on both sides
    assert _row({"nothing": 3}, {"nothing": 3}, 3, None).agree
    assert not _row({"nothing": 3}, {"nothing": 2, "found": 1}, 2, None).agree
    assert not _row({cpv.OTHER: 3}, {cpv.OTHER: 3}, 3, None).agree


def test_classifiers_read_keys_events_and_text() -> None:
    situation = next(s for s in cpv.SITUATIONS if s.key == "scavenge-random")
    ours = {"feedback": "", "keys": ["scavenge.nothing"], "events": ["scavenge_failed"]}
    assert cpv.classify_ours(situation, ours) == "nothing"
    assert cpv.classify_ours(situation, {**ours, "events": ["area_scavenged"]}) == "found"
    assert cpv.classify_ours(situation, {**ours, "events": []}) == cpv.OTHER
    theirs = {"feedback": "[It is dark.]\nI searched the yard but found nothing. Try again."}
    assert cpv.classify_theirs(situation, theirs) == "nothing"
    assert cpv.classify_theirs(situation, {"error": "KeyError('x')"}) == "crash"
