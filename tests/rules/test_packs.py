"""Rule packs: loading folders of rules, overriding and adding verbs, step-rule order, errors.

docs/rule-packs.md and docs/mechanics/step-rules.md#order-of-the-step-rules. The test pack
`tests/data/packs/override/` replaces the base `inspect` (its feedback key is `inspect.override`),
adds a verb `shout`, and brings four step rules whose class names, definition order and priorities
all disagree with the (priority, name) order they must run in. Broken packs are written into
`tmp_path` by the tests themselves.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from harness import DATA, SPEC_STEP_ORDER, TINY, act, make_game

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import RulePackError
from agentodyssey_pz.resources import rules_dir
from agentodyssey_pz.rules.base import step_order_key
from agentodyssey_pz.rules.packs import NAMESPACE_PREFIX, load_pack
from agentodyssey_pz.rules.parse import Command

PACK = DATA / "packs" / "override"
BASE = rules_dir() / "base"
PACK_STEP_ORDER = ["pack_zz", "pack_cc", "pack_aa", "pack_bb"]

SHOUT = """
from agentodyssey_pz.rules.base import BaseActionRule


class {cls}(BaseActionRule):
    name = "shout"
    verb = "{verb}"
    params = ("words",)
    param_min = param_max = 1

    def apply(self, ctx, res):
        res.say(ctx.actor.id, "shout.done", "shout")
"""


def game_with(*packs: Path, agents: int = 1) -> Game:
    return make_game(agents=agents, rule_packs=tuple(str(p) for p in packs))


def write_pack(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


# ----------------------------------------------------------------------------- dispatch
@pytest.mark.parametrize(
    ("command", "key"),
    [
        ("shout hello", "shout.done"),
        ("SHOUT 'hello there'", "shout.done"),
        (Command("shout", ("hello there",)), "shout.done"),
        (("shout", ["hi"]), "shout.done"),
        ("inspect coin", "inspect.override"),
        (Command("inspect", ("coin",)), "inspect.override"),
    ],
)
def test_pack_verbs_are_dispatched_from_text_and_commands(command: object, key: str) -> None:
    game = game_with(PACK)
    res = act(game, "agent_0", command)
    assert res.action_ok["agent_0"] is True
    assert res.feedback_keys("agent_0") == [key]


def test_pack_verbs_run_inside_a_whole_tick() -> None:
    game = game_with(PACK, agents=2)
    tick = game.tick({"agent_0": "shout 'over here'", "agent_1": "inspect coin"})
    assert tick.feedback_keys("agent_0")[0] == "shout.done"
    assert tick.feedback_keys("agent_1")[0] == "inspect.override"
    [shouted] = tick.events_of("agent_0", "shouted")
    assert shouted.data == {"words": "over here", "area_id": game.agents["agent_0"].area_id}


def test_the_override_keeps_every_other_base_verb() -> None:
    plain, packed = make_game(), game_with(PACK)
    assert set(packed.engine.rules) == set(plain.engine.rules) | {"shout"}
    for verb_id, rule in packed.engine.rules.items():
        if verb_id not in ("inspect", "shout"):
            assert type(rule) is type(plain.engine.rules[verb_id]), verb_id


def test_a_pack_overrides_a_base_verb_by_reusing_its_verb_string(tmp_path: Path) -> None:
    """Generated games override base verbs by reusing the verb string;
    the pack's rule (another id) replaces the base `wait`, which is listed once."""
    loud_wait = (
        "from agentodyssey_pz.rules.base import BaseActionRule\n\n\n"
        "class LoudWait(BaseActionRule):\n"
        "    name = 'loud_wait'\n"
        "    verb = 'wait'\n\n"
        "    def apply(self, ctx, res):\n"
        "        res.say(ctx.actor.id, 'loud_wait.done', 'I wait loudly.')\n"
    )
    pack = write_pack(tmp_path / "loud", {"verbs.py": loud_wait})
    game = game_with(pack)
    assert "wait" not in game.engine.rules and game.engine.rules["loud_wait"].verb == "wait"
    assert game.engine.verb_list.split(", ").count("wait") == 1
    assert game.tick({"agent_0": "WAIT"}).feedback_keys("agent_0")[0] == "loud_wait.done"


def test_a_game_without_the_pack_is_untouched() -> None:
    game_with(PACK)  # loaded first, in the same process
    game = make_game()
    assert "shout" not in game.engine.rules
    res = act(game, "agent_0", "shout hello")
    assert res.feedback_keys("agent_0") == ["invalid.unparsable"]
    res = act(game, "agent_0", "inspect coin")
    assert res.feedback_keys("agent_0")[0].startswith("inspect.")
    assert "inspect.override" not in res.feedback_keys("agent_0")
    assert not any(rule.name.startswith("pack_") for rule in game.step_rules)


