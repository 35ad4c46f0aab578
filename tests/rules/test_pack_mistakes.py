"""What a pack author gets wrong, caught when the pack loads (never mid-tick, never silently).

A helper session wrote packs from the docs alone and found classes with a misspelt `apply`, a
`priority` written as text, a catalogue kind with a typo and aliases that other verbs own all
loading without a word, and then doing nothing (or failing in the middle of a tick). Each is now a
RulePackError naming the pack, the class and the attribute, or a logged warning where the pack is
still usable. Packs are written into `tmp_path` by the tests.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from harness import TINY, act

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import RulePackError
from agentodyssey_pz.rules.base import CATALOGUE_TARGETS, CatalogueShape
from agentodyssey_pz.rules.packs import load_pack

HEADER = "from agentodyssey_pz.rules.base import BaseActionRule, BaseStepRule, CatalogueShape\n"

DIG = """
class Dig(BaseActionRule):
    name = "dig"
    verb = "dig"
{extra}
    def apply(self, ctx, res):
        res.say(ctx.actor.id, "dig.done", "{said}")
"""

HUNGER = """
class Hunger(BaseStepRule):
    name = "hunger_step"
{extra}
    def apply(self, ctx, res):
        pass
"""


def write_pack(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(HEADER + text, encoding="utf-8")
    return root


def dig(extra: str = "", said: str = "I dug.") -> str:
    return DIG.format(extra=extra, said=said)


@pytest.mark.parametrize(
    ("extra", "detail"),
    [
        ('    priority = "high"\n', "`priority` must be a number"),
        ("    priority = None\n", "`priority` must be a number"),
        ("", "`priority` must be a number"),  # forgotten
        ('    priority = float("nan")\n', "`priority` must be a number"),
    ],
)
def test_a_step_rule_priority_that_is_not_a_number_is_refused(
    tmp_path: Path, extra: str, detail: str
) -> None:
    root = write_pack(tmp_path / "p", {"hunger.py": HUNGER.format(extra=extra)})
    with pytest.raises(RulePackError, match=detail) as info:
        load_pack(root)
    assert str(root) in str(info.value) and "Hunger ('hunger_step')" in str(info.value)


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        (DIG.replace('    verb = "dig"\n', ""), "`verb` must be the words an agent types"),
        (DIG.replace('verb = "dig"', 'verb = "  "'), "`verb` must be the words an agent types"),
        (dig('    aliases = "delve"\n'), "`aliases` must be a tuple of phrases"),
        (dig("    param_min = 2\n    param_max = 1\n"), "need 0 <= `param_min` <= `param_max`"),
        (dig('    catalogue = "none"\n'), "`catalogue` must be a CatalogueShape"),
        (dig('    lists_from_reach = "no"\n'), "`lists_from_reach` must be True or False"),
        (dig("    valid_params_from_mask = 1\n"), "`valid_params_from_mask` must be True or False"),
        (dig('    dark_safe = "yes"\n'), "`dark_safe` must be True or False"),
    ],
)
def test_malformed_action_rule_attributes_are_refused(
    tmp_path: Path, source: str, detail: str
) -> None:
    root = write_pack(tmp_path / "p", {"dig.py": source.format(extra="", said="x")})
    with pytest.raises(RulePackError, match=detail) as info:
        load_pack(root)
    assert "Dig ('dig')" in str(info.value)


def test_a_mask_promise_without_mask_targets_is_refused(tmp_path: Path) -> None:
    """`valid_params_from_mask = True` makes `valid_params` read `mask_targets`: a verb promising
    it without defining `mask_targets` fails as the module is imported, naming the class."""
    root = write_pack(tmp_path / "p", {"dig.py": dig("    valid_params_from_mask = True\n")})
    with pytest.raises(RulePackError, match="cannot import dig") as info:
        load_pack(root)
    assert "Dig sets `valid_params_from_mask = True` but does not define `mask_targets`" in str(
        info.value
    )


def test_a_rule_with_an_id_but_no_apply_is_refused_not_skipped(tmp_path: Path) -> None:
    source = dig().replace("def apply(", "def aply(")  # the typo the helper made
    root = write_pack(tmp_path / "p", {"dig.py": source})
    with pytest.raises(RulePackError, match=r"Dig \('dig'\) does not define apply"):
        load_pack(root)


def test_an_abstract_helper_class_without_an_id_is_still_fine(tmp_path: Path) -> None:
    helper = "class Digging(BaseActionRule):\n    verb = 'dig'\n\n"
    root = write_pack(tmp_path / "p", {"dig.py": helper + dig()})
    assert [r.name for r in load_pack(root).action_rules] == ["dig"]


@pytest.mark.parametrize(
    ("args", "detail"),
    [
        (("objects", 0), "unknown target kind 'objects'"),
        (("object",), "`name` .* is required"),
        (("object", -1), "a parameter position"),
        (("object", 0, "1"), "a parameter position"),
    ],
)
def test_catalogue_shapes_are_checked_when_written(args: tuple, detail: str) -> None:
    with pytest.raises(ValueError, match=detail):
        CatalogueShape(*args)


def test_the_catalogue_covers_every_target_kind_a_shape_accepts() -> None:
    from agentodyssey_pz.observe.catalogue import OBJECT_KINDS, TABLE_OF_KIND

    assert set(CATALOGUE_TARGETS) == {"none", *TABLE_OF_KIND}
    assert set(OBJECT_KINDS) < set(CATALOGUE_TARGETS)


def test_a_pack_given_as_a_file_says_so(tmp_path: Path) -> None:
    file = tmp_path / "dig.py"
    file.write_text(HEADER + dig(), encoding="utf-8")
    with pytest.raises(RulePackError, match="not a folder"):
        load_pack(file)


def test_skipped_files_and_empty_packs_are_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = write_pack(tmp_path / "p", {"dig-verb.py": dig()})
    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.rules"):
        pack = load_pack(root)
    assert pack.action_rules == ()
    assert "dig-verb.py is not importable" in caplog.text
    assert "defines no rules" in caplog.text


def test_an_alias_another_verb_owns_is_reported_and_left_to_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = write_pack(tmp_path / "p", {"go.py": dig('    aliases = ("enter", "delve")\n')})
    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.rules"):
        game = Game(TINY, 1, GameConfig(rule_packs=(str(root),)))
    assert "alias 'enter' of verb 'dig' is already enter's" in caplog.text
    game.reset(0)
    assert act(game, "agent_0", "delve").feedback_keys("agent_0") == ["dig.done"]
    assert game.engine.parse("enter somewhere").verb == "enter"


def test_an_edited_pack_is_loaded_afresh_in_the_same_process(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "p", {"dig.py": dig(said="old")})
    old = Game(TINY, 1, GameConfig(rule_packs=(str(root),)))
    write_pack(root, {"dig.py": dig(said="new")})
    mtime = (root / "dig.py").stat().st_mtime_ns
    os.utime(root / "dig.py", ns=(mtime + 10**9, mtime + 10**9))  # a coarse clock's same second
    new = Game(TINY, 1, GameConfig(rule_packs=(str(root),)))
    for game, said in ((old, "old"), (new, "new")):
        game.reset(0)
        assert act(game, "agent_0", "dig").feedback_text("agent_0") == said
    unchanged = Game(TINY, 1, GameConfig(rule_packs=(str(root),)))
    assert type(unchanged.engine.rules["dig"]) is type(new.engine.rules["dig"])


@pytest.mark.parametrize(
    ("shape", "detail"),
    [
        ('CatalogueShape("object", name=1)', "names parameter 1, but the verb takes at most 1"),
        (
            'CatalogueShape("storable", name=0, amount=0)',
            "two roles the same parameter position",
        ),
    ],
)
def test_a_catalogue_shape_that_does_not_fit_the_verb_is_refused(
    tmp_path: Path, shape: str, detail: str
) -> None:
    extra = f"    params = ('thing',)\n    param_min = param_max = 1\n    catalogue = {shape}\n"
    root = write_pack(tmp_path / "p", {"dig.py": dig(extra)})
    with pytest.raises(RulePackError, match=detail):
        load_pack(root)
