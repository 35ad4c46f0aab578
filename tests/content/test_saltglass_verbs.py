"""The `saltglass` pack's verbs (rules/saltglass/) on AgentOdyssey's saltglass: `listen` and
`refract`, every check in order, every hint and its payload, the hint index and phrasing (no
draw), what `refract` reveals, and what each verb lists. Seeded stages on the published files."""

from __future__ import annotations

import pytest
from harness import (
    act,
    agent,
    check_refused,
    give,
    move_to,
    put_on_ground,
    spawn_npc,
    stage_fixtures,
    valid_params,
)
from saltglass_helper import (
    BASIN,
    GUARD,
    HALL,
    LENS,
    LIBRARY,
    OBSERVATORIES,
    ORRERY,
    PAPER,
    PEN,
    TIDEBOUND,
    VESIN,
    new_game,
    of_type,
    pack_module,
    stage,
)

PATTERN = ["attack", "defend", "attack", "wait"]  # the tidebound's rhythm


shared, game = stage_fixtures(new_game, stage)


def ord_sum(text: str) -> int:
    return sum(ord(c) for c in text)


def listened(game, agent_id: str = "agent_0"):
    res = act(game, agent_id, "listen saltglass")
    (event,) = of_type(res, "saltglass_listened")
    assert res.action_ok[agent_id] is True
    return res, event


# ---------------------------------------------------------------------------- listen: checks
def test_listen_refuses_any_other_target(game) -> None:
    give(game, "agent_0", LENS)
    check_refused(game, "listen sea", "listen.target")
    check_refused(game, "listen salt_glass", "listen.target")


def test_listen_needs_an_observatory_or_a_listen_glass(game) -> None:
    check_refused(game, "listen saltglass", "listen.no_glass")  # open salt, empty hands
    give(game, "agent_0", PEN)  # a writing tool, not a writable: no glass
    give(game, "agent_0", "obj_salt_shard")
    check_refused(game, "listen saltglass", "listen.no_glass")
    move_to(game, "agent_0", "area_armory")  # neither class
    check_refused(game, "listen saltglass", "listen.no_glass")


@pytest.mark.parametrize("where", OBSERVATORIES)
def test_an_observatory_alone_is_enough(game, where) -> None:
    move_to(game, "agent_0", where)
    _, event = listened(game)
    assert event.data["area_id"] == where and event.data["used_observatory"] is True
    assert event.data["used_glass_object_ids"] == []
    # the library has no locked way: a hush; the orrery and the spire hear their locks
    assert event.data["hint_type"] == ("none" if where == LIBRARY else "locked_path")


def test_glass_and_paper_in_hand_are_listen_glass(game) -> None:
    give(game, "agent_0", LENS)
    (paper,) = give(game, "agent_0", PAPER)  # blank paper counts (writable naming paper)
    _, event = listened(game)
    assert event.data["used_observatory"] is False
    assert event.data["used_glass_object_ids"] == [LENS, paper]
    move_to(game, "agent_0", LIBRARY)
    _, event = listened(game)
    assert event.data["used_observatory"] is True
    assert event.data["used_glass_object_ids"] == [LENS, paper]


def test_target_is_trimmed_and_lower_cased(game) -> None:
    give(game, "agent_0", LENS)
    for text in ("listen SALTGLASS", "listen  SaltGlass "):
        listened(game)
        assert of_type(act(game, "agent_0", text), "saltglass_listened")


# ---------------------------------------------------------------------------- listen: hints
def three_hints(game, entries: int = 1):
    """The basin with `entries` ground kinds (obj_coin first by id), its locked way to the orrery
    (brass_key) and a tidebound: all three hints apply. Returns the NPC."""
    for agent_id in game.agents:
        move_to(game, agent_id, BASIN)
        give(game, agent_id, LENS)
    for def_id in ["obj_coin", "obj_salt_shard", "obj_thread"][:entries]:
        put_on_ground(game, BASIN, def_id, 2)
    return spawn_npc(game, TIDEBOUND, BASIN, 1)


def test_no_hint_is_a_hush(game) -> None:
    give(game, "agent_0", LENS)
    res, event = listened(game)
    assert event.data == {
        "area_id": HALL,
        "hint_type": "none",
        "used_observatory": False,
        "used_glass_object_ids": [LENS],
    }
    assert res.feedback_keys("agent_0") == ["listen.hush"]


