"""The `agentodyssey-pz` command line: one sub-command per job.

Sits on top of every layer. Each sub-command is a small function taking parsed arguments and
returning an exit status. User mistakes never show a traceback: a flag's value out of range is
refused by argparse, naming the flag (status 2); what a command finds wrong later prints one
`error: ...` line naming the flag or path (status 1).

Language-model policies in `evaluate`: the name `llm` in `--policies` is a policy speaking to an
OpenAI-compatible server, configured by the `--llm-*` flags (`--llm-model` is required, e.g.
`--policies llm,random --llm-base-url http://127.0.0.1:8080/v1 --llm-model smollm2`).
`--agents-config FILE` (TOML or JSON) names several language-model policies with their own
settings, usable in `--policies` by name (without `--policies`, the file's policies are played):

    [defaults]                       # optional, under every policy's own table
    base_url = "http://127.0.0.1:8080/v1"
    model = "smollm2"

    [policies.smol-window]
    memory = "window:5"

    [policies.smol-none]
    memory = "none"
    temperature = 0.0

The keys are `agentodyssey_pz.llm.LLMSettings` fields; the `--llm-*` flags lie under `[defaults]`
(`agentodyssey_pz.llm.agents_config`). A server that cannot be reached fails before the first
episode with one line; one that fails mid-episode makes its agents wait, the reason logged.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agentodyssey_pz.cli_types import (
    LAYOUT_SEED,
    NON_NEGATIVE,
    POSITIVE,
    SEED,
    file_to_write,
    rule_pack_folder,
)
from agentodyssey_pz.errors import AgentOdysseyError, DataError
from agentodyssey_pz.evaluate.report import counted

WORLD_HELP = (
    "bundled name, folder, JSON file, procgen:<preset>[:<seed>], or agentodyssey:<game> (one of "
    "AgentOdyssey's published games: see `agentodyssey-pz games`)"
)


def cmd_validate(args: argparse.Namespace) -> int:
    from agentodyssey_pz.engine.worldpack import check_world
    from agentodyssey_pz.world.summary import format_summary, summarize

    # Everything loading the world for play checks: its definition, its quest data and the
    # default quest sections it pulls in. Problems in another file than the world's name it.
    report = check_world(args.world)
    path, definition = report.file, report.definition
    for source, problem in report.problems:
        where = "" if source == str(path) else f"{source}: "
        print(
            f"{problem.severity}: {where}{problem}",
            file=sys.stderr if definition is None else sys.stdout,
        )
    if definition is None:
        print(f"{path}: {len(report.errors)} error(s); the world cannot be loaded", file=sys.stderr)
        return 1
    print(f"{path}: valid")
    print(format_summary(summarize(definition, args.seed)))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """AgentOdyssey's seven published games: where they were found and what of each is played."""
    from agentodyssey_pz.world.published.games import GAMES, PREFIX
    from agentodyssey_pz.world.published.locate import find_published

    copy = find_published(args.home)
    print(f"AgentOdyssey's games, read from {copy.origin}")
    changed = copy.changed_files()
    if changed:
        print(f"warning: {len(changed)} file(s) differ from version 0.1.0: {', '.join(changed)}")
    for spec in GAMES.values():
        found = "found" if copy.has(spec.world_file) else "MISSING"
        print(f"\n{PREFIX}{spec.name}  ({found}: {spec.world_file})")
        played = [
            "world"
            + (f" (synthesis variant '{spec.synthesis}')" if spec.synthesis != "base" else ""),
            "main quest" if spec.main_quest else None,
            "tutorial and side quests where the game has them",
            f"rule packs {', '.join(spec.rule_packs)}" if spec.rule_packs else None,
            "darkness" if spec.darkness else None,
        ]
        print("  plays: " + "; ".join(p for p in played if p))
        if spec.missing:
            print("  not yet: " + "; ".join(spec.missing))
        else:
            print("  fully supported: everything the game has is played")
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
    with random valid actions (journaling into the same folder). With `--reference`, continue a
    reference-engine checkpoint file instead (journaling into `--checkpoint-dir`, if given)."""
    import random

    from agentodyssey_pz.checkpoint import CheckpointWriter, import_reference_checkpoint, resume
    from agentodyssey_pz.observe.masks import valid_actions

    check_reference_flags(args)
    if args.reference:
        world = args.world or "default"
        game = import_reference_checkpoint(args.folder, world, from_step=args.from_step)
        if args.checkpoint_dir is not None:
            CheckpointWriter(game, args.checkpoint_dir, args.snapshot_every)
    else:
        check_checkpoint_folder(Path(args.folder))
        game = resume(
            args.folder, args.world, rule_packs=args.rule_pack, snapshot_every=args.snapshot_every
        )
    print(
        f"resumed {args.folder} at tick {game.tick_index} ({game.time_text}), "
        f"{counted(len(game.agent_ids), 'agent')}{' - episode over' if game.terminated else ''}"
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
        parts = [f"{k} {v}" for k, v in score.components().items() if v]
        print(f"{agent_id}: " + ", ".join([f"score_total {score.score_total}", *parts]))
    print(f"now at tick {game.tick_index}")
    return 0


def check_reference_flags(args: argparse.Namespace) -> None:
    """Refuse the flags that only a reference checkpoint reads, rather than ignore them."""
    from agentodyssey_pz.errors import ConfigError

    if args.reference:
        return
    for flag, value in (("--from-step", args.from_step), ("--checkpoint-dir", args.checkpoint_dir)):
        if value is not None:
            raise ConfigError(f"{flag}: only applies with --reference")


def check_checkpoint_folder(folder: Path) -> None:
    """Refuse a folder that does not exist, and point a checkpoint root (what
    `parallel_env(checkpoint_dir=...)` was given) at the episode folders it holds."""
    from agentodyssey_pz.errors import ConfigError

    if not folder.exists():
        raise ConfigError(f"{folder}: the folder does not exist")
    if not folder.is_dir():
        raise ConfigError(
            f"{folder}: not a folder (a reference-engine checkpoint? add --reference)"
        )
    episodes = sorted(p for p in folder.glob("episode-*") if p.is_dir())
    if episodes and not any(folder.glob("snapshot-*.json")):
        raise ConfigError(
            f"{folder}: holds no snapshot but {counted(len(episodes), 'episode folder')} "
            f"({episodes[0].name} to {episodes[-1].name}); resume one of them, e.g. {episodes[-1]}"
        )


# A ConfigError names the setting ("seed: ..."); on the command line, name the option.
EVALUATE_OPTIONS = {
    "world": "--world",
    "episodes": "--episodes",
    "steps": "--steps",
    "max_cycles": "--steps",
    "num_agents": "--agents",
    "policies": "--policies",
    "seed": "--seed",
    "workers": "--workers",
    "rule_packs": "--rule-pack",
}


# `play` hands its flags to parallel_env and the policy registry, whose errors name their own.
PLAY_OPTIONS = {
    "world": "--world",
    "num_agents": "--agents",
    "max_cycles": "--steps",
    "policies": "--others",
    "seed": "--seed",
    "rule_packs": "--rule-pack",
}


def option_named(
    exc: AgentOdysseyError, options: Mapping[str, str] = EVALUATE_OPTIONS
) -> AgentOdysseyError:
    from agentodyssey_pz.errors import ConfigError

    setting, colon, rest = str(exc).partition(": ")
    if colon and setting in options:
        return ConfigError(f"{options[setting]}: {rest}")
    return exc


def check_output_folder(folder: Path) -> None:
    """Refuse, before any episode runs, an output folder that cannot be made or written."""
    from agentodyssey_pz.errors import ConfigError

    nearest = folder
    try:
        while not nearest.exists() and nearest.parent != nearest:
            nearest = nearest.parent
    except OSError as exc:
        raise ConfigError(f"--output: cannot use {str(folder)!r}: {exc}") from exc
    if not nearest.is_dir():
        raise ConfigError(
            f"--output: {str(folder)!r} exists and is not a folder"
            if nearest == folder
            else f"--output: cannot create {str(folder)!r}: {str(nearest)!r} is not a folder"
        )
    if not os.access(nearest, os.W_OK | os.X_OK):
        raise ConfigError(f"--output: cannot write in {str(nearest)!r} (permission denied)")


PLOT_FORMATS = ("png", "svg")
TRAJECTORY_FOLDER = "trajectories"  # under --output


def check_writable_file(path: Path, option: str) -> None:
    """Refuse, before any episode runs, an existing output file that cannot be replaced (opened
    for appending and closed at once: its content and time stamp stay as they are)."""
    from agentodyssey_pz.errors import ConfigError

    if not path.exists():
        return
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        raise ConfigError(f"{option}: cannot replace {str(path)!r}: {exc.strerror}") from exc


def stale_results(out: Path, logged_episodes: int, plot: str) -> list[Path]:
    """What an earlier evaluation left in the output folder that this one will not overwrite:
    trajectory logs beyond this run's `logged_episodes` and score plots of another format."""
    stale = [out / f"scores.{fmt}" for fmt in PLOT_FORMATS if fmt != plot]
    trajectory_dir = out / TRAJECTORY_FOLDER
    if trajectory_dir.is_dir():
        for log in trajectory_dir.glob("episode-*.jsonl"):
            number = log.name[len("episode-") : -len(".jsonl")]
            if not number.isdigit() or int(number) >= logged_episodes:
                stale.append(log)
    return sorted(path for path in stale if path.is_file())


