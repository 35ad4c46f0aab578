"""`rules.packs.bundled_pack` and `bundled_step_rule`: a pack builds on a bundled pack's rules
(the `living_world` pack subclasses two base rules) with the very classes games run, without
importing `agentodyssey_pz.resources`, which packs may not (tests/test_layering.py).
"""

from __future__ import annotations

import pytest
from harness import make_game

from agentodyssey_pz.errors import RulePackError
from agentodyssey_pz.rules.packs import bundled_pack, bundled_step_rule


def test_the_classes_are_the_ones_games_run() -> None:
    game = make_game()
    running = {type(rule) for rule in game.step_rules}
    assert bundled_step_rule("base", "active_attack_step") in running
    assert set(bundled_pack("base").step_rules) == running
    assert {r.name for r in bundled_pack("base").action_rules} == set(game.engine.rules)


def test_a_subclass_in_another_pack_replaces_the_base_rule() -> None:
    from living_helper import stage

    game = stage()
    ambush = next(r for r in game.step_rules if r.name == "active_attack_step")
    base = bundled_step_rule("base", "active_attack_step")
    assert isinstance(ambush, base) and type(ambush) is not base


@pytest.mark.parametrize(
    ("pack", "rule", "message"),
    [
        ("base", "no_such_step", "bundled rule pack 'base' has no step rule 'no_such_step'"),
        ("../base", "active_attack_step", "a pack's folder name, not a path"),
        ("nowhere", "x", "rule pack folder not found"),
    ],
)
def test_unknown_packs_and_rules_are_refused(pack: str, rule: str, message: str) -> None:
    with pytest.raises(RulePackError, match=message.replace("(", r"\(").replace(")", r"\)")):
        bundled_step_rule(pack, rule)
