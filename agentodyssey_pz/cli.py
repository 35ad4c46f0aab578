"""The `agentodyssey-pz` command line: one sub-command per job.

Sits on top of every layer. Each sub-command is a small function taking parsed arguments and
returning an exit status; user mistakes print a clear message and exit 1 (no tracebacks).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from agentodyssey_pz.errors import AgentOdysseyError, DataError
from agentodyssey_pz.resources import resolve_world_file


def cmd_validate(args: argparse.Namespace) -> int:
    from agentodyssey_pz.world.summary import format_summary, summarize
    from agentodyssey_pz.world.validate import check_definition, read_json

    path = resolve_world_file(args.world)
    definition, problems = check_definition(read_json(path))
    for problem in problems:
        print(
            f"{problem.severity}: {problem}", file=sys.stderr if definition is None else sys.stdout
        )
    if definition is None:
        errors = sum(p.severity == "error" for p in problems)
        print(f"{path}: {errors} error(s); the world cannot be loaded", file=sys.stderr)
        return 1
    print(f"{path}: valid")
    print(format_summary(summarize(definition, args.seed)))
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from agentodyssey_pz.world.procgen import generate_definition, write_definition

    if args.output:
        write_definition(args.preset, args.seed, args.output)
        print(f"wrote {args.output}")
    else:
        json.dump(generate_definition(args.preset, args.seed), sys.stdout, indent=2)
        print()
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue a journaled game: load the newest snapshot, replay the journal, optionally play on
    with random valid actions (journaling into the same folder)."""
    import random

    from agentodyssey_pz.checkpoint import resume
    from agentodyssey_pz.observe.masks import valid_actions

    game = resume(args.folder, args.world, snapshot_every=args.snapshot_every)
    print(
        f"resumed {args.folder} at tick {game.tick_index} ({game.time_text}), "
        f"{len(game.agent_ids)} agents{' - episode over' if game.terminated else ''}"
    )
    rng = random.Random(args.seed)
    for _ in range(args.ticks):
        if game.terminated:
            break
        actions = {}
        for agent_id in game.agent_ids:
            options = [c for cmds in valid_actions(game, agent_id).values() for c in cmds]
            actions[agent_id] = rng.choice(options)
        game.tick(actions)
    if game.recorder is not None:
        game.recorder.close()
    for agent_id, score in game.scores.items():
        print(
            f"{agent_id}: score_total {score.score_total}, "
            + ", ".join(f"{k} {v}" for k, v in score.components().items() if v)
        )
    print(f"now at tick {game.tick_index}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentodyssey-pz", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    validate = sub.add_parser("validate", help="check a world definition and summarise it")
    validate.add_argument(
        "world", nargs="?", default="default", help="bundled name, folder or JSON file"
    )
    validate.add_argument("--seed", type=int, default=0, help="seed of the world to summarise")
    validate.set_defaults(func=cmd_validate)
    generate = sub.add_parser("generate", help="write a procedural world definition")
    generate.add_argument("preset", choices=["small", "medium", "large"])
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("-o", "--output", help="file to write (default: standard output)")
    generate.set_defaults(func=cmd_generate)
    resume = sub.add_parser("resume", help="continue a journaled game from its checkpoint folder")
    resume.add_argument("folder", help="a checkpoint folder (snapshot-*.json and journal-*.jsonl)")
    resume.add_argument(
        "--world", default=None, help="the world, if not bundled (its folder or file)"
    )
    resume.add_argument(
        "--ticks", type=int, default=0, help="play on this many ticks (random valid actions)"
    )
    resume.add_argument("--seed", type=int, default=0, help="seed of the random actions")
    resume.add_argument(
        "--snapshot-every", type=int, default=100, help="snapshot interval when playing on"
    )
    resume.set_defaults(func=cmd_resume)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except DataError as exc:
        print(exc, file=sys.stderr)
        return 1
    except (AgentOdysseyError, FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
