"""The action mask is exact: with the other agents sending "wait", every unmasked index is taken
(`infos[agent]["action_ok"]` True) and every masked one is refused (False). For an agent in the
dark (gloomwell, tests/data/worlds/gloomwell) the promise holds one way: unmasked indices are taken,
masked ones may be too (acting blind; docs/rule-packs.md#listings-in-the-dark).

States come from masked random walks of three agents on every bundled world, with the world's
default tutorial setting (random agents work through much of the tutorial, which has them write
and use a bag in hand) and without it (the open world). Two sweeps:

- Full path (`test_every_index_tried_through_the_env`): at sampled states the whole env is
  snapshotted (`adapter.rollouts.snapshot`: Game, cached per-agent commands, encoder) and restored
  before each try, and each try is a real `env.step` with the others waiting. Every unmasked index
  and a sample of masked ones are tried.
- Broad (`test_masks_hold_over_thousands_of_states`): at every state of long walks, one random
  unmasked index is stepped through the env (the others waiting) and must be taken, and a sample of
  masked indices is run through the action rules alone (`harness.act`) on the live game and must be
  refused. A refused action changes nothing (checked by state hash every few states), so no restore
  is needed and thousands of states stay cheap.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import numpy as np
import pytest
from adapter.rollouts import first_difference, random_actions, record_step, restore, snapshot
from harness import act, give
from worlds_helper import bundled_worlds

import agentodyssey_pz
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.observe.masks import resolve_entry
from agentodyssey_pz.rules.base import IN_HAND
from agentodyssey_pz.world.darkness import in_darkness

WORLDS = bundled_worlds()
DARK_WORLD = str(Path(__file__).resolve().parents[1] / "data" / "worlds" / "gloomwell")
TUTORIAL = pytest.mark.parametrize(
    "tutorial", [None, False], ids=["default-tutorial", "no-tutorial"]
)
AGENTS = 3
MASKED_SAMPLE = 30
FULL_PATH_STATES = 25  # per world and tutorial setting: ~40 restored env steps each
BROAD_STATES = 1500  # per world and tutorial setting
HASH_EVERY = 25  # broad sweep: check that refused actions left the state untouched


def make_env(world: str, tutorial: bool | None):
    return agentodyssey_pz.parallel_env(
        world=world, num_agents=AGENTS, tutorial=tutorial, max_cycles=10**6
    )


def seed_of(world: str, tutorial: bool | None) -> int:
    return (WORLDS.index(world) if world in WORLDS else len(WORLDS)) * 2 + (tutorial is None)


def in_the_dark(env, actor: str) -> bool:
    return in_darkness(env.game.world, env.game.agents[actor])


def masked_sample(rng: np.random.Generator, mask: np.ndarray) -> list[int]:
    masked = np.flatnonzero(mask == 0)
    return [int(i) for i in rng.choice(masked, size=min(MASKED_SAMPLE, len(masked)), replace=False)]


def others_wait(env, actor: str, action: object) -> dict[str, object]:
    actions: dict[str, object] = dict.fromkeys(env.possible_agents, "wait")
    actions[actor] = action
    return actions


# ---------------------------------------------------------------------------- restoring states
def test_a_restored_env_continues_exactly_like_the_original() -> None:
    """The snapshot used below is sound: restored copies replay the original's continuation."""
    env = make_env(WORLDS[-1], False)
    rng = np.random.default_rng(1)
    observations, _ = env.reset(seed=1)
    for _ in range(30):
        observations, *_ = env.step(random_actions(env, observations, rng))
    snap = snapshot(env)
    plan = []
    original = []
    for _ in range(60):
        actions = random_actions(env, observations, rng)
        plan.append(actions)
        result = env.step(actions)
        observations = result[0]
        original.append(record_step(result))
    for _ in range(2):  # two restores of one snapshot are independent
        copy_ = restore(snap)
        replay = [record_step(copy_.step(actions)) for actions in plan]
        assert first_difference(original, replay) is None


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_game_continues_like_the_original(how: str) -> None:
    """Both ways of copying a Game in memory work."""
    env = make_env(WORLDS[-1], False)
    rng = np.random.default_rng(2)
    observations, _ = env.reset(seed=2)
    for _ in range(40):
        observations, *_ = env.step(random_actions(env, observations, rng))
    game = env.game
    twin = copy.deepcopy(game) if how == "deepcopy" else pickle.loads(pickle.dumps(game))
    assert state_hash(twin) == state_hash(game)
    commands = ["wait", "defend", "dance", None]
    for tick in range(60):
        actions = {a: commands[(tick + i) % len(commands)] for i, a in enumerate(game.agent_ids)}
        game.tick(actions)
        twin.tick(actions)
        assert state_hash(twin) == state_hash(game), tick


