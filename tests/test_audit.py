"""`agentodyssey-pz audit` (`agentodyssey_pz.audit`): every bundled world's rules pass it, and a
pack that breaks each promise is caught, verb by verb, with the first case in words.

The broken pack (tests/data/packs/broken_promises) has `chant` (listed on even ticks only but
claiming `lists_from_reach`, so kept listings go stale), `boast` (always listed, refused with empty
hands) and `juggle` (never listed, raises with something in hand).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from worlds_helper import bundled_worlds

from agentodyssey_pz import cli
from agentodyssey_pz.audit import KEPT, MASK, RAISED, VALID, audit

BROKEN = str(Path(__file__).resolve().parent / "data" / "packs" / "broken_promises")


@pytest.mark.parametrize("tutorial", [None, False], ids=["world-tutorial", "no-tutorial"])
@pytest.mark.parametrize("world", bundled_worlds())
def test_the_bundled_worlds_keep_every_promise(world: str, tutorial: bool | None) -> None:
    report = audit(world, ticks=150, states=8, tutorial=tutorial, seed=3)
    assert report.ok, report.text()
    assert report.states == 8 and report.tries > 8 * 5  # every unmasked entry, samples besides


def test_a_crowd_keeps_every_promise() -> None:
    """Sixteen agents: crowded areas, where listings share the ground's work (`ctx.shared`)."""
    report = audit("default", agents=16, ticks=120, states=6, seed=4)
    assert report.ok, report.text()


def test_each_broken_promise_is_found_and_named() -> None:
    report = audit("default", ticks=200, states=40, seed=1, rule_packs=[BROKEN])
    found = {(p.check, p.verb) for p in report.problems}
    assert found == {
        (KEPT, "chant"),
        (MASK, "chant"),
        (MASK, "boast"),
        (VALID, "chant"),
        (VALID, "boast"),
        (RAISED, "juggle"),
    }
    by_key = {(p.check, p.verb): p for p in report.problems}
    assert "Chant" in by_key[KEPT, "chant"].rule and BROKEN in by_key[KEPT, "chant"].rule
    assert "I hold nothing to boast of." in by_key[MASK, "boast"].first
    assert "unmasked but refused" in by_key[MASK, "boast"].first
    assert "KeyError" in by_key[RAISED, "juggle"].first
    # The base verbs beside them are still fine.
    assert all(p.verb in {"chant", "boast", "juggle"} for p in report.problems)
    assert not report.ok


def test_an_audit_is_repeatable() -> None:
    first = audit("default", ticks=80, states=5, seed=2, rule_packs=[BROKEN])
    again = audit("default", ticks=80, states=5, seed=2, rule_packs=[BROKEN])
    assert first == again


def test_the_command_exits_1_naming_the_broken_verbs(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["audit", "--ticks", "120", "--states", "20", "--rule-pack", BROKEN])
    out = capsys.readouterr().out
    assert status == 1
    assert "problem(s)" in out and "verb 'boast'" in out and "verb 'chant'" in out


def test_the_command_exits_0_for_a_sound_world(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["audit", "--ticks", "40", "--states", "3", "--quiet"])
    out = capsys.readouterr().out
    assert status == 0
    assert "no problems" in out and "40 ticks" in out


def test_a_bad_world_is_an_error_naming_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["audit", "--world", "nowhere", "--quiet"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("error: --world: no world 'nowhere'")
    assert "Traceback" not in err


LOCKED_PACK = """
import threading

from agentodyssey_pz.rules.base import BaseActionRule


class Hum(BaseActionRule):
    name = "hum"
    verb = "hum"
    params = ()
    param_min = param_max = 0
    description = "Hum (holds a lock, which cannot be copied)."

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lock = threading.Lock()

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "hum.done", "I hummed.")
"""


def test_a_game_that_cannot_be_copied_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rule holding something pickle cannot copy (here a lock): one line, no traceback; the
    kept listings can still be checked."""
    pack = tmp_path / "hum_pack"
    pack.mkdir()
    (pack / "verbs.py").write_text(LOCKED_PACK)
    argv = ["audit", "--ticks", "20", "--quiet", "--rule-pack", str(pack)]
    status = cli.main([*argv, "--states", "2"])
    err = capsys.readouterr().err
    assert status == 1
    assert "cannot copy the game" in err and "--states 0" in err and "Traceback" not in err
    assert cli.main([*argv, "--states", "0"]) == 0
