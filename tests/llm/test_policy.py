"""LLMPolicy turns against the fake server: prompts from the rules, format errors and re-asks,
budgets, a dying server, summaries, the synchronous call, replay."""

from __future__ import annotations

import json

import pytest
from fake_openai_server import FakeServer, Reply, answer

import agentodyssey_pz
from agentodyssey_pz.llm import LLMPolicy, LLMSettings, ReplayClient
from agentodyssey_pz.llm.replay import AgentReplay


def make_env(world: str = "default", agents: int = 1):
    env = agentodyssey_pz.parallel_env(world=world, num_agents=agents, obs_mode="text",
                                       valid_actions_in_info=True, max_cycles=50)  # fmt: skip
    observations, infos = env.reset(seed=0)
    return env, observations, infos


def bound(server: FakeServer, env, **changes) -> LLMPolicy:
    fields = {"model": "fake", "base_url": server.base_url, "timeout": 5, "max_retries": 0}
    policy = LLMPolicy(LLMSettings(**{**fields, **changes}))
    policy.bind(env, "agent_0", 0)
    return policy


def test_the_system_prompt_lists_every_verb_of_every_loaded_pack() -> None:
    env, obs, infos = make_env("cinderdeep")  # plays with the lockpicking pack
    with FakeServer() as server:
        policy = bound(server, env)
        assert policy(obs["agent_0"], infos["agent_0"]) == infos["agent_0"]["valid_actions"][
            next(iter(infos["agent_0"]["valid_actions"]))][0]  # fmt: skip
        (entry,) = server.log
    system = entry.body["messages"][0]["content"]
    for rule in env.game.engine.rules.values():
        assert f"- {rule.usage()}: {rule.description}" in system
    assert "- lockpick <" in system
    user = entry.body["messages"][-1]["content"]
    assert obs["agent_0"]["text"].strip() in user and "- wait" in user


def test_reference_style_and_hidden_valid_actions() -> None:
    env, obs, infos = make_env()
    with FakeServer([Reply(content=answer("wait"))]) as server:
        policy = bound(server, env, prompt_style="reference", show_valid_actions=False)
        policy(obs["agent_0"], infos["agent_0"])
        (entry,) = server.log
    system, user = (m["content"] for m in entry.body["messages"])
    assert "- craft <amount> <obj_name>" in system and '"reasoning"' in system
    assert "- wait" not in user and obs["agent_0"]["text"].strip() in user


def test_a_format_error_is_reasked_once_with_the_error_shown() -> None:
    env, obs, infos = make_env()
    script = [Reply(content="I shall go north."), Reply(content=answer("defend", "ok"))]
    with FakeServer(script) as server:
        policy = bound(server, env)
        assert policy(obs["agent_0"], infos["agent_0"]) == "defend"
        second = server.log[1].body["messages"]
    record = policy.step_record()
    assert record["format_error"] and record["reasked"] and record["waited"] is None
    assert [c["purpose"] for c in record["calls"]] == ["act", "reask"]
    assert second[-2] == {"role": "assistant", "content": "I shall go north."}
    assert "could not read a command" in second[-1]["content"]
    assert record["reasoning"] == "ok"


@pytest.mark.parametrize("reask", [True, False])
def test_an_unreadable_answer_makes_the_agent_wait(reask: bool) -> None:
    env, obs, infos = make_env()
    with FakeServer([Reply("empty"), Reply(content="still no json")]) as server:
        policy = bound(server, env, reask_on_format_error=reask)
        assert policy(obs["agent_0"], infos["agent_0"]) == "wait"
        assert len(server.log) == (2 if reask else 1)
    record = policy.step_record()
    assert record["format_error"] and record["reasked"] is reask
    assert record["waited"] == "format_error"


def test_token_budget_makes_the_agent_wait_without_calling() -> None:
    env, obs, infos = make_env()
    with FakeServer() as server:
        policy = bound(server, env, token_budget=10)
        policy(obs["agent_0"], infos["agent_0"])  # this call crosses the budget
        assert policy.step_record()["waited"] is None
        assert policy(obs["agent_0"], infos["agent_0"]) == "wait"
        assert len(server.log) == 1
    record = policy.step_record()
    assert record["waited"] == "budget" and record["calls"] == []
    assert "token budget of 10 spent" in record["budget"]


