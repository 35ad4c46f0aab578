"""Throughput of the PettingZoo env: steps and agent-steps per second, reset time, memory.

Usage: python benchmarks/bench_env.py [--agents 1 3 16 64] [--steps 2000] [--runs 3]
       python benchmarks/bench_env.py --supersuit [--envs 4 16 64 128]  (1 vs 2 processes, vector)
       python benchmarks/bench_env.py --scaling [--ticks 300]  (per-agent cost, 3 vs 64 agents,
                                        and in text modes the valid-action lists' lengths)
       python benchmarks/bench_env.py --expansion      (vector mode, world expansion off vs on)
       python benchmarks/bench_env.py --interleave [--envs 4 16 64 128]  (many envs in one process)
       python benchmarks/bench_env.py --long 200000  (one long episode, timed by tenths)
       python benchmarks/bench_env.py --versus agentodyssey:remnant [--world default] [--runs 5]
                                        (the two worlds' agent-step cost per mode, runs alternating)

Masked random actions (a cheap sampler over the action mask). Vector mode steps with discrete
actions. The two text modes take text commands chosen from the valid-action list, which the env puts
in the infos (valid_actions_in_info), as a language agent would use it: "text" returns the full
observation (vector, catalogue mask and text), "text_only" only the text a language agent reads.
Medians (and the best run) over `--runs`; timings are wall clock on this machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time

import numpy as np
from pettingzoo import ParallelEnv

import agentodyssey_pz


def masked_random(rng: random.Random, mask: np.ndarray) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def masked_random_step(env: ParallelEnv, obs: dict, rng: random.Random) -> dict:
    """One vector-mode step with masked random actions (a new episode when this one ended): the
    next observations."""
    actions = {a: masked_random(rng, obs[a]["action_mask"]) for a in env.agents}
    obs = env.step(actions)[0]
    if not env.agents:
        obs = env.reset()[0]
    return obs


def run_vector(world: str, agents: int, steps: int, seed: int, **settings: object) -> float:
    env = agentodyssey_pz.parallel_env(world=world, num_agents=agents, tutorial=False, **settings)
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(steps):
        obs = masked_random_step(env, obs, rng)
    return steps / (time.perf_counter() - start)


def run_text(
    world: str,
    agents: int,
    steps: int,
    seed: int,
    obs_mode: str = "text",
    listed: list[int] | None = None,
) -> float:
    """`listed`, when given, receives the length of each valid-action list the agents chose from."""
    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=agents, tutorial=False, obs_mode=obs_mode, action_mode="text",
        valid_actions_in_info=True,
    )  # fmt: skip
    _, infos = env.reset(seed=seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(steps):
        actions = {}
        for a in env.agents:
            options = infos[a]["valid_actions"]
            if listed is not None:
                listed.append(sum(map(len, options.values())))
            verb = rng.choice(list(options))
            actions[a] = rng.choice(options[verb])
        _, _, _, _, infos = env.step(actions)
        if not env.agents:
            _, infos = env.reset()
    return steps / (time.perf_counter() - start)


def run_text_only(world: str, agents: int, steps: int, seed: int) -> float:
    return run_text(world, agents, steps, seed, obs_mode="text_only")


# Each measured mode and the loop that plays it (env steps per second).
RUNNERS = {"vector": run_vector, "text": run_text, "text_only": run_text_only}


def reset_time(world: str, agents: int, runs: int = 5) -> float:
    env = agentodyssey_pz.parallel_env(world=world, num_agents=agents, tutorial=False)
    samples = []
    for seed in range(runs):
        start = time.perf_counter()
        env.reset(seed=seed)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def memory_per_env(world: str, agents: int, count: int = 8) -> float:
    """Memory held per env instance (MB) after a reset and 100 steps: what Python and numpy
    allocated for `count` envs (tracemalloc), divided by `count`. (Resident-set growth is too
    coarse for this: the allocator hands out whole arenas.)"""
    import tracemalloc

    agentodyssey_pz.parallel_env(world=world, num_agents=agents).reset(seed=0)  # warm imports
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for seed in range(count):
        env = agentodyssey_pz.parallel_env(world=world, num_agents=agents, tutorial=False)
        env.reset(seed=seed)
        for _ in range(100):
            env.step(dict.fromkeys(env.agents, "wait"))
        envs.append(env)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return held / count / 2**20


class StandIn(ParallelEnv):
    """Our env's spaces, first observations and infos, with no game behind them: each step only
    spins for `cost_us` per agent (perf_counter, no sleeping). SuperSuit run over it shows what its
    processes can do on this machine for an env of that cost, whatever the env does inside. It
    spins against the clock, so the two cores' contention, which slows real work by 12-22% here,
    does not slow it: it is an upper bound for the real env."""

    metadata = {"name": "stand_in_v0", "render_modes": [], "is_parallelizable": True}
    render_mode = None

    def __init__(self, world: str, cost_us: float) -> None:
        self._real = agentodyssey_pz.parallel_env(world=world, num_agents=3, tutorial=False)
        self._obs, _ = self._real.reset(seed=0)
        self._infos = self._real.step(dict.fromkeys(self._real.agents, 0))[4]
        self.possible_agents = list(self._real.possible_agents)
        self.agents = list(self.possible_agents)
        self._cost = cost_us / 1e6

    def observation_space(self, agent: str):  # type: ignore[no-untyped-def]
        return self._real.observation_space(agent)

    def action_space(self, agent: str):  # type: ignore[no-untyped-def]
        return self._real.action_space(agent)

    def reset(self, seed=None, options=None):  # type: ignore[no-untyped-def]
        self.agents = list(self.possible_agents)
        return self._obs, self._infos

    def step(self, actions):  # type: ignore[no-untyped-def]
        until = time.perf_counter() + self._cost * len(actions)
        while time.perf_counter() < until:
            pass
        zeros = dict.fromkeys(self.agents, False)
        return self._obs, dict.fromkeys(self.agents, 0.0), zeros, dict(zeros), self._infos


def _supersuit_vec(world: str, envs: int, cpus: int, stand_in_us: float | None = None):  # type: ignore[no-untyped-def]
    import supersuit as ss

    if stand_in_us is None:
        env = agentodyssey_pz.parallel_env(world=world, num_agents=3, tutorial=False)
    else:
        env = StandIn(world, stand_in_us)
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    return ss.concat_vec_envs_v1(vec, envs, num_cpus=cpus, base_class="gymnasium")


def _supersuit_rate(  # type: ignore[no-untyped-def]
    world: str, envs: int, cpus: int, steps: int, start=None, stand_in_us: float | None = None
) -> float:
    """Agent-steps per second of SuperSuit's vector env with masked random actions for the whole
    batch at once, as a learner samples. `start`: a barrier to pass before timing; `stand_in_us`:
    step a `StandIn` of that cost per agent-step instead of the game."""
    vec = _supersuit_vec(world, envs, cpus, stand_in_us)
    obs, _ = vec.reset(seed=0)
    rng = np.random.default_rng(0)
    if start is not None:
        start.wait()
    began = time.perf_counter()
    for _ in range(steps):
        masks = obs["action_mask"]
        # A uniform pick among each row's allowed actions: allowed entries score in [1, 2), the
        # rest in [0, 1). One float32 pass, and plain ints, which SuperSuit pickles to its workers
        # far faster than numpy scalars: the learner's serial share is what limits the speedup.
        actions = (rng.random(masks.shape, dtype=np.float32) + masks).argmax(axis=1).tolist()
        obs, *_ = vec.step(actions)
    elapsed = time.perf_counter() - began
    vec.close()
    return steps * len(masks) / elapsed


def _rate_into(queue, *args) -> None:  # type: ignore[no-untyped-def]
    queue.put(_supersuit_rate(*args))


def side_by_side(world: str, envs: int, steps: int) -> list[float]:
    """Two independent one-process vector envs of `envs` envs each, run at the same time: what two
    processes can do on this machine with no traffic between them."""
    import multiprocessing as mp

    start, queue = mp.Barrier(2), mp.Queue()
    procs = [
        mp.Process(target=_rate_into, args=(queue, world, envs, 0, steps, start)) for _ in range(2)
    ]
    for proc in procs:
        proc.start()
    rates = [queue.get() for _ in procs]
    for proc in procs:
        proc.join()
    return rates


def supersuit_speedup(world: str, steps: int, runs: int, env_counts: list[int]) -> None:
    """SuperSuit's vector env (3 agents per env) in one process against two worker processes
    (`concat_vec_envs_v1(..., num_cpus=2)`), for each count of envs; medians of `runs`
    interleaved runs.

    Also: the machine's own ceiling for two processes (two independent one-process vector envs of
    half the envs each, side by side, against one process with all of them), and what share of a
    2-process step the workers spend stepping their envs (a worker's step time when it runs beside
    the other, from the side-by-side run, over the measured 2-process step time); the rest is
    SuperSuit's shared-memory copies and pipes and the learner process's serial part. Last, the
    same 2-against-1 speedup with a `StandIn` that costs per agent-step what a whole one-process
    agent-step cost (SuperSuit's share included, which only gives the workers more to split):
    what SuperSuit reaches here for an env of that cost, whatever the env does inside."""
    for envs in env_counts:
        ones, twos, ceilings, busy, stand_ins = [], [], [], [], []
        # From 16 envs up, as many agent-steps per measurement as with 16 (fewer batch steps).
        steps_here = max(50, steps * 16 // max(16, envs))
        for _ in range(runs):  # interleaved: this machine's speed drifts over minutes
            one = _supersuit_rate(world, envs, 0, steps_here)
            two = _supersuit_rate(world, envs, 2, steps_here)
            halves = side_by_side(world, envs // 2, steps_here)
            ones.append(one)
            twos.append(two)
            ceilings.append(sum(halves) / one)
            # Per batch step: a worker steps envs/2 envs (3 agents each) in 1/halves[i]*3*envs/2 s.
            worker_step = statistics.mean(3 * (envs // 2) / h for h in halves)
            busy.append(worker_step / (3 * envs / two))
            # The stand-in costs what the game cost per agent-step in this run's one process.
            cost_us = 1e6 / one
            stand_ins.append(
                _supersuit_rate(world, envs, 2, steps_here, stand_in_us=cost_us)
                / _supersuit_rate(world, envs, 0, steps_here, stand_in_us=cost_us)
            )
        one, two = statistics.median(ones), statistics.median(twos)
        print(
            f"supersuit, {envs} envs x 3 agents: 1 process {one:,.0f} agent-steps/s, "
            f"2 processes {two:,.0f} agent-steps/s, speedup {two / one:.2f}x; "
            f"two independent processes side by side {statistics.median(ceilings):.2f}x; "
            f"workers stepping envs {statistics.median(busy):.0%} of a 2-process step; "
            f"a stand-in env that only spins for the same time per agent-step "
            f"{statistics.median(stand_ins):.2f}x"
        )


def per_agent_scaling(world: str, ticks: int, runs: int, few: int = 3, many: int = 64) -> None:
    """Per-agent cost with `many` agents relative to `few`, each mode's runs interleaved (this
    machine's speed drifts over minutes, which would bias two separate series).

    Both play the same stretch of an episode, its first `ticks` ticks: a crowd fills its areas as
    it plays (containers dropped on the ground, each agent's personal quest guides), so a short
    stretch of many agents against a long one of few would understate what a crowd costs. The few
    play `many // few` episodes per run (seeds in turn), so both sides measure about as many
    agent-steps."""
    episodes = max(1, many // few)
    for mode, runner in RUNNERS.items():
        small, large = [], []
        for run in range(runs):
            seconds = sum(
                ticks / runner(world, few, ticks, run * episodes + k) for k in range(episodes)
            )
            small.append(episodes * ticks * few / seconds)
            large.append(runner(world, many, ticks, run) * many)
        paired = statistics.median(a / b for a, b in zip(small, large, strict=True))
        print(
            f"{mode:9} {few} agents {statistics.median(small):8,.0f} agent-steps/s, "
            f"{many} agents {statistics.median(large):8,.0f}; per-agent cost x{paired:.2f} "
            f"(first {ticks} ticks of episodes; median of paired runs)"
        )
        if mode != "vector":
            few_len = statistics.mean(
                listing_length(world, few, ticks, k, mode) for k in range(episodes)
            )
            many_len = listing_length(world, many, ticks, 0, mode)
            print(
                f"{'':9} valid-action lists: {few_len:.0f} commands per agent-step with {few} "
                f"agents, {many_len:.0f} with {many} (x{many_len / few_len:.2f}): per command "
                f"listed, the crowd's cost is x{paired / (many_len / few_len):.2f}"
            )


def listing_length(world: str, agents: int, ticks: int, seed: int, obs_mode: str) -> float:
    """Mean number of commands in the valid-action lists of a text run (the same walk as the
    timed one of that seed: a crowd leaves more on the ground, so each agent is offered more)."""
    listed: list[int] = []
    run_text(world, agents, ticks, seed, obs_mode, listed)
    return statistics.mean(listed)


def expansion_cost(world: str, agents: int, steps: int, runs: int) -> None:
    """Vector mode with world expansion off and on (spare slots, a growing world), interleaved."""
    off, on = [], []
    for seed in range(runs):
        off.append(run_vector(world, agents, steps, seed) * agents)
        on.append(run_vector(world, agents, steps, seed, world_expansion=True) * agents)
    print(
        f"vector, {agents} agents: expansion off {statistics.median(off):,.0f} agent-steps/s, "
        f"on {statistics.median(on):,.0f} (default spare slots)"
    )


def long_episode(world: str, agents: int, ticks: int, parts: int = 10) -> None:
    """One episode of `ticks` ticks (vector mode, masked random actions): agent-steps per second
    in each tenth, and how far the agents got. Costs that grow with an episode's progress show
    here, not in the short runs above (on the default world, random agents reach the main quest's
    second chapter, a goal graph, after about 120,000 ticks)."""
    env = agentodyssey_pz.parallel_env(
        world=world, num_agents=agents, tutorial=False, max_cycles=ticks + 1
    )
    obs, _ = env.reset(seed=0)
    rng = random.Random(0)
    part = max(1, ticks // parts)
    print(f"{world}, {agents} agents, one episode of {ticks:,} ticks (vector mode)")
    for first in range(0, part * parts, part):
        start = time.perf_counter()
        for _ in range(part):
            obs = masked_random_step(env, obs, rng)
        rate = part * agents / (time.perf_counter() - start)
        chapters = [
            agent.progress.get("main_quest", {}).get("chapter")
            for agent in env.game.agents.values()
        ]
        levels = [agent.level for agent in env.game.agents.values()]
        print(
            f"  ticks {first + 1:>8,}-{first + part:<8,} {rate:8,.0f} agent-steps/s; "
            f"main-quest chapters {chapters}, levels {levels}"
        )


def envs_in_turn(world: str, envs: int, steps: int, interleaved: bool) -> float:
    """Microseconds per agent-step (vector mode, 3 agents each) of `envs` envs in one process, each
    stepped `steps` times: all envs in turn each step (as a vector env does), or each env's steps
    one after another (the same work, with one world at a time in the core's caches)."""
    pool = [
        agentodyssey_pz.parallel_env(world=world, num_agents=3, tutorial=False) for _ in range(envs)
    ]
    obs = [env.reset(seed=seed)[0] for seed, env in enumerate(pool)]
    rngs = [random.Random(seed) for seed in range(envs)]  # per env: both orders take the same steps

    order = (
        [k for _ in range(steps) for k in range(envs)]
        if interleaved
        else [k for k in range(envs) for _ in range(steps)]
    )
    start = time.perf_counter()
    for k in order:
        obs[k] = masked_random_step(pool[k], obs[k], rngs[k])
    return (time.perf_counter() - start) / (envs * steps * 3) * 1e6


def interleave_cost(world: str, envs: int, steps: int, runs: int) -> None:
    """What stepping many envs in turn in one process costs against stepping them one by one
    (the cost of many worlds sharing one core's caches); runs alternate between the two."""
    turns, sequences = [], []
    for _ in range(runs):
        turns.append(envs_in_turn(world, envs, steps, interleaved=True))
        sequences.append(envs_in_turn(world, envs, steps, interleaved=False))
    turn, sequence = statistics.median(turns), statistics.median(sequences)
    print(
        f"{envs} envs x {steps} steps x 3 agents in one process: in turn {turn:.1f} us per "
        f"agent-step, one env after another {sequence:.1f} us (x{turn / sequence:.2f})"
    )


def versus(world: str, other: str, steps: int, runs: int, agents: int = 3) -> None:
    """Agent-steps per second of `world` and `other` in each mode (`agents` agents, tutorial off),
    runs alternating between the two so that this machine's drift over minutes weighs on both
    alike, and the cost ratio: `world`'s rate over `other`'s, the median of the paired runs (the
    factor by which an agent-step of `other` costs more)."""
    print(f"{world} against {other}, {agents} agents, {steps} steps per run; {runs} paired runs")
    for mode, runner in RUNNERS.items():
        mine, theirs = [], []
        for seed in range(runs):  # the same seeds for both: each run pairs like with like
            mine.append(runner(world, agents, steps, seed) * agents)
            theirs.append(runner(other, agents, steps, seed) * agents)
        ratio = statistics.median(a / b for a, b in zip(mine, theirs, strict=True))
        print(
            f"{mode:9} {world} {statistics.median(mine):8,.0f} agent-steps/s, {other} "
            f"{statistics.median(theirs):8,.0f}; cost x{ratio:.2f}"
        )


def interpreter() -> str:
    """Which CPython runs the figures, and whether from a shared libpython: builds differ by 10-15%
    here (pyenv's default build, shared and without PGO/LTO, against Debian's python3.11)."""
    try:
        with open("/proc/self/maps") as maps:
            shared = "libpython" in maps.read()
        linked = ", shared libpython" if shared else ", libpython linked in"
    except OSError:  # not Linux
        linked = ""
    where = os.path.realpath(sys.executable)
    return f"{platform.python_implementation()} {platform.python_version()} ({where}{linked})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="default")
    parser.add_argument("--agents", type=int, nargs="+", default=[1, 3, 16, 64])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--supersuit", action="store_true")
    parser.add_argument(
        "--envs",
        type=int,
        nargs="+",
        default=[4, 16, 64, 128],
        help="env counts for --supersuit and --interleave",
    )
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--ticks", type=int, default=300, help="episode ticks for --scaling")
    parser.add_argument("--expansion", action="store_true")
    parser.add_argument("--interleave", action="store_true")
    parser.add_argument(
        "--long", type=int, metavar="TICKS", help="one episode this long, timed by tenths"
    )
    parser.add_argument(
        "--versus", metavar="WORLD", help="compare --world with this world, runs alternating"
    )
    args = parser.parse_args()
    print(f"python: {interpreter()}")
    if args.long:
        long_episode(args.world, 3, args.long)
        return
    if args.versus:
        versus(args.world, args.versus, args.steps, max(args.runs, 5))
        return
    if args.interleave:
        for envs in args.envs:
            interleave_cost(args.world, envs, max(20, args.steps // 32), args.runs)
        return
    if args.expansion:
        expansion_cost(args.world, 3, args.steps, args.runs)
        return
    if args.scaling:
        per_agent_scaling(args.world, args.ticks, max(args.runs, 5))
        return
    if args.supersuit:
        if any(n < 2 or n % 2 for n in args.envs):
            parser.error("--envs: even counts of at least 2 (each of 2 processes takes half)")
        supersuit_speedup(args.world, args.steps // 4, args.runs, args.envs)
        return
    # The best run beside the median: on a shared VM other load only ever slows a run down, so the
    # fastest is the least disturbed measure of the code (timeit's rule), the median the typical.
    print(f"world {args.world}; median (and best) of {args.runs} runs")
    print(
        f"{'mode':9} {'agents':>6} {'steps/s':>10} {'agent-steps/s':>14} {'best':>8} "
        f"{'reset ms':>9} {'MB/env':>7}"
    )
    for agents in args.agents:
        steps = max(200, args.steps // max(1, agents // 3))
        for mode, runner in RUNNERS.items():
            rates = [runner(args.world, agents, steps, seed) for seed in range(args.runs)]
            rate = statistics.median(rates)
            extra = ""
            if mode == "vector":
                reset_ms = reset_time(args.world, agents)
                extra = f" {reset_ms:9.1f} {memory_per_env(args.world, agents):7.1f}"
            best = max(rates) * agents
            print(f"{mode:9} {agents:6d} {rate:10,.0f} {rate * agents:14,.0f} {best:8,.0f}{extra}")


if __name__ == "__main__":
    main()
