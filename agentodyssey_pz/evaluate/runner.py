"""Running evaluation episodes: policies on agents, seeds per episode, serial or in processes.

Side module (evaluation). Agent `agent_i` is played by policy `i mod k` of the k policies given
(with fewer than k agents the last policies field none: the report leaves them unrated);
episode e is reset with seed `seed + e`, and the policy of agent i is bound with seed
`(seed + e) * POLICY_SEED_STRIDE + i`. Each episode builds a fresh env and fresh policies, so an
episode's outcome depends on its seed alone: a run with `workers > 1` (a ProcessPoolExecutor)
gives exactly the serial run's results, in episode order.

Policies are given by registry name (`agentodyssey_pz.policies.registry`; register your own with
`register_policy`), or from Python as a class or zero-argument factory. With `workers > 1` a class
or factory must be picklable (defined at the top level of a module).

Asynchronous policies (language-model agents, `agentodyssey_pz.llm`): a policy with a coroutine
method `act_async(observation, info)` is awaited, not called. Within a tick the synchronous
policies are called first, in agent order, then every asynchronous one is awaited together on the
episode's event loop (one loop per episode, `asyncio.gather`), at most `max_concurrency` at once
(the largest `max_concurrency` among the episode's asynchronous policies; unbounded when none
says). The actions are then handed to the env in agent order as always, so the outcome never
depends on which answer arrived first. A policy's `step_record()` (when it has one) is logged
under the step's `"llm"` key; a policy's `aclose()` is awaited when the episode ends, and its
`check_server()` is called once before any episode starts (an unreachable server fails there).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.evaluate.diagnostics import episode_diagnostics
from agentodyssey_pz.evaluate.metrics import agent_metrics, score_curve
from agentodyssey_pz.evaluate.trajectory import (
    StepRecorder,
    TrajectoryWriter,
    header_record,
    loggable_action,
    records_by_agent,
)
from agentodyssey_pz.llm.accounting import llm_totals

DEFAULT_POLICIES = ("explorer", "crafter", "fighter", "trader", "quester", "random")
POLICY_SEED_STRIDE = 10_007
# Env settings evaluation always uses: discrete actions, text observations and valid-action lists
# (language-model policies read them; scripted ones ignore them).
BASE_ENV_SETTINGS: dict[str, Any] = {
    "obs_mode": "text",
    "action_mode": "discrete",
    "valid_actions_in_info": True,
}

PolicySpec = Any  # a registry name, a class, or a zero-argument factory


def policy_name(spec: PolicySpec) -> str:
    """The name a policy is reported under."""
    if isinstance(spec, str):
        return spec
    name = getattr(spec, "name", None)
    return name if isinstance(name, str) else getattr(spec, "__name__", type(spec).__name__)


def build_policy(spec: PolicySpec) -> Any:
    """A fresh policy instance for one agent and one episode."""
    if isinstance(spec, str):
        try:
            from agentodyssey_pz.policies.registry import make_policy
        except ImportError as exc:
            raise ConfigError(f"policies: no policy registry to find {spec!r} in ({exc})") from exc
        try:
            return make_policy(spec)
        except ValueError as exc:
            raise ConfigError(f"policies: {exc}") from exc
    if callable(spec):
        return spec()
    raise ConfigError(f"policies: expected a name, a class or a factory, got {spec!r}")


def _positive(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if type(value) is not int or value <= 0:
        raise ConfigError(f"{attribute.name}: expected a positive integer, got {value!r}")


def _non_negative(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    # Seeds derived from it (episode seeds, policy seeds) must be non-negative for numpy.
    if type(value) is not int or value < 0:
        raise ConfigError(f"{attribute.name}: expected a non-negative integer, got {value!r}")


def _agent_count(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    from agentodyssey_pz.engine.config import MAX_AGENTS

    _positive(instance, attribute, value)
    if value > MAX_AGENTS:
        raise ConfigError(f"{attribute.name}: at most {MAX_AGENTS:,} agents, got {value:,}")


# parallel_env settings the evaluation sets from its own fields (the report describes those).
OWN_ENV_SETTINGS = {"world": "world", "num_agents": "num_agents", "max_cycles": "steps"}


def _env_settings(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{attribute.name}: expected a dict of parallel_env settings, got "
                          f"{type(value).__name__}")  # fmt: skip
    owned = [key for key in value if key in OWN_ENV_SETTINGS]
    if owned:
        raise ConfigError(
            f"{attribute.name}: {', '.join(map(repr, owned))} "
            f"{'is' if len(owned) == 1 else 'are'} set by the evaluation itself; use "
            + ", ".join(f"{OWN_ENV_SETTINGS[key]}=..." for key in owned)
        )


def _policies(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not value:
        raise ConfigError(f"{attribute.name}: need at least one policy")


@attrs.frozen
class EvalConfig:
    """One evaluation: world, episodes x steps, agents, policy mix, seeds, processes, logs."""

    world: str = "default"
    episodes: int = attrs.field(default=4, validator=_positive)
    steps: int = attrs.field(default=200, validator=_positive)
    num_agents: int = attrs.field(default=6, validator=_agent_count)
    policies: tuple[PolicySpec, ...] = attrs.field(
        default=DEFAULT_POLICIES, converter=tuple, validator=_policies
    )
    seed: int = attrs.field(default=0, validator=_non_negative)
    workers: int = attrs.field(default=1, validator=_positive)
    trajectory_dir: str | None = None
    # More parallel_env keyword settings (world, agents and steps have their own fields).
    env: Mapping[str, Any] = attrs.field(factory=dict, validator=_env_settings)

    @property
    def agent_ids(self) -> list[str]:
        return [f"agent_{i}" for i in range(self.num_agents)]

    def assignment(self) -> dict[str, PolicySpec]:
        """Agent id -> policy spec (`agent_i` gets policy i mod k)."""
        k = len(self.policies)
        return {agent: self.policies[i % k] for i, agent in enumerate(self.agent_ids)}

    def unplayed(self) -> list[str]:
        """Names of the policies that field no agent (when there are fewer agents than policies),
        in the order given: the report leaves them out of its ratings and table."""
        return self.policy_names()[self.num_agents :]

    def policy_names(self) -> list[str]:
        names = [policy_name(spec) for spec in self.policies]
        if len(set(names)) != len(names):
            raise ConfigError(f"policies: names must be distinct, got {names}")
        return names

    def seeds(self) -> list[int]:
        return [self.seed + e for e in range(self.episodes)]

    def env_settings(self) -> dict[str, Any]:
        """Keyword settings of `parallel_env` for every episode (JSON-compatible)."""
        return {
            "world": self.world,
            "num_agents": self.num_agents,
            "max_cycles": self.steps,
            **BASE_ENV_SETTINGS,
            **dict(self.env),
        }

    def trajectory_path(self, episode: int) -> str | None:
        if self.trajectory_dir is None:
            return None
        return str(Path(self.trajectory_dir) / f"episode-{episode:04d}.jsonl")


def run_episode(
    config: EvalConfig, episode: int, on_tick: Callable[[], None] | None = None
) -> dict[str, Any]:
    """Play one episode; return its per-agent metrics, score curves and timing."""
    from agentodyssey_pz.adapter.parallel import parallel_env

    seed = config.seed + episode
    settings = config.env_settings()
    env = parallel_env(**settings)
    names = {agent: policy_name(spec) for agent, spec in config.assignment().items()}
    policies = {agent: build_policy(spec) for agent, spec in config.assignment().items()}
    observations, infos = env.reset(seed=seed)
    for index, (agent, policy) in enumerate(policies.items()):
        if hasattr(policy, "bind"):
            policy.bind(env, agent, seed * POLICY_SEED_STRIDE + index)
    path = config.trajectory_path(episode)
    writer = TrajectoryWriter(path) if path is not None else None
    extra = llm_header(policies, names)
    header = header_record(episode, seed, config.world, config.steps, names, settings, extra)
    if writer is not None:
        writer.write(header)
    records: list[dict[str, Any]] = []
    clock = {"policy": dict.fromkeys(policies, 0.0), "env": 0.0, "start": time.perf_counter()}
    asynchronous = dict.fromkeys(a for a, policy in policies.items() if is_async_policy(policy))
    loop = asyncio.new_event_loop() if asynchronous else None
    limit = concurrency_limit(policies[agent] for agent in asynchronous)
    try:
        while env.agents:
            raw = {}
            waiting = []
            for agent in env.agents:
                if agent in asynchronous:  # worked out once per episode, not per tick
                    waiting.append(agent)
                    continue
                t0 = time.perf_counter()
                raw[agent] = policies[agent](observations[agent], infos[agent])
                clock["policy"][agent] += time.perf_counter() - t0
            if waiting:
                assert loop is not None
                raw.update(
                    loop.run_until_complete(
                        act_together(policies, waiting, observations, infos, limit, clock)
                    )
                )
            actions = {agent: loggable_action(env, raw[agent]) for agent in env.agents}
            recorder = StepRecorder(env, episode, names, actions)
            t0 = time.perf_counter()
            observations, _, terminations, truncations, infos = env.step(actions)
            clock["env"] += time.perf_counter() - t0
            for record in recorder.records(infos, terminations, truncations):
                step_record = getattr(policies[record["agent"]], "step_record", None)
                llm = step_record() if step_record is not None else None
                if llm is not None:
                    record["llm"] = llm
                records.append(record)
                if writer is not None:
                    writer.write(record)
            if on_tick is not None:
                on_tick()
    finally:
        if writer is not None:
            writer.close()
        env.close()
        if loop is not None:
            try:
                loop.run_until_complete(close_all(policies[agent] for agent in asynchronous))
            finally:
                loop.close()
    result = _episode_result(config, episode, env.num_cycles, path, names, records, clock)
    # Diagnostics replay the episode (`evaluate.diagnostics`), here in the episode's own process
    # so that they exist with or without logs; their time is not the episode's.
    result["diagnostics"] = episode_diagnostics(header, records)
    return result


def is_async_policy(policy: Any) -> bool:
    return asyncio.iscoroutinefunction(getattr(policy, "act_async", None))


def concurrency_limit(policies: Any) -> int | None:
    """The episode's bound on requests in flight: the largest `max_concurrency` of its
    asynchronous policies (read from the policy or its `settings`); None: unbounded."""
    limits = []
    for policy in policies:
        value = getattr(policy, "max_concurrency", None)
        if value is None:
            value = getattr(getattr(policy, "settings", None), "max_concurrency", None)
        if isinstance(value, int) and value > 0:
            limits.append(value)
    return max(limits) if limits else None


async def act_together(
    policies: Mapping[str, Any],
    agents: list[str],
    observations: Mapping[str, Any],
    infos: Mapping[str, Any],
    limit: int | None,
    clock: Mapping[str, Any],
) -> dict[str, Any]:
    """Every waiting agent's action, their requests in flight together (at most `limit`)."""
    gate = asyncio.Semaphore(limit) if limit is not None else None

    async def act(agent: str) -> Any:
        if gate is None:
            return await timed(agent)
        async with gate:
            return await timed(agent)

    async def timed(agent: str) -> Any:
        t0 = time.perf_counter()
        try:
            return await policies[agent].act_async(observations[agent], infos[agent])
        finally:
            clock["policy"][agent] += time.perf_counter() - t0

    answers = await asyncio.gather(*(act(agent) for agent in agents))
    return dict(zip(agents, answers, strict=True))


