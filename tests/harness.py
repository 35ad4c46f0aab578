"""Building small game states and acting in them, for rule tests.

`act` runs one command through the action-rule engine only (no step rules), so a test sees exactly
what the verb did. `state_of` gives the whole game state as data, to assert that a failing command
left everything untouched. The `check_*` functions are the assertions several verbs' tests share:
a refused command changes nothing, and `valid_params` agrees exactly with what `apply` accepts.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs
import pytest

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import game_state_data
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import ParseFailure
from agentodyssey_pz.world.agents import AgentState, Engagement, add_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc

DATA = Path(__file__).parent / "data"
TINY = DATA / "tiny_world.json"
# The base pack's step rules in the order they must run, (priority, name):
# docs/mechanics/step-rules.md#order-of-the-step-rules.
SPEC_STEP_ORDER = [
    (1, "agent_attack_update_step"),
    (1, "tutorial_room_step"),
    (2, "combat_rhythm_step"),
    (2, "main_quest_step"),
    (3, "side_quest_step"),
    (5, "new_craftable_feedback_step"),
    (6, "active_attack_step"),
    (7, "death_and_respawn_step"),
    (100, "world_expansion_step"),
]
# Tiny-world definitions a crate holds (coin, material, product, key, weapon, armour, writable).
STORABLE = ["obj_coin", "obj_pear", "obj_cider", "obj_key", "obj_pruner", "obj_apron", "obj_label"]
AMOUNTS = ["0", "1", "2", "3", "4", "x"]  # amount parameters tried by the sampled exactness checks


# ----------------------------------------------------------------------------- games and stages
def make_game(world: Any = TINY, agents: int = 1, seed: int = 0, **config: Any) -> Game:
    """A reset game (bootstrap tick done). Extra keywords are GameConfig fields."""
    game = Game(world, agents, GameConfig(**config))
    game.reset(seed)
    return game


def clear_world(game: Game) -> None:
    """Empty every ground and take every NPC off the map: a blank stage for a rule test."""
    for area in game.world.areas.values():
        area.objects.clear()
        for npc_id in list(area.npcs):
            game.world.remove_npc_from_map(npc_id)


def blank_game(
    world: Any = TINY,
    agents: int = 1,
    seed: int = 0,
    at: str | None = None,
    tracking: bool = False,
    **config: Any,
) -> Game:
    """A cleared game (`make_game` + `clear_world`), every agent moved to `at` if given, and
    tracking events switched on if asked."""
    game = make_game(world, agents, seed, **config)
    clear_world(game)
    if at is not None:
        for agent_id in game.agents:
            move_to(game, agent_id, at)
    if tracking:
        game.tracker = True
    return game


def restage(game: Game, seed: int) -> random.Random:
    """Reset a reused game (which skips loading the rule packs again) to a blank stage; returns the
    generator that builds random stage number `seed` on it."""
    game.reset(0)
    clear_world(game)
    return random.Random(seed)


def agent(game: Game, agent_id: str = "agent_0") -> AgentState:
    return game.agents[agent_id]


def give(game: Game, agent_id: str, def_id: str, count: int = 1) -> list[str]:
    """Put units of a definition in an agent's hands (instances for containers/writables).

    Returns the ids placed."""
    placed = game.world.materialise(def_id, count)
    for oid, n in placed:
        add_count(game.agents[agent_id].hands, oid, n)
    return [oid for oid, _ in placed]


def put_on_ground(game: Game, area_id: str, def_id: str, count: int = 1) -> list[str]:
    return [oid for oid, _ in game.world.spawn_on_ground(area_id, def_id, count)]


def name_of(game: Game, object_id: str) -> str:
    return game.world.name_of(object_id)


def move_to(game: Game, agent_id: str, area_id: str) -> None:
    game.move_agent(game.agents[agent_id], area_id)


def spawn_npc(game: Game, proto_id: str, area_id: str, level: int = 1, **overrides: Any) -> Npc:
    """A fresh NPC instance of a prototype in an area (next instance index for non-unique ones)."""
    world = game.world
    proto = world.npc_protos[proto_id]
    index = None if proto.unique else world.npc_count.get(proto_id, 0)
    if index is not None:
        world.npc_count[proto_id] = index + 1
    npc = create_npc(world, proto, index, level, random.Random(0), SynthesisOptions())
    for key, value in overrides.items():
        setattr(npc, key, value)
    world.add_npc(npc, area_id)
    return npc


def engaged_wasp(
    game: Game, area_id: str, engaged_in: str | None = None, rhythm_index: int = 0, **overrides: Any
) -> Npc:
    """A wasp in `area_id` that agent_0 is in combat with (engaged in `engaged_in`, by default
    the wasp's area)."""
    npc = spawn_npc(game, "npc_wasp", area_id, **overrides)
    agent(game).combats[npc.id] = Engagement(rhythm_index, engaged_in or area_id)
    return npc


def set_value(game: Game, def_id: str, value: int | None) -> None:
    """Give a plain definition another value (validation refuses negative values in files)."""
    world = game.world
    world.add_object_def(attrs.evolve(world.objects[def_id], value=value))


# ----------------------------------------------------------------------------- containers
def fill(game: Game, cid: str, contents: dict[str, int] | None) -> list[str]:
    """Put contents in a container: n units of a plain definition (n may be 0, leaving a zero
    entry), n new instances of a writable or container definition, or an existing instance id as
    it is. Returns the ids put."""
    world, put = game.world, []
    for oid, n in (contents or {}).items():
        obj = world.objects.get(oid)
        if obj is not None and obj.is_instanced:
            for _ in range(n):
                put.append(world.new_instance(oid))
                world.containers[cid].items[put[-1]] = 1
        else:
            world.containers[cid].items[oid] = n
            put.append(oid)
    return put


def equip_inventory(
    game: Game, contents: dict[str, int] | None = None, agent_id: str = "agent_0"
) -> str:
    """Equip a fresh crate as the agent's inventory, holding `contents` (see `fill`); its id."""
    cid = game.world.new_instance("obj_crate")
    body = game.agents[agent_id]
    body.equipped[cid] = 1
    body.inventory_id = cid
    fill(game, cid, contents)
    return cid


def hold_crate(
    game: Game, contents: dict[str, int] | None = None, agent_id: str = "agent_0"
) -> str:
    """Put a fresh crate holding `contents` in the agent's hands; its id."""
    [cid] = give(game, agent_id, "obj_crate")
    fill(game, cid, contents)
    return cid


def crate_on_ground(game: Game, area_id: str, contents: dict[str, int] | None = None) -> str:
    [cid] = put_on_ground(game, area_id, "obj_crate")
    fill(game, cid, contents)
    return cid


def crate_in_reach(
    game: Game, where: str, contents: dict[str, int] | None = None, agent_id: str = "agent_0"
) -> str:
    """A crate holding `contents` in the agent's reach: lying where it stands (`ground`), in its
    hands (`held`) or equipped as its inventory (`equipped`); its id."""
    if where == "ground":
        return crate_on_ground(game, game.agents[agent_id].area_id, contents)
    if where == "held":
        return hold_crate(game, contents, agent_id)
    assert where == "equipped", where
    return equip_inventory(game, contents, agent_id)


def detach_inventory(game: Game, agent_id: str = "agent_0") -> None:
    """Take the equipped inventory away (it is left nowhere)."""
    body = game.agents[agent_id]
    del body.equipped[body.inventory_id]
    body.inventory_id = None


def container_base(game: Game) -> dict[str, str]:
    """The failure-table stage of `discard` and `take out`: an inventory with 2 pear and a label
    instance; a quill in hand; a crate with 1 cider at the gate; a crate with 1 key in the rows.
    Returns the names (`inv`, `ground`, `far`, `label`) and the inventory's id (`inv_id`)."""
    inv = equip_inventory(game, {"obj_pear": 2})
    [label] = fill(game, inv, {"obj_label": 1})
    give(game, "agent_0", "obj_quill")
    ground = crate_on_ground(game, "area_gate", {"obj_cider": 1})
    far = crate_on_ground(game, "area_rows", {"obj_key": 1})
    return {
        "inv": name_of(game, inv),
        "inv_id": inv,
        "ground": name_of(game, ground),
        "far": name_of(game, far),
        "label": name_of(game, label),
    }


def random_contents(rng: random.Random, kinds: list[str] = STORABLE) -> dict[str, int]:
    """Up to four of `kinds`, one to four units each."""
    return {d: rng.randint(1, 4) for d in rng.sample(kinds, rng.randint(0, 4))}


def random_container_stage(game: Game, seed: int, held_counts: tuple[int, ...] = (0, 1, 2)) -> Game:
    """Random stage `seed` for the container verbs on a reused game: agent_0 at the gate or in the
    rows holding `rng.choice(held_counts)` things (crates filled at random), crates lying here,
    maybe an inventory, two units of something loose, and a crate in the vats."""
    rng = restage(game, seed)
    here = rng.choice(["area_gate", "area_rows"])
    move_to(game, "agent_0", here)
    for _ in range(rng.choice(held_counts)):
        [oid] = give(game, "agent_0", rng.choice(["obj_crate", "obj_pear", "obj_label"]))
        if oid in game.world.containers:
            fill(game, oid, random_contents(rng))
    for _ in range(rng.randint(0, 2)):
        crate_on_ground(game, here, random_contents(rng))
    if rng.random() < 0.6:
        equip_inventory(game, random_contents(rng))
    put_on_ground(game, here, rng.choice(STORABLE), 2)
    crate_on_ground(game, "area_vats", random_contents(rng))
    return game


# ----------------------------------------------------------------------------- acting and looking
def act(game: Game, agent_id: str, command: Any, tracking: bool | None = None) -> RuleResult:
    """Run one command for one agent through the action rules only; returns the RuleResult.

    Tracking events are on when the game has a tracker, or when `tracking` says so."""
    from agentodyssey_pz.engine.tick import resolve_command

    tracking = game.tracker is not None if tracking is None else tracking
    res = RuleResult(game.agent_ids, tracking=tracking)
    parsed = resolve_command(game, command)
    if isinstance(parsed, ParseFailure):
        game.engine.reject(agent_id, command, parsed, res)
        return res
    body = game.agents[agent_id]
    if game.hooks.forcing:  # a lost turn: any other command is not played (docs/rule-packs.md)
        forced = game.forced_turn(body)
        if forced is not None and parsed != forced[1]:
            return res
    ctx = RuleContext(game, game.world, body, parsed.verb, parsed.params, game.tick_index)
    game.engine.dispatch(ctx, res)
    return res


def valid_params(
    game: Game, verb: str, agent_id: str = "agent_0", **options: Any
) -> list[tuple[str, ...]]:
    """What the verb's rule lists for the agent now (options such as `all_amounts` passed on)."""
    ctx = RuleContext(game, game.world, game.agents[agent_id], verb, (), game.tick_index)
    return game.engine.rules[verb].valid_params(ctx, **options)


def events(res: RuleResult) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in res.events]


