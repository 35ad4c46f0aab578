"""Train PPO with RLlib on several env runners: one masked policy shared by all agents.

Usage: python benchmarks/train_rllib.py [--env-runners 2] [--iterations 20] [--agents 3]
       python benchmarks/train_rllib.py --throughput 1 2     (sampling rate per env-runner count)

Needs the `[rllib]` extra (ray[rllib], torch). The env is the default world with the tutorial off
and the training reward set to score_total's parts (`SCORE_WEIGHTS`, as in train_ppo.py); RLlib
does the distribution (env runners are Ray actors, one CPU each). `--throughput` measures, for each
env-runner count, agent-steps per second of parallel sampling with the current policy (all runners
sampling at once; only step counts come back) and of whole training iterations (sampling, shipping
the episodes to the learner, and the update).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from typing import Any

from agentodyssey_pz.cli_types import NON_NEGATIVE, POSITIVE, SEED

# Ray starts its workers at nice 15. On a machine shared with other work the env runners then
# starve while the driver (nice 0) waits for them (building the algorithm took 93 s instead of 18 s
# here), so run them at normal priority unless told otherwise.
os.environ.setdefault("RAY_worker_niceness", "0")

# ray and torch (the [rllib] extra) are imported once the flags are parsed, so `--help` works
# without them and their absence is one line saying how to install them.


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-runners", type=NON_NEGATIVE, default=2)
    p.add_argument("--envs-per-runner", type=POSITIVE, default=1)
    p.add_argument("--iterations", type=POSITIVE, default=20)
    p.add_argument("--agents", type=POSITIVE, default=3)
    p.add_argument("--max-cycles", type=POSITIVE, default=200)
    p.add_argument("--batch", type=POSITIVE, default=2000, help="env steps per training iteration")
    p.add_argument("--minibatch", type=POSITIVE, default=512)
    p.add_argument("--epochs", type=POSITIVE, default=4)
    p.add_argument("--seed", type=SEED, default=0)
    p.add_argument(
        "--throughput", type=NON_NEGATIVE, nargs="*", help="env-runner counts to measure"
    )
    p.add_argument("--samples", type=POSITIVE, default=5, help="timed sample rounds (throughput)")
    return p.parse_args(argv)


def require_rllib_extra() -> None:
    """Stop with the integration's own message (the missing module, the install command)."""
    try:
        import agentodyssey_pz.integrations.rllib  # noqa: F401
    except ImportError as exc:
        raise SystemExit(f"error: {exc}") from exc


def build(args: argparse.Namespace, env_runners: int) -> Any:
    from agentodyssey_pz.integrations.rllib import ppo_config
    from agentodyssey_pz.training import SCORE_WEIGHTS

    env_config = {
        "num_agents": args.agents, "max_cycles": args.max_cycles, "tutorial": False,
        "reward_weights": SCORE_WEIGHTS,
    }  # fmt: skip
    config = ppo_config(
        env_config, num_env_runners=env_runners, num_envs_per_env_runner=args.envs_per_runner,
        train_batch_size=args.batch, minibatch_size=args.minibatch, num_epochs=args.epochs,
        seed=args.seed,
    )  # fmt: skip
    return config.build_algo()


def agent_steps(result: dict[str, Any]) -> int:
    """Agent-steps sampled so far (summed over agents)."""
    return int(sum(result["env_runners"]["num_agent_steps_sampled_lifetime"].values()))


def train(args: argparse.Namespace) -> None:
    import ray

    from agentodyssey_pz.integrations.rllib import SCORE_METRIC

    ray.init(num_cpus=args.env_runners + 1, include_dashboard=False, log_to_driver=False)
    algo = build(args, args.env_runners)
    start, done = time.perf_counter(), 0
    for i in range(args.iterations):
        result = algo.train()
        done = agent_steps(result)
        runners = result["env_runners"]
        print(
            f"iter {i:3d} agent-steps {done:8,d} {time.perf_counter() - start:6.0f}s "
            f"score_total {runners.get(SCORE_METRIC, float('nan')):6.2f} "
            f"return {runners.get('episode_return_mean', float('nan')):7.2f}",
            flush=True,
        )
    print(f"{done / (time.perf_counter() - start):,.0f} agent-steps/s over the run")
    algo.stop()
    ray.shutdown()


def throughput(args: argparse.Namespace, env_runners: int) -> tuple[float, float]:
    """(sampling, training) agent-steps per second with `env_runners` runners."""
    import ray

    ray.init(num_cpus=env_runners + 1, include_dashboard=False, log_to_driver=False)
    algo = build(args, env_runners)
    algo.train()  # warm-up: every runner has built its env and module
    steps_per_round = args.batch // env_runners

    def sample(runner: Any) -> int:
        return sum(e.agent_steps() for e in runner.sample(num_timesteps=steps_per_round))

    start, sampled = time.perf_counter(), 0
    for _ in range(args.samples):
        sampled += sum(algo.env_runner_group.foreach_env_runner(sample, local_env_runner=False))
    sampling = sampled / (time.perf_counter() - start)
    before, start = agent_steps(algo.train()), time.perf_counter()
    rounds = 3
    for _ in range(rounds - 1):
        algo.train()
    after = agent_steps(algo.train())
    training = (after - before) / (time.perf_counter() - start)
    algo.stop()
    ray.shutdown()
    return sampling, training


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    require_rllib_extra()
    if not args.throughput:
        train(args)
        return
    print(f"{args.agents} agents, {args.envs_per_runner} env(s) per runner; load {os.getloadavg()}")
    for n in args.throughput:
        sampling, training = throughput(args, n)
        print(
            f"{n} env runner(s): sampling {sampling:,.0f} agent-steps/s, "
            f"training iterations {training:,.0f} agent-steps/s (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
