"""Importing a reference-engine checkpoint
(docs/mechanics/checkpoints.md#continuing-a-reference-run).

Records are written here by hand in the reference's format (what its `update_config`,
`World.to_dict` and `Agent.to_dict` write), from the ids of the bundled default world; our own
snapshot code is not used to make them. The imported game must hold exactly the record's state,
keep ticking, and every malformed record must raise CheckpointError naming the JSON path.
"""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from checkpoint.crash_worker import actions_for
from conftest import damaged_copies

from agentodyssey_pz.checkpoint import import_reference_checkpoint
from agentodyssey_pz.checkpoint.journal import CheckpointWarning
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.errors import CheckpointError
from agentodyssey_pz.world.world import World

WORLD = "default"
SEED = 3
AGENTS = ["alice", "bob"]


# ---------------------------------------------------------------- the reference's format, by hand
def ref_path(to_id: str, locked: bool, key: str | None) -> dict[str, Any]:
    return {"to_id": to_id, "locked": locked, "object_to_unlock": key, "_type": "path"}


def ref_area(world: World, area_id: str) -> dict[str, Any]:
    area = world.areas[area_id]
    neighbors = {
        to: ref_path(to, bool(p["locked"]), p["key"])
        for to, p in world.graph.neighbors(area_id).items()
    }
    return {
        "type": "area",
        "id": area.id,
        "name": area.name,
        "light": area.light,
        "level": area.level,
        "objects": dict(area.objects),
        "npcs": [n for n in area.npcs if not world.npcs[n].quest],
        "neighbors": neighbors,
    }


def ref_npc(npc: Any) -> dict[str, Any]:
    """The instance form of an NPC (every key the reference writes)."""
    return {
        "type": "npc",
        "id": npc.id,
        "name": npc.name,
        "enemy": npc.enemy,
        "unique": npc.unique,
        "role": npc.role,
        "level": npc.level,
        "description": npc.description,
        "attack_power": npc.attack_power,
        "hp": npc.hp,
        "coins": npc.coins,
        "slope_hp": 10,
        "slope_attack_power": 5,
        "inventory": dict(npc.inventory),
        "quest": npc.quest,
        "dialogue": npc.dialogue,
        "combat_pattern": list(npc.combat_pattern),
    }


def ref_instance(world: World, inst_id: str, name: str, **own: Any) -> dict[str, Any]:
    """The raw dataclass dict of a container or writable instance
    (docs/mechanics/world-synthesis.md#saving-a-world)."""
    obj = world.objects[inst_id.rsplit("_", 1)[0]]
    return {
        "type": "object",
        "id": inst_id,
        "name": name,
        "category": obj.category,
        "usage": obj.usage,
        "value": obj.value,
        "size": obj.size,
        "description": obj.description,
        "text": obj.text,
        "attack": obj.attack,
        "defense": obj.defense,
        "level": obj.level,
        "quest": obj.quest,
        "areas": list(obj.areas),
        "extra": {},
        "craft_ingredients": {},
        "craft_dependencies": [],
        **own,
    }


def ref_world(world: World) -> dict[str, Any]:
    return {
        "world_definition": {"initializations": {}, "custom_events": []},
        "objects": {oid: {"id": oid, "name": o.name} for oid, o in world.objects.items()},
        "npcs": {},
        "npc_instances": {n.id: ref_npc(n) for n in world.npcs.values() if not n.quest},
        "container_instances": {
            c.id: ref_instance(world, c.id, c.name, capacity=10, inventory=dict(c.items))
            for c in world.containers.values()
        },
        "writable_instances": {
            w.id: ref_instance(world, w.id, w.name, text=w.text, max_text_length=100)
            for w in world.writables.values()
        },
        "place_instances": {
            p.id: {
                "type": "place",
                "id": p.id,
                "name": p.name,
                "unlocked": p.unlocked,
                "areas": list(p.area_ids),
                "neighbors": list(p.neighbors),
            }
            for p in world.places.values()
        },
        "area_instances": {aid: ref_area(world, aid) for aid in world.areas},
        "auxiliary": {},
        "_type": "world",
    }