def main_events(res: RuleResult) -> list[tuple[str, dict]]:
    """The events without the dependency-tracking ones (`track.*`)."""
    return [(e.type, e.data) for e in res.events if not e.type.startswith("track.")]


def loc(kind: str, ident: str) -> dict[str, str]:
    """A place as tracking events name it (`src`, `dst`)."""
    return {"kind": kind, "id": ident}


def state_of(game: Game) -> dict[str, Any]:
    """The whole game state as plain data (deep copy)."""
    return copy.deepcopy(game_state_data(game))


def fingerprint(game: Game) -> str:
    """A cheap picture of what a verb can change (agents, grounds, containers, writables, NPCs)."""
    world = game.world
    return repr(
        (
            [attrs.asdict(a) for a in game.agents.values()],
            {a.id: a.objects for a in world.areas.values()},
            {c.id: c.items for c in world.containers.values()},
            sorted(world.writables),
            {n.id: (n.coins, n.inventory, n.area_id) for n in world.npcs.values()},
        )
    )


def run_steps(game: Game) -> RuleResult:
    """Run only the step rules once (as the step phase of a tick would), without advancing time."""
    from agentodyssey_pz.engine.tick import run_step_rules

    res = RuleResult(game.agent_ids, tracking=game.tracker is not None)
    run_step_rules(game, res)
    return res