def test_cost_budget_and_cost() -> None:
    env, obs, infos = make_env()
    with FakeServer() as server:
        policy = bound(server, env, price_input=1e6, price_output=2e6, cost_budget=1.0)
        policy(obs["agent_0"], infos["agent_0"])
        first = policy.step_record()
        (entry,) = server.log
        assert first["cost"] == pytest.approx(entry.prompt_tokens + 2 * entry.completion_tokens)
        assert policy(obs["agent_0"], infos["agent_0"]) == "wait"
    assert policy.step_record()["waited"] == "budget"
    assert policy.episode_summary()["budget"] == "cost budget of 1 spent"


def test_server_errors_make_the_agent_wait_with_the_reason() -> None:
    env, obs, infos = make_env()
    with FakeServer([Reply("500")]) as server:
        policy = bound(server, env)
        assert policy(obs["agent_0"], infos["agent_0"]) == "wait"
        record = policy.step_record()
        assert record["waited"] == "server_error"
        assert "HTTP 500" in record["calls"][0]["error"]
    assert policy(obs["agent_0"], infos["agent_0"]) == "wait"  # the server is gone
    assert policy.step_record()["calls"][0]["error"].startswith("connection error")


def test_summary_memory_makes_one_logged_extra_call_when_due() -> None:
    env, obs, infos = make_env()
    with FakeServer() as server:
        policy = bound(server, env, memory="summary:2")
        server.push(Reply(content=answer("wait")), Reply(content=answer("wait")),
                    Reply(content="notes: the mill"), Reply(content=answer("defend")))  # fmt: skip
        for _ in range(3):
            action = policy(obs["agent_0"], infos["agent_0"])
        record = policy.step_record()
        third = server.log[3].body["messages"]
    assert action == "defend"
    assert [c["purpose"] for c in record["calls"]] == ["summary", "act"]
    assert record["calls"][0]["response"] == "notes: the mill"
    assert any("notes: the mill" in m["content"] for m in third)


def test_compact_logs_name_a_repeated_system_prompt_by_its_hash() -> None:
    env, obs, infos = make_env()
    with FakeServer() as server:
        policy = bound(server, env)
        policy(obs["agent_0"], infos["agent_0"])
        first = policy.step_record()["calls"][0]["messages"][0]
        policy(obs["agent_0"], infos["agent_0"])
        second = policy.step_record()["calls"][0]["messages"][0]
    assert first["content"].startswith("You control")
    assert set(second) == {"role", "sha256"} and len(second["sha256"]) == 64


def test_a_replay_client_serves_the_logged_calls_in_order() -> None:
    calls = [{"purpose": "act", "response": answer("defend"), "input_tokens": 5,
              "output_tokens": 2, "usage_from": "server", "seconds": 0.1, "retries": 1,
              "error": None}]  # fmt: skip
    env, obs, infos = make_env()
    policy = LLMPolicy(LLMSettings(model="fake"), client=ReplayClient({"agent_0": calls}))
    policy.bind(env, "agent_0", 0)
    assert isinstance(policy.client, AgentReplay)
    assert policy(obs["agent_0"], infos["agent_0"]) == "defend"
    assert policy.step_record()["input_tokens"] == 5
    assert policy(obs["agent_0"], infos["agent_0"]) == "wait"  # beyond the log
    assert "no more logged calls" in policy.step_record()["calls"][0]["error"]


def test_answer_questions() -> None:
    env, obs, infos = make_env()
    with FakeServer([Reply(content=answer("wait")), Reply(content=" the orchard ")]) as server:
        policy = bound(server, env)
        policy(obs["agent_0"], infos["agent_0"])
        assert policy.answer_questions(["Where did you go?"]) == ["the orchard"]
        asked = server.log[1].body["messages"][1]["content"]
    assert "Where did you go?" in asked and json.dumps("wait")[1:-1] in asked