# ---------------------------------------------------------------------------- full path
@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_every_index_tried_through_the_env(world: str, tutorial: bool | None) -> None:
    tried, wrong, blind = try_every_index(world, tutorial, FULL_PATH_STATES)
    assert tried > FULL_PATH_STATES * MASKED_SAMPLE // 2
    assert not wrong, f"{len(wrong)} wrong of {tried}: (tick, agent, action, mask) {wrong[:10]}"
    assert blind == 0  # no darkness in the bundled worlds


def test_every_index_tried_in_the_dark() -> None:
    """gloomwell: unmasked indices are taken in the dark and in the light; masked ones are refused
    in the light, and in the dark some are taken (acting blind)."""
    tried, wrong, blind = try_every_index(DARK_WORLD, None, FULL_PATH_STATES)
    assert tried > FULL_PATH_STATES * MASKED_SAMPLE // 2
    assert not wrong, f"{len(wrong)} wrong of {tried}: (tick, agent, action, mask) {wrong[:10]}"
    assert blind > 0


def try_every_index(world: str, tutorial: bool | None, states: int) -> tuple[int, list, int]:
    """At `states` states of a masked random walk, every unmasked index and a sample of masked
    ones of one agent, each stepped through a restored copy of the env with the others waiting:
    (indices tried, those that broke the promise, masked ones taken in the dark)."""
    env = make_env(world, tutorial)
    rng = np.random.default_rng(seed_of(world, tutorial))
    observations, _ = env.reset(seed=seed_of(world, tutorial))
    wrong = []
    tried = blind = 0
    for state in range(states):
        for _ in range(int(rng.integers(0, 6))):
            observations, *_ = env.step(random_actions(env, observations, rng))
        actor = env.possible_agents[state % AGENTS]
        mask = observations[actor]["action_mask"]
        dark = in_the_dark(env, actor)
        indices = [int(i) for i in np.flatnonzero(mask)] + masked_sample(rng, mask)
        snap = snapshot(env)
        for index in indices:
            trial = restore(snap)
            infos = trial.step(others_wait(trial, actor, index))[4]
            tried += 1
            if infos[actor]["action_ok"] == bool(mask[index]):
                continue
            if dark and not mask[index]:
                blind += 1
                continue
            wrong.append(
                (env.game.tick_index, actor, env.action_name(actor, index), int(mask[index]))
            )
    return tried, wrong, blind


# ---------------------------------------------------------------------------- broad sweep
@TUTORIAL
@pytest.mark.parametrize("world", WORLDS)
def test_masks_hold_over_thousands_of_states(world: str, tutorial: bool | None) -> None:
    env, unmasked_verbs, blind = sweep(world, tutorial)
    assert blind == 0  # no darkness in the bundled worlds
    if tutorial is False:
        # The walks reach states where every verb is possible, except `buy` on some worlds (coins
        # and a merchant's stock in one place: rare for random agents) and `write` (a writing
        # tool and a writable in hand at once; the tutorial walks and
        # test_write_and_container_in_hand_entries cover it).
        assert set(env.catalogue.verbs) - unmasked_verbs <= {"buy", "write"}


