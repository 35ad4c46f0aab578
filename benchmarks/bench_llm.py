"""Concurrency of language-model agents: 16 LLM agents against a fake server with 200 ms latency.

    python benchmarks/bench_llm.py [--agents 16] [--latency 0.2] [--ticks 8] [--serial-ticks 3]

Plays one episode through `evaluate.runner.run_episode` (the default world, memory "none",
valid actions shown) with every agent an `LLMPolicy` talking to the tests' fake OpenAI-compatible
server (tests/fake_openai_server.py, standard library only, on 127.0.0.1), and prints the median
wall time of a tick, its ratio to one call's latency (a single request through the same client,
median of 5), and the same with `max_concurrency=1` for contrast. The goal: a tick of N agents
takes about one call's latency (ratio <= 1.3), not N times it. Needs the `llm` extra (openai).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the fake server lives with the tests
sys.path.insert(0, str(ROOT))

from fake_openai_server import FakeServer, by_content  # noqa: E402

from agentodyssey_pz.evaluate.runner import EvalConfig, run_episode  # noqa: E402
from agentodyssey_pz.llm import LLMPolicyFactory, LLMSettings, OpenAIChatClient  # noqa: E402


def one_call_seconds(settings: LLMSettings, runs: int = 5) -> float:
    messages = [{"role": "system", "content": "x"}, {"role": "user", "content": "- wait"}]

    async def timed() -> list[float]:
        client = OpenAIChatClient(settings)
        out = []
        try:
            for _ in range(runs):
                t0 = time.perf_counter()
                done = await client.complete(messages, settings)
                assert done.ok, done.error
                out.append(time.perf_counter() - t0)
        finally:
            await client.aclose()
        return out

    return statistics.median(asyncio.run(timed()))


def tick_seconds(settings: LLMSettings, agents: int, ticks: int) -> list[float]:
    stamps: list[float] = []
    config = EvalConfig(
        episodes=1,
        steps=ticks,
        num_agents=agents,
        policies=(LLMPolicyFactory("llm", settings),),
    )
    start = time.perf_counter()
    run_episode(config, 0, lambda: stamps.append(time.perf_counter()))
    edges = [start, *stamps]
    return [b - a for a, b in itertools.pairwise(edges)][1:]  # the first tick opens connections


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--ticks", type=int, default=8)
    parser.add_argument("--serial-ticks", type=int, default=3)
    args = parser.parse_args()
    with FakeServer(latency=args.latency, responder=by_content) as server:
        base = LLMSettings(
            model="fake", base_url=server.base_url, memory="none", max_retries=0, timeout=60
        )
        call = one_call_seconds(base)
        print(f"{sys.executable} ({sys.version.split()[0]}), {args.agents} agents, server "
              f"latency {args.latency * 1000:.0f} ms")  # fmt: skip
        print(f"one call: {call * 1000:.0f} ms (median of 5)")
        for label, limit, ticks in (
            (f"max_concurrency={args.agents}", args.agents, args.ticks),
            ("max_concurrency=1", 1, args.serial_ticks),
        ):
            times = tick_seconds(base.replace(max_concurrency=limit), args.agents, ticks + 1)
            median = statistics.median(times)
            versus = f", {median / args.latency:.2f} x the latency" if args.latency > 0 else ""
            print(
                f"{label:>20}: median tick {median * 1000:,.0f} ms over {len(times)} ticks, "
                f"{median / call:.2f} x one call{versus}"
            )


if __name__ == "__main__":
    main()
