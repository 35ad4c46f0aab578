"""`enter <area>`: move to a neighbouring area; locks, keys and the combat lock.

docs/mechanics/verbs.md#enter with docs/mechanics/verbs.md#quirk-a-path-opens-with-its-own-key: a
locked path opens with its own key (`key` of the path), paths locked without a key fall back to
`obj_key`; the key is used up, and the path stays open in both directions. Nothing else opens a
lock: lockpicks are a pack feature.
"""

from __future__ import annotations

from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_exact,
    engaged_wasp,
    give,
    main_events,
    move_to,
    restage,
    state_of,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.schema import ObjectDef

GATE, ROWS, VATS, VAULT = "area_gate", "area_rows", "area_vats", "area_vault"
# tiny world: gate-rows open; gate-vats and vats-vault locked with obj_key.


@pytest.fixture
def game() -> Game:
    return blank_game(tracking=True)


def add_lockpick(game: Game) -> None:
    game.world.add_object_def(
        ObjectDef(id="obj_pick", name="pick", category="tool", usage="lockpick", size=1)
    )


def consumed(res: Any) -> list[tuple[str, int]]:
    return [(e.data["obj_id"], e.data["amount"]) for e in res.events if e.type == "track.consume"]


def test_enter_open_path(game: Game) -> None:
    res = act(game, "agent_0", "enter rows")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["enter.done"]
    assert agent(game).area_id == ROWS
    assert [a.id for a in game.agents_in(ROWS)] == ["agent_0"] and game.agents_in(GATE) == []
    assert main_events(res) == [
        ("area_entered", {"from_area": GATE, "to_area": ROWS, "area_name": "rows"})
    ]
    assert consumed(res) == []


def test_own_key_opens_both_directions_and_is_used_up(game: Game) -> None:
    give(game, "agent_0", "obj_key")
    give(game, "agent_0", "obj_pear")
    res = act(game, "agent_0", "enter vats")
    assert res.feedback_keys("agent_0") == ["enter.unlocked", "enter.done"]
    assert agent(game).area_id == VATS and agent(game).hands == {"obj_pear": 1}
    assert consumed(res) == [("obj_key", 1)]
    assert not game.world.graph.is_locked(GATE, VATS) and not game.world.graph.is_locked(VATS, GATE)
    assert game.world.graph.is_locked(VATS, VAULT)  # other paths stay locked
    assert main_events(res) == [
        ("area_entered", {"from_area": GATE, "to_area": VATS, "area_name": "vats"})
    ]
    back = act(game, "agent_0", "enter gate")  # no key needed any more, either way
    assert back.action_ok["agent_0"] and consumed(back) == []


def test_quirk_18_1_path_key_is_honoured(game: Game) -> None:
    """Quirk "a path opens with its own key": the reference opens every lock with `obj_key` and
    ignores the path's key. A path locked with the quill refuses `obj_key` and opens with the
    quill."""
    game.world.connect(GATE, VATS, locked=True, key="obj_quill")
    give(game, "agent_0", "obj_key")
    before = state_of(game)
    res = act(game, "agent_0", "enter vats")
    assert res.feedback_keys("agent_0") == ["enter.locked"]
    assert state_of(game) == before
    give(game, "agent_0", "obj_quill")
    res = act(game, "agent_0", "enter vats")
    assert res.action_ok["agent_0"] and consumed(res) == [("obj_quill", 1)]
    assert agent(game).hands == {"obj_key": 1}


def test_path_locked_without_key_falls_back_to_obj_key(game: Game) -> None:
    game.world.connect(GATE, VATS, locked=True, key=None)
    give(game, "agent_0", "obj_quill")
    assert act(game, "agent_0", "enter vats").feedback_keys("agent_0") == ["enter.locked"]
    give(game, "agent_0", "obj_key")
    res = act(game, "agent_0", "enter vats")
    assert res.action_ok["agent_0"] and consumed(res) == [("obj_key", 1)]