def cmd_evaluate(args: argparse.Namespace) -> int:
    """Run the evaluation; print the table; write the report, trajectory logs and plot."""
    from agentodyssey_pz.errors import ConfigError
    from agentodyssey_pz.evaluate import (
        PLOT_UNAVAILABLE,
        EvalConfig,
        evaluate,
        format_table,
        plot_scores,
        validate,
    )

    out = Path(args.output)
    policies = llm_policy_specs(args)
    try:
        config = EvalConfig(
            world=args.world,
            episodes=args.episodes,
            steps=args.steps,
            num_agents=args.agents,
            policies=policies,
            seed=args.seed,
            workers=args.workers,
            trajectory_dir=None if args.no_trajectories else str(out / TRAJECTORY_FOLDER),
            env={"rule_packs": list(args.rule_pack)} if args.rule_pack else {},
        )
    except ConfigError as exc:
        raise option_named(exc) from exc
    trajectory_dir = Path(config.trajectory_dir) if config.trajectory_dir is not None else None
    report_path = out / "report.json"
    check_output_folder(out)
    if trajectory_dir is not None:
        check_output_folder(trajectory_dir)
    check_writable_file(report_path, "--output")
    if args.plot != "none":
        check_writable_file(out / f"scores.{args.plot}", "--output")
    show_progress = not args.quiet and sys.stderr.isatty()
    try:
        report = evaluate(config, show_progress=show_progress)
    except ConfigError as exc:
        raise option_named(exc) from exc
    problems = validate(report)
    if problems:  # a bug, not a user mistake: say so loudly
        raise AssertionError("the report breaks its schema: " + "; ".join(problems[:5]))
    # Files first, then the table: a closed stdout (`| head`) must not cost the results.
    out.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    stale = stale_results(out, config.episodes if trajectory_dir else 0, args.plot)
    for path in stale:  # an earlier run's files must not pass for this run's
        path.unlink()
    written = plot_scores(report, out / f"scores.{args.plot}") if args.plot != "none" else None
    pages = evaluation_pages(out, trajectory_dir, viewer=not args.no_viewer)
    print(format_table(report))
    print(f"\nreport: {report_path}")
    if stale:
        print(f"removed {len(stale)} file(s) an earlier evaluation left in {out} "
              f"(e.g. {stale[0].name})")  # fmt: skip
    if trajectory_dir is not None:
        print(f"trajectories: {trajectory_dir}/episode-*.jsonl")
    if args.plot != "none":
        print(f"plot: {written}" if written is not None else PLOT_UNAVAILABLE)
    if pages:
        more = f" ({counted(len(pages), 'page')})" if len(pages) > 1 else ""
        print(f"viewer: {pages[0]}{more}")
    return 0