@pytest.mark.parametrize("entries", [1, 2, 3])
@pytest.mark.parametrize("agent_id", ["agent_0", "agent_1"])
def test_hint_index_is_tick_id_entries_and_npcs(game, entries, agent_id) -> None:
    npc = three_hints(game, entries)
    kinds = ["nearby_object", "locked_path", "enemy_rhythm"]
    before = game.rng.getstate()
    for tick in range(6):
        game.tick_index = tick
        _, event = listened(game, agent_id)
        index = (tick + ord_sum(agent_id) + entries + 1) % 3
        assert event.data["hint_type"] == kinds[index]
        base = {"area_id": BASIN, "used_observatory": False, "used_glass_object_ids": [LENS]}
        expected = {
            "nearby_object": {"obj_id": "obj_coin"},
            "locked_path": {"to_area": ORRERY, "from_area": BASIN, "key_id": "obj_key"},
            "enemy_rhythm": {"npc_id": npc.id, "rhythm": PATTERN},
        }[kinds[index]]
        assert event.data == {**base, "hint_type": kinds[index], **expected}
    assert game.rng.getstate() == before  # no draw


def test_a_lying_mirage_counts_among_the_ground_entries(game) -> None:
    three_hints(game, 1)
    game.tick_index = 0
    kinds = ["nearby_object", "locked_path", "enemy_rhythm"]
    _, plain = listened(game)
    assert plain.data["hint_type"] == kinds[(ord_sum("agent_0") + 2) % 3]
    mirages = game.world.auxiliary.setdefault("salt_mirage", {"active": {}})["active"]
    mirages[BASIN] = {
        "obj_id": "_mirage_area_basin_0",
        "fake_name": "bench",
        "born_step": 0,
        "lifetime": 10,
        "on_ground": True,
    }
    _, seen = listened(game)
    assert seen.data["hint_type"] == kinds[(ord_sum("agent_0") + 3) % 3]
    mirages[BASIN]["on_ground"] = False  # taken by the unattended collection: no longer counted
    _, gone = listened(game)
    assert gone.data["hint_type"] == plain.data["hint_type"]


def test_each_hint_alone_and_its_line(game) -> None:
    world = game.world
    give(game, "agent_0", LENS)
    move_to(game, "agent_0", BASIN)
    _, event = listened(game)
    assert event.data["hint_type"] == "locked_path" and event.data["key_id"] == "obj_key"
    move_to(game, "agent_0", HALL)
    put_on_ground(game, HALL, "obj_thread", 1)
    put_on_ground(game, HALL, "obj_salt_shard", 1)
    res, event = listened(game)
    assert event.data["obj_id"] == "obj_salt_shard"  # the smallest id
    assert world.objects["obj_salt_shard"].name in res.feedback_text("agent_0")
    world.areas[HALL].objects.clear()
    npc = spawn_npc(game, TIDEBOUND, HALL, 1)
    res, event = listened(game)
    assert event.data == {
        "area_id": HALL,
        "used_observatory": False,
        "used_glass_object_ids": [LENS],
        "hint_type": "enemy_rhythm",
        "npc_id": npc.id,
        "rhythm": PATTERN,
    }
    assert "attack, defend, attack, wait" in res.feedback_text("agent_0")
    npc.combat_pattern = ()  # an enemy without a rhythm gives no hint
    assert listened(game)[1].data["hint_type"] == "none"


def test_locked_path_line_names_the_key(game) -> None:
    give(game, "agent_0", LENS)
    move_to(game, "agent_0", BASIN)
    res, _ = listened(game)
    assert res.feedback_keys("agent_0") == ["listen.hint"]
    text = res.feedback_text("agent_0")
    assert "orrery" in text
    listen = pack_module(game, "listen")
    assert text.endswith(listen._path_hint(game.world, BASIN, "agent_0")[0])


def test_phrasing_follows_the_hinted_id(game) -> None:
    """One of three lines by the code-point sum of the hinted id mod 3: ids with the same residue
    share a line, the three residues give three different lines."""
    give(game, "agent_0", LENS)
    world, by_residue = game.world, {}
    for def_id in ("obj_coin", "obj_salt_shard", "obj_thread", "obj_wood_log", "obj_star_scrap"):
        world.areas[HALL].objects.clear()
        put_on_ground(game, HALL, def_id, 1)
        res, _ = listened(game)
        obj = world.objects[def_id]
        text = res.feedback_text("agent_0")
        line = text.replace(obj.name, "<name>").replace(obj.category, "<category>")
        line = line.replace(obj.usage, "<usage>")
        by_residue.setdefault(ord_sum(def_id) % 3, set()).add(line)
    assert all(len(lines) == 1 for lines in by_residue.values())
    assert len(set().union(*by_residue.values())) == len(by_residue) >= 2