def ref_agent(agent_id: str, **stats: Any) -> dict[str, Any]:
    """The reference's `Agent.to_dict`."""
    data = {
        "id": agent_id,
        "name": agent_id.title(),
        "inventory": {"id": f"inventory_{agent_id}", "name": f"{agent_id}'s Inventory"},
        "equipped_items_in_limb": {},
        "items_in_hands": {},
        "max_hp": 100,
        "hp": 100,
        "xp": 0,
        "level": 1,
        "min_attack": 10,
        "attack": 10,
        "defense": 0,
        "xp_per_level": 100,
        "available_actions": [{"name": "wait", "verb": "wait", "params": [], "description": ""}],
    }
    data["inventory"]["container"] = None
    data.update(stats)
    return data


def reference_record() -> dict[str, Any]:
    """A mid-game record: moved agents, a crafted bag with a new slate inside, a new and a killed
    NPC, a wounded NPC, an opened path, changed ground, scores."""
    fresh = Game(WORLD, AGENTS)
    fresh.reset(SEED)
    w = ref_world(fresh.world)
    areas, npcs = w["area_instances"], w["npc_instances"]
    areas["area_weir"]["objects"] = {"obj_alder_log": 1, "obj_rushleaf_0": 1}
    areas["area_orchard"]["objects"]["obj_coin"] = 40
    # bob crafted a flour sack (instance 7) holding flax and a new slate (instance 9).
    w["container_instances"]["obj_flour_sack_7"] = ref_instance(
        fresh.world, "obj_flour_sack_7", "flour_sack_7", capacity=10,
        inventory={"obj_flax": 3, "obj_rushleaf_9": 1},
    )  # fmt: skip
    w["writable_instances"]["obj_rushleaf_9"] = ref_instance(
        fresh.world, "obj_rushleaf_9", "rushleaf_9", text="meet at the weir", max_text_length=100
    )
    npcs["npc_bramble_hog_0"]["hp"] = 7
    hog = copy.deepcopy(npcs["npc_bramble_hog_1"])
    hog.update(id="npc_bramble_hog_12", name="bramble_hog_12", hp=33)
    npcs["npc_bramble_hog_12"] = hog
    areas["area_orchard"]["npcs"].append("npc_bramble_hog_12")
    areas["area_cairnfield"]["npcs"].remove("npc_outlaw_poacher_2")  # killed, kept in npc_inst.
    areas["area_millyard"]["neighbors"]["area_cairnfield"]["locked"] = False
    areas["area_cairnfield"]["neighbors"]["area_millyard"]["locked"] = False
    w["place_instances"]["place_hoarstone_hills"]["unlocked"] = True
    agents = [
        ref_agent("alice", hp=55, max_hp=120, xp=30, level=2, min_attack=15, attack=15),
        ref_agent(
            "bob",
            items_in_hands={"obj_coin": 2},
            equipped_items_in_limb={"obj_flour_sack_7": 1},
            defense=0,
        ),
    ]
    agents[1]["inventory"]["container"] = "obj_flour_sack_7"
    tracked = {
        "area": {"alice": "area_cairnfield", "bob": "area_weir"},
        "areas_visited": {
            "alice": ["area_millyard", "area_cairnfield"],
            "bob": ["area_millyard", "area_weir"],
        },
        "objects_crafted": {"alice": {}, "bob": {"obj_flour_sack": 1}},
        "npcs_killed": {"alice": ["npc_outlaw_poacher_2"], "bob": []},
        "objects_acquired": {"alice": ["obj_key"], "bob": ["obj_flax", "obj_flour_sack"]},
        "objects_traded": {"alice": {}, "bob": {}},
        "unique_npcs_killed": {"alice": ["npc_outlaw_poacher_3"], "bob": []},
        "tutorial_passed": {"alice": False, "bob": False},
        "tutorial_stage": {"alice": 0, "bob": 0},
        "main_quest_progress": {"alice": {"stage": 2}, "bob": None},
        "active_combats": {
            "alice": {"npc_cairn_revenant_1": {"rhythm_index": 2, "area_id": "area_cairnfield"}},
            "bob": {},
        },
        "agent_defending": {"alice": True, "bob": False},
        "agent_stamina": {"alice": 0.5, "bob": 1.0},
        "agent_consecutive_attacks": {"alice": 2, "bob": 0},
        "world_expansion": {"pending": False, "count": 0, "total_areas": 8},
    }
    return {
        "game_name": "base",
        "world_definition_path": "worlds/thornvale/world.json",
        "seed": SEED,
        "step": 37,
        "curr_time": "0003-05-02 09:30:00",
        "curr_agents_state": tracked,
        "scores": {
            "alice": {"exploration": 1, "kill": 1, "unique_kill": 1, "death": 1},
            "bob": {"exploration": 1, "craft": 1},
        },
        "world": w,
        "agents": agents,
    }


