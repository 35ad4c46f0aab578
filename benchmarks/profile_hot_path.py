"""Where an env step's time goes: microseconds per agent-step for each part of the hot path.

Usage: python benchmarks/profile_hot_path.py [--world default] [--agents 3] [--steps 2000]

Plays masked random actions in vector mode and times, per agent-step: the engine tick (the action
rules, each step rule, the reward function), the action mask, the observation vector, the info
dict, and - what text mode adds - the text observation and the valid-action list. Each part is
timed separately on the same states (wall clock, perf_counter), so the figures add up to roughly
what an env step costs and show where speed work pays. Masks and lists reuse the env's listings of
earlier ticks (`observe.listing_cache`) as the env does.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

import numpy as np

import agentodyssey_pz
from agentodyssey_pz.observe.masks import action_mask, valid_actions
from agentodyssey_pz.observe.text import tick_observation


def _timed(totals: dict[str, float], key: str, fn):  # type: ignore[no-untyped-def]
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - start

    return wrapper


def profile(world: str, agents: int, steps: int, seed: int) -> dict[str, float]:
    env = agentodyssey_pz.parallel_env(world=world, num_agents=agents, tutorial=False)
    obs, _ = env.reset(seed=seed)
    game = env.game
    totals: dict[str, float] = defaultdict(float)
    for rule in game.step_rules:
        rule.apply = _timed(totals, f"  step rule {rule.name}", rule.apply)
    reward_fn = game.reward_function
    reward_fn.compute = _timed(totals, "  reward function", reward_fn.compute)
    game.engine.dispatch = _timed(totals, "  action rules", game.engine.dispatch)
    rng = random.Random(seed)
    n_actions, size = len(env.catalogue), env.layout.size
    done = 0
    while done < steps:
        commands = {}
        for agent in env.agents:
            choice = rng.choice(np.flatnonzero(obs[agent]["action_mask"]).tolist())
            commands[agent] = env._command(agent, choice)
        start = time.perf_counter()
        result = game.tick(commands)
        totals["tick (all)"] += time.perf_counter() - start
        env.num_cycles += 1
        for agent in env.agents:
            options: dict = {}
            t0 = time.perf_counter()
            mask = action_mask(
                game, agent, env.catalogue, np.empty(n_actions, np.int8), options, env._listings
            )
            t1 = time.perf_counter()
            env.encoder.encode(game, game.agents[agent], np.empty(size, np.float32))
            t2 = time.perf_counter()
            env._info(agent, result)
            t3 = time.perf_counter()
            tick_observation(game, agent, result.feedback(agent), bootstrap=False, terminated=False)
            t4 = time.perf_counter()
            valid_actions(game, agent, cache=env._listings)
            t5 = time.perf_counter()
            totals["action mask"] += t1 - t0
            totals["observation vector"] += t2 - t1
            totals["info dict"] += t3 - t2
            totals["text observation (text mode)"] += t4 - t3
            totals["valid actions (text mode)"] += t5 - t4
            env._options[agent] = options
            obs[agent] = {"action_mask": mask}
        done += 1
        if result.terminated or env.num_cycles >= env.config.max_cycles:
            obs, _ = env.reset()
    return {key: value / (steps * agents) * 1e6 for key, value in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="default")
    parser.add_argument("--agents", type=int, nargs="+", default=[3])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for agents in args.agents:
        figures = profile(args.world, agents, args.steps, args.seed)
        print(f"world {args.world}, {agents} agents, {args.steps} steps: us per agent-step")
        order = ["tick (all)", *sorted(k for k in figures if k.startswith("  "))]
        order += [k for k in figures if k not in order]
        for key in order:
            print(f"  {key:44} {figures[key]:8.1f}")
        vector = sum(
            figures[k] for k in ("tick (all)", "action mask", "observation vector", "info dict")
        )
        text = vector + sum(v for k, v in figures.items() if k.endswith("(text mode)"))
        for label, micros in (("vector-mode step (sum)", vector), ("text-mode step (sum)", text)):
            print(f"  {label:44} {micros:8.1f}  (~{1e6 / micros:,.0f} agent-steps/s)")


if __name__ == "__main__":
    main()
