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
        print(f"{problem.severity}: {problem}", file=sys.stderr if definition is None else sys.stdout)
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentodyssey-pz", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    validate = sub.add_parser("validate", help="check a world definition and summarise it")
    validate.add_argument("world", nargs="?", default="default", help="bundled name, folder or JSON file")
    validate.add_argument("--seed", type=int, default=0, help="seed of the world to summarise")
    validate.set_defaults(func=cmd_validate)
    generate = sub.add_parser("generate", help="write a procedural world definition")
    generate.add_argument("preset", choices=["small", "medium", "large"])
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("-o", "--output", help="file to write (default: standard output)")
    generate.set_defaults(func=cmd_generate)
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
