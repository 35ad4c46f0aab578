"""Reading data that AgentOdyssey keeps in Python files, without running any of it.

Layer: world core. Its games keep quest, tutorial and rule data as class attributes (`X = ...` or
`X: T = ...` directly in a class body). `class_constants` evaluates those statements in order with
a small evaluator of our own that accepts only: constants; list, tuple, set and dict displays;
unary minus and plus; `+ - * / // % **` on numbers (and `+` on strings and lists); a bare name
bound by an earlier statement of the same class body; and `frozenset(<display>)`. Anything else
(a call, an attribute, a subscript, a comprehension ...) leaves that attribute out, so data that
is really code is never guessed at. Method bodies are never looked at.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from agentodyssey_pz.errors import PublishedGameError


class NotData(Exception):
    """An expression outside what the evaluator accepts."""


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
# Bounds that keep a hostile file from making the evaluator build something enormous.
MAX_EXPONENT = 64
MAX_SEQUENCE = 100_000


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def evaluate(node: ast.expr, names: dict[str, Any]) -> Any:
    """The value of one expression; raises NotData for anything outside the accepted forms."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (str, int, float, bool, type(None))):
            return node.value
        raise NotData(f"constant {node.value!r}")
    if isinstance(node, ast.List):
        return [evaluate(e, names) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(evaluate(e, names) for e in node.elts)
    if isinstance(node, ast.Set):
        return {evaluate(e, names) for e in node.elts}
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise NotData("dict unpacking")
        return {
            evaluate(k, names): evaluate(v, names)
            for k, v in zip(node.keys, node.values, strict=True)
        }
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = evaluate(node.operand, names)
        if not _number(value):
            raise NotData("sign of a non-number")
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _binary(node, names)
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise NotData(f"name {node.id!r} not bound earlier in the class")
        return names[node.id]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "frozenset"
        and not node.keywords
        and len(node.args) <= 1
    ):
        items = evaluate(node.args[0], names) if node.args else ()
        if not isinstance(items, (list, tuple, set, frozenset)):
            raise NotData("frozenset of a non-display")
        return frozenset(items)
    raise NotData(type(node).__name__)


def _binary(node: ast.BinOp, names: dict[str, Any]) -> Any:
    left, right = evaluate(node.left, names), evaluate(node.right, names)
    op = type(node.op)
    if _number(left) and _number(right):
        if op is ast.Pow and (abs(right) > MAX_EXPONENT or abs(left) > 2**64):
            raise NotData("power out of range")
        try:
            return _BINARY[op](left, right)
        except (ZeroDivisionError, OverflowError) as exc:
            raise NotData(str(exc)) from None
    if op is ast.Add and type(left) is type(right) and isinstance(left, (str, list, tuple)):
        if len(left) + len(right) > MAX_SEQUENCE:
            raise NotData("sequence too long")
        return left + right
    raise NotData(f"{type(node.op).__name__} of {type(left).__name__}, {type(right).__name__}")


def find_class(module: ast.Module, name: str) -> ast.ClassDef | None:
    """The top-level class of that name (the last one, as Python would bind it)."""
    found = None
    for node in module.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            found = node
    return found


def class_constants(module: ast.Module, class_name: str, *, where: str = "") -> dict[str, Any]:
    """Every class attribute of `class_name` whose value is data, by name, in statement order.
    Raises PublishedGameError when the class is not in the module."""
    cls = find_class(module, class_name)
    if cls is None:
        raise PublishedGameError(f"{where or 'the module'}: no class {class_name}")
    names: dict[str, Any] = {}
    for statement in cls.body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        try:
            result = evaluate(value, names)
        except (NotData, TypeError, ValueError, RecursionError):
            for target in targets:  # code, not data: a later use of the name is not data either
                if isinstance(target, ast.Name):
                    names.pop(target.id, None)
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                names[target.id] = result
    return names


def constant(module: ast.Module, class_name: str, attribute: str, *, where: str = "") -> Any:
    """One class attribute's value; PublishedGameError naming it when it is missing or code."""
    values = class_constants(module, class_name, where=where)
    if attribute not in values:
        raise PublishedGameError(
            f"{where or 'the module'}: {class_name}.{attribute} is missing or not plain data"
        )
    return values[attribute]
