"""The bundled rule pack `scavenging` (rules/scavenging/) as a world plays it: loaded only when a
world names it, its verbs in the discrete catalogue with exact masks and valid-action lists, and
`agentodyssey-pz audit` finding nothing wrong, on the scrapyard test world and on AgentOdyssey's
remnant world read from the user's copy (both name `scavenging` and `lockpicking`).

The mask sweeps are those of tests/adapter/test_masks_exact.py, and the listing checks those of
tests/rules/test_mask_targets.py, run on these worlds.
"""

from __future__ import annotations

from pathlib import Path

import adapter.test_masks_exact as masks
import numpy as np
import pytest
import rules.test_mask_targets as listings
from harness import give, spawn_npc
from scavenging_helper import GATE, SCRAPYARD, remnant_world, yard

import agentodyssey_pz
from agentodyssey_pz.audit import audit
from agentodyssey_pz.observe.masks import canonical_command

VERBS = ("eat", "throw", "disassemble", "pickpocket")


@pytest.fixture(scope="module")
def remnant(published, tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(remnant_world(published, tmp_path_factory.mktemp("remnant")))


@pytest.fixture(params=["scrapyard", "remnant"])
def world(request: pytest.FixtureRequest) -> str:
    return str(SCRAPYARD) if request.param == "scrapyard" else request.getfixturevalue("remnant")


def test_only_worlds_naming_the_pack_have_its_verbs() -> None:
    plain = agentodyssey_pz.parallel_env(world="default", num_agents=1)
    assert not set(VERBS) & set(plain.catalogue.verbs)
    env = agentodyssey_pz.parallel_env(world=str(SCRAPYARD), num_agents=1)
    assert set(VERBS) <= set(env.catalogue.verbs) and "lockpick" in env.catalogue.verbs


def test_catalogue_shapes() -> None:
    """eat: per object kind; disassemble: per craftable kind; pickpocket and throw: per NPC
    prototype (throw's label leaves the object blank)."""
    env = agentodyssey_pz.parallel_env(world=str(SCRAPYARD), num_agents=1)
    env.reset(seed=0)
    definition = env.game.world.definition
    objects = [o.id for o in definition.entities.objects]
    craftable = [o.id for o in definition.entities.objects if o.craft.ingredients]
    protos = [n.id for n in definition.entities.npcs]
    by_verb: dict[str, list] = {}
    for entry in env.catalogue.entries:
        by_verb.setdefault(entry.verb, []).append(entry)
    assert [e.target for e in by_verb["eat"]] == objects
    assert [e.target for e in by_verb["disassemble"]] == craftable
    assert [e.target for e in by_verb["pickpocket"]] == protos
    assert [e.target for e in by_verb["throw"]] == protos
    assert by_verb["throw"][2].label == "throw  rat"
    assert by_verb["pickpocket"][2].label == "pickpocket rat"


def test_a_throw_entry_throws_the_first_thing_in_hand_at_the_first_npc_of_its_kind() -> None:
    env = agentodyssey_pz.parallel_env(world=str(SCRAPYARD), num_agents=1)
    env.reset(seed=0)
    game = yard(reuse=env.game)
    give(game, "agent_0", "obj_sack")
    give(game, "agent_0", "obj_dart")
    rats = [spawn_npc(game, "npc_rat", GATE, hp=50) for _ in range(2)]
    observations, _, _, _, _ = env.step({"agent_0": "wait"})
    index = env.catalogue.index[("throw", "npc_rat")]
    assert observations["agent_0"]["action_mask"][index] == 1
    assert env.action_command("agent_0", index) == f"throw dart {rats[0].name}"
    _, _, _, _, infos = env.step({"agent_0": index})
    assert infos["agent_0"]["action_ok"] and rats[0].hp == 46 and rats[1].hp == 50  # dart: 4
    # Masked (no throwable in hand): its canonical command names no object held, and is refused.
    masked = env.catalogue.index[("throw", "npc_scrapper")]
    command = canonical_command(env.game, env.catalogue, masked)
    assert command.params == ("scrapper", "<npc_name>")


def test_valid_action_lists_hold_the_pack_s_commands() -> None:
    env = agentodyssey_pz.parallel_env(
        world=str(SCRAPYARD), num_agents=1, valid_actions_in_info=True
    )
    env.reset(seed=0)
    game = yard(reuse=env.game)
    give(game, "agent_0", "obj_dart")
    game.agents["agent_0"].hp = 40
    game.world.spawn_on_ground(GATE, "obj_apple", 1)
    rat = spawn_npc(game, "npc_rat", GATE, hp=50)
    _, _, _, _, infos = env.step({"agent_0": "wait"})
    commands = [c for listed in infos["agent_0"]["valid_actions"].values() for c in listed]
    for wanted in (
        "eat apple",
        f"throw dart {rat.name}",
        "disassemble dart",
        f"pickpocket {rat.name}",
    ):
        assert wanted in commands, wanted


def test_masks_are_exact_through_the_env(world: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(masks, "WORLDS", [*masks.WORLDS, world])
    monkeypatch.setattr(masks, "FULL_PATH_STATES", 12)  # each tries ~100 restored env steps
    masks.test_every_index_tried_through_the_env(world, False)


def test_masks_hold_over_thousands_of_states(world: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the scrapyard, every verb is unmasked somewhere on the walks (but `buy` and `write`).
    Not on remnant, whose spawn leads only to a dead end and a locked path: random walkers never
    get a picking tool there (the sweep checks this only without a tutorial setting, `False`)."""
    monkeypatch.setattr(masks, "WORLDS", [*masks.WORLDS, world])
    masks.test_masks_hold_over_thousands_of_states(
        world, False if world == str(SCRAPYARD) else None
    )


def test_masked_entries_are_ordinary_refusals(world: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(masks, "WORLDS", [world])
    masks.test_every_masked_entry_is_an_ordinary_refusal_not_malformed_input()


def test_mask_overrides_equal_the_derivation_from_valid_params(world: str) -> None:
    listings.test_overrides_equal_the_derivation_from_valid_params(world)


def test_verbs_promising_it_list_exactly_their_mask_parameters(world: str) -> None:
    listings.test_verbs_that_promise_it_list_exactly_their_mask_parameters(world)


def test_written_commands_are_the_valid_params(world: str) -> None:
    listings.test_each_verbs_written_commands_are_its_valid_params(world)


def test_the_audit_finds_nothing_wrong(world: str) -> None:
    report = audit(world, ticks=250, states=12, seed=7)
    assert report.ok, report.text()
    assert report.resumed == 50


def test_random_walks_use_every_verb_of_the_pack(world: str) -> None:
    """Masked random agents take each verb (an unmasked entry that took effect)."""
    env = agentodyssey_pz.parallel_env(world=world, num_agents=3, max_cycles=10**6)
    observations, _ = env.reset(seed=3)  # some seeds lock remnant's spawn in (no way out)
    rng = np.random.default_rng(3)
    taken: set[str] = set()
    for _ in range(1500):
        actions = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents
        }
        observations, _, _, _, infos = env.step(actions)
        for a, index in actions.items():
            if infos[a]["action_ok"]:
                taken.add(env.catalogue.entries[index].verb)
        if set(VERBS) <= taken:
            break
    assert set(VERBS) <= taken


def test_remnant_s_data_reads_as_the_spec_says(remnant: str) -> None:
    """The extra fields the verbs read: food's hp_restore, no object's attack_power, the picking
    tools' usage `unlock`."""
    game = agentodyssey_pz.parallel_env(world=remnant, num_agents=1)
    game.reset(seed=0)
    objects = game.game.world.objects
    restores = {
        o.id: o.extras.get("hp_restore") for o in objects.values() if "hp_restore" in o.extras
    }
    assert restores == {
        "obj_apple": 10,
        "obj_herb_tea": 12,
        "obj_bread": 18,
        "obj_mushroom_stew": 28,
        "obj_bandage": 15,
    }
    assert not any("attack_power" in o.extras for o in objects.values())
    assert objects["obj_lockpick"].usage == objects["obj_tension_wrench"].usage == "unlock"
    assert Path(remnant, "world.json").is_file()
