"""Snapshots: the whole state of a game as one JSON document, written atomically, and read back.

Layer: engine. A snapshot carries the format version, a fingerprint of what the game was built from
(the effective world definition, its quest data and the agent ids), the game's settings and the full
state (world, agents, every generator's state, clock, scores, world_state). Loading refuses another
format version or another world, and never executes or unpickles anything: JSON through cattrs only.
Code (rule packs) is loaded only from paths the caller names, never from a path found in a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cattrs

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.state import canonical_json, game_state_data
from agentodyssey_pz.errors import (
    CheckpointError,
    ConfigError,
    DataError,
    Problems,
    RuleCodeWarning,
)
from agentodyssey_pz.rules.rewards import COMPONENTS, RewardBreakdown
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.rng import rng_from_data
from agentodyssey_pz.world.schema import definition_to_dict
from agentodyssey_pz.world.serialize import agent_dangling_references, world_from_data
from agentodyssey_pz.world.strict_json import json_type_name, strict_converter
from agentodyssey_pz.world.validate import parse_json_text, structure_record

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

FORMAT = "agentodyssey-snapshot"
VERSION = 1
DIGEST_KEY = "sha256"  # the last key of a snapshot (snapshots from before it have none)
_CONVERTER = strict_converter()  # an edited snapshot's "3" or 1 for a name or a flag is refused
# Per game, what `_constants` worked out (kept off the Game itself: one attribute more there would
# cost every tick, see `tests/test_attribute_layout.py`).
_CONSTANTS: weakref.WeakKeyDictionary[Game, dict[str, Any]] = weakref.WeakKeyDictionary()


def fingerprint(game: Game) -> str:
    """What a game was built from: its effective definition, quest data and agent ids."""
    return _constants(game)["fingerprint"]


def _constants(game: Game) -> dict[str, Any]:
    """The parts of a snapshot that never change during a game, computed once per game: the
    fingerprint, and the snapshot's JSON text up to where the state begins."""
    cached = _CONSTANTS.get(game)
    if cached is None:
        basis = {
            "definition": definition_to_dict(game.definition),
            "quests": game.pack.quest_data,
            "agents": list(game.agent_ids),
        }
        digest = hashlib.sha256(canonical_json(basis).encode("utf-8")).hexdigest()
        envelope = {
            "format": FORMAT,
            "version": VERSION,
            "fingerprint": digest,
            "world_source": game.pack.source,
            "world_name": game.pack.name,
            # The world folder's own pack: bundled packs are named in the definition's features,
            # so they load in any install; the config's extra packs are in "config".
            "world_rule_packs": _folder_packs(game.pack),
            "rule_code": pack_digests(game),  # to tell a resume that a pack has changed since
            "agent_ids": list(game.agent_ids),
            "config": _CONVERTER.unstructure(game.config),  # frozen: fixed for the game's life
            "quest_data": game.pack.quest_data,
            "definition": definition_to_dict(game.pack.definition),
        }
        head = json.dumps(envelope, ensure_ascii=False)
        cached = {"fingerprint": digest, "head": head[:-1] + ', "state": '}
        _CONSTANTS[game] = cached
    return cached


def snapshot_text(game: Game) -> str:
    """The snapshot as one JSON document: the envelope (format, version, fingerprint, world,
    agents, settings, quest data, definition - serialised once per game), the state, and last the
    SHA-256 of everything before it (`check_digest`)."""
    game.check_not_stopped(saving=True)
    state = json.dumps(game_state_data(game, include_definition=False), ensure_ascii=False)
    body = _constants(game)["head"] + state + "}"
    return f'{body[:-1]}, "{DIGEST_KEY}": "{_sha256(body)}"}}'


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_digest(data: dict[str, Any], source: str) -> None:
    """Refuse a snapshot whose contents differ from its digest: a damaged disk or copy, or an
    edit, is caught before anything is read from it. The digest is of the document without it,
    as `snapshot_text` writes it, which re-serialising the parsed document reproduces exactly
    (whatever escaping or spacing a copy used). A snapshot without one (deleted by whoever edited
    the file on purpose) is read unverified."""
    saved = data.pop(DIGEST_KEY, None)
    if saved is None:
        return
    if saved != _sha256(json.dumps(data, ensure_ascii=False)):
        raise CheckpointError(
            f"{source}: the snapshot does not match its SHA-256 digest: it is corrupt or was "
            f'edited (to load a snapshot edited on purpose, delete its "{DIGEST_KEY}" key)'
        )


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write via a temporary file in the same folder: write, fsync, rename. A reader sees the old
    file or the new one, never half of one. Raw descriptor calls: one write of the whole text."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some systems cannot open folders; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save(game: Game, path: str | os.PathLike[str]) -> None:
    write_atomically(path, snapshot_text(game))


