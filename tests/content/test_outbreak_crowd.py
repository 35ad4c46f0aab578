"""quarantine (the `outbreak` pack, its darkness included) keeps the env's promises with 16 agents,
tutorial on and off: the exact-mask sweep of tests/adapter/test_masks_exact.py (unmasked entries
taken, masked ones refused; in the dark masked ones may be taken blind) and `audit` (listings,
replays, the hidden-in-the-dark check, resume)."""

from __future__ import annotations

import pytest
from adapter import test_masks_exact as exact
from outbreak_helper import WORLD

from agentodyssey_pz.audit import audit

CROWD = 16
TUTORIAL = pytest.mark.parametrize("tutorial", [True, False], ids=["tutorial", "no-tutorial"])


@pytest.fixture(autouse=True)
def _copy(published):
    return published


@TUTORIAL
def test_masks_hold_with_sixteen_agents(tutorial, monkeypatch) -> None:
    monkeypatch.setattr(exact, "AGENTS", CROWD)
    monkeypatch.setattr(exact, "BROAD_STATES", 150)
    _env, unmasked, _ = exact.sweep(WORLD, tutorial)
    assert "wait" in unmasked and len(unmasked) >= 5


@TUTORIAL
def test_the_audit_finds_nothing_wrong_with_sixteen_agents(tutorial) -> None:
    report = audit(
        WORLD,
        agents=CROWD,
        ticks=80,
        states=6,
        tutorial=tutorial,
        seed=5,
        resume_ticks=20,
        other_process=False,
    )
    assert report.ok, report.text()
