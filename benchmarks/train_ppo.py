"""Train one masked PPO policy shared by all agents on the default world, and prove it learned.

Usage: python benchmarks/train_ppo.py [--agent-steps 600000] [--minutes 17] [--out DIR]

Needs the `[train]` extra (torch, matplotlib). The tutorial is off (a MARL setting). Training stops
at `--agent-steps` or after `--minutes` of wall clock, whichever comes first. Then the trained
policy (sampling its masked distribution; also its greedy mode) and the masked-random policy each
play the same `--eval-episodes` seeded episodes (seeds disjoint from training's); the score of an
episode is the mean over agents of the summed `score_total` (exploration + craft + unique kills +
trades + quest stages + side quests - deaths). Means come with 95% percentile-bootstrap confidence
intervals. Writes `ppo_curve.png` (the learning curve: episode score_total vs agent-steps) and
`ppo_results.json` into `--out` (default: benchmarks/results).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import agentodyssey_pz
from agentodyssey_pz.cli import option_named
from agentodyssey_pz.cli_types import POSITIVE, SEED

# torch (and the training package, which needs it) is imported only once the flags are checked, so
# `--help` and a mistake's message work without the [train] extra.
TRAIN_EXTRA = ("torch", "matplotlib")
CPU_TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
# Training reward: "score" (the default) is the evaluation metric itself (SCORE_WEIGHTS);
# "rl_total" is the env's default weighting (5 per repeat kill, 20 per quest stage, -10 per death).
WEIGHT_NAMES = ("rl_total", "score")
# The env's errors name its settings ("max_cycles: ..."); the message names the flag.
ENV_OPTIONS = {"world": "--world", "num_agents": "--agents", "max_cycles": "--max-cycles"}


def positive_number(text: str) -> float:
    """An argparse type: a number above 0 (a time budget or a learning rate)."""
    value = float(text)  # a ValueError: argparse's own "invalid float value: 'abc'"
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


positive_number.__name__ = "float"  # the word argparse puts in "invalid float value"


def output_folder(text: str) -> Path:
    """An argparse type: a folder the results can be written into, checked before training
    rather than after it."""
    path = nearest = Path(text)
    while not nearest.exists() and nearest.parent != nearest:
        nearest = nearest.parent
    if nearest.is_dir():
        return path
    if nearest == path:
        raise argparse.ArgumentTypeError(f"{text!r} exists and is not a folder")
    raise argparse.ArgumentTypeError(f"{str(nearest)!r} is not a folder")


def model_file(text: str) -> Path:
    """An argparse type: a file the weights can be written to (its folders are made as needed)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    output_folder(str(path.parent))
    return path


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--world", default="default")
    p.add_argument("--agents", type=int, default=3)
    p.add_argument("--max-cycles", type=int, default=200, help="episode length (env steps)")
    p.add_argument("--weights", choices=WEIGHT_NAMES, default="score")
    p.add_argument("--num-envs", type=POSITIVE, default=8)
    p.add_argument("--num-steps", type=POSITIVE, default=128, help="env steps per rollout")
    p.add_argument("--agent-steps", type=POSITIVE, default=600_000)
    p.add_argument(
        "--minutes", type=positive_number, default=17.0, help="wall-clock cap on training"
    )
    p.add_argument("--lr", type=positive_number, default=2.5e-4)
    # 0.02 rather than CleanRL's 0.01: over seeds 0-2, 0.01 left one run on a plateau (13.8 against
    # 19.5-20.1); 0.02 gave 18.7-19.1 on all three.
    p.add_argument("--ent-coef", type=float, default=0.02)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--epochs", type=POSITIVE, default=4)
    p.add_argument("--minibatch", type=POSITIVE, default=512)
    p.add_argument("--hidden", type=POSITIVE, default=256)
    p.add_argument("--seed", type=SEED, default=0)
    p.add_argument("--eval-episodes", type=POSITIVE, default=20)
    p.add_argument("--eval-seed", type=SEED, default=10_000, help="first evaluation seed")
    p.add_argument("--threads", type=POSITIVE, default=1, help="torch intra-op threads")
    p.add_argument("--out", type=output_folder, default=Path(__file__).parent / "results")
    p.add_argument(
        "--save-model", type=model_file, default=None, help="write the weights here (.pt)"
    )
    return p.parse_args(argv)


