"""The headline speed figure: agent-steps per second of this env and of AgentOdyssey's own engine,
side by side, on the published base world with the same random valid-command policy.

    python benchmarks/bench_vs_published.py                       # 3 and 16 agents, every mode
    python benchmarks/bench_vs_published.py --agents 1 3 16 --modes vector text_only text \
        --ticks 1000 --runs 5 --json results.json

Both engines run in child processes, one fresh process per run, so each side pays the same
process set-up (interpreter start, imports, world generation, reset), none of which is timed: the
clock runs only around the step loop. Runs are interleaved (ours, theirs, ours, theirs ...), each
pair on the same seed (world seed and policy seed), so a change of machine load hits both sides
alike; each mode of ours is paired with its own runs of theirs. The table gives, per agent count
and mode, the median and min-max of agent-steps/s (agents x ticks / loop seconds) of each side
and the ratio ours/theirs of the medians (with the min-max of the per-pair ratios); the ratio of
the median rates per second of each child's CPU time (`time.process_time`, which a busy machine's
waiting does not count, so it moves less from run to run) beside it. "listed" is
what the policy chose from, per agent-step: valid commands in both engines' listings (valid
action indices in our vector mode); the two listings differ (each engine lists its own way, e.g.
AgentOdyssey one `store` command per amount and container), so the two random walks differ too.

What each side does per tick (the policy, for both: AgentOdyssey's own RandomAgent's, a verb
drawn uniformly from the valid-action listing, then one of that verb's commands uniformly, with a
`random.Random(seed)` of the run):

- Theirs: AgentOdyssey's engine (`games/base`, the user's copy of `agentodyssey==0.1.0`, located
  by `agentodyssey_pz.world.published.locate`), run as a black box through
  `agentodyssey_pz.integrations.published_engine.run_child` and its documented interface only:
  `AgentOdysseyEnv(seed, agents, world_definition_path, run_dir, config_path,
  enable_obs_valid_actions=True)`, `reset()`, `step({agent: command})`. Every tick its `step`
  parses and applies every agent's command, applies its step rules, computes the rewards, builds
  every agent's observation text and (enable_obs_valid_actions, which its RandomAgent needs) every
  agent's valid-action listing (`obs[agent]["valid_actions"]`, verb -> commands), from which the
  policy draws. It plays the game's own world file unedited (`custom_events` main_quest and
  side_quest; no `tutorial` there, so its tutorial is off), with its initial env config copied to a
  temporary run folder. Not done, because `step` does not do it: what its `eval.py` driver adds
  around each step (`update_scores`, a JSON log line per agent, `update_config` writing the whole
  world state to the config file); and not paid: its logging (disabled in the child; in its own
  runs its logger writes a line per agent per step to stderr) and printing (to a buffer). Its
  world expansion needs an OpenAI key and is off (the child unsets OPENAI_API_KEY). So the figure
  is its bare env's, the most favourable to it.
- Ours, `agentodyssey_pz.parallel_env(world="agentodyssey:base", num_agents=N, tutorial=False)`
  (no world expansion, our default without a generator; `max_cycles` above the run's ticks, so
  that its episode limit, 1000 by default, does not end and reset the episode inside the timed
  loop: AgentOdyssey's env has no such limit), in one of three modes:
  `vector` (what RL uses): the vector observation with its action mask, discrete actions, a
  uniformly random index among the mask's valid ones (no text, no command listing);
  `text_only` (what a language agent uses): `obs_mode="text_only", action_mode="text",
  valid_actions_in_info=True`: every tick every agent's observation text and valid-command listing
  (`infos[agent]["valid_actions"]`, verb -> commands), from which the policy draws a command;
  `text`: the same with the full observation (vector, catalogue mask and text).
An episode that ends (all agents gone on ours, the main quest completed on theirs) is reset inside
the timed loop and counted (`resets` in the JSON); random play does not end one in 1000 ticks.

It fails with a message and exit status 2 (no traceback) when AgentOdyssey's copy or its own
dependencies (gymnasium, numpy, termcolor, psutil) are missing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

MODES = ("vector", "text_only", "text")
GAME = "base"
WORLD = "agentodyssey:base"

# Our side's child: plays one run and writes one JSON document (stdin: the request).
_OURS = r"""
import json, random, sys, time
request = json.load(sys.stdin)
import numpy as np
import agentodyssey_pz