def evaluation_pages(out: Path, trajectory_dir: Path | None, *, viewer: bool) -> list[Path]:
    """The replay viewer's pages of an evaluation (`viewer/` under its output folder), one per
    logged episode; an earlier run's pages that this one does not rewrite are removed."""
    from agentodyssey_pz.viewer.build import VIEWER_FOLDER, remove_stale_pages, write_pages

    pages = write_pages(out) if viewer and trajectory_dir is not None else []
    remove_stale_pages(out / VIEWER_FOLDER, pages)
    return pages


def cmd_view(args: argparse.Namespace) -> int:
    """Write the replay viewer's page(s) of a run and print where."""
    from agentodyssey_pz.viewer.build import write_pages

    pages = write_pages(
        args.run,
        args.output,
        max_bytes=int(args.max_page_mb * 1_000_000),
        world=args.world,
        rule_packs=args.rule_pack,
    )
    for page in pages:
        print(page)
    if len(pages) > 1 and any(".part" in p.name for p in pages):
        print(f"note: a run too big for one page ({args.max_page_mb:g} MB) is split in parts")
    return 0


def add_view_parser(sub: argparse._SubParsersAction) -> None:
    view = sub.add_parser(
        "view",
        help="write a replay viewer page (one self-contained HTML file) for each episode of a run",
    )
    view.add_argument(
        "run",
        metavar="RUN",
        help="an evaluation's output folder, a trajectory log (episode-*.jsonl), or a checkpoint "
        "episode folder (snapshot-*.json, journal-*.jsonl)",
    )
    view.add_argument(
        "-o",
        "--output",
        default=None,
        help="the HTML file to write (a folder for a run of several episodes); default: an "
        "evaluation's viewer/ folder, beside a log, or beside a checkpoint folder",
    )
    view.add_argument(
        "--max-page-mb",
        type=megabytes,
        default=4.0,
        help="split an episode whose page would be bigger into parts",
    )
    view.add_argument(
        "--world", default=None, help="a checkpoint's world, if not bundled (its folder or file)"
    )
    add_rule_pack_option(view)
    view.set_defaults(func=cmd_view)


