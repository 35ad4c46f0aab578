"""A language-model agent's run (a fake OpenAI-compatible server): the page carries each turn's
prompt size, answer, tokens and format errors, as the log records them."""

from __future__ import annotations

from pathlib import Path

from fake_openai_server import FakeServer, by_content

from agentodyssey_pz.evaluate import EvalConfig, read_trajectory
from agentodyssey_pz.evaluate.runner import run_episode
from agentodyssey_pz.llm import LLMPolicyFactory, LLMSettings
from agentodyssey_pz.viewer.record import record
from agentodyssey_pz.viewer.source import find_episodes


def test_the_llm_fields_of_each_turn(tmp_path: Path) -> None:
    with FakeServer(latency=0.0, responder=by_content) as server:
        settings = LLMSettings(model="fake", base_url=server.base_url, timeout=10, max_retries=0)
        config = EvalConfig(episodes=1, steps=5, num_agents=2, trajectory_dir=str(tmp_path),
                            policies=(LLMPolicyFactory("llm", settings), "random"))  # fmt: skip
        run_episode(config, 0)
    source = find_episodes(tmp_path)[0]
    run = record(source)
    _, steps = read_trajectory(source.path)
    for step in steps:
        shown = run.frames[step["tick"]]["steps"][step["agent"]]["llm"]
        if step["agent"] == "agent_1":
            assert shown is None
            continue
        logged = step["llm"]
        act = next(c for c in logged["calls"] if c["purpose"] == "act")
        assert shown["input_tokens"] == logged["input_tokens"] > 0
        assert shown["output_tokens"] == logged["output_tokens"] > 0
        assert shown["format_error"] == logged["format_error"]
        assert shown["answer"].startswith(act["response"])
        contents = [m.get("content") for m in act["messages"]]
        assert shown["prompt_chars"] == sum(len(c) for c in contents if isinstance(c, str)) > 0