def test_masks_hold_over_thousands_of_states_in_the_dark() -> None:
    _, unmasked_verbs, blind = sweep(DARK_WORLD, None)
    assert blind > 0
    assert {"enter", "pick_up", "drop", "attack", "craft", "equip"} <= unmasked_verbs


def sweep(world: str, tutorial: bool | None) -> tuple[object, set[str], int]:
    """At every state of a long masked random walk, one random unmasked index of one agent is
    stepped through the env (the others waiting) and must be taken, and a sample of masked indices
    run through the action rules alone (`harness.act`) must be refused, except in the dark, where
    the first taken one ends the tries from that state. (env, verbs ever unmasked, masked indices
    taken in the dark)."""
    env = make_env(world, tutorial)
    rng = np.random.default_rng(100 + seed_of(world, tutorial))
    observations, _ = env.reset(seed=100 + seed_of(world, tutorial))
    refused_but_unmasked, taken_but_masked = [], []
    unmasked_verbs: set[str] = set()
    blind = 0
    for state in range(BROAD_STATES):
        if state % 2:  # every other tick everyone moves, for varied states
            observations, *_ = env.step(random_actions(env, observations, rng))
        actor = env.possible_agents[state % AGENTS]
        mask = observations[actor]["action_mask"]
        for obs in observations.values():
            unmasked_verbs.update(
                env.catalogue.entries[i].verb for i in obs["action_mask"].nonzero()[0]
            )
        game = env.game
        dark = in_the_dark(env, actor)
        before = state_hash(game) if state % HASH_EVERY == 0 else None
        changed = False
        for index in masked_sample(rng, mask):
            result = act(game, actor, resolve_entry(game, actor, env.catalogue, index))
            if result.action_ok[actor]:
                if dark:  # acting blind: allowed, but the state may have changed
                    blind += 1
                    before, changed = None, True
                    break
                taken_but_masked.append((game.tick_index, actor, env.action_name(actor, index)))
                break  # the state may have changed: stop trying from it
        if taken_but_masked:
            break
        if before is not None:
            assert state_hash(game) == before, (
                f"tick {game.tick_index}: a refused action changed state"
            )
        if changed:  # the mask may no longer be this state's: observe afresh
            observations, *_ = env.step(others_wait(env, actor, "wait"))
            mask = observations[actor]["action_mask"]
        index = int(rng.choice(np.flatnonzero(mask)))
        observations, _, _, _, infos = env.step(others_wait(env, actor, index))
        if not infos[actor]["action_ok"]:
            refused_but_unmasked.append((game.tick_index, actor, env.action_name(actor, index)))
    assert not taken_but_masked, f"masked but taken: {taken_but_masked}"
    assert not refused_but_unmasked, f"unmasked but refused: {refused_but_unmasked[:10]}"
    return env, unmasked_verbs, blind