def megabytes(text: str) -> float:
    """An argparse type: a page size in MB, above 0.01 and finite."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of megabytes, got {text!r}") from None
    if not 0.01 < value < float("inf"):  # NaN fails too
        raise argparse.ArgumentTypeError(f"expected a size above 0.01 MB, got {text!r}")
    return value


# --llm-* flag -> LLMSettings field (what `evaluate` passes on when the flag is given)
LLM_FLAGS = {
    "base_url": "--llm-base-url",
    "model": "--llm-model",
    "api_key_env": "--llm-api-key-env",
    "temperature": "--llm-temperature",
    "top_p": "--llm-top-p",
    "max_tokens": "--llm-max-tokens",
    "seed": "--llm-seed",
    "timeout": "--llm-timeout",
    "max_retries": "--llm-max-retries",
    "max_concurrency": "--llm-max-concurrency",
    "memory": "--llm-memory",
    "context_tokens": "--llm-context-tokens",
    "response_format": "--llm-response-format",
    "prompt_style": "--llm-prompt-style",
    "price_input": "--llm-price-input",
    "price_output": "--llm-price-output",
    "token_budget": "--llm-token-budget",
    "cost_budget": "--llm-cost-budget",
}


def llm_flag_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The LLMSettings fields the command line sets (flags left out keep the defaults)."""
    given = {field: getattr(args, "llm_" + field) for field in LLM_FLAGS}
    out = {field: value for field, value in given.items() if value is not None}
    if args.llm_no_valid_actions:
        out["show_valid_actions"] = False
    if args.llm_no_reask:
        out["reask_on_format_error"] = False
    return out