def step_rule(game: Game, name: str) -> Any:
    """The game's step-rule instance with that name."""
    return next(rule for rule in game.step_rules if rule.name == name)


def run_step(game: Game, name: str, res: RuleResult | None = None) -> RuleResult:
    """Run one step rule alone (writing into `res` when given, e.g. one holding a kill)."""
    if res is None:
        res = RuleResult(game.agent_ids, tracking=game.tracker is not None)
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    step_rule(game, name).apply(ctx, res)
    return res


SIGMAS = 4.5  # a correct rule falls outside with probability < 1e-5 (fixed seeds: deterministic)


def within(hits: int, trials: int, p: float, sigmas: float = SIGMAS) -> bool:
    """`hits` of `trials` draws is a rate `p` up to `sigmas` standard deviations."""
    sd = (p * (1 - p) / trials) ** 0.5
    return abs(hits / trials - p) <= sigmas * sd


def stage_fixtures(make: Callable[[], Game], stage: Callable[[Game], Game]) -> tuple[Any, Any]:
    """The two fixtures of a pack's rule tests on a published game, assigned in the test module
    as `shared, game = stage_fixtures(new_game, stage)` (those names: `game` asks for `shared`):
    `shared` is one game per module, made by `make()` from the user's copy of AgentOdyssey (the
    `published` fixture skips without one); `game` is that game staged afresh by `stage` for
    each test."""

    @pytest.fixture(scope="module")
    def shared(published: Any) -> Game:
        return make()

    @pytest.fixture
    def game(shared: Game) -> Game:
        return stage(shared)

    return shared, game