def write(tmp_path: Path, record: Any, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


def load(path: Path, **kw: Any) -> Game:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CheckpointWarning)
        return import_reference_checkpoint(path, WORLD, **kw)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return reference_record()


# ---------------------------------------------------------------- state
def test_imported_state_equals_the_record(tmp_path: Path, record: dict[str, Any]) -> None:
    with pytest.warns(CheckpointWarning, match="quest") as caught:
        game = import_reference_checkpoint(write(tmp_path, record), WORLD)
    assert sum("quest" in str(w.message) for w in caught) == 1
    assert game.agent_ids == ("alice", "bob")
    assert game.tick_index == 37 and game.time_text == "0003-05-02 09:30:00"
    world, rec = game.world, record["world"]
    for aid, area in rec["area_instances"].items():
        assert world.areas[aid].objects == area["objects"], aid
        assert [n for n in world.areas[aid].npcs if not world.npcs[n].quest] == area["npcs"], aid
    for nid, npc in rec["npc_instances"].items():
        assert world.npcs[nid].hp == npc["hp"] and world.npcs[nid].name == npc["name"]
    assert world.npcs["npc_bramble_hog_12"].area_id == "area_orchard"
    assert world.npcs["npc_outlaw_poacher_2"].area_id is None
    assert world.npc_name_to_id["bramble_hog_12"] == "npc_bramble_hog_12"
    assert world.containers["obj_flour_sack_7"].items == {"obj_flax": 3, "obj_rushleaf_9": 1}
    assert world.writables["obj_rushleaf_9"].text == "meet at the weir"
    assert world.obj_name_to_id["flour_sack_7"] == "obj_flour_sack_7"
    assert world.new_instance("obj_flour_sack") == "obj_flour_sack_8"  # no id is reused
    assert not world.graph.is_locked("area_millyard", "area_cairnfield")
    assert world.graph.is_locked("area_coppice", "area_tumulus")
    assert world.places["place_hoarstone_hills"].unlocked
    alice, bob = game.agents["alice"], game.agents["bob"]
    assert (alice.area_id, alice.hp, alice.max_hp, alice.level, alice.xp) == (
        "area_cairnfield",
        55,
        120,
        2,
        30,
    )
    assert alice.min_attack == 15 and alice.name == "Alice"
    assert list(alice.visited) == ["area_millyard", "area_cairnfield"]
    assert alice.kills == 1 and list(alice.unique_kills) == ["npc_outlaw_poacher_3"]
    assert alice.combats["npc_cairn_revenant_1"].rhythm_index == 2
    assert alice.defending and alice.stamina == 0.5 and alice.consecutive_attacks == 2
    assert alice.deaths == 1
    assert bob.hands == {"obj_coin": 2} and bob.equipped == {"obj_flour_sack_7": 1}
    assert bob.inventory_id == "obj_flour_sack_7" and bob.crafted == {"obj_flour_sack": 1}
    assert game.count_in("area_weir") == 1
    assert game.scores["alice"].components() == {
        **dict.fromkeys(game.scores["alice"].components(), 0),
        **record["scores"]["alice"],
    }
    assert game.scores["bob"].craft == 1 and game.scores["bob"].exploration == 1


