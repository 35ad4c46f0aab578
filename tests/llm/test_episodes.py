"""Language-model agents through `evaluate`: the report's tokens equal the server's, concurrency
that never changes the trajectory, a server dying mid-episode, replay, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai_server import FakeServer, by_content

from agentodyssey_pz.cli import main
from agentodyssey_pz.evaluate import EvalConfig, evaluate, read_trajectory, replay, validate
from agentodyssey_pz.evaluate.runner import run_episode
from agentodyssey_pz.llm import LLMPolicy, LLMPolicyFactory, LLMSettings, ReplayClient


def settings(server: FakeServer, **changes) -> LLMSettings:
    fields = {"model": "fake", "base_url": server.base_url, "timeout": 10, "max_retries": 0}
    return LLMSettings(**{**fields, **changes})


def test_three_llm_agents_and_a_random_one_report_the_servers_tokens(tmp_path: Path) -> None:
    with FakeServer(latency=0.02, responder=by_content) as server:
        policies = (
            LLMPolicyFactory("llm-none", settings(server, memory="none")),
            LLMPolicyFactory(
                "llm-full", settings(server, memory="full", price_input=1.0, price_output=2.0)
            ),
            LLMPolicyFactory("llm-window", settings(server, memory="window:2")),
            "random",
        )
        config = EvalConfig(episodes=1, steps=6, num_agents=4, policies=policies,
                            trajectory_dir=str(tmp_path))  # fmt: skip
        report = evaluate(config)
        prompt, completion = server.usage_totals()
        requests = len(server.log)
    assert validate(report) == []
    llm = {name: report["policies"][name]["llm"] for name in ("llm-none", "llm-full", "llm-window")}
    assert "llm" not in report["policies"]["random"]
    assert sum(t["input_tokens"] for t in llm.values()) == prompt
    assert sum(t["output_tokens"] for t in llm.values()) == completion
    assert sum(t["calls"] for t in llm.values()) == requests == 3 * 6
    assert llm["llm-full"]["cost"] == pytest.approx(
        (llm["llm-full"]["input_tokens"] + 2 * llm["llm-full"]["output_tokens"]) / 1e6
    )
    assert llm["llm-none"]["cost"] is None
    header, steps = read_trajectory(tmp_path / "episode-0000.jsonl")
    assert header["version"] == 2 and header["llm"]["llm-window"]["memory"] == "window:2"
    assert all(("llm" in s) == (s["policy"] != "random") for s in steps)
    assert replay(tmp_path / "episode-0000.jsonl").ok


def trajectory(config: EvalConfig) -> list[tuple]:
    run_episode(config, 0)
    _, steps = read_trajectory(Path(config.trajectory_dir) / "episode-0000.jsonl")
    return [(s["tick"], s["agent"], s["action"], s["reward"]["total"]) for s in steps]


def test_answers_arriving_out_of_order_give_the_same_trajectory(tmp_path: Path) -> None:
    """Agent 0's answers come last, then first; with one request at a time, in order: the
    trajectory is the same (actions are applied in agent order)."""
    runs = []
    for name, delay, limit in [
        ("slow-first", lambda body, n: 0.06 if "agent_0" not in json.dumps(body) else 0.0, 8),
        ("fast-first", lambda body, n: 0.0 if "agent_0" not in json.dumps(body) else 0.06, 8),
        ("serial", None, 1),
    ]:
        with FakeServer(latency=0.03, responder=by_content, delay=delay) as server:
            factory = LLMPolicyFactory("llm", settings(server, memory="none",
                                                       max_concurrency=limit))  # fmt: skip
            config = EvalConfig(episodes=1, steps=4, num_agents=3, policies=(factory,),
                                trajectory_dir=str(tmp_path / name))  # fmt: skip
            runs.append(trajectory(config))
            in_flight = server.max_in_flight()
        assert in_flight == (3 if limit > 1 else 1)
    assert runs[0] == runs[1] == runs[2]


class Replayed:
    """A factory of replaying policies, named like the logged policy."""

    def __init__(self, name: str, settings: LLMSettings, path: Path) -> None:
        self.name, self.settings, self.path = name, settings, path

    def __call__(self) -> LLMPolicy:
        client = ReplayClient.from_trajectory(self.path)
        return LLMPolicy(self.settings, client=client, name=self.name)


def test_replaying_a_logged_run_without_a_server_gives_the_same_trajectory(tmp_path: Path) -> None:
    with FakeServer(latency=0.01, responder=by_content) as server:
        s = settings(server, memory="summary:2", reask_on_format_error=True)
        config = EvalConfig(episodes=1, steps=6, num_agents=2,
                            policies=(LLMPolicyFactory("llm", s),),
                            trajectory_dir=str(tmp_path / "live"))  # fmt: skip
        live = trajectory(config)
    again = EvalConfig(episodes=1, steps=6, num_agents=2,
                       policies=(Replayed("llm", s, tmp_path / "live" / "episode-0000.jsonl"),),
                       trajectory_dir=str(tmp_path / "replay"))  # fmt: skip
    assert trajectory(again) == live
    _, a = read_trajectory(tmp_path / "live" / "episode-0000.jsonl")
    _, b = read_trajectory(tmp_path / "replay" / "episode-0000.jsonl")
    strip = ("seconds",)
    assert [{k: v for k, v in s["llm"].items() if k not in strip} for s in a] == [
        {k: v for k, v in s["llm"].items() if k not in strip} for s in b
    ]
    assert any(c["purpose"] == "summary" for s in a for c in s["llm"]["calls"])


def test_a_server_dying_mid_episode_makes_its_agents_wait(tmp_path: Path) -> None:
    server = FakeServer(responder=by_content).start()
    ticks = []

    def on_tick() -> None:
        ticks.append(1)
        if len(ticks) == 3:
            server.stop()

    config = EvalConfig(episodes=1, steps=6, num_agents=3,
                        policies=(LLMPolicyFactory("llm", settings(server)), "random"),
                        trajectory_dir=str(tmp_path))  # fmt: skip
    try:
        result = run_episode(config, 0, on_tick)
    finally:
        server.stop()
    assert result["ticks"] == 6
    _, steps = read_trajectory(tmp_path / "episode-0000.jsonl")
    llm_steps = [s for s in steps if s["policy"] == "llm"]
    assert all(s["llm"]["waited"] is None for s in llm_steps if s["tick"] <= 3)
    late = [s for s in llm_steps if s["tick"] > 3]
    assert late and all(s["llm"]["waited"] == "server_error" for s in late)
    assert all(s["action"] == "wait" for s in late)
    assert result["agents"]["agent_0"]["llm"]["waited"] == {"server_error": 3}


# ------------------------------------------------------------------ the command line
def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_llm_and_random_with_flags(tmp_path: Path, capsys) -> None:
    with FakeServer(responder=by_content) as server:
        status, out, _ = run_cli(["evaluate", "--policies", "llm,random", "--llm-base-url",
                                  server.base_url, "--llm-model", "fake", "--episodes", "1",
                                  "--steps", "3", "--agents", "2", "--plot", "none",
                                  "--llm-memory", "none", "-o", str(tmp_path)], capsys)  # fmt: skip
        prompt, _ = server.usage_totals()
    assert status == 0 and "language-model calls" in out
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["policies"]["llm"]["llm"]["input_tokens"] == prompt


def test_cli_agents_config(tmp_path: Path, capsys) -> None:
    with FakeServer(responder=by_content) as server:
        config = tmp_path / "agents.toml"
        config.write_text(
            f'[defaults]\nbase_url = "{server.base_url}"\nmodel = "fake"\n\n'
            '[policies.terse]\nmemory = "none"\n\n[policies.chatty]\nmemory = "full"\n'
        )
        status, _, _ = run_cli(["evaluate", "--agents-config", str(config), "--episodes", "1",
                                  "--steps", "2", "--agents", "2", "--plot", "none",
                                  "-o", str(tmp_path / "out")], capsys)  # fmt: skip
    assert status == 0
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["config"]["policies"] == ["terse", "chatty"]
    assert report["config"]["assignment"] == {"agent_0": "terse", "agent_1": "chatty"}


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [
        ('[policies.a]\nmodel = "m"\ntemperature = 9\n', ".toml",
         "policies.a: temperature: expected a number between 0 and 2"),
        ('[policies.random]\nmodel = "m"\n', ".toml", "'random' is a bundled policy's name"),
        ("[policies.a\n", ".toml", "not valid TOML"),
        ('{"policies": {}}', ".json", "expected at least one"),
        ('{"policies": {"a": {"modle": "m"}}}', ".json", "unknown setting modle"),
        ('{"agents": {}}', ".json", "unknown key 'agents'"),
    ],
)  # fmt: skip
def test_cli_agents_config_errors(tmp_path: Path, capsys, content, suffix, message) -> None:
    path = tmp_path / f"agents{suffix}"
    path.write_text(content)
    status, _, err = run_cli(["evaluate", "--agents-config", str(path)], capsys)
    assert status == 1
    assert err.startswith(f"error: --agents-config {path}: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_cli_errors(tmp_path: Path, capsys) -> None:
    status, _, err = run_cli(["evaluate", "--policies", "llm"], capsys)
    assert (status, err) == (1, "error: --llm-model: the llm policy needs a model name\n")
    status, _, err = run_cli(["evaluate", "--policies", "llm", "--llm-model", "m",
                              "--llm-memory", "lots"], capsys)  # fmt: skip
    assert status == 1 and err.startswith("error: --llm-memory: expected")
    with FakeServer() as server:
        url = server.base_url
    status, _, err = run_cli(["evaluate", "--policies", "llm,random", "--llm-model", "m",
                              "--llm-base-url", url, "-o", str(tmp_path)], capsys)  # fmt: skip
    assert status == 1 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"error: llm: cannot reach the language-model server at {url}")
    missing = tmp_path / "nope.toml"
    status, _, err = run_cli(["evaluate", "--agents-config", str(missing)], capsys)
    assert status == 1 and f"{missing}: cannot read" in err