def require_train_extra() -> None:
    """Stop with the install command if torch or matplotlib is missing."""
    for name in TRAIN_EXTRA:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            raise SystemExit(
                f"error: {exc.name} is not installed; this script needs the [train] extra: "
                f'pip install "agentodyssey-pz[train]" (on PyPI torch is the CUDA build; for the '
                f"CPU one, first: {CPU_TORCH})"
            ) from exc


def reward_weights(name: str) -> dict[str, float]:
    from agentodyssey_pz.adapter.config import RL_TOTAL_WEIGHTS
    from agentodyssey_pz.training import SCORE_WEIGHTS

    return {"score": SCORE_WEIGHTS, "rl_total": RL_TOTAL_WEIGHTS}[name]


def check_env(env_kwargs: dict[str, Any]) -> None:
    """Build the env once: a setting it refuses is one error line naming the flag (a broken world
    file: its problems, as `agentodyssey-pz validate` shows them), not a traceback from the first
    rollout."""
    from agentodyssey_pz.errors import AgentOdysseyError, DataError

    try:
        agentodyssey_pz.parallel_env(**env_kwargs).close()
    except AgentOdysseyError as exc:
        message = exc if isinstance(exc, DataError) else f"error: {option_named(exc, ENV_OPTIONS)}"
        print(message, file=sys.stderr)
        raise SystemExit(2) from exc