# ----------------------------------------------------------------------------- shared checks
def check_refused(game: Game, command: Any, key: str, agent_id: str = "agent_0") -> RuleResult:
    """The command fails softly with exactly `key` (not invalid), emits nothing, changes nothing."""
    before = state_of(game)
    res = act(game, agent_id, command)
    assert res.feedback_keys(agent_id) == [key]
    assert res.action_ok[agent_id] is False
    assert res.invalid[agent_id] is False
    assert res.events == []
    assert state_of(game) == before
    return res


def check_valid_params_exact(
    verb: str,
    build_state: Callable[[int, Game], Game],
    seeds: Iterable[int],
    names: Callable[[Game], Iterable[str]],
    phrase: str | None = None,
) -> int:
    """For a verb taking one name, over random stages `build_state(seed, game)`: each listed tuple
    is unique and succeeds on a fresh copy of the stage; every other name of `names(stage)` fails
    (soft, not invalid) and leaves the stage as it was. `phrase` is the command's surface verb if
    it is not the rule id. Returns how many tuples were listed in all."""
    command = phrase or verb
    main, scratch = make_game(), make_game()
    listed_total = 0
    for seed in seeds:
        game = build_state(seed, main)
        listed = valid_params(game, verb)
        assert len(listed) == len(set(listed)), seed
        listed_total += len(listed)
        for params in listed:
            res = act(build_state(seed, scratch), "agent_0", (command, list(params)))
            assert res.action_ok["agent_0"], (seed, params)
        before = state_of(game)
        for params in sorted({(n,) for n in names(game)} - set(listed)):
            res = act(game, "agent_0", (command, list(params)))
            assert not res.action_ok["agent_0"] and not res.invalid["agent_0"], (seed, params)
        assert state_of(game) == before, seed
    return listed_total


def check_valid_params_sampled(
    verb: str,
    stage: Callable[[int], Game],
    seeds: Iterable[int],
    candidates: Callable[[Game, random.Random, int], list[tuple[str, ...]]],
    tries: int,
    clamp_keys: frozenset[str] = frozenset(),
    near_share: float = 0.0,
    by_definition: bool = False,
    amounts: bool = True,
    reuse_after_failure: bool = False,
) -> tuple[int, int]:
    """For a verb whose unlisted tuples are too many to try them all, over random stages
    `stage(seed)`: each listed tuple is unique and succeeds, with exactly its amount;
    `all_amounts=False` lists the amount-1 tuples (if `amounts`). Other tuples - `tries`
    candidates and, with `near_share`, listed ones with the amount raised by one - fail with one
    feedback line and no event, or succeed only as `_check_clamped` allows. A failure leaves the
    `fingerprint` as it was, a success changes it. Every try gets a freshly built stage; with
    `reuse_after_failure`, only the first and a try after a success do (a failure was just shown
    to leave the stage as it was). Returns (tuples tried, tuples listed)."""
    checked = listed_total = 0
    for seed in seeds:
        game: Game | None = stage(seed)
        listed = _listed(verb, game, amounts)
        listed_total += len(listed)
        rng = random.Random(1000 + seed)
        # `near_share and` keeps the generator untouched when no near misses are asked for.
        near = [
            (str(int(t[0]) + 1), *t[1:]) for t in listed if near_share and rng.random() < near_share
        ]
        # Listing (above) and naming candidates must not change the stage either: every try is
        # compared with the stage as it is after them.
        tuples, before = [*listed, *near, *candidates(game, rng, tries)], fingerprint(game)
        for params in tuples:
            if game is None or not reuse_after_failure:
                game = stage(seed)
            res = act(game, "agent_0", (verb, params))
            ok = res.action_ok["agent_0"]
            assert not res.invalid["agent_0"], (seed, params)
            if params in listed:
                assert ok, (seed, params, res.feedback)
                if amounts:
                    assert res.events[-1].data["amount"] == int(params[0]), (seed, params)
            elif ok:
                _check_clamped(game, res, params, listed, clamp_keys, by_definition, seed)
            else:
                assert res.events == [] and len(res.feedback_keys("agent_0")) == 1, (seed, params)
            assert (fingerprint(game) != before) == ok, (seed, params)
            game = None if ok else game
            checked += 1
    return checked, listed_total