@pytest.mark.parametrize("key", [None, "obj_key", "obj_quill"])
def test_a_lockpick_opens_no_lock_in_the_base_game(game: Game, key: str | None) -> None:
    """The same quirk: no object but the key opens a lock here; lockpicks are
    a pack feature (cinderdeep's `lockpick` verb)."""
    add_lockpick(game)
    game.world.connect(GATE, VATS, locked=True, key=key)
    give(game, "agent_0", "obj_pick")
    before = state_of(game)
    res = act(game, "agent_0", "enter vats")
    assert res.feedback_keys("agent_0") == ["enter.locked"] and state_of(game) == before
    ctx = RuleContext(game, game.world, agent(game), "enter", (), 0)
    assert ("vats",) not in game.engine.rules["enter"].valid_params(ctx)


def test_first_neighbour_with_the_name_wins(game: Game) -> None:
    """Neighbours are matched in path order; `rows` was connected to the gate before `vats`."""
    game.world.areas[VATS].name = "rows"
    assert act(game, "agent_0", "enter rows").action_ok["agent_0"]
    assert agent(game).area_id == ROWS


# ------------------------------------------------------------------ combat lock
def test_combat_lock_names_the_blocker(game: Game) -> None:
    npc = engaged_wasp(game, GATE)
    before = state_of(game)
    res = act(game, "agent_0", "enter rows")
    assert res.feedback_keys("agent_0") == ["enter.in_combat"]
    assert npc.name in res.feedback_text("agent_0")
    assert not res.action_ok["agent_0"] and res.events == []
    assert state_of(game) == before


@pytest.mark.parametrize(
    "case",
    ["engaged elsewhere", "npc left the area", "npc dead", "npc removed from the world"],
)
def test_stale_engagements_do_not_block(game: Game, case: str) -> None:
    """The reference blocks while the NPC still exists in the world, even dead or gone from this
    area earlier in the same tick (its engagement is dropped only at the tick's end); only a live
    NPC here blocks in ours."""
    if case == "engaged elsewhere":
        engaged_wasp(game, ROWS)
    elif case == "npc left the area":
        engaged_wasp(game, ROWS, engaged_in=GATE)
    elif case == "npc dead":
        engaged_wasp(game, GATE, hp=0)
    else:
        game.world.delete_npc(engaged_wasp(game, GATE).id)
    assert act(game, "agent_0", "enter rows").action_ok["agent_0"]


# ------------------------------------------------------------------ failures
def _in_combat_unknown(g: Game) -> str:
    engaged_wasp(g, GATE)
    return "nowhere"


FAILURES = [
    ("unknown name", lambda g: "nowhere", "enter.no_path"),
    ("not a neighbour", lambda g: "vault", "enter.no_path"),
    ("own area", lambda g: "gate", "enter.no_path"),
    ("locked, empty hands", lambda g: "vats", "enter.locked"),
    (
        "locked, wrong things held",
        lambda g: give(g, "agent_0", "obj_quill") and "vats",
        "enter.locked",
    ),
    ("combat before no path", _in_combat_unknown, "enter.in_combat"),
]


@pytest.mark.parametrize(("case", "setup", "key"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any, key: str) -> None:
    check_refused(game, ("enter", [setup(game)]), key)


# ------------------------------------------------------------------ valid_params
def build_state(seed: int, g: Game) -> Game:
    """Random position, random locks and keys, a key or a pear in hand, maybe a blocking fight."""
    rng = restage(g, seed)
    world = g.world
    move_to(g, "agent_0", rng.choice(list(world.areas)))
    for a, b in ((GATE, ROWS), (GATE, VATS), (VATS, VAULT)):
        world.connect(
            a, b, locked=rng.random() < 0.5, key=rng.choice([None, "obj_key", "obj_quill"])
        )
    for _ in range(rng.randint(0, 2)):
        give(g, "agent_0", rng.choice(["obj_key", "obj_quill", "obj_pear"]))
    if rng.random() < 0.2:
        engaged_wasp(g, agent(g).area_id)
    return g


def area_names(g: Game) -> set[str]:
    return {a.name for a in g.world.areas.values()} | {"nowhere"}


def test_valid_params_exact() -> None:
    """Listed tuples succeed on a fresh copy of the state; every other area name fails and leaves
    the state untouched."""
    check_valid_params_exact("enter", build_state, range(150), area_names)
