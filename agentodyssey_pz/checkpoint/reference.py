"""Import a checkpoint written by the reference engine, so a run started there continues here.

The reference saves `{step, curr_time, curr_agents_state, scores, world, agents, ...}`
(docs/mechanics/checkpoints.md#continuing-a-reference-run). We build a fresh `Game` for the world
the *user* names, reset it with the record's seed, then overwrite its dynamic state with the
record's. The record is JSON only; its `world_definition_path` is compared, never opened (no world
and no code is ever loaded from a path found in a file). Everything is built and checked before
`install_state`, so a bad record raises `CheckpointError` (with the JSON path) and no game is
half-installed. Quest progress is kept in the reference's own shape, which our data-driven quests
cannot adopt: quests (and the NPCs our quest rules own) stay as the fresh reset made them.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.checkpoint.journal import CheckpointWarning
from agentodyssey_pz.checkpoint.reference_data import (
    MISSING,
    RecordProblem,
    amounts,
    at,
    counts,
    is_a,
    obj,
)
from agentodyssey_pz.checkpoint.reference_world import install_world
from agentodyssey_pz.engine.config import TIME_FORMAT, GameConfig, format_time
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import CheckpointError
from agentodyssey_pz.rules.rewards import COMPONENTS, RewardBreakdown
from agentodyssey_pz.world.agents import AgentState, Engagement
from agentodyssey_pz.world.serialize import world_from_data, world_to_data
from agentodyssey_pz.world.world import World


def import_reference_checkpoint(
    path: str | os.PathLike[str],
    world: Any,
    *,
    from_step: int | None = None,
    agent_ids: list[str] | tuple[str, ...] | None = None,
    config: GameConfig | None = None,
) -> Game:
    """A `Game` on `world` (as `Game` accepts it) in the state of the reference checkpoint."""
    record = read_reference_record(path, from_step)
    try:
        return _import(record, world, agent_ids, config, str(path))
    except RecordProblem as bad:
        raise CheckpointError(f"{path}: {bad}") from None


def read_reference_record(path: str | os.PathLike[str], from_step: int | None = None) -> dict:
    """`.jsonl` -> the last record, or the newest whose `step` is `from_step`."""
    if from_step is not None and type(from_step) is not int:
        raise CheckpointError(f"from_step must be an int, got {from_step!r}")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # -sig: a leading BOM is tolerated
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot read the checkpoint ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise CheckpointError(f"{path}: the checkpoint is not UTF-8 text") from exc
    if not str(path).lower().endswith(".jsonl"):
        record = _parse(text, path, "the document")
        if from_step is not None and not (
            type(record.get("step")) is int and record["step"] == from_step
        ):
            raise CheckpointError(f"{path}: $.step is {record.get('step')!r}, not {from_step}")
        return record
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise CheckpointError(f"{path}: the checkpoint holds no records")
    for number, line in reversed(lines):
        record = _parse(line, path, f"line {number}")
        if from_step is None or (type(record.get("step")) is int and record["step"] == from_step):
            return record
    raise CheckpointError(f"{path}: no record has $.step == {from_step}")


def _parse(text: str, path: Any, where: str) -> dict:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"{path}: {where} is not valid JSON ({exc.msg})") from None
    if not isinstance(record, dict):
        raise CheckpointError(f"{path}: $ ({where}): expected a JSON object")
    return record


def _import(record: dict, world: Any, agent_ids: Any, config: Any, source: str) -> Game:
    agents_raw = at(record, "agents", list, "$")
    if not agents_raw:
        raise RecordProblem("$.agents", "a non-empty list of agent records")
    rec_ids = [
        at(obj(a, f"$.agents[{i}]"), "id", str, f"$.agents[{i}]") for i, a in enumerate(agents_raw)
    ]
    if len(set(rec_ids)) != len(rec_ids):
        raise RecordProblem("$.agents", "distinct agent ids")
    ids = list(agent_ids) if agent_ids is not None else rec_ids
    if len(ids) != len(rec_ids):
        raise RecordProblem(
            "$.agents", f"{len(ids)} agents (as many as agent_ids), got {len(rec_ids)}"
        )
    step = at(record, "step", int, "$")
    if step < -1:  # -1: written by a fresh reset (the bootstrap tick), else steps taken
        raise RecordProblem("$.step", f"an integer >= -1, got {step}")
    seed = at(record, "seed", int, "$", default=None)
    world_rec = at(record, "world", dict, "$")
    tracked = at(record, "curr_agents_state", dict, "$")
    scores_raw = at(record, "scores", dict, "$")
    game = Game(world, ids, _clock_config(record, step, config or GameConfig()))
    game.reset(0 if seed is None else seed)
    _compare_world_name(record, game, source)
    new_world = world_from_data(
        world_to_data(game.world, include_definition=False), game.definition
    )
    install_world(new_world, world_rec)
    agents, scores = {}, {}
    for i, (rec_id, our_id) in enumerate(zip(rec_ids, ids, strict=True)):
        scores[our_id] = _score(scores_raw, rec_id)
        # Starting from the fresh agent keeps its quest progress (our quests restart).
        fresh = game.agents[our_id]
        agents[our_id] = _agent(agents_raw[i], f"$.agents[{i}]", fresh, new_world, game.config)
        _track(agents[our_id], tracked, rec_id, new_world)
        agents[our_id].deaths = scores[our_id].death  # the reference counts deaths only there
    unknown = set(scores_raw) - set(rec_ids)
    if unknown:
        raise RecordProblem(f"$.scores.{sorted(unknown)[0]}", "an agent id listed in $.agents")
    _warn_quests(game, tracked)
    # No step -1 here: our reset already ran the bootstrap tick the reference would replay.
    game.install_state(
        world=new_world,
        agents=agents,
        rng=game.rng,
        seed=game.seed,
        tick_index=max(step, 0),
        terminated=False,
        world_state=game.world_state,
        scores=scores,
    )
    return game


def _clock_config(record: dict, step: int, config: GameConfig) -> GameConfig:
    """Our clock is start_time + ticks x tick_seconds, so the start is derived from curr_time."""
    text = at(record, "curr_time", str, "$")
    try:
        now = dt.datetime.strptime(text, TIME_FORMAT)
        start = now - dt.timedelta(seconds=max(step, 0) * config.tick_seconds)
    except (ValueError, OverflowError):
        expected = f"'YYYY-MM-DD HH:MM:SS' at least {step} ticks after 0001-01-01"
        raise RecordProblem("$.curr_time", f"{expected}, got {text!r}") from None
    return attrs.evolve(config, start_time=format_time(start))


def _compare_world_name(record: dict, game: Game, source: str) -> None:
    """Report (never open) a recorded world path that names another world; area ids decide."""
    recorded = record.get("world_definition_path")
    if not isinstance(recorded, str) or not recorded:
        return
    p = Path(recorded.replace("\\", "/"))
    name = p.parent.name if p.name == "world.json" else p.stem
    if name != game.pack.name:
        warnings.warn(
            f"{source}: recorded for world {recorded!r}, imported into {game.pack.name!r}",
            CheckpointWarning,
            stacklevel=4,
        )


def _agent(raw: Any, path: str, fresh: AgentState, world: World, config: GameConfig) -> AgentState:
    """Body and stats from `Agent.to_dict`; progress is filled in by `_track`."""
    raw = obj(raw, path)
    inv = at(
        at(raw, "inventory", dict, path),
        "container",
        (str, type(None)),
        f"{path}.inventory",
        default=None,
    )
    if inv is not None and inv not in world.containers:
        raise RecordProblem(f"{path}.inventory.container", "a container instance id of the world")
    if at(raw, "xp_per_level", int, path, default=config.xp_per_level) != config.xp_per_level:
        raise RecordProblem(
            f"{path}.xp_per_level", f"{config.xp_per_level} (GameConfig.xp_per_level)"
        )
    stats = {
        k: at(raw, k, int, path) for k in ("max_hp", "hp", "xp", "min_attack", "attack", "defense")
    }
    return attrs.evolve(
        fresh,
        name=at(raw, "name", str, path, default=fresh.name),
        inventory_id=inv,
        hands=counts(world, raw, "items_in_hands", path),
        equipped=counts(world, raw, "equipped_items_in_limb", path),
        level=at(raw, "level", int, path, default=1),
        craft_credit={},
        **stats,
    )


def _track(agent: AgentState, tracked: dict, rec_id: str, world: World) -> None:
    """Map `curr_agents_state` onto the agent's own progress fields."""

    def get(key: str, kind: Any, default: Any = MISSING) -> Any:
        table = at(
            tracked,
            key,
            dict,
            "$.curr_agents_state",
            default=MISSING if default is MISSING else {},
        )
        return at(table, rec_id, kind, f"$.curr_agents_state.{key}", default=default)

    def ids(key: str, known: Any) -> list[str]:
        values = get(key, list)
        for i, v in enumerate(values):
            if not isinstance(v, str) or (known is not None and not known(v)):
                raise RecordProblem(
                    f"$.curr_agents_state.{key}.{rec_id}[{i}]", "a known id of this world"
                )
        return values

    agent.area_id = get("area", str)
    if agent.area_id not in world.areas:
        raise RecordProblem(f"$.curr_agents_state.area.{rec_id}", "an area id of this world")
    agent.visited = dict.fromkeys(ids("areas_visited", world.areas.__contains__))
    defined = world.objects.__contains__
    agent.crafted = amounts(get("objects_crafted", dict), defined, f"objects_crafted.{rec_id}")
    agent.traded = amounts(get("objects_traded", dict), defined, f"objects_traded.{rec_id}")
    killed = ids("npcs_killed", None)
    agent.kills, agent.killed = len(killed), dict(Counter(killed))
    agent.unique_kills = dict.fromkeys(ids("unique_npcs_killed", None))
    agent.acquired = dict.fromkeys(ids("objects_acquired", lambda o: world.find_def(o)))
    agent.tutorial_passed = get("tutorial_passed", bool, agent.tutorial_passed)
    agent.tutorial_stage = get("tutorial_stage", int, 0)
    agent.defending = get("agent_defending", bool, False)
    agent.stamina = float(get("agent_stamina", (int, float), 1.0))
    agent.consecutive_attacks = get("agent_consecutive_attacks", int, 0)
    agent.combats = {}
    for nid, fight in get("active_combats", dict, {}).items():
        path = f"$.curr_agents_state.active_combats.{rec_id}.{nid}"
        area = at(fight, "area_id", str, path)
        if nid not in world.npcs or area not in world.areas:
            raise RecordProblem(path, "an NPC id and an area_id of this world")
        agent.combats[nid] = Engagement(at(fight, "rhythm_index", int, path), area)


def _score(scores: dict, rec_id: str) -> RewardBreakdown:
    """Accumulated fields (docs/mechanics/rewards.md#scores); an agent never scored has none."""
    parts = at(scores, rec_id, dict, "$.scores", default={})
    for name, value in parts.items():
        if name not in COMPONENTS or not is_a(value, int):
            raise RecordProblem(
                f"$.scores.{rec_id}.{name}", f"an integer field of {list(COMPONENTS)}"
            )
    return RewardBreakdown(**parts)


def _warn_quests(game: Game, tracked: dict) -> None:
    recorded = any(  # the reference's quest keys hold a non-empty value
        v
        for k, table in tracked.items()
        if k.startswith(("main_quest", "side_quest")) and isinstance(table, dict)
        for v in table.values()
    )
    if recorded or game.is_enabled("main_quest") or game.is_enabled("side_quest"):
        warnings.warn(
            "reference quest progress cannot be mapped onto this game's quests: quests start fresh",
            CheckpointWarning,
            stacklevel=4,
        )
