"""A wrong number of parameters makes any verb's command invalid, and it changes nothing.

Each verb's `param_min` / `param_max`; docs/mechanics/verbs.md#quirk-parse-failures-run-no-wait:
even `wait` with a parameter is only invalid, with none of the wait effects. Each verb gets a stage
on which its command with the right count would act (checked too), so "nothing changed" is a real
claim.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    container_base,
    engaged_wasp,
    equip_inventory,
    give,
    make_game,
    move_to,
    name_of,
    put_on_ground,
    spawn_npc,
    state_of,
)

from agentodyssey_pz.engine.game import Game

GATE, ROWS = "area_gate", "area_rows"
Setup = Callable[[Game], dict[str, str]]


def _nothing(game: Game) -> dict[str, str]:
    return {}


def _tired_in_combat(game: Game) -> dict[str, str]:
    move_to(game, "agent_0", ROWS)
    engaged_wasp(game, ROWS)
    agent(game).stamina, agent(game).consecutive_attacks = 0.2, 4
    return {}


def _holding(def_id: str) -> Setup:
    def setup(game: Game) -> dict[str, str]:
        give(game, "agent_0", def_id)
        return {}

    return setup


def _coins_here(game: Game) -> dict[str, str]:
    put_on_ground(game, GATE, "obj_coin", 2)
    return {}


def _wasp_here(game: Game) -> dict[str, str]:
    move_to(game, "agent_0", ROWS)
    return {"wasp": spawn_npc(game, "npc_wasp", ROWS, inventory={}).name}


def _merchant_here(game: Game) -> dict[str, str]:
    spawn_npc(game, "npc_cider_seller", GATE, coins=100, inventory={"obj_cider": 4})
    return {}


def _wearing_apron(game: Game) -> dict[str, str]:
    agent(game).equipped["obj_apron"] = 1
    agent(game).defense += 3
    return {}


def _press_and_pears(game: Game) -> dict[str, str]:
    put_on_ground(game, GATE, "obj_press")
    give(game, "agent_0", "obj_pear", 2)
    return {}


def _label_and_quill(game: Game) -> dict[str, str]:
    [label] = give(game, "agent_0", "obj_label")
    give(game, "agent_0", "obj_quill")
    return {"label": name_of(game, label)}


def _buyer(game: Game) -> dict[str, str]:
    _merchant_here(game)
    equip_inventory(game, {"obj_coin": 9})
    return {}


def _seller(game: Game) -> dict[str, str]:
    _merchant_here(game)
    give(game, "agent_0", "obj_key")
    return {}


# (verb, stage, a command the stage accepts, commands with a wrong count); formatted with the
# names the stage returns.
CASES: list[tuple[str, Setup, str, list[str]]] = [
    ("wait", _tired_in_combat, "wait", ["wait 1", "wait a b"]),
    ("defend", _tired_in_combat, "defend", ["defend me", "defend a b"]),
    ("pick_up", _coins_here, "pick up coin", ["pick up", "pick up coin coin"]),
    ("drop", _holding("obj_coin"), "drop coin", ["drop", "drop coin now"]),
    ("enter", _nothing, "enter rows", ["enter", "enter rows now"]),
    ("attack", _wasp_here, "attack {wasp}", ["attack", "attack {wasp} {wasp}"]),
    ("talk_to", _merchant_here, "talk to cider_seller", ["talk to", "talk to cider_seller please"]),
    ("inspect", _holding("obj_pear"), "inspect pear", ["inspect", "inspect pear pear"]),
    ("equip", _holding("obj_apron"), "equip apron", ["equip", "equip apron apron"]),
    ("unequip", _wearing_apron, "unequip apron", ["unequip", "unequip apron now"]),
    (
        "store",
        container_base,
        "store 1 quill inventory",
        ["store 1 pear", "store 1 pear inventory now", "store"],
    ),
    (
        "discard",
        container_base,
        "discard 1 pear inventory",
        ["discard 1 pear", "discard 1 pear inventory now", "discard"],
    ),
    (
        "take_out",
        container_base,
        "take out pear inventory",
        ["take out pear", "take out pear inventory now", "take out"],
    ),
    ("craft", _press_and_pears, "craft 1 cider", ["craft 1", "craft 1 cider now", "craft"]),
    ("write", _label_and_quill, "write hi {label}", ["write hi", "write hi {label} now", "write"]),
    (
        "buy",
        _buyer,
        "buy 1 cider cider_seller",
        ["buy 1 cider", "buy 1 cider cider_seller now", "buy"],
    ),
    (
        "sell",
        _seller,
        "sell 1 key cider_seller",
        ["sell 1 key", "sell 1 key cider_seller please", "sell"],
    ),
]
STAGES = {verb: setup for verb, setup, _, _ in CASES}


WRONG = [(verb, command) for verb, _, _, commands in CASES for command in commands]


def check_invalid(game: Game, command: Any) -> None:
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] is True
    assert res.action_ok["agent_0"] is False
    assert res.feedback_keys("agent_0") == ["invalid.param_count"]
    assert res.events == []
    assert state_of(game) == before


def test_every_base_verb_has_a_case() -> None:
    assert set(STAGES) == set(make_game().engine.rules)


@pytest.mark.parametrize(("verb", "setup", "command"), [c[:3] for c in CASES], ids=list(STAGES))
def test_the_right_count_is_accepted_on_the_same_stage(
    verb: str, setup: Setup, command: str
) -> None:
    game = blank_game(tracking=True)
    res = act(game, "agent_0", command.format(**setup(game)))
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"], res.feedback


@pytest.mark.parametrize(("verb", "command"), WRONG, ids=[f"{v}:{c}" for v, c in WRONG])
def test_wrong_parameter_count_is_invalid(verb: str, command: str) -> None:
    game = blank_game(tracking=True)
    check_invalid(game, command.format(**STAGES[verb](game)))


@pytest.mark.parametrize("verb", list(STAGES))
def test_one_parameter_too_many_or_too_few_is_invalid(verb: str) -> None:
    """The same through the (verb, params) form, from the rule's own parameter counts."""
    rule = make_game().engine.rules[verb]
    counts = [rule.param_max + 1] + ([rule.param_min - 1] if rule.param_min > 0 else [])
    for n in counts:
        game = blank_game(tracking=True)
        STAGES[verb](game)
        check_invalid(game, (verb, ["x"] * n))