def _listed(verb: str, game: Game, amounts: bool) -> list[tuple[str, ...]]:
    """What the verb lists: no tuple twice, and the amount-1 ones alone when not all amounts are
    asked for."""
    listed = valid_params(game, verb)
    assert len(set(listed)) == len(listed), listed
    if amounts:
        ones = [t for t in listed if t[0] == "1"]
        assert valid_params(game, verb, all_amounts=False) == ones, listed
    return listed


def _check_clamped(
    game: Game,
    res: RuleResult,
    params: tuple[str, ...],
    listed: list[tuple[str, ...]],
    clamp_keys: frozenset[str],
    by_definition: bool,
    seed: int,
) -> None:
    """An unlisted tuple that succeeded did what a listed tuple does: its amount was clamped (a
    key of `clamp_keys`), or - `by_definition` verbs make a definition's units - it named an
    instance, which stands for its definition."""
    world, data = game.world, res.events[-1].data
    clamped = bool(clamp_keys & set(res.feedback_keys("agent_0")))
    if by_definition:
        by_instance = world.is_instance(world.obj_name_to_id.get(params[1], ""))
        assert clamped or by_instance, (seed, params)
        done = (str(data["amount"]), world.objects[data["obj_id"]].name, *params[2:])
    else:
        assert clamped, (seed, params)
        done = (str(data["amount"]), *params[1:])
    assert done in listed, (seed, params, done)


# ----------------------------------------------------------------------------- candidates
def near_names(game: Game, far_area: str) -> list[str]:
    """Names of everything in agent_0's reach (and inside), of what lies in `far_area` (and
    inside), and `inventory`."""
    world, body = game.world, agent(game)
    ids = [
        *body.hands,
        *body.equipped,
        *world.areas[body.area_id].objects,
        *world.areas[far_area].objects,
    ]
    for cid in list(ids):
        if cid in world.containers:
            ids += world.containers[cid].items
    return [world.name_of(oid) for oid in dict.fromkeys(ids)] + ["inventory"]


def container_candidates(
    game: Game, rng: random.Random, k: int, far_area: str, amounts: bool = True
) -> list[tuple[str, ...]]:
    """Plausible (amount,) object, container tuples: names mostly from `near_names`, sometimes any
    name in the world (NPCs and areas included)."""
    world, near = game.world, near_names(game, far_area)
    everything = [
        *world.obj_name_to_id,
        *(a.name for a in world.areas.values()),
        *world.npc_name_to_id,
    ]

    def pick() -> str:
        return rng.choice(near if rng.random() < 0.7 else everything)

    if amounts:
        return [(rng.choice(AMOUNTS), pick(), pick()) for _ in range(k)]
    return [(pick(), pick()) for _ in range(k)]


def trade_candidates(game: Game, rng: random.Random, k: int) -> list[tuple[str, ...]]:
    """Plausible trade tuples: any amount 0..4, any object/container name, any NPC or area name."""
    world = game.world
    objects = [*world.obj_name_to_id, "inventory", "ghost"]
    npcs = [*world.npc_name_to_id, *(a.name for a in world.areas.values())]
    return [(rng.choice(AMOUNTS), rng.choice(objects), rng.choice(npcs)) for _ in range(k)]
