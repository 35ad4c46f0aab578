"""The shared checks of harness.py report a difference when there is one.

Each check runs once on an honest verb and once on the same verb with its `valid_params` made to
lie (listing a tuple it refuses, or leaving out one it accepts): the lie must fail the check.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from harness import (
    act,
    blank_game,
    check_refused,
    check_valid_params_exact,
    check_valid_params_sampled,
    container_candidates,
    fingerprint,
    give,
    make_game,
    random_container_stage,
    restage,
)

from agentodyssey_pz.engine.game import Game

Listing = list[tuple[str, ...]]
LIES = ["honest", "lists a refused tuple", "leaves the last out", "lists one twice"]


def lying(game: Game, verb: str, lie: str, refused: tuple[str, ...]) -> Game:
    """Make the verb's rule instance in this game list what it would, changed as `lie` says (an
    `all_amounts=False` listing stays honest)."""
    rule = game.engine.rules[verb]
    honest = type(rule).valid_params.__get__(rule)

    def one_amount_short(listed: Listing) -> Listing:
        """Without the last tuple of an amount above 1 (when all amounts are asked for)."""
        above_one = [t for t in listed if t[0] != "1"]
        return [t for t in listed if not above_one or t != above_one[-1]]

    change: dict[str, Callable[[Listing], Listing]] = {
        "honest": lambda listed: listed,
        "lists a refused tuple": lambda listed: [*listed, refused],
        "leaves the last out": lambda listed: listed[:-1],
        "lists one twice": lambda listed: listed + listed[:1],
        "one amount short": one_amount_short,
    }

    def valid_params(ctx: Any, **options: Any) -> Listing:
        listed = honest(ctx, **options)
        return listed if options.get("all_amounts") is False else change[lie](listed)

    rule.valid_params = valid_params
    return game


def holding_coin_and_pear(seed: int, game: Game) -> Game:
    restage(game, seed)
    give(game, "agent_0", "obj_coin")
    give(game, "agent_0", "obj_pear")
    return game


@pytest.mark.parametrize("lie", LIES)
def test_check_valid_params_exact_catches_a_lying_rule(lie: str) -> None:
    def build(seed: int, game: Game) -> Game:
        return lying(holding_coin_and_pear(seed, game), "drop", lie, ("unicorn",))

    def names(game: Game) -> list[str]:
        return ["coin", "pear", "unicorn"]

    if lie == "honest":
        assert check_valid_params_exact("drop", build, range(2), names) == 4
    else:
        with pytest.raises(AssertionError):
            check_valid_params_exact("drop", build, range(2), names)


# An amount left out is only found by trying it: a near miss (the amount below, raised by one).
@pytest.mark.parametrize("lie", [*LIES, "one amount short"])
def test_check_valid_params_sampled_catches_a_lying_rule(lie: str) -> None:
    reused = make_game()

    def stage(seed: int) -> Game:
        refused = ("1", "unicorn", "inventory")
        return lying(random_container_stage(reused, seed), "discard", lie, refused)

    def run() -> tuple[int, int]:
        return check_valid_params_sampled(
            "discard",
            stage,
            range(10),
            partial(container_candidates, far_area="area_vats"),
            tries=8,
            clamp_keys=frozenset({"discard.only_found"}),
            near_share=0.2,
        )

    if lie == "honest":
        checked, listed_total = run()
        assert listed_total > 10 and checked > listed_total
    else:
        with pytest.raises(AssertionError):
            run()


def test_check_refused_catches_success_and_the_wrong_key() -> None:
    game = blank_game()
    give(game, "agent_0", "obj_coin")
    check_refused(game, "drop pear", "drop.not_held")
    with pytest.raises(AssertionError):
        check_refused(game, "drop pear", "drop.other_key")
    with pytest.raises(AssertionError):
        check_refused(game, "drop coin", "drop.not_held")


def test_fingerprint_sees_a_unit_move() -> None:
    game = blank_game()
    give(game, "agent_0", "obj_coin")
    before = fingerprint(game)
    assert fingerprint(game) == before
    act(game, "agent_0", "drop coin")
    assert fingerprint(game) != before