# ---------------------------------------------------------------------------- listen: listing
def test_listen_is_listed_exactly_when_it_works(game) -> None:
    assert valid_params(game, "listen") == []
    give(game, "agent_0", PEN)
    assert valid_params(game, "listen") == []
    give(game, "agent_0", PAPER)
    assert valid_params(game, "listen") == [("saltglass",)]  # paper: it works, so it is listed
    agent(game).hands.clear()
    move_to(game, "agent_0", ORRERY)
    assert valid_params(game, "listen") == [("saltglass",)]
    listen = pack_module(game, "listen")
    assert listen.listed_as_published(game.world, agent(game), True)
    move_to(game, "agent_0", HALL)
    give(game, "agent_0", PAPER)
    assert not listen.listed_as_published(game.world, agent(game), False)  # as published


# ---------------------------------------------------------------------------- refract
def refract(game, name: str, agent_id: str = "agent_0"):
    return act(game, agent_id, f"refract {name}")


def test_refract_checks_in_order(game) -> None:
    world = game.world
    lens = world.objects[LENS].name
    check_refused(game, "refract moonstone", "refract.unknown")
    check_refused(game, f"refract {lens}", "refract.not_held")
    (paper,) = give(game, "agent_0", PAPER)
    check_refused(game, f"refract {world.name_of(paper)}", "refract.not_glass")  # paper: no
    give(game, "agent_0", "obj_salt_shard")
    check_refused(game, "refract salt_shard", "refract.not_glass")
    agent(game).hands.clear()
    give(game, "agent_0", LENS)
    agent(game).progress["salt_glaze"] = {
        "active": True,
        "obj_id": GUARD,
        "stat": "defense",
        "amount": 2,
    }
    check_refused(game, f"refract {lens}", "refract.glazed")
    agent(game).progress["salt_glaze"] = {
        "active": False,
        "obj_id": None,
        "stat": None,
        "amount": 0,
    }
    res = refract(game, lens)
    assert res.action_ok["agent_0"] is True
    assert of_type(res, "refracted")[0].data == {
        "area_id": HALL,
        "glass_id": LENS,
        "reveals_count": 0,
    }
    assert res.feedback_keys("agent_0") == ["refract.nothing"]


@pytest.mark.parametrize("glass", ["obj_lens_shard", "obj_brine_glass", "obj_lens_dagger"])
def test_every_glass_like_thing_refracts(game, glass) -> None:
    give(game, "agent_0", glass)
    res = refract(game, game.world.objects[glass].name)
    assert of_type(res, "refracted")[0].data["glass_id"] == glass


def test_refract_reveals_locks_three_objects_and_wares(game) -> None:
    world = game.world
    give(game, "agent_0", LENS)
    move_to(game, "agent_0", BASIN)
    kinds = ["obj_thread", "obj_coin", "obj_star_scrap", "obj_salt_shard", "obj_wood_log"]
    for n, def_id in enumerate(kinds, start=1):
        put_on_ground(game, BASIN, def_id, n)
    merchant = spawn_npc(game, VESIN, BASIN, 1)
    merchant.inventory = {"obj_paper": 2, "obj_pen": 0}
    spawn_npc(game, TIDEBOUND, BASIN, 1)  # not a merchant: nothing
    hands, before = dict(agent(game).hands), game.rng.getstate()
    res = refract(game, world.objects[LENS].name)
    assert of_type(res, "refracted")[0].data == {
        "area_id": BASIN,
        "glass_id": LENS,
        "reveals_count": 5,  # the orrery's lock, three objects, one merchant
    }
    text = res.feedback_text("agent_0")
    assert "brass_key" in text
    shown = sorted(kinds)[:3]  # obj_coin, obj_salt_shard, obj_star_scrap
    for def_id in shown:
        obj = world.objects[def_id]
        assert f"{kinds.index(def_id) + 1} {obj.name} ({obj.category})" in text
    assert "thread" not in text and "drift_log" not in text
    assert "2 chart_paper, 0 reed_pen" in text
    assert agent(game).hands == hands and game.rng.getstate() == before  # nothing used, no draw
    merchant.inventory = {}
    assert of_type(refract(game, "lens_shard"), "refracted")[0].data["reveals_count"] == 4


def test_refract_lists_one_entry_per_glass_kind_unless_glazed(game) -> None:
    assert valid_params(game, "refract") == []
    give(game, "agent_0", PAPER)
    give(game, "agent_0", LENS)
    assert valid_params(game, "refract") == [("lens_shard",)]
    agent(game).progress["salt_glaze"] = {
        "active": True,
        "obj_id": GUARD,
        "stat": "defense",
        "amount": 2,
    }
    assert valid_params(game, "refract") == []