# A game's state nests deeper than a world file (world -> areas -> objects -> ...); a generous
# bound, still far below what makes json.loads recurse out.
SNAPSHOT_MAX_DEPTH = 200


def read_snapshot(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Parse and check a snapshot file's envelope; CheckpointError says precisely what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot read the snapshot ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise CheckpointError(f"{path}: the snapshot is not UTF-8 text") from exc
    try:
        data = parse_json_text(text, SNAPSHOT_MAX_DEPTH)
    except ValueError as exc:  # a syntax error, a number too long, nesting too deep
        raise CheckpointError(
            f"{path}: the snapshot cannot be read: {exc}; truncated or corrupt"
        ) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{path}: not an agentodyssey snapshot")
    if data.get("version") != VERSION:
        raise CheckpointError(
            f"{path}: snapshot format version {data.get('version')!r} is not supported "
            f"(this version reads {VERSION})"
        )
    check_digest(data, str(path))
    for key in ("fingerprint", "agent_ids", "config", "state", "definition"):
        if key not in data:
            raise CheckpointError(f"{path}: the snapshot lacks '{key}'")
    return data


def config_of(data: dict[str, Any]) -> GameConfig:
    try:
        return _CONVERTER.structure(data["config"], GameConfig)
    except (cattrs.BaseValidationError, TypeError, ValueError, DataError) as exc:
        raise CheckpointError(f"the snapshot's settings are invalid: {exc}") from exc


def _agents_from(records: Any) -> dict[str, AgentState]:
    """The saved agents by id, each field type-checked and named when wrong."""
    if not isinstance(records, list):
        raise ValueError(f"'agents' must be a list, got {json_type_name(records)}")
    problems = Problems()
    agents = {}
    for i, record in enumerate(records):
        agent = structure_record(record, AgentState, f"agents[{i}]", problems, _CONVERTER)
        if agent is not None:
            agents[agent.id] = agent
    if problems.errors:
        raise ValueError("; ".join(f"{p.path}: {p.message}" for p in problems.errors))
    return agents


def restore(game: Game, data: dict[str, Any], *, source: str = "snapshot") -> None:
    """Put a game into the saved state. The game must be built from the same world and agents."""
    if data["fingerprint"] != fingerprint(game):
        raise CheckpointError(
            f"{source}: this checkpoint belongs to another world definition, quest data or set of "
            f"agents (saved from {data.get('world_source') or data.get('world_name')!r})"
        )
    state = data["state"]
    try:
        world = world_from_data(state["world"], game.definition)
        agents = _agents_from(state["agents"])
        rng = rng_from_data(state["rng"])
        scores = {aid: _score(aid, parts) for aid, parts in state["scores"].items()}
        seed, tick_index = _whole_number(state, "seed"), _whole_number(state, "tick_index")
        if type(state["terminated"]) is not bool:
            raise ValueError(f"'terminated' must be true or false, got {state['terminated']!r}")
    except (
        DataError, cattrs.BaseValidationError, AttributeError, KeyError, TypeError, ValueError
    ) as exc:  # fmt: skip
        detail = (  # cattrs' own text names only the class; this names the field
            "; ".join(cattrs.transform_error(exc))
            if isinstance(exc, cattrs.BaseValidationError)
            else str(exc)
        )
        raise CheckpointError(f"{source}: the saved state is malformed: {detail}") from exc
    if list(agents) != list(game.agent_ids) or set(scores) != set(game.agent_ids):
        raise CheckpointError(f"{source}: the saved agents differ from this game's agents")
    problems = [
        f"{p.path}: {p.message}"
        for agent in agents.values()
        for p in agent_dangling_references(world, agent)
    ]
    problems += [p for rule in game.step_rules for p in rule.check_saved_state(world, agents)]
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CheckpointError(
            f"{source}: the saved state is malformed: {'; '.join(problems[:3])}{more}"
        )
    game.install_state(
        world=world,
        agents=agents,
        rng=rng,
        seed=seed,
        tick_index=tick_index,
        terminated=state["terminated"],
        world_state=state["world_state"],
        scores=scores,
    )


def _score(agent_id: str, parts: Any) -> RewardBreakdown:
    """An agent's saved running score: every component, each a whole number."""
    if not isinstance(parts, dict) or set(parts) != set(COMPONENTS):
        raise ValueError(f"scores.{agent_id}: expected the components {', '.join(COMPONENTS)}")
    for name, value in parts.items():
        if type(value) is not int:
            raise ValueError(f"scores.{agent_id}.{name}: expected a whole number, got {value!r}")
    return RewardBreakdown(**parts)


def _whole_number(state: dict[str, Any], key: str) -> int:
    value = state[key]
    if type(value) is not int:
        raise ValueError(f"'{key}' must be a whole number, got {value!r}")
    return value


def trusted_world(data: dict[str, Any], source: str) -> Any:
    """The world to rebuild a saved game from, without loading code a file points at: a bundled
    world or a procedural preset by name, else the definition stored in the snapshot."""
    from agentodyssey_pz.engine.worldpack import PROCGEN_PREFIX, WorldPack, bundled_packs
    from agentodyssey_pz.resources import bundled_world_names
    from agentodyssey_pz.world.schema import CONVERTER, WorldDefinition

    name = data.get("world_source") or ""
    bundled = data.get("world_name")
    if isinstance(name, str) and name.startswith(PROCGEN_PREFIX):
        return name
    if bundled in bundled_world_names() and _is_bundled_source(name, bundled):
        return bundled
    try:
        definition = CONVERTER.structure(data["definition"], WorldDefinition)
        bundled_rules = bundled_packs(definition)  # by name only: the package's own packs
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError, ConfigError) as exc:
        raise CheckpointError(f"{source}: the saved world definition is malformed: {exc}") from exc
    saved_packs = data.get("world_rule_packs", [])
    if not isinstance(saved_packs, list) or not all(isinstance(p, str) for p in saved_packs):
        raise CheckpointError(f"{source}: world_rule_packs: expected a list of folder paths")
    own_packs = [p for p in saved_packs if p]
    if own_packs:
        raise CheckpointError(
            f"{source}: the world had its own rule pack ({own_packs[0]}); pass world=<its folder> "
            "to load it"
        )
    return WorldPack(
        definition,
        name=str(bundled or "saved"),
        source=name or None,
        quest_data=data.get("quest_data"),
        rule_packs=bundled_rules,
    )


