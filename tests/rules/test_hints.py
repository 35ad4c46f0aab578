"""A failed command that names something almost in reach gets "Did you mean X?" after the verb's
own feedback: the same name in another case (names are case-sensitive), an instance of the name
(containers and writables go by `bag_0`), or a close spelling. Nothing is added when no name in
reach is close, and a command that works is untouched (the hint runs only after a failure)."""

from __future__ import annotations

import pytest

import agentodyssey_pz
from agentodyssey_pz.rules.hints import closest


def play(command: str) -> tuple[str, bool]:
    env = agentodyssey_pz.parallel_env(
        num_agents=1, tutorial=False, obs_mode="text_only", action_mode="text"
    )
    env.reset(seed=0)  # the millyard: penny, trestle, flour_sack_0 ...; Wat; orchard next door
    observations, _, _, _, infos = env.step({"agent_0": command})
    return observations["agent_0"]["text"], infos["agent_0"]["action_ok"]


@pytest.mark.parametrize(
    ("command", "hint"),
    [
        ("pick up PENNY", "Did you mean penny?"),
        ("pick up flour_sack", "Did you mean flour_sack_0?"),
        ("enter orchad", "Did you mean orchard?"),
        ("inspect trestel", "Did you mean trestle?"),
        ("talk to wat", "Did you mean Wat?"),
    ],
)
def test_a_near_miss_gets_the_name_it_probably_meant(command: str, hint: str) -> None:
    text, ok = play(command)
    assert not ok
    line = next(line for line in text.split("\n") if line.startswith("I cannot"))
    assert line.endswith(f" {hint}")


@pytest.mark.parametrize("command", ["pick up nothing", "attack wolf", "pick up penny"])
def test_no_hint_without_a_near_miss_or_without_a_failure(command: str) -> None:
    text, _ = play(command)
    assert "Did you mean" not in text


def test_closest_prefers_case_then_instances_then_spelling() -> None:
    names = ["Penny", "penny_0", "pennies", "bag_0", "bag_12"]
    assert closest("penny", names) == "Penny"
    assert closest("bag", names) == "bag_0"
    assert closest("pennis", names) == "pennies"
    assert closest("lantern", names) is None
    assert closest("bag_3", names) is None  # another bag is not a typo of a bag that is gone