@pytest.mark.parametrize("world", WORLDS)
def test_write_and_container_in_hand_entries(world: str) -> None:
    """The entries discrete agents need for the tutorial and the main quests: `write "<text>"
    <writable>` for each text the world's quests ask for, `inspect inventory`, and store / take
    out / discard with the container held in hand. Set up so each is possible, each unmasked entry
    is taken, and the write entries are exactly those of the writable in hand."""
    from agentodyssey_pz.world.quests import texts_to_write

    env = make_env(world, False)
    observations, _ = env.reset(seed=1)
    game, actor = env.game, "agent_0"
    world_ = game.world
    pen = next(o.id for o in world_.objects.values() if o.usage == "write")
    paper = next(o for o in world_.objects.values() if o.is_writable and not o.is_prewritten)
    bag = next(o.id for o in world_.objects.values() if o.is_container)
    coin = world_.currency_id
    agent = game.agents[actor]
    agent.hands.clear()
    give(game, actor, pen)
    (note,) = give(game, actor, paper.id)
    observations, _, _, _, _ = env.step(others_wait(env, actor, "wait"))
    mask = observations[actor]["action_mask"]
    writes = [int(i) for i in np.flatnonzero(mask) if env.catalogue.entries[i].verb == "write"]
    texts = texts_to_write(game.quests)
    assert [env.catalogue.entries[i].target for i in writes] == [(paper.id, t) for t in texts]
    index = writes[0]
    _, _, _, _, infos = env.step(others_wait(env, actor, index))
    assert infos[actor]["action_ok"] and game.world.writables[note].text == texts[0]

    agent.hands.clear()
    (held,) = give(game, actor, bag)
    world_.areas[agent.area_id].add_objects(coin, 2)
    for verb in ("store", "store", "take_out", "discard"):
        observations, _, _, _, _ = env.step(others_wait(env, actor, "wait"))
        mask = observations[actor]["action_mask"]
        index = env.catalogue.slots[verb][(coin, IN_HAND)]
        assert mask[index] == 1, (verb, env.action_name(actor, index))
        _, _, _, _, infos = env.step(others_wait(env, actor, index))
        assert infos[actor]["action_ok"], verb
    assert world_.containers[held].items.get(coin, 0) == 0  # 2 stored, 1 taken out, 1 discarded

    agent.hands.clear()
    (worn,) = give(game, actor, bag)
    env.step(others_wait(env, actor, f"equip {world_.containers[worn].name}"))
    observations, _, _, _, _ = env.step(others_wait(env, actor, "wait"))
    index = env.catalogue.slots["inspect"][("inventory",)]
    assert env.action_name(actor, index) == "inspect inventory"
    assert observations[actor]["action_mask"][index] == 1
    _, _, _, _, infos = env.step(others_wait(env, actor, index))
    assert infos[actor]["action_ok"]


def test_a_world_object_named_inventory_keeps_a_single_exact_inspect_entry(tmp_path) -> None:
    """An object literally named `inventory` owns the `inspect inventory` entry (the command
    inspects the equipped inventory): no second word entry of the same label, and the mask of the
    one entry is exact with and without an inventory equipped."""
    import json

    from conftest import load_raw

    raw = load_raw("tiny_world.json")
    renamed = next(o for o in raw["entities"]["objects"] if o.get("category") != "container")
    renamed["name"] = "inventory"
    path = tmp_path / "named.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    env = agentodyssey_pz.parallel_env(world=str(path), num_agents=1, tutorial=False)
    observations, _ = env.reset(seed=0)
    labels = [env.action_name("agent_0", i) for i in range(len(env.catalogue))]
    assert labels.count("inspect inventory") == 1
    index = labels.index("inspect inventory")
    game = env.game
    bag = next(o.id for o in game.world.objects.values() if o.is_container)
    for wear in (False, True):
        if wear:
            (held,) = give(game, "agent_0", bag)
            env.step({"agent_0": f"equip {game.world.containers[held].name}"})
        observations, _, _, _, _ = env.step({"agent_0": "wait"})
        unmasked = bool(observations["agent_0"]["action_mask"][index])
        _, _, _, _, infos = env.step({"agent_0": index})
        assert unmasked == infos["agent_0"]["action_ok"] == wear


def test_every_masked_entry_is_an_ordinary_refusal_not_malformed_input() -> None:
    """A masked index runs its canonical command, which its verb refuses (`action_ok` False)
    without the invalid-action flag: labels that leave a parameter to the state (`buy 1 bread`:
    the merchant) get a placeholder, in-hand labels one word."""
    for world in WORLDS:
        env = agentodyssey_pz.parallel_env(world=world, num_agents=1, tutorial=False)
        observations, _ = env.reset(seed=0)
        masked = np.flatnonzero(observations["agent_0"]["action_mask"] == 0)
        game = env.game
        for index in masked:
            command = env.action_command("agent_0", int(index))
            result = act(game, "agent_0", command)
            assert not result.action_ok["agent_0"], (world, command)
            assert not result.invalid["agent_0"], (world, command, result.feedback_text("agent_0"))