def pack_digests(game: Game) -> dict[str, str]:
    """The code digest of each rule pack the game runs from a folder outside this package."""
    from agentodyssey_pz.resources import rules_dir

    ours = rules_dir().resolve()
    rule_set = game.rule_set
    return {
        path: digest
        for path, digest in zip(rule_set.packs, rule_set.digests, strict=True)
        if not Path(path).is_relative_to(ours)
    }


def warn_of_changed_packs(game: Game, data: dict[str, Any], source: str) -> None:
    """Warn when a pack's code differs from the code the snapshot was saved with (same folder)."""
    saved = data.get("rule_code")
    if not isinstance(saved, dict):
        return  # an older snapshot: nothing to compare with
    changed = [p for p, digest in pack_digests(game).items() if saved.get(p, digest) != digest]
    if changed:
        warnings.warn(
            f"{source}: the code of rule pack {', '.join(changed)} has changed since this "
            "checkpoint was saved; the game loads, but replaying its journal may not reproduce "
            "the saved run",
            RuleCodeWarning,
            stacklevel=3,
        )


def _folder_packs(pack: Any) -> list[str]:
    """The rule packs a world brings from its own folder (not the bundled ones it names)."""
    from agentodyssey_pz.engine.worldpack import bundled_packs

    bundled = set(bundled_packs(pack.definition))
    return [str(p) for p in pack.rule_packs if str(p) not in bundled]


def _is_bundled_source(source: str, name: str) -> bool:
    from agentodyssey_pz.resources import resolve_world_file

    try:
        return str(resolve_world_file(name)) == source
    except FileNotFoundError:
        return False