def test_the_imported_game_keeps_ticking(tmp_path: Path, record: dict[str, Any]) -> None:
    game = load(write(tmp_path, record))
    while game.tick_index < 337 and not game.terminated:
        game.tick(actions_for(game, 5, game.tick_index))
    assert game.tick_index > 37


def test_agent_ids_rename_the_record_agents(tmp_path: Path, record: dict[str, Any]) -> None:
    game = load(write(tmp_path, record), agent_ids=["a", "b"])
    assert game.agents["a"].area_id == "area_cairnfield" and game.scores["b"].craft == 1
    with pytest.raises(CheckpointError, match=r"\$\.agents"):
        load(write(tmp_path, record), agent_ids=["a"])


def test_our_snapshot_of_an_imported_game_round_trips(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    game = load(write(tmp_path, record))
    game.save(tmp_path / "ours.json")
    again = Game.load(tmp_path / "ours.json")
    assert state_hash(again) == state_hash(game) and again.time_text == "0003-05-02 09:30:00"


def test_a_fresh_reset_record_and_another_world_name(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    early = copy.deepcopy(record)
    early.update(step=-1, curr_time="0001-01-01 08:00:00", world_definition_path="x/base.json")
    with pytest.warns(CheckpointWarning) as caught:
        game = import_reference_checkpoint(write(tmp_path, early), WORLD)
    assert any("'x/base.json'" in str(w.message) for w in caught)
    assert game.tick_index == 0 and game.time_text == "0001-01-01 08:00:00"
    with pytest.raises(CheckpointError, match=r"\$\.step is -1, not 3"):
        load(write(tmp_path, early), from_step=3)


# ---------------------------------------------------------------- files
def jsonl(tmp_path: Path, record: dict[str, Any], steps: list[int], bom: bool = False) -> Path:
    lines = []
    for step in steps:
        rec = copy.deepcopy(record)
        rec["step"], rec["curr_time"] = step, f"0001-01-02 {8 + step // 6:02d}:{step % 6}0:00"
        rec["scores"]["bob"]["craft"] = step  # tells the records apart
        lines.append(json.dumps(rec))
    text = ("\ufeff" if bom else "") + "\n\n".join(lines) + "\n\n"
    return write(tmp_path, text, "run.jsonl")


def test_jsonl_picks_the_last_or_the_newest_with_that_step(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    path = jsonl(tmp_path, record, [1, 2, 3, 2, 4])
    assert load(path).tick_index == 4
    game = load(path, from_step=2)
    assert game.tick_index == 2 and game.time_text == "0001-01-02 08:20:00"
    with pytest.raises(CheckpointError, match="no record has"):
        load(path, from_step=9)


def test_a_bom_is_tolerated(tmp_path: Path, record: dict[str, Any]) -> None:
    assert load(jsonl(tmp_path, record, [5], bom=True)).tick_index == 5
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode("utf-8"))
    assert load(path).tick_index == 37


# ---------------------------------------------------------------- malformed records
def _drop_world(r: dict[str, Any]) -> None:
    del r["world"]


def _hp_text(r: dict[str, Any]) -> None:
    r["agents"][0]["hp"] = "lots"


def _unknown_area(r: dict[str, Any]) -> None:
    r["world"]["area_instances"]["area_atlantis"] = copy.deepcopy(
        r["world"]["area_instances"]["area_weir"]
    )


def _unknown_object(r: dict[str, Any]) -> None:
    r["world"]["area_instances"]["area_weir"]["objects"]["obj_unobtainium"] = 1


def _no_agents(r: dict[str, Any]) -> None:
    r["agents"] = []


def _agent_in_nowhere(r: dict[str, Any]) -> None:
    r["curr_agents_state"]["area"]["bob"] = "area_nowhere"


def _unknown_npc(r: dict[str, Any]) -> None:
    r["world"]["npc_instances"]["npc_dragon_1"] = copy.deepcopy(
        r["world"]["npc_instances"]["npc_bramble_hog_0"]
    )


def _bad_score(r: dict[str, Any]) -> None:
    r["scores"]["bob"]["craft"] = 1.5


def _missing_tracked(r: dict[str, Any]) -> None:
    del r["curr_agents_state"]["areas_visited"]["alice"]


def _bad_time(r: dict[str, Any]) -> None:
    r["curr_time"] = "yesterday"


def _lost_container(r: dict[str, Any]) -> None:
    r["agents"][1]["inventory"]["container"] = "obj_flour_sack_99"


@pytest.mark.parametrize(
    ("damage", "fragment"),
    [
        (_drop_world, r"\$\.world: expected an object \(missing\)"),
        (_hp_text, r"\$\.agents\[0\]\.hp: expected an integer, got str"),
        (_unknown_area, r"\$\.world\.area_instances\.area_atlantis"),
        (_unknown_object, r"\$\.world\.area_instances\.area_weir\.objects\.obj_unobtainium"),
        (_no_agents, r"\$\.agents: expected a non-empty list"),
        (_agent_in_nowhere, r"\$\.curr_agents_state\.area\.bob"),
        (_unknown_npc, r"\$\.world\.npc_instances\.npc_dragon_1"),
        (_bad_score, r"\$\.scores\.bob\.craft"),
        (_missing_tracked, r"\$\.curr_agents_state\.areas_visited\.alice"),
        (_bad_time, r"\$\.curr_time"),
        (_lost_container, r"\$\.agents\[1\]\.inventory\.container"),
    ],
)
def test_malformed_records_name_the_path(
    tmp_path: Path, record: dict[str, Any], damage: Any, fragment: str
) -> None:
    broken = copy.deepcopy(record)
    damage(broken)
    with pytest.raises(CheckpointError, match=fragment):
        load(write(tmp_path, broken))


def test_a_fuzzed_record_is_imported_or_refused_never_a_crash(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    """1-2 values anywhere in a reference record replaced by junk: the import refuses it with a
    CheckpointError, or the game it makes keeps ticking."""
    refused = 0
    for broken in damaged_copies(record, 0, 100, most=2):
        try:
            game = load(write(tmp_path, broken))
        except CheckpointError:
            refused += 1
            continue
        for _ in range(3):
            game.tick(dict.fromkeys(game.agent_ids, "wait"))
    assert refused > 30


def test_not_json_and_not_an_object(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="not valid JSON"):
        load(write(tmp_path, '{"step": 1,'))
    with pytest.raises(CheckpointError, match="line 2 is not valid JSON"):
        load(write(tmp_path, '{"step": 1}\n{oops\n', "bad.jsonl"))
    with pytest.raises(CheckpointError, match="expected a JSON object"):
        load(write(tmp_path, "[1, 2]"))
    with pytest.raises(CheckpointError, match="no records"):
        load(write(tmp_path, "\n \n", "empty.jsonl"))
    with pytest.raises(CheckpointError, match="cannot read"):
        load(tmp_path / "absent.json")


def test_the_cli_continues_a_reference_checkpoint_and_journals_it(
    tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from agentodyssey_pz import cli
    from agentodyssey_pz.checkpoint import resume

    path = write(tmp_path, record)
    folder = tmp_path / "continued"
    argv = ["resume", str(path), "--reference", "--world", WORLD, "--ticks", "30"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CheckpointWarning)  # quests restart: expected here
        assert cli.main([*argv, "--checkpoint-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"at tick {record['step']}" in out
    assert f"now at tick {record['step'] + 30}" in out
    # The continued run is journaled: resuming that folder gives the same tick.
    assert resume(folder, WORLD, snapshot_every=None).tick_index == record["step"] + 30
    # A broken file is reported, not raised.
    bad = write(tmp_path, {"step": 1}, "bad.json")
    assert cli.main(["resume", str(bad), "--reference"]) == 1
    assert "$.agents" in capsys.readouterr().err