def train(args: argparse.Namespace, env_kwargs: dict[str, Any]) -> tuple[Any, list, float]:
    from agentodyssey_pz.training import PPOConfig, PPOTrainer

    config = PPOConfig(
        learning_rate=args.lr, ent_coef=args.ent_coef, gamma=args.gamma,
        update_epochs=args.epochs, minibatch_size=args.minibatch, hidden=args.hidden,
    )  # fmt: skip
    trainer = PPOTrainer(env_kwargs, args.num_envs, args.num_steps, config, args.seed)
    iterations = max(1, args.agent_steps // trainer.batch_size)
    budget, start = args.minutes * 60.0, time.perf_counter()
    log: list[dict[str, float]] = []
    for i in range(iterations):
        elapsed = time.perf_counter() - start
        # The learning rate decays with whichever budget (steps or time) runs out first.
        progress = max(i / iterations, elapsed / budget)
        if progress >= 1.0:
            break
        stats = trainer.iteration(progress)
        stats["seconds"] = time.perf_counter() - start
        log.append(stats)
        if i % 10 == 0 or i == iterations - 1:
            recent = [e.score_total for e in trainer.episodes[-3 * args.num_envs :]]
            print(
                f"iter {i:4d} agent-steps {trainer.agent_steps:9,d} {stats['seconds']:7.0f}s "
                f"score {np.mean(recent) if recent else float('nan'):6.2f} "
                f"entropy {stats['entropy']:.2f} kl {stats['approx_kl']:.4f} "
                f"vloss {stats['value_loss']:.3f}",
                flush=True,
            )
    return trainer, log, time.perf_counter() - start


def evaluate(choose: Any, env_kwargs: dict[str, Any], seeds: range) -> dict[str, Any]:
    """Mean episode score_total with its 95% bootstrap CI, per-episode scores, mean components."""
    from agentodyssey_pz.training import bootstrap_ci, evaluate_policy

    parts: list[dict[str, float]] = []
    scores = evaluate_policy(choose, env_kwargs, seeds, parts)
    mean, low, high = bootstrap_ci(scores)
    components = {k: float(np.mean([p.get(k, 0.0) for p in parts])) for k in parts[0]}
    return {"mean": mean, "ci95": [low, high], "episodes": scores, "components": components}


def plot(path: Path, trainer: Any, random_eval: dict, trained_eval: dict, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([e.agent_steps for e in trainer.episodes])
    scores = np.array([e.score_total for e in trainer.episodes])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.scatter(steps, scores, s=4, alpha=0.25, color="tab:blue", label="training episode")
    window = max(1, len(scores) // 25)
    if len(scores) >= window:
        smooth = np.convolve(scores, np.ones(window) / window, mode="valid")
        ax.plot(steps[window - 1 :], smooth, color="tab:blue", label=f"mean of {window} episodes")
    low, high = random_eval["ci95"]
    ax.axhspan(low, high, color="tab:gray", alpha=0.3)
    ax.axhline(random_eval["mean"], color="tab:gray", label="masked random (eval, 95% CI)")
    t_low, t_high = trained_eval["ci95"]
    x = steps[-1] if len(steps) else trainer.agent_steps
    mean = trained_eval["mean"]
    ax.errorbar(
        [x], [mean], yerr=[[mean - t_low], [t_high - mean]],
        fmt="o", color="tab:red", capsize=4, label="trained policy (eval, 95% CI)",
    )  # fmt: skip
    ax.set_xlabel("agent-steps")
    ax.set_ylabel("episode score_total (mean over agents)")
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    env_kwargs: dict[str, Any] = {
        "world": args.world, "num_agents": args.agents, "max_cycles": args.max_cycles,
        "tutorial": False,
    }  # fmt: skip
    check_env(env_kwargs)  # before the extra: a mistake in the flags is named with or without it
    require_train_extra()
    env_kwargs["reward_weights"] = reward_weights(args.weights)  # the training package: torch
    import torch

    from agentodyssey_pz.training import model_chooser, random_chooser

    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()
    trainer, log, seconds = train(args, env_kwargs)
    load_after = os.getloadavg()
    seeds = range(args.eval_seed, args.eval_seed + args.eval_episodes)
    start = time.perf_counter()
    choosers = {
        "random": random_chooser(args.seed),
        "trained": model_chooser(trainer.model, args.seed),
        "trained_greedy": model_chooser(trainer.model, deterministic=True),
    }
    evals = {name: evaluate(choose, env_kwargs, seeds) for name, choose in choosers.items()}
    random_eval, trained_eval = evals["random"], evals["trained"]
    eval_seconds = time.perf_counter() - start
    for name, result in evals.items():
        low, high = result["ci95"]
        print(f"{name:15} score_total {result['mean']:6.2f}  95% CI [{low:.2f}, {high:.2f}]")
    args.out.mkdir(parents=True, exist_ok=True)
    title = (
        f"masked PPO, {args.world} world, {args.agents} agents, {args.max_cycles}-step episodes, "
        f"{trainer.agent_steps:,} agent-steps"
    )
    plot(args.out / "ppo_curve.png", trainer, random_eval, trained_eval, title)
    result = {
        "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "env": env_kwargs,
        "agent_steps": trainer.agent_steps,
        "train_seconds": seconds,
        "agent_steps_per_second": trainer.agent_steps / seconds,
        "eval_seconds": eval_seconds,
        "load_average": {"before": load_before, "after": load_after},
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "torch": torch.__version__,
            "torch_threads": args.threads,
        },
        "eval_seeds": [seeds.start, seeds.stop - 1],
        "evaluation": evals,
        "curve": [
            {"agent_steps": e.agent_steps, "score_total": e.score_total, "reward": e.reward}
            for e in trainer.episodes
        ],
        "iterations": log,
    }
    (args.out / "ppo_results.json").write_text(json.dumps(result, indent=1))
    if args.save_model is not None:
        args.save_model.parent.mkdir(parents=True, exist_ok=True)
        torch.save(trainer.model.state_dict(), args.save_model)
    print(f"wrote {args.out / 'ppo_curve.png'} and {args.out / 'ppo_results.json'}")


if __name__ == "__main__":
    main()