def llm_policy_specs(args: argparse.Namespace) -> list[Any]:
    """--policies as EvalConfig specs: registry names, `llm` (from the --llm-* flags) and the
    policies of --agents-config (factories)."""
    from agentodyssey_pz.errors import ConfigError
    from agentodyssey_pz.evaluate.runner import DEFAULT_POLICIES
    from agentodyssey_pz.llm.agents_config import load_agents_config
    from agentodyssey_pz.llm.policy import LLMPolicyFactory
    from agentodyssey_pz.llm.settings import LLMSettings
    from agentodyssey_pz.policies.registry import policy_names

    flags = llm_flag_settings(args)
    configured: dict[str, Any] = {}
    if args.agents_config is not None:
        try:
            configured = load_agents_config(args.agents_config, flags, tuple(policy_names()))
        except ConfigError as exc:
            raise ConfigError(f"--agents-config {exc}") from None
    names = [p.strip() for p in args.policies.split(",") if p.strip()]
    if configured and names == list(DEFAULT_POLICIES):  # --policies left at its default
        names = list(configured)
    specs: list[Any] = []
    for name in names:
        if name in configured:
            specs.append(configured[name])
        elif name == "llm":
            if "model" not in flags:
                raise ConfigError("--llm-model: the llm policy needs a model name")
            try:
                specs.append(LLMPolicyFactory("llm", LLMSettings(**flags)))
            except ConfigError as exc:
                setting, _, rest = str(exc).partition(": ")
                raise ConfigError(f"{LLM_FLAGS.get(setting, setting)}: {rest}") from None
        else:
            specs.append(name)
    return specs


def cmd_map(args: argparse.Namespace) -> int:
    """Write an SVG map of a world (optionally where the agents stand at a tick of a log)."""
    from agentodyssey_pz.observe.map_svg import write_map

    if args.trajectory is not None:
        from agentodyssey_pz.evaluate.trajectory import read_trajectory, state_at

        header, _ = read_trajectory(args.trajectory)
        for name, given, logged in (
            ("world", args.world, header["world"]),
            ("seed", args.seed, header["seed"]),
        ):
            if given is not None and given != logged:
                raise ValueError(f"the {name} given ({given}) is not the log's ({logged})")
        game = state_at(args.trajectory, args.tick).game
        path = write_map(
            game,
            args.output,
            seed=args.layout_seed,
            title=f"{header['world']}, seed {header['seed']}, tick {args.tick}",
        )
    else:
        from agentodyssey_pz.engine.game import Game

        if args.tick:
            raise ValueError("--tick needs --trajectory")
        world = args.world or "default"
        seed = 0 if args.seed is None else args.seed
        game = Game(world, 1)
        game.reset(seed)
        path = write_map(
            game,
            args.output,
            seed=args.layout_seed,
            show_agents=False,
            title=f"{world}, seed {seed}",
        )
    print(f"wrote {path} ({counted(len(game.world.areas), 'area')})")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from agentodyssey_pz.errors import ConfigError
    from agentodyssey_pz.play import play

    try:
        play(
            args.world,
            args.agents,
            args.others,
            args.seed,
            steps=args.steps,
            history_file=args.history,
            rule_packs=args.rule_pack,
        )
    except ConfigError as exc:
        raise option_named(exc, PLAY_OPTIONS) from exc
    return 0


AUDIT_OPTIONS = {
    "world": "--world",
    "num_agents": "--agents",
    "tutorial": "--tutorial",
    "rule_packs": "--rule-pack",
}


def cmd_audit(args: argparse.Namespace) -> int:
    """Check that the world's rules keep the env's promises; status 1 when one is broken."""
    from agentodyssey_pz.audit import audit
    from agentodyssey_pz.errors import ConfigError

    bar = None
    if not args.quiet and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=args.ticks, unit="tick", desc="auditing")
    try:
        report = audit(
            args.world,
            agents=args.agents,
            ticks=args.ticks,
            states=args.states,
            seed=args.seed,
            tutorial={"on": True, "off": False, "world": None}[args.tutorial],
            rule_packs=args.rule_pack,
            resume_ticks=args.resume_ticks,
            other_process=not args.no_other_process,
            progress=None if bar is None else lambda _: bar.update(),
        )
    except ConfigError as exc:
        raise option_named(exc, AUDIT_OPTIONS) from exc
    finally:
        if bar is not None:
            bar.close()
    print(report.text())
    return 0 if report.ok else 1