mode, seed = request["mode"], request["seed"]
settings = {"world": request["world"], "num_agents": request["agents"], "tutorial": False,
            "max_cycles": request["ticks"] + 1}  # no truncation inside the timed loop
if mode != "vector":
    settings.update(obs_mode=mode, action_mode="text", valid_actions_in_info=True)
env = agentodyssey_pz.parallel_env(**settings)
obs, infos = env.reset(seed=seed)
rng = random.Random(seed)
agent_steps = resets = listed = 0
start, start_cpu = time.perf_counter(), time.process_time()
for _ in range(request["ticks"]):
    actions = {}
    if mode == "vector":
        for a in env.agents:
            valid = np.flatnonzero(obs[a]["action_mask"]).tolist()
            listed += len(valid)
            actions[a] = rng.choice(valid)
    else:
        for a in env.agents:
            options = infos[a]["valid_actions"]
            listed += sum(map(len, options.values()))
            actions[a] = rng.choice(options[rng.choice(list(options))])
    obs, _, _, _, infos = env.step(actions)
    agent_steps += len(actions)
    if not env.agents:
        obs, infos = env.reset()
        resets += 1
seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
print(json.dumps({"agent_steps": agent_steps, "seconds": seconds, "cpu_seconds": cpu,
                  "resets": resets, "listed": listed}))
"""

# Their side's child, after `CHILD_PRELUDE` (`request`, `out`, `load`): plays one run.
_THEIRS = r"""
import random, shutil, tempfile, time
os.environ.pop("OPENAI_API_KEY", None)  # no online world expansion
package = request["package"]
Env, Agent = load(package + ".env").AgentOdysseyEnv, load(package + ".agent").Agent
run_dir = tempfile.mkdtemp(prefix="agentodyssey-bench-")
try:
    config = os.path.join(run_dir, "config.json")
    shutil.copy(request["config"], config)
    seed = request["seed"]
    with contextlib.redirect_stdout(io.StringIO()):
        agents = [Agent(f"agent_{i}", f"agent_{i}") for i in range(request["agents"])]
        env = Env(seed=seed, agents=agents, world_definition_path=request["world"],
                  run_dir=run_dir, config_path=config, enable_obs_valid_actions=True)
        obs = env.reset()
        rng = random.Random(seed)
        agent_steps = resets = invalid = listed = 0
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(request["ticks"]):
            actions = {}
            for agent in agents:
                options = obs[agent.id]["valid_actions"]
                listed += sum(map(len, options.values()))
                actions[agent.id] = rng.choice(options[rng.choice(list(options))])
            obs, reward, terminated, info = env.step(actions)
            agent_steps += len(actions)
            invalid += sum(map(bool, info["step_invalid_action"].values()))
            if terminated:
                obs = env.reset()
                resets += 1
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
finally:
    shutil.rmtree(run_dir, ignore_errors=True)
out.write(json.dumps({"agent_steps": agent_steps, "seconds": seconds, "cpu_seconds": cpu,
                      "resets": resets, "listed": listed, "unparsed": invalid}))
"""

REPO = Path(__file__).resolve().parents[1]


class Unavailable(Exception):
    """AgentOdyssey's copy or its dependencies are missing (the message says what to do)."""


