"""agent_attack_update_step (docs/mechanics/combat.md#attack-update), and the resolved step-rule
order (docs/mechanics/step-rules.md#order-of-the-step-rules)."""

from __future__ import annotations

import copy

import pytest
from conftest import load_raw
from harness import SPEC_STEP_ORDER, agent, give, make_game, run_step

from agentodyssey_pz.world.validate import parse_definition

RULE = "agent_attack_update_step"


def armed_world():
    """The tiny world with a second weapon-like item (quill: attack 3) and armour with attack 5,
    which must never count."""
    raw = load_raw("tiny_world.json")
    for obj in raw["entities"]["objects"]:
        if obj["id"] == "obj_quill":
            obj["attack"] = 3
        if obj["id"] == "obj_apron":
            obj["attack"] = 5
    return parse_definition(copy.deepcopy(raw))


@pytest.mark.parametrize(
    ("held", "attack"),
    [
        ([], 10),
        (["obj_pear"], 10),  # attack 0 items add nothing
        (["obj_quill"], 13),
        (["obj_pruner", "obj_quill"], 17),  # best single item (7), not the sum (10)
        (["obj_quill", "obj_pruner"], 17),
        (["obj_pruner", "obj_pruner"], 17),  # two units of one weapon: still 7
        (["obj_label", "obj_quill"], 13),  # instances resolve to their definition
    ],
)
def test_attack_is_base_plus_best_item_in_hand(held, attack):
    game = make_game(armed_world())
    for def_id in held:
        give(game, "agent_0", def_id)
    res = run_step(game, RULE)
    assert agent(game).attack == attack
    assert res.feedback_keys("agent_0") == []


def test_equipped_armour_never_adds_attack():
    game = make_game(armed_world())
    me = agent(game)
    me.equipped["obj_apron"] = 1
    run_step(game, RULE)
    assert me.attack == 10


def test_attack_follows_min_attack_and_drops_with_the_weapon():
    game = make_game()
    me = agent(game)
    me.min_attack = 25
    give(game, "agent_0", "obj_pruner")
    run_step(game, RULE)
    assert me.attack == 32
    me.hands.clear()
    run_step(game, RULE)
    assert me.attack == 25


def test_quirk_low_attack_warns_and_later_agents_still_update():
    """The reference returns after the first warning; every agent is updated here."""
    game = make_game(agents=3)
    a0, a1, a2 = game.agents.values()
    a0.min_attack = -5
    give(game, "agent_1", "obj_pruner")
    a2.min_attack = 0
    res = run_step(game, RULE)
    assert [a.attack for a in (a0, a1, a2)] == [-5, 17, 0]
    assert [res.feedback_keys(a) for a in game.agent_ids] == [
        ["attack_power.too_low"],
        [],
        ["attack_power.too_low"],
    ]


# ---------------------------------------------------------------------------- step-rule order

OTHER_RULES = """
from agentodyssey_pz.rules.base import BaseStepRule


class _Nothing:  # not a rule itself (a pack registers every concrete BaseStepRule subclass)
    def apply(self, ctx, res):
        pass


class TutorialRoom(_Nothing, BaseStepRule):
    name, priority = "tutorial_room_step", 1


class MainQuest(_Nothing, BaseStepRule):
    name, priority = "main_quest_step", 2


class SideQuest(_Nothing, BaseStepRule):
    name, priority = "side_quest_step", 3


class WorldExpansion(_Nothing, BaseStepRule):
    name, priority = "world_expansion_step", 100
"""


def test_resolved_step_rule_order_matches_the_spec(tmp_path):
    """The five combat/feedback rules slot between the other base systems by (priority, name).
    Stand-ins for the systems that may not exist yet come from an extra pack (a same-named real
    rule would be replaced, which keeps its priority and name, so the order is the same)."""
    (tmp_path / "others.py").write_text(OTHER_RULES, encoding="utf-8")
    game = make_game(rule_packs=(str(tmp_path),))
    resolved = [(r.priority, r.name) for r in game.step_rules]
    assert [entry for entry in resolved if entry in SPEC_STEP_ORDER] == SPEC_STEP_ORDER


def test_base_pack_step_rules_are_sorted_by_priority_then_name():
    game = make_game()
    resolved = [(r.priority, r.name) for r in game.step_rules]
    assert resolved == sorted(resolved)
    mine = [
        entry
        for entry in SPEC_STEP_ORDER
        if entry[1]
        not in {"tutorial_room_step", "main_quest_step", "side_quest_step", "world_expansion_step"}
    ]
    assert [entry for entry in resolved if entry in mine] == mine
