"""`talk to <npc>`: description, dialogue, a merchant's price list; changes nothing.

docs/mechanics/verbs.md#talk-to; valid actions per docs/mechanics/verbs.md#valid-actions-per-verb
(one `talk to` per NPC here).
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
    events,
    move_to,
    restage,
    spawn_npc,
    state_of,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement

HERE = "area_vault"
ELSEWHERE = "area_gate"


@pytest.fixture
def game() -> Game:
    return blank_game(at=HERE)


def merchant(game: Game, area: str = HERE, **overrides: Any) -> Any:
    return spawn_npc(game, "npc_cider_seller", area, **overrides)


def lines(res: Any) -> list[tuple[str, str]]:
    return res.feedback["agent_0"]


def test_merchant_says_description_dialogue_and_prices(game: Game) -> None:
    npc = merchant(
        game,
        description="A stout cider maker.",
        dialogue="Fresh cider!",
        inventory={"obj_cider": 4, "obj_label": 2, "obj_press": 1, "obj_nothing": 3, "obj_pear": 0},
    )
    before = state_of(game)
    res = act(game, "agent_0", "talk to cider_seller")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert lines(res) == [
        ("talk_to.description", "cider_seller: A stout cider maker."),
        ("talk_to.dialogue", 'cider_seller says: "Fresh cider!"'),
        (
            "talk_to.prices",
            "cider_seller sells: 4 cider at 3 coin each, 2 label at 2 coin each, "
            "1 press (not for sale), 3 Unknown at 0 coin each.",
        ),
    ]
    assert events(res) == [("npc_talked_to", {"npc_id": npc.id, "area_id": HERE})]
    assert state_of(game) == before  # talking changes nothing


DESC_AND_DIALOGUE = ["talk_to.description", "talk_to.dialogue"]


@pytest.mark.parametrize(
    ("overrides", "expected_keys"),
    [
        ({"dialogue": "", "description": ""}, ["talk_to.silent"]),
        (
            {"dialogue": "Bzz.", "description": "A wasp."},
            ["talk_to.description", "talk_to.dialogue"],
        ),
        ({"dialogue": "Bzz.", "description": ""}, ["talk_to.dialogue"]),
    ],
)
def test_non_merchant_lines(game: Game, overrides: dict, expected_keys: list[str]) -> None:
    spawn_npc(game, "npc_wasp", HERE, name="buzz", **overrides)
    res = act(game, "agent_0", "talk to buzz")
    assert res.feedback_keys("agent_0") == expected_keys


def test_merchant_without_stock(game: Game) -> None:
    merchant(game, inventory={"obj_cider": 0})
    res = act(game, "agent_0", "talk to cider_seller")
    assert res.feedback_keys("agent_0") == ["talk_to.silent", "talk_to.no_stock"]


def test_quest_guide_dialogue_is_how_tasks_are_read(game: Game) -> None:
    merchant(game, role="guide", quest=True, dialogue="Bring me 3 pears.")
    res = act(game, "agent_0", "talk to cider_seller")
    assert lines(res) == [("talk_to.dialogue", 'cider_seller says: "Bring me 3 pears."')]


def test_talking_to_an_engaged_enemy_changes_no_combat_state(game: Game) -> None:
    npc = spawn_npc(game, "npc_wasp", HERE)
    a = agent(game)
    a.combats[npc.id] = Engagement(2, HERE)
    a.stamina, a.consecutive_attacks = 0.6000000000000001, 3
    before = state_of(game)
    res = act(game, "agent_0", ("talk to", [npc.name]))
    assert res.action_ok["agent_0"]
    assert state_of(game) == before


FAILURES = [
    ("unknown", lambda g: "nobody"),
    ("elsewhere", lambda g: merchant(g, ELSEWHERE).name),
    ("off the map", lambda g: g.world.remove_npc_from_map(merchant(g).id) or "cider_seller"),
]


@pytest.mark.parametrize(("case", "setup"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any) -> None:
    check_refused(game, ("talk to", [setup(game)]), "talk_to.not_here")


# ------------------------------------------------------------------ valid_params exactness
def build_state(seed: int, g: Game) -> Game:
    rng = restage(g, seed)
    areas = list(g.world.areas)
    move_to(g, "agent_0", rng.choice(areas))
    here = agent(g).area_id
    for _ in range(rng.randint(0, 4)):
        area = here if rng.random() < 0.6 else rng.choice(areas)
        kind = rng.choice(["wasp", "merchant", "twin"])
        if kind == "merchant":
            merchant(g, area, quest=rng.random() < 0.5)
        elif kind == "twin":  # the later twin takes the name over
            spawn_npc(g, "npc_wasp", area, name="twin")
        else:
            spawn_npc(g, "npc_wasp", area)
    return g


def npc_names(g: Game) -> set[str]:
    """Every NPC name (current and taken over), and names of no NPC."""
    names = set(g.world.npc_name_to_id) | {n.name for n in g.world.npcs.values()}
    return names | {"nobody", ""}


@pytest.mark.parametrize("chunk", range(2))
def test_valid_params_exact(chunk: int) -> None:
    """Listed tuples succeed on a fresh copy of the state; every other NPC name fails untouched."""
    seeds = range(chunk * 75, chunk * 75 + 75)
    listed_total = check_valid_params_exact("talk_to", build_state, seeds, npc_names, "talk to")
    assert listed_total > 40