def run_ours(mode: str, agents: int, ticks: int, seed: int, timeout: float) -> dict[str, Any]:
    """One run of our env in a fresh child process (this interpreter, our environment)."""
    request = {"mode": mode, "agents": agents, "ticks": ticks, "seed": seed, "world": WORLD}
    done = subprocess.run(
        [sys.executable, "-c", _OURS],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"our env's run failed:\n{tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def their_files() -> tuple[Path, dict[str, str]]:
    """The copy's root and the fixed part of their child's request. Raises Unavailable when there
    is no copy, when its base world turns the tutorial on, or when its engine cannot be imported
    (a missing dependency)."""
    from agentodyssey_pz.errors import PublishedGameError
    from agentodyssey_pz.integrations.published_engine import (
        EngineUnavailable,
        engine_package,
        run_child,
    )
    from agentodyssey_pz.world.published.games import game_spec
    from agentodyssey_pz.world.published.locate import find_published

    try:
        root = Path(find_published().root)
    except PublishedGameError as exc:
        raise Unavailable(f"AgentOdyssey's published copy is needed: {exc}") from None
    spec = game_spec(GAME)
    request = {
        "package": engine_package(spec.folder),
        "world": str(root / spec.world_file),
        "config": str(root / "assets" / "env_configs" / spec.folder / "initial.json"),
    }
    for key in ("world", "config"):
        if not Path(request[key]).is_file():
            raise Unavailable(f"AgentOdyssey's copy at {root} has no {request[key]}")
    events = json.loads(Path(request["world"]).read_text(encoding="utf-8")).get("custom_events")
    if "tutorial" in (events or []):  # not so in 0.1.0: its base world plays no tutorial
        raise Unavailable(f"{request['world']} turns the tutorial on; this comparison needs it off")
    # Import its engine once up front, so a missing dependency is told before any run.
    probe = "load(request['package'] + '.env'); out.write('{}')"
    try:
        run_child(root, probe, request, what=request["package"], timeout=300)
    except EngineUnavailable as exc:
        raise Unavailable(str(exc)) from None
    return root, request


def run_theirs(
    root: Path, fixed: dict[str, str], agents: int, ticks: int, seed: int, timeout: float
) -> dict[str, Any]:
    """One run of AgentOdyssey's engine in a fresh child process (raises Unavailable when it
    cannot be imported)."""
    from agentodyssey_pz.integrations.published_engine import EngineUnavailable, run_child

    request = {**fixed, "agents": agents, "ticks": ticks, "seed": seed}
    try:
        result: dict[str, Any] = run_child(
            root, _THEIRS, request, what=fixed["package"], timeout=timeout
        )
    except EngineUnavailable as exc:
        raise Unavailable(str(exc)) from None
    return result


def rate(result: dict[str, Any], clock: str = "seconds") -> float:
    """Agent-steps per second of wall clock (`seconds`) or of the child's CPU time."""
    return float(result["agent_steps"]) / max(result[clock], 1e-9)


def measure(
    agent_counts: Sequence[int],
    modes: Sequence[str],
    ticks: int,
    runs: int,
    timeout: float,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """Per agent count and mode, `runs` interleaved pairs (ours, theirs) on seeds 0..runs-1: one
    row each with both sides' rates (agent-steps/s), their summaries, and what the policy chose
    from (`listed`: valid commands, or valid indices in vector mode, per agent-step)."""
    root, fixed = their_files()
    rows = []
    for agents in agent_counts:
        for mode in modes:
            ours: list[dict[str, Any]] = []
            theirs: list[dict[str, Any]] = []
            for seed in range(runs):
                ours.append(run_ours(mode, agents, ticks, seed, timeout))
                theirs.append(run_theirs(root, fixed, agents, ticks, seed, timeout))
                if progress:
                    print(
                        f"  {agents:>2} agents {mode:9} run {seed + 1}/{runs}: ours "
                        f"{rate(ours[-1]):,.0f}, theirs {rate(theirs[-1]):,.0f} agent-steps/s",
                        file=sys.stderr,
                        flush=True,
                    )
            a, b = [rate(r) for r in ours], [rate(r) for r in theirs]
            ratios = [x / y for x, y in zip(a, b, strict=True)]
            a_cpu = [rate(r, "cpu_seconds") for r in ours]
            b_cpu = [rate(r, "cpu_seconds") for r in theirs]
            rows.append(
                {
                    "agents": agents,
                    "mode": mode,
                    "ticks": ticks,
                    "runs": runs,
                    "ours": summary(a) | details(ours),
                    "theirs": summary(b) | details(theirs),
                    "ratio": statistics.median(a) / statistics.median(b),
                    "pair_ratios": {"min": min(ratios), "max": max(ratios)},
                    "ours_cpu": summary(a_cpu),
                    "theirs_cpu": summary(b_cpu),
                    "ratio_cpu": statistics.median(a_cpu) / statistics.median(b_cpu),
                }
            )
    return rows


def summary(values: Sequence[float]) -> dict[str, Any]:
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "each": list(values),
    }


def details(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the runs did besides their speed: listed entries per agent-step, episode resets, and
    (theirs) commands its parser refused."""
    steps = sum(r["agent_steps"] for r in results)
    out = {
        "listed_per_agent_step": sum(r["listed"] for r in results) / steps,
        "resets": sum(r["resets"] for r in results),
    }
    if "unparsed" in results[0]:
        out["unparsed"] = sum(r["unparsed"] for r in results)
    return out


HEADER = (
    "agents",
    "mode (ours)",
    "ours agent-steps/s",
    "ours min-max",
    "theirs agent-steps/s",
    "theirs min-max",
    "ours/theirs",
    "pair ratios min-max",
    "ours/theirs (CPU time)",
    "listed ours/theirs",
)


def table_rows(rows: Sequence[dict[str, Any]]) -> list[tuple[str, ...]]:
    def span(s: dict[str, Any]) -> str:
        return f"{s['min']:,.0f}-{s['max']:,.0f}"

    return [
        (
            str(r["agents"]),
            r["mode"],
            f"{r['ours']['median']:,.0f}",
            span(r["ours"]),
            f"{r['theirs']['median']:,.0f}",
            span(r["theirs"]),
            f"{r['ratio']:.2f}x",
            f"{r['pair_ratios']['min']:.2f}x-{r['pair_ratios']['max']:.2f}x",
            f"{r['ratio_cpu']:.2f}x",
            f"{r['ours']['listed_per_agent_step']:.0f}/{r['theirs']['listed_per_agent_step']:.0f}",
        )
        for r in rows
    ]


def plain(rows: Sequence[dict[str, Any]]) -> str:
    cells = [HEADER, *table_rows(rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADER))]
    return "\n".join(
        "  ".join(c[i].rjust(widths[i]) if i != 1 else c[i].ljust(widths[i]) for i in range(len(c)))
        for c in cells
    )


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(cells) + " |" for cells in table_rows(rows)]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agents", type=int, nargs="+", default=[3, 16], help="agent counts")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--ticks", type=int, default=1000, help="env steps per run")
    parser.add_argument("--runs", type=int, default=3, help="interleaved run pairs per row")
    parser.add_argument("--json", help="also write the rows (and the settings) as JSON here")
    parser.add_argument("--markdown", help="also write the table as Markdown here")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run (a guard)")
    parser.add_argument("--quiet", action="store_true", help="no per-run progress on stderr")
    args = parser.parse_args(argv)
    if min(args.agents) < 1 or args.ticks < 1 or args.runs < 1:
        parser.error("--agents, --ticks and --runs must be positive")
    started = time.perf_counter()
    try:
        rows = measure(args.agents, args.modes, args.ticks, args.runs, args.timeout, not args.quiet)
    except Unavailable as exc:
        print(f"bench_vs_published: {exc}", file=sys.stderr)
        return 2
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"bench_vs_published: {exc}", file=sys.stderr)
        return 1
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(
        f"{WORLD} against AgentOdyssey's games/{GAME}: {args.ticks} ticks per run, "
        f"{args.runs} interleaved run pairs per row, tutorial off on both, one process per run"
    )
    print(plain(rows))
    took = time.perf_counter() - started
    print(f"\n{took:.0f} s; load average {load[0]:.1f}" if load else f"\n{took:.0f} s")
    if args.markdown:
        Path(args.markdown).write_text(markdown(rows), encoding="utf-8")
    if args.json:
        document = {
            "world": WORLD,
            "theirs": f"games/{GAME}",
            "ticks": args.ticks,
            "runs": args.runs,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "python": platform.python_version(),
            "machine": platform.platform(),
            "cpus": os.cpu_count(),
            "load_average": load,
            "rows": rows,
        }
        Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