async def close_all(policies: Any) -> None:
    for policy in policies:
        close = getattr(policy, "aclose", None)
        if close is not None:
            await close()


def llm_header(policies: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The header's `llm` entry: each language-model policy's settings, by policy name."""
    out: dict[str, Any] = {}
    for agent, policy in policies.items():
        settings = getattr(policy, "settings", None)
        if hasattr(settings, "as_dict"):
            out.setdefault(names[agent], settings.as_dict())
    return {"llm": out} if out else {}


def _episode_result(
    config: EvalConfig,
    episode: int,
    ticks: int,
    path: str | None,
    names: Mapping[str, str],
    records: list[dict[str, Any]],
    clock: Mapping[str, Any],
) -> dict[str, Any]:
    seconds = time.perf_counter() - clock["start"]
    per_agent = records_by_agent(records)
    agents: dict[str, Any] = {}
    curves: dict[str, list[int]] = {}
    for agent, name in names.items():
        mine = per_agent.get(agent, [])
        spent = clock["policy"][agent]
        timing = {"policy_seconds": spent, "steps_per_second": len(mine) / max(spent, 1e-9)}
        agents[agent] = {"policy": name, **agent_metrics(mine), "timing": timing}
        llm = llm_totals(mine)
        if llm is not None:
            agents[agent]["llm"] = llm
        curves[agent] = score_curve(mine, config.steps)
    return {
        "episode": episode,
        "seed": config.seed + episode,
        "ticks": ticks,
        "terminated": any(r["flags"]["terminated"] for r in records),
        "trajectory": path,
        "agents": agents,
        "curves": curves,
        "timing": {
            "seconds": seconds,
            "env_seconds": clock["env"],
            "ticks_per_second": ticks / max(seconds, 1e-9),
        },
    }


def check_world_name(world: Any) -> None:
    """Raise ConfigError if a world name or path finds no world (a preset's name gets a hint).
    `procgen:` specs and definition objects are left to the env."""
    from agentodyssey_pz.engine.worldpack import PROCGEN_PREFIX, PUBLISHED_PREFIX, world_file

    if not isinstance(world, str) or world.startswith(PROCGEN_PREFIX):
        return
    if world.startswith(PUBLISHED_PREFIX):  # a published game: known, and a copy to read it from
        from agentodyssey_pz.world.published.games import game_spec
        from agentodyssey_pz.world.published.locate import find_published

        try:
            game_spec(world[len(PUBLISHED_PREFIX) :])
        except KeyError as exc:
            raise ConfigError(f"world: {world!r}: {exc.args[0]}") from None
        find_published()
        return
    try:
        world_file(world)
    except FileNotFoundError as exc:
        raise ConfigError(f"world: {exc}") from exc


def _episode_job(config: EvalConfig, episode: int) -> dict[str, Any]:
    return run_episode(config, episode)


def run_episodes(config: EvalConfig, progress: Any = None) -> list[dict[str, Any]]:
    """Every episode's result, in episode order. `progress` (a tqdm bar or None) counts ticks."""

    def tick() -> None:
        if progress is not None:
            progress.update(1)

    if config.workers == 1 or config.episodes == 1:
        out = []
        for episode in range(config.episodes):
            out.append(run_episode(config, episode, tick if progress is not None else None))
            if progress is not None:  # an episode that ended early still fills its share
                progress.update(config.steps - out[-1]["ticks"])
        return out
    results: dict[int, dict[str, Any]] = {}
    with ProcessPoolExecutor(max_workers=min(config.workers, config.episodes)) as pool:
        futures = {pool.submit(_episode_job, config, e): e for e in range(config.episodes)}
        for future in as_completed(futures):
            result = future.result()
            results[futures[future]] = result
            if progress is not None:
                progress.update(config.steps)
    return [results[e] for e in range(config.episodes)]


def evaluate(config: EvalConfig, *, show_progress: bool = False) -> dict[str, Any]:
    """Run the evaluation and build its report (see `report` for the schema)."""
    from agentodyssey_pz.evaluate.report import build_report

    config.policy_names()  # fail early on clashing names ...
    for spec in config.policies:
        policy = build_policy(spec)  # ... and unknown policies ...
        check = getattr(policy, "check_server", None)
        if check is not None:
            check()  # ... and language-model servers that cannot be reached ...
    check_world_name(config.world)  # ... and worlds that do not exist, before any process starts
    started = time.perf_counter()
    bar = None
    if show_progress:
        from tqdm import tqdm

        bar = tqdm(total=config.episodes * config.steps, unit="tick", desc="evaluating")
    try:
        episodes = run_episodes(config, bar)
    finally:
        if bar is not None:
            bar.close()
    return build_report(config, episodes, time.perf_counter() - started)
