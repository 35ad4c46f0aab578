"""The `shifting_paths` pack (rules/shifting_paths/): paths that lock or open by themselves for 3-6
ticks, biased by the soundscape's noise and the afternoon calm of the `living_world` pack when it
plays too, never shutting an agent in.

Draws are checked against a copy of the game's generator (or a scripted one for the chances); the
base chance also statistically (4.5 standard deviations: a correct rule falls outside with
probability < 1e-5, with fixed seeds).
"""

from __future__ import annotations

import math

import pytest
from harness import move_to
from living_helper import (
    CRYPT,
    GREEN,
    KNOLL,
    MIRE,
    MOUND,
    REEDS,
    STALLS,
    WELL,
    events_of,
    living_definition,
    mirror,
    rule,
    stage,
    step,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext

RULE = "shifting_paths_step"
SIGMAS = 4.5
# Every path once, world order then path order; none touches the spawn (green), and the
# mound-crypt path is keyed by a quest object.
CANDIDATES = [(STALLS, REEDS), (WELL, MIRE), (REEDS, MIRE), (REEDS, KNOLL), (KNOLL, MOUND)]


class Scripted:
    """Stands in for the game's generator: the given `random()` draws, `randint` gives `low`."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = list(draws)

    def random(self) -> float:
        return self.draws.pop(0)

    def randint(self, low: int, high: int) -> int:
        return low


def shifts(game: Game) -> dict:
    return game.world.auxiliary["shifting_paths"]


def try_shift(game: Game, a: str, b: str, draw: float) -> tuple[bool, RuleResult]:
    """One candidate tried with this `random()` draw."""
    game.rng = Scripted([draw])  # type: ignore[assignment]
    res = RuleResult(game.agent_ids)
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    active = game.world.auxiliary.setdefault("shifting_paths", {"active": {}, "next_step": 0})
    return rule(game, RULE).shift(ctx, res, active["active"], a, b), res


def test_the_pack_plays_alone() -> None:
    game = stage(world=living_definition(rule_packs=["shifting_paths"]))
    names = [r.name for r in game.step_rules]
    assert RULE in names and "soundscape_pressure_step" not in names
    assert names.index(RULE) == names.index("active_attack_step") + 1


def test_a_trigger_shifts_one_or_two_candidates_and_sets_the_next() -> None:
    game = stage(tick=10)
    for seed in range(60):
        game.rng.seed(seed)
        for a, b in CANDIDATES:
            game.world.graph.set_locked(a, b, False)
        game.world.graph.set_locked(KNOLL, MOUND, True)
        game.world.auxiliary.pop("shifting_paths", None)
        draws = mirror(game)
        next_step = 10 + draws.randint(6, 12)
        order = list(CANDIDATES)
        draws.shuffle(order)
        wanted, done, expected = draws.randint(1, 2), 0, []
        for a, b in order:
            if done >= wanted:
                break
            locked = game.world.graph.is_locked(a, b)
            if draws.random() < 0.10:
                expected.append((a, b, not locked, 10 + draws.randint(3, 6)))
                done += 1
        res = step(game, RULE)
        assert shifts(game)["next_step"] == next_step
        kinds = {True: "path_temporarily_locked", False: "path_temporarily_unlocked"}
        assert [(e.type, e.data) for e in res.events] == [
            (kinds[now], {"from_area": a, "to_area": b, "expires_step": until})
            for a, b, now, until in expected
        ]
        assert shifts(game)["active"] == {
            "|".join(sorted((a, b))): {"expires": until, "prev_locked": not now}
            for a, b, now, until in expected
        }
        for a, b, now, _ in expected:
            assert game.world.graph.is_locked(a, b) is now is game.world.graph.is_locked(b, a)
        assert mirror(game).getstate() == draws.getstate()


def test_nothing_before_the_next_trigger() -> None:
    game = stage(tick=10)
    game.world.auxiliary["shifting_paths"] = {"active": {}, "next_step": 11}
    state = game.rng.getstate()
    assert step(game, RULE).events == [] and game.rng.getstate() == state


def test_shifted_paths_personal_paths_and_quest_locks_are_no_candidates() -> None:
    game = stage()
    game.world.connect(WELL, KNOLL, owner="agent_0")  # a personal path
    active = {"area_mire|area_reeds": {"expires": 99, "prev_locked": False}}
    found = rule(game, RULE).candidates(game.world, active)
    assert found == [(STALLS, REEDS), (WELL, MIRE), (REEDS, KNOLL), (KNOLL, MOUND)]
    game.world.auxiliary["tutorial_room"] = {"place_id": "place_barrow", "rooms": {}}  # stand-in
    assert rule(game, RULE).candidates(game.world, {}) == CANDIDATES[:4]


def test_an_open_path_locks_one_time_in_ten() -> None:
    game = stage(tick=10)
    trials, locked = 4000, 0
    for seed in range(trials):
        game.rng.seed(seed)
        game.world.graph.set_locked(REEDS, KNOLL, False)
        game.world.auxiliary["shifting_paths"] = {"active": {}, "next_step": 0}
        locked += try_shift_seeded(game)
    mean, sd = trials * 0.1, math.sqrt(trials * 0.1 * 0.9)
    assert abs(locked - mean) <= SIGMAS * sd


def try_shift_seeded(game: Game) -> int:
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    res = RuleResult(game.agent_ids)
    return int(rule(game, RULE).shift(ctx, res, {}, REEDS, KNOLL))


@pytest.mark.parametrize(
    ("noise", "loud", "period", "lock", "unlock"),
    [
        ({}, {}, None, 0.10, 0.10),  # no soundscape at all: no bias
        ({REEDS: 1.0, KNOLL: 1.0}, {}, "morning", 0.10, 0.10),
        ({REEDS: 3.0, KNOLL: 0.0}, {}, None, 0.15, 0.10),  # one end at 3: loud
        ({REEDS: 1.0, KNOLL: 1.0}, {KNOLL: True}, None, 0.15, 0.10),
        ({REEDS: 0.05, KNOLL: 0.0}, {}, None, 0.08, 0.15),  # hushed
        ({REEDS: 0.0, KNOLL: 0.0}, {REEDS: True}, None, 0.12, 0.15),  # flag and hush both
        ({REEDS: 1.0, KNOLL: 1.0}, {}, "afternoon_calm", 0.08, 0.13),
        ({REEDS: 0.0, KNOLL: 0.0}, {}, "afternoon_calm", 0.064, 0.195),
        ({REEDS: 5.0, KNOLL: 1.0}, {}, "afternoon_calm", 0.12, 0.13),
    ],
)
def test_noise_and_the_calm_bias_the_chances(
    noise: dict, loud: dict, period: str | None, lock: float, unlock: float
) -> None:
    game = stage()
    if noise or loud:
        game.world.auxiliary["soundscape"] = {"noise": noise, "quiet_steps": {}, "loud_flags": loud}
    else:
        game.world.auxiliary.pop("soundscape", None)
    if period:
        game.world.auxiliary["day_cycle"] = {"current_period": period}
    for draws, locked_before in ((lock, False), (unlock, True)):
        game.world.graph.set_locked(REEDS, KNOLL, locked_before)
        assert not try_shift(game, REEDS, KNOLL, math.nextafter(draws * 1.0000001, 1.0))[0]
        changed, _ = try_shift(game, REEDS, KNOLL, draws * 0.9999999)
        assert changed and game.world.graph.is_locked(REEDS, KNOLL) is not locked_before
        game.world.auxiliary["shifting_paths"]["active"].clear()


def test_no_agent_is_ever_shut_in() -> None:
    """Knoll's other path (to the mound) is locked: with an agent at knoll, reeds-knoll never
    locks; the draw is spent and the candidate counts as tried, not shifted."""
    game = stage(at=KNOLL)
    changed, res = try_shift(game, REEDS, KNOLL, 0.0)
    assert not changed and not game.world.graph.is_locked(REEDS, KNOLL) and res.events == []
    game.world.graph.set_locked(KNOLL, MOUND, False)
    changed, res = try_shift(game, REEDS, KNOLL, 0.0)
    assert changed and game.world.graph.is_locked(REEDS, KNOLL)
    assert res.feedback_keys("agent_0") == ["paths.shifted"]


def test_a_shift_ends_as_the_path_was_even_if_someone_opened_it() -> None:
    game = stage(agents=2, at=MIRE, tick=20)
    move_to(game, "agent_1", WELL)
    game.world.graph.set_locked(WELL, MIRE, True)
    changed, _ = try_shift(game, WELL, MIRE, 0.0)  # unlocked for 3 ticks (Scripted: low)
    assert changed and shifts(game)["active"] == {
        "area_mire|area_well": {"expires": 23, "prev_locked": True}
    }
    game.world.graph.set_locked(WELL, MIRE, False)  # a key would open it for good...
    shifts(game)["next_step"] = 99
    game.tick_index = 22
    assert step(game, RULE).events == []
    game.tick_index = 23
    res = step(game, RULE)
    assert events_of(res, "path_shift_expired") == [{"from_area": MIRE, "to_area": WELL}]
    assert game.world.graph.is_locked(WELL, MIRE)  # ...but the shift puts the lock back
    assert shifts(game)["active"] == {}
    assert res.feedback_keys("agent_0") == res.feedback_keys("agent_1") == ["paths.shift_expired"]


def test_state_shapes_and_no_candidates() -> None:
    game = stage(tick=0)
    for area in (STALLS, WELL, REEDS, MIRE, KNOLL, MOUND, CRYPT):
        for other in list(game.world.graph.neighbors(area)):
            if GREEN not in (area, other):
                game.world.graph.disconnect(area, other)
    draws = mirror(game)
    draws.randint(6, 12)
    assert step(game, RULE).events == []
    assert mirror(game).getstate() == draws.getstate()  # no shuffle without candidates
    assert rule(game, RULE).check_saved_state(game.world, game.agents) == []
    shifts(game)["active"]["a|b"] = {"expires": "soon"}
    assert rule(game, RULE).check_saved_state(game.world, game.agents) == [
        "world.auxiliary.shifting_paths.active.a|b.prev_locked: missing",
        "world.auxiliary.shifting_paths.active.a|b.expires: expected int, got a string",
    ]


def test_planners_read_a_shift_and_when_it_ends() -> None:
    """`shifted_lock` (for planners): how the path was before its shift, and the first tick whose
    commands find it back; a path not shifted has none. The quest planner waits at a path shut
    for a few ticks, and plans a path opened for a while as locked (it shuts behind it)."""
    from agentodyssey_pz.policies.quester import QuestPlanner

    game = stage(agents=1, at=MIRE, tick=20)
    shifter = rule(game, RULE)
    assert shifter.shifted_lock(game.world, WELL, MIRE) is None
    changed, _ = try_shift(game, WELL, MIRE, 0.0)  # open -> locked until tick 23
    assert changed and game.world.graph.is_locked(WELL, MIRE)
    assert shifter.shifted_lock(game.world, MIRE, WELL) == (False, 24)
    planner = QuestPlanner(game, "agent_0")
    path = game.world.graph.path(MIRE, WELL)
    assert planner.lock_state(MIRE, WELL, path) == (True, 24)
    game.world.graph.set_locked(REEDS, MIRE, True)
    changed, _ = try_shift(game, REEDS, MIRE, 0.0)  # locked -> open until tick 23
    assert changed and not game.world.graph.is_locked(REEDS, MIRE)
    path = game.world.graph.path(MIRE, REEDS)
    assert shifter.shifted_lock(game.world, REEDS, MIRE) == (True, 24)
    assert planner.lock_state(MIRE, REEDS, path) == (True, None)