def test_loading_the_same_pack_twice_works() -> None:
    assert load_pack(PACK).action_rules == load_pack(PACK).action_rules  # the same classes
    game = game_with(PACK, PACK)
    assert game.engine.verb_list.split(", ").count("shout") == 1
    names = [rule.name for rule in game.step_rules]
    assert [n for n in names if n.startswith("pack_")] == PACK_STEP_ORDER
    assert act(game, "agent_0", "shout twice").feedback_keys("agent_0") == ["shout.done"]
    other = game_with(PACK)  # a second game with the pack
    assert act(other, "agent_0", "inspect coin").feedback_keys("agent_0") == ["inspect.override"]


# ----------------------------------------------------------------------------- errors
def test_a_missing_pack_folder_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "no_such_pack"
    with pytest.raises(RulePackError, match="not found") as info:
        load_pack(missing)
    assert str(missing) in str(info.value)
    with pytest.raises(RulePackError, match="not found"):
        Game(TINY, 1, GameConfig(rule_packs=(str(missing),)))


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        ("raise RuntimeError('boom in the pack')\n", "boom in the pack"),
        ("def broken(:\n", "SyntaxError"),
        ("import no_such_module_anywhere_123\n", "no_such_module_anywhere_123"),
    ],
)
def test_a_module_that_fails_to_import_is_a_clear_error(
    tmp_path: Path, source: str, detail: str
) -> None:
    root = write_pack(tmp_path / "broken", {"fine.py": "X = 1\n", "faulty.py": source})
    with pytest.raises(RulePackError) as info:
        load_pack(root)
    message = str(info.value)
    assert "faulty" in message and detail in message and str(root) in message


@pytest.mark.parametrize("same_module", [True, False])
def test_a_pack_defining_a_verb_twice_is_an_error(tmp_path: Path, same_module: bool) -> None:
    one, two = SHOUT.format(cls="ShoutA", verb="shout"), SHOUT.format(cls="ShoutB", verb="yell")
    files = {"both.py": one + two} if same_module else {"a.py": one, "b.py": two}
    root = write_pack(tmp_path / "twice", files)
    with pytest.raises(RulePackError, match="verb defined twice: shout"):
        load_pack(root)


# ----------------------------------------------------------------------------- namespaces
def test_pack_modules_live_under_a_private_namespace() -> None:
    game_with(PACK)
    for folder in (PACK, BASE):
        loaded = [
            name
            for name, module in list(sys.modules.items())
            if Path(getattr(module, "__file__", None) or "/").resolve().is_relative_to(folder)
        ]
        assert loaded, folder
        assert all(name.startswith(NAMESPACE_PREFIX) for name in loaded), loaded
    for public in ("rules", "override", "base", "verbs", "steps", "rules.base", "override.verbs"):
        module = sys.modules.get(public)
        where = Path(getattr(module, "__file__", None) or "/").resolve()
        assert not where.is_relative_to(PACK) and not where.is_relative_to(BASE), public


def test_packs_in_different_folders_get_different_namespaces(tmp_path: Path) -> None:
    a = write_pack(tmp_path / "a" / "pack", {"verbs.py": SHOUT.format(cls="Shout", verb="shout")})
    b = write_pack(tmp_path / "b" / "pack", {"verbs.py": SHOUT.format(cls="Shout", verb="yell")})
    [rule_a], [rule_b] = load_pack(a).action_rules, load_pack(b).action_rules
    assert rule_a.verb == "shout" and rule_b.verb == "yell"
    assert rule_a.__module__ != rule_b.__module__


# ----------------------------------------------------------------------------- step-rule order
def test_pack_step_rules_resolve_by_priority_then_name() -> None:
    pack = load_pack(PACK)
    assert [rule.name for rule in pack.step_rules] == PACK_STEP_ORDER
    # Neither class-name order nor definition order gives this.
    assert [rule.__name__ for rule in pack.step_rules] == ["Alpha", "Delta", "Gamma", "Beta"]


def test_combined_step_rules_run_in_priority_then_name_order() -> None:
    game = game_with(PACK)
    rules = game.step_rules
    assert [step_order_key(r) for r in rules] == sorted(step_order_key(r) for r in rules)
    tick = game.tick({"agent_0": "wait"})
    ran = [e.data["name"] for e in tick.events if e.type == "pack_step"]
    assert ran == PACK_STEP_ORDER


def test_base_step_rule_order_snapshot() -> None:
    """The resolved order of the base pack's step rules, pinned
    (docs/mechanics/step-rules.md#order-of-the-step-rules)."""
    resolved = [(rule.priority, rule.name) for rule in load_pack(BASE).step_rules]
    assert resolved == SPEC_STEP_ORDER
    assert [(rule.priority, rule.name) for rule in make_game().step_rules] == SPEC_STEP_ORDER


def test_pack_step_rules_interleave_with_the_base_ones() -> None:
    names = [rule.name for rule in game_with(PACK).step_rules]
    base = [name for _, name in SPEC_STEP_ORDER]
    assert names == ["pack_zz", *base[:4], "pack_cc", *base[4:8], "pack_aa", "pack_bb", base[8]]
