"""The SDK client against the fake server: usage accounting, retries on 429/500, time-outs,
malformed and empty answers, a missing key, and the start-up check."""

from __future__ import annotations

import asyncio
import json

import pytest
from fake_openai_server import FakeServer, Reply, count_tokens, prompt_tokens

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.llm import LLMSettings, OpenAIChatClient, check_server, estimate_tokens

MESSAGES = [
    {"role": "system", "content": "You play a game."},
    {"role": "user", "content": "Commands:\n- enter orchard\n- wait"},
]


def complete(settings: LLMSettings, messages=MESSAGES):
    client = OpenAIChatClient(settings)

    async def run():
        try:
            return await client.complete(messages, settings)
        finally:
            await client.aclose()

    return asyncio.run(run())


def settings_for(server: FakeServer, **changes) -> LLMSettings:
    fields = {"model": "fake", "base_url": server.base_url, "timeout": 5, "max_retries": 0}
    return LLMSettings(**{**fields, **changes})


def test_usage_is_the_servers_and_request_fields_are_sent() -> None:
    with FakeServer() as server:
        s = settings_for(server, temperature=0.5, top_p=0.9, max_tokens=40, seed=7,
                         extra_body={"min_p": 0.05}, response_format="json_object")  # fmt: skip
        done = complete(s)
        (entry,) = server.log
    assert done.ok and json.loads(done.text)["action"] == "enter orchard"
    assert done.usage_from == "server" and done.retries == 0
    assert done.input_tokens == entry.prompt_tokens == prompt_tokens(MESSAGES)
    assert done.output_tokens == entry.completion_tokens == count_tokens(done.text)
    body = entry.body
    assert (body["model"], body["temperature"], body["top_p"], body["max_tokens"]) == (
        "fake", 0.5, 0.9, 40)  # fmt: skip
    assert (body["seed"], body["min_p"], body["response_format"]) == (
        7, 0.05, {"type": "json_object"})  # fmt: skip


@pytest.mark.parametrize("kind", ["429", "500"])
def test_retried_by_the_sdk_then_answered(kind: str) -> None:
    with FakeServer([Reply(kind), Reply(kind)]) as server:
        done = complete(settings_for(server, max_retries=2))
        kinds = [e.kind for e in server.log]
    assert kinds == [kind, kind, "ok"]
    assert done.ok and done.retries == 2
    assert done.input_tokens == server.answered()[0].prompt_tokens


@pytest.mark.parametrize(("kind", "status"), [("429", "HTTP 429"), ("500", "HTTP 500")])
def test_retries_run_out_into_an_error_not_an_exception(kind: str, status: str) -> None:
    with FakeServer([Reply(kind), Reply(kind)]) as server:
        done = complete(settings_for(server, max_retries=1))
        assert len(server.log) == 2
    assert not done.ok and done.text is None and status in done.error
    assert (done.retries, done.input_tokens, done.output_tokens) == (1, 0, 0)


def test_a_time_out_is_an_error() -> None:
    with FakeServer([Reply("timeout", seconds=5)]) as server:
        done = complete(settings_for(server, timeout=0.2))
    assert not done.ok and done.error.startswith("timeout")


def test_a_malformed_body_is_an_error() -> None:
    with FakeServer([Reply("malformed")]) as server:
        done = complete(settings_for(server))
    assert not done.ok and done.error.startswith("bad response") and done.retries == 0


def test_a_malformed_body_after_a_retry_keeps_the_retry_count() -> None:
    with FakeServer([Reply("500"), Reply("malformed")]) as server:
        done = complete(settings_for(server, max_retries=2))
        assert len(server.log) == 2
    assert not done.ok and done.error.startswith("bad response") and done.retries == 1


def test_an_empty_answer_is_text_not_an_error() -> None:
    with FakeServer([Reply("empty")]) as server:
        done = complete(settings_for(server))
    assert done.ok and done.text == "" and done.output_tokens == 0


def test_a_missing_key_sends_a_placeholder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AOPZ_TEST_KEY", raising=False)
    with FakeServer() as server:
        assert complete(settings_for(server, api_key_env="AOPZ_TEST_KEY")).ok


def test_nobody_listening_is_an_error() -> None:
    with FakeServer() as server:
        s = settings_for(server)
    done = complete(s)  # the server has stopped
    assert not done.ok and done.error.startswith("connection error")


def test_check_server() -> None:
    with FakeServer(model_name="smol") as server:
        assert check_server(settings_for(server)) == ["smol"]
        s = settings_for(server)
    with pytest.raises(ConfigError, match=r"^llm: cannot reach the language-model server at http"):
        check_server(s)


def test_the_estimate_rule() -> None:
    assert estimate_tokens("abcdefgh") == 2 and estimate_tokens("abcdefghi") == 3
    assert estimate_tokens([{"role": "user", "content": "abcd"}]) == 1 + 4
