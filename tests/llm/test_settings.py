"""LLMSettings: validation naming the key, from_mapping, derived values."""

from __future__ import annotations

import pickle

import pytest

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.llm import LLMPolicyFactory, LLMSettings


def test_defaults_and_derived_values() -> None:
    s = LLMSettings(model="m")
    assert s.memory_mode == "window" and s.memory_turns == 8
    assert LLMSettings(model="m", memory="summary").memory_turns == 8
    assert LLMSettings(model="m", memory="summary:3").memory_turns == 3
    assert LLMSettings(model="m", memory="full").memory_turns is None
    assert s.cost(1000, 1000) is None
    priced = LLMSettings(model="m", price_input=2.0, price_output=6.0)
    assert priced.cost(1_000_000, 500_000) == pytest.approx(5.0)
    assert s.as_dict()["model"] == "m" and "api_key" not in s.as_dict()


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"temperature": 3}, "temperature"),
        ({"temperature": True}, "temperature"),
        ({"top_p": -0.1}, "top_p"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"timeout": 0}, "timeout"),
        ({"max_retries": -1}, "max_retries"),
        ({"max_concurrency": 0}, "max_concurrency"),
        ({"memory": "window:0"}, "memory"),
        ({"memory": "everything"}, "memory"),
        ({"context_tokens": 10}, "context_tokens"),
        ({"show_valid_actions": "yes"}, "show_valid_actions"),
        ({"response_format": "xml"}, "response_format"),
        ({"prompt_style": "fancy"}, "prompt_style"),
        ({"extra_body": [1]}, "extra_body"),
        ({"cost_budget": 1.0}, "cost_budget"),
        ({"model": ""}, "model"),
        ({"log_messages": "none"}, "log_messages"),
    ],
)
def test_bad_values_name_their_key(changes: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=rf"^{key}: "):
        LLMSettings(**{"model": "m", **changes})


def test_from_mapping_names_where_and_key() -> None:
    s = LLMSettings.from_mapping({"model": "m", "extra_body": {"min_p": 0.1}}, "here")
    assert s.extra_body == {"min_p": 0.1}
    with pytest.raises(ConfigError, match=r"^here: temperature: "):
        LLMSettings.from_mapping({"model": "m", "temperature": "hot"}, "here")
    with pytest.raises(ConfigError, match=r"^here: unknown setting temprature"):
        LLMSettings.from_mapping({"model": "m", "temprature": 1}, "here")
    with pytest.raises(ConfigError, match=r"^here: model: missing"):
        LLMSettings.from_mapping({}, "here")
    with pytest.raises(ConfigError, match=r"^here: expected a table"):
        LLMSettings.from_mapping([1], "here")


def test_factories_pickle_for_worker_processes() -> None:
    factory = LLMPolicyFactory("smol", LLMSettings(model="m", extra_body={"a": 1}))
    again = pickle.loads(pickle.dumps(factory))
    assert again == factory and again().name == "smol"
