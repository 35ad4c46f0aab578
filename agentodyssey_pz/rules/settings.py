"""Rule settings: the numbers a rule declares tunable, and a world's values for them.

Layer: rule framework. A rule class declares `settings = {"name": default, ...}`; a world tunes
them with `features.rule_settings: {"<rule name>": {"<setting>": value}}`. The game gives every
rule instance its own `settings`, the defaults updated with the world's values, once when the
game is made (docs/rule-packs.md#settings). A value must have its default's JSON type (an int
where the default is a float is fine); an unknown rule or setting is an error naming the key, so
a typo never leaves a default silently in force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agentodyssey_pz.errors import ConfigError

WHERE = "features.rule_settings"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


def fits(default: Any, value: Any) -> bool:
    """`value` may replace `default`: the same JSON type (a whole number for a number)."""
    if default is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple))
    return isinstance(value, type(default))


def apply_rule_settings(
    rules: Iterable[Any], wanted: Mapping[str, Any] | None, source: str | None = None
) -> None:
    """Give each rule instance `settings` (its class's defaults, updated with `wanted[rule.name]`).
    Raises ConfigError naming every unknown rule or setting and every value of the wrong type."""
    rules = list(rules)
    wanted = wanted or {}
    names = {rule.name for rule in rules}
    problems: list[str] = []
    for rule_name, values in wanted.items():
        if rule_name not in names:
            known = ", ".join(sorted(r.name for r in rules if r.settings)) or "none"
            problems.append(
                f"{WHERE}.{rule_name}: no loaded rule is named '{rule_name}' "
                f"(rules with settings: {known})"
            )
        elif not isinstance(values, Mapping):
            problems.append(f"{WHERE}.{rule_name}: expected an object of settings")
    for rule in rules:
        values = wanted.get(rule.name)
        defaults = dict(type(rule).settings)
        if isinstance(values, Mapping):
            for key, value in values.items():
                if key not in defaults:
                    known = ", ".join(defaults) or "none"
                    problems.append(
                        f"{WHERE}.{rule.name}.{key}: rule '{rule.name}' has no setting '{key}' "
                        f"(its settings: {known})"
                    )
                elif not fits(defaults[key], value):
                    problems.append(
                        f"{WHERE}.{rule.name}.{key}: expected {_kind(defaults[key])} "
                        f"like the default {defaults[key]!r}, got {value!r}"
                    )
                else:
                    defaults[key] = value
        rule.settings = defaults
    if problems:
        where = f" ({source})" if source else ""
        raise ConfigError(f"rule settings{where}: " + "; ".join(problems))
