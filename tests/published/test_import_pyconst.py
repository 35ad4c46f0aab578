"""The restricted evaluator that reads AgentOdyssey's class constants without running them."""

from __future__ import annotations

import ast

import pytest

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published.pyconst import class_constants, constant

SOURCE = """
import os

LEVEL = 3  # module level: never read


class Quest:
    name = "main_quest_step"
    priority: int = 2
    HP = 10**9
    ATK = 10 ** 6
    TEAR = "obj_tear"
    TEARS = [TEAR, "obj_other"]
    NPCS = [{"id": "npc_guide", "hp": HP, "atk": ATK, "items": (TEAR,)}]
    HALF = 7 // 2 + 0.5 * 2 - -1
    JOINED = "a" + "b"
    GROUPS = {frozenset({"x", "y"}), frozenset(["z"])}
    EMPTY = frozenset()
    CALLED = os.getcwd()
    USES_CALLED = [CALLED]
    ATTRIBUTE = os.sep
    COMPREHENSION = [i for i in range(3)]
    FSTRING = f"{TEAR}"
    HUGE = 10**100000
    SHADOWED = 1
    SHADOWED = CALLED

    def method(self):
        HIDDEN = 5
        return HIDDEN


class Quest:
    LAST = True
"""


def constants() -> dict:
    return class_constants(ast.parse(SOURCE), "Quest")


def test_the_last_class_of_a_name_is_read() -> None:
    assert constants() == {"LAST": True}


def test_data_forms_are_evaluated_in_statement_order() -> None:
    module = ast.parse(SOURCE.rsplit("class Quest:\n    LAST", 1)[0])
    values = class_constants(module, "Quest")
    assert values["name"] == "main_quest_step" and values["priority"] == 2
    assert values["HP"] == 10**9 and values["ATK"] == 10**6
    assert values["TEARS"] == ["obj_tear", "obj_other"]
    assert values["NPCS"] == [
        {"id": "npc_guide", "hp": 10**9, "atk": 10**6, "items": ("obj_tear",)}
    ]
    assert values["HALF"] == 7 // 2 + 0.5 * 2 + 1
    assert values["JOINED"] == "ab"
    assert values["GROUPS"] == {frozenset({"x", "y"}), frozenset({"z"})}
    assert values["EMPTY"] == frozenset()


def test_code_is_left_out_and_never_run() -> None:
    module = ast.parse(SOURCE.rsplit("class Quest:\n    LAST", 1)[0])
    values = class_constants(module, "Quest")
    for name in ("CALLED", "USES_CALLED", "ATTRIBUTE", "COMPREHENSION", "FSTRING", "HIDDEN"):
        assert name not in values
    assert "HUGE" not in values  # a power out of range is refused, not computed
    assert "SHADOWED" not in values  # rebound to code: the earlier value is not kept
    assert "LEVEL" not in values and "method" not in values


def test_missing_class_or_attribute_is_named() -> None:
    module = ast.parse(SOURCE)
    with pytest.raises(PublishedGameError, match=r"x\.py: no class Other"):
        class_constants(module, "Other", where="x.py")
    with pytest.raises(PublishedGameError, match=r"Quest\.NOPE is missing or not plain data"):
        constant(module, "Quest", "NOPE", where="x.py")


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os')",
        "open('x')",
        "(lambda: 1)()",
        "[1][0]",
        "{**{}}",
        "b'x'",
        "1 if 1 else 2",
        "(1).real",
        "-'x'",
        "'a' * 10**9",
        "[0] * 10",
        "1 / 0",
    ],
)
def test_hostile_or_odd_expressions_are_not_data(expression: str) -> None:
    module = ast.parse(f"class C:\n    X = {expression}\n")
    assert class_constants(module, "C") == {}