def cmd_diagnose(args: argparse.Namespace) -> int:
    """AgentOdyssey's diagnostics and challenge aggregate of trajectory logs."""
    from agentodyssey_pz.evaluate.diagnostics import diagnose_logs, format_diagnosis

    result = diagnose_logs(args.logs, replay=not args.no_replay)
    print(json.dumps(result, indent=2) if args.json else format_diagnosis(result))
    return 0


def add_diagnose_parser(sub: argparse._SubParsersAction) -> None:
    diagnose = sub.add_parser(
        "diagnose",
        help="AgentOdyssey's diagnostics (exploration, diversity, invalid actions, format errors, "
        "tokens) and challenge aggregate of trajectory logs",
    )
    diagnose.add_argument(
        "logs", nargs="+", metavar="LOGS", help="trajectory logs, or folders of episode-*.jsonl"
    )
    diagnose.add_argument("--json", action="store_true", help="print JSON instead of tables")
    diagnose.add_argument(
        "--no-replay",
        action="store_true",
        help="do not play the logs again (faster; no object exploration, no tutorial steps)",
    )
    diagnose.set_defaults(func=cmd_diagnose)


class DefaultsShown(argparse.HelpFormatter):
    """Each option's help ends with its default, unless it has none to show (None, a flag's False,
    an empty list) or says it already."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text, default = action.help or "", action.default
        if default is None or default is False or default == [] or default == argparse.SUPPRESS:
            return action.help
        return action.help if "default" in text else f"{text} (default: %(default)s)"


def add_rule_pack_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rule-pack",
        action="append",
        type=rule_pack_folder,
        default=[],
        metavar="FOLDER",
        help="a rule pack folder to play with (repeatable; later packs override earlier ones)",
    )


def add_evaluate_parser(sub: argparse._SubParsersAction) -> None:
    from agentodyssey_pz.evaluate.runner import DEFAULT_POLICIES

    evaluate = sub.add_parser(
        "evaluate",
        help="run policies against each other over seeded episodes and rate them (the default)",
    )
    evaluate.add_argument("--world", default="default", help=WORLD_HELP)
    evaluate.add_argument("--episodes", type=int, default=4, help="episodes to play")
    evaluate.add_argument("--steps", type=int, default=200, help="ticks per episode")
    evaluate.add_argument("--agents", type=int, default=6, help="agents per episode")
    evaluate.add_argument(
        "--policies",
        default=",".join(DEFAULT_POLICIES),
        help="comma-separated policy names (agent_i plays policy i mod k); 'llm' is a "
        "language-model policy set by the --llm-* flags; left at its default with "
        "--agents-config, the file's policies are played",
    )
    evaluate.add_argument("--seed", type=SEED, default=0, help="episode e is played with seed+e")
    evaluate.add_argument("--workers", type=int, default=1, help="processes, same results")
    evaluate.add_argument(
        "-o",
        "--output",
        default="evaluation",
        help="folder for report, logs, plot and viewer pages",
    )
    evaluate.add_argument(
        "--no-trajectories", action="store_true", help="write no logs (and so no viewer pages)"
    )
    evaluate.add_argument(
        "--no-viewer",
        action="store_true",
        help="write no replay viewer pages (viewer/episode-*.html; `agentodyssey-pz view`)",
    )
    evaluate.add_argument(
        "--plot", choices=[*PLOT_FORMATS, "none"], default="png", help="score plot format"
    )
    evaluate.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rule_pack_option(evaluate)
    add_llm_options(evaluate)
    evaluate.set_defaults(func=cmd_evaluate)


AGENTS_CONFIG_HELP = """a TOML (.toml) or JSON file naming language-model policies, each with its
own settings: [defaults] (optional; any LLMSettings field) and one [policies.<name>] table per
policy (e.g. memory = "window:5"); the names go in --policies. The --llm-* flags lie under
[defaults]."""


def add_llm_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "language-model policies",
        "the 'llm' policy of --policies speaks to an OpenAI-compatible chat-completions server "
        '(pip install "agentodyssey_pz[llm]"); unset flags keep the defaults of LLMSettings',
    )
    group.add_argument("--agents-config", metavar="FILE", default=None, help=AGENTS_CONFIG_HELP)
    add = group.add_argument
    add("--llm-base-url", metavar="URL", help="server URL, e.g. http://127.0.0.1:8080/v1")
    add("--llm-model", metavar="NAME", help="model name (required for 'llm')")
    add("--llm-api-key-env", metavar="VAR", help="variable holding the API key (OPENAI_API_KEY)")
    add("--llm-temperature", type=float, metavar="T", help="sampling temperature")
    add("--llm-top-p", type=float, metavar="P", help="nucleus sampling")
    add("--llm-max-tokens", type=int, metavar="N", help="answer length limit (256)")
    add("--llm-seed", type=int, metavar="N", help="sampling seed sent with each request")
    add("--llm-timeout", type=float, metavar="S", help="seconds per request (60)")
    add("--llm-max-retries", type=int, metavar="N", help="retries with backoff (2)")
    add("--llm-max-concurrency", type=int, metavar="N", help="requests in flight per tick (16)")
    add("--llm-memory", metavar="MODE", help="none, full, window:K or summary[:K] (window:8)")
    add("--llm-context-tokens", type=int, metavar="N", help="prompt budget in tokens (8192)")
    add("--llm-response-format", choices=["json_object", "json_schema"], help="constrained output")
    add("--llm-prompt-style", choices=["native", "reference"], help="prompt style (native)")
    add("--llm-price-input", type=float, metavar="USD", help="price per million input tokens")
    add("--llm-price-output", type=float, metavar="USD", help="price per million output tokens")
    add("--llm-token-budget", type=int, metavar="N", help="tokens per agent and episode")
    add("--llm-cost-budget", type=float, metavar="USD", help="cost per agent and episode")
    add("--llm-no-valid-actions", action="store_true", help="do not list the valid commands")
    add("--llm-no-reask", action="store_true", help="wait on a format error, do not re-ask")


def add_map_parser(sub: argparse._SubParsersAction) -> None:
    map_ = sub.add_parser("map", help="write an SVG map of a world's area graph")
    map_.add_argument("world", nargs="?", default=None, help=WORLD_HELP)
    map_.add_argument("--seed", type=SEED, default=None, help="world seed (default: 0)")
    map_.add_argument("--trajectory", help="a trajectory log: draw its world and agents")
    map_.add_argument("--tick", type=NON_NEGATIVE, default=0, help="the log's tick to draw")
    map_.add_argument(
        "--layout-seed", type=LAYOUT_SEED, default=0, help="seed of the node layout, 0 to 2**32-1"
    )
    map_.add_argument("-o", "--output", default="map.svg", help="SVG file to write")
    map_.set_defaults(func=cmd_map)


def add_play_parser(sub: argparse._SubParsersAction) -> None:
    play = sub.add_parser("play", help="play agent_0 yourself in the terminal")
    play.add_argument("--world", default="default", help=WORLD_HELP)
    play.add_argument("--agents", type=int, default=2, help="agents, you included")
    play.add_argument(
        "--others",
        default="random",
        help="the one policy every other agent plays: random, wait, explorer, ...",
    )
    play.add_argument("--seed", type=SEED, default=0, help="episode seed")
    play.add_argument("--steps", type=int, default=1000, help="ticks before the episode ends")
    play.add_argument(
        "--history", type=file_to_write, default=None, help="readline history file to load and save"
    )
    add_rule_pack_option(play)
    play.set_defaults(func=cmd_play)


def add_resume_parser(sub: argparse._SubParsersAction) -> None:
    resume = sub.add_parser("resume", help="continue a journaled game from its checkpoint folder")
    resume.add_argument("folder", help="a checkpoint folder (snapshot-*.json and journal-*.jsonl)")
    resume.add_argument(
        "--world", default=None, help="the world, if not bundled (its folder or file)"
    )
    resume.add_argument(
        "--ticks",
        type=NON_NEGATIVE,
        default=0,
        help="play on this many ticks (random valid actions)",
    )
    resume.add_argument("--seed", type=SEED, default=0, help="seed of the random actions")
    resume.add_argument(
        "--snapshot-every", type=POSITIVE, default=100, help="snapshot interval when playing on"
    )
    resume.add_argument(
        "--reference",
        action="store_true",
        help="FOLDER is a reference-engine checkpoint file (.json or .jsonl) for --world",
    )
    resume.add_argument(
        "--from-step", type=int, default=None, help="with --reference: the .jsonl record's step"
    )
    resume.add_argument(
        "--checkpoint-dir", default=None, help="with --reference: journal into this folder"
    )
    add_rule_pack_option(resume)
    resume.set_defaults(func=cmd_resume)


def add_audit_parser(sub: argparse._SubParsersAction) -> None:
    audit = sub.add_parser(
        "audit",
        help="check that a world's rule packs keep the env's promises (exact masks, listed "
        "commands that take effect, kept listings equal to fresh ones, replay, resume)",
    )
    audit.add_argument("--world", default="default", help=WORLD_HELP)
    audit.add_argument("--agents", type=POSITIVE, default=3, help="agents on the random walk")
    audit.add_argument("--ticks", type=POSITIVE, default=500, help="ticks of the random walk")
    audit.add_argument(
        "--states", type=NON_NEGATIVE, default=30, help="ticks at which actions are tried on copies"
    )
    audit.add_argument(
        "--resume-ticks",
        type=NON_NEGATIVE,
        default=50,
        help="ticks a game loaded from a snapshot of the last state plays beside the original",
    )
    audit.add_argument(
        "--no-other-process",
        action="store_true",
        help="do not play the walk again in another process (other string hashes)",
    )
    audit.add_argument("--seed", type=SEED, default=0, help="seed of the world and the walk")
    audit.add_argument(
        "--tutorial",
        choices=["world", "on", "off"],
        default="world",
        help="the tutorial room: as the world says, or on or off",
    )
    audit.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rule_pack_option(audit)
    audit.set_defaults(func=cmd_audit)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentodyssey-pz", description=__doc__.splitlines()[0])
    with_defaults = functools.partial(argparse.ArgumentParser, formatter_class=DefaultsShown)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=with_defaults)
    validate = sub.add_parser("validate", help="check a world definition and summarise it")
    validate.add_argument("world", nargs="?", default="default", help=WORLD_HELP)
    validate.add_argument("--seed", type=SEED, default=0, help="seed of the world to summarise")
    validate.set_defaults(func=cmd_validate)
    generate = sub.add_parser("generate", help="write a procedural world definition")
    generate.add_argument("preset", choices=["small", "medium", "large"])
    generate.add_argument("--seed", type=SEED, default=0, help="world seed")
    generate.add_argument("-o", "--output", help="file to write (default: standard output)")
    generate.set_defaults(func=cmd_generate)
    games = sub.add_parser(
        "games", help="list AgentOdyssey's published games and what of each is played"
    )
    games.add_argument(
        "--home",
        default=None,
        help="a copy of AgentOdyssey (default: $AGENTODYSSEY_HOME, else "
        "the installed agentodyssey package)",
    )
    games.set_defaults(func=cmd_games)
    add_resume_parser(sub)
    add_evaluate_parser(sub)
    add_map_parser(sub)
    add_play_parser(sub)
    add_audit_parser(sub)
    add_diagnose_parser(sub)
    add_view_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # No sub-command (nothing, or options only): the evaluation, e.g. `agentodyssey-pz --workers 2`.
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["evaluate", *argv]
    args = build_parser().parse_args(argv)
    shown = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not as a traceback at exit
        return status
    except BrokenPipeError:
        # The reader of standard output went away (`agentodyssey-pz generate small | head`):
        # stop quietly, with the status of a tool killed by SIGPIPE. Output still buffered goes
        # to devnull (the Python docs' recipe, "Note on SIGPIPE").
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # no real file descriptor (e.g. a test's capture)
            pass
        return 141
    except DataError as exc:
        print(exc, file=sys.stderr)
        return 1
    except (AgentOdysseyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a file or folder the command cannot read or write
        where = f"{exc.filename}: " if exc.filename is not None else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        warnings.showwarning = shown


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:  # fmt: skip
    """A warning as a command-line user reads it: `warning: ...`, without the source line of
    the package that raised it."""
    print(f"warning: {message}", file=sys.stderr if file is None else file)


if __name__ == "__main__":
    sys.exit(main())
