"""`World.derived`: facts rules work out from names and definitions, kept until those change.

Every change of names or definitions (`names_revision`) empties it, so nothing a rule memoised
there outlives what it was worked out from.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest
from harness import give, make_game

from agentodyssey_pz.world.world import World


def new_crate(world: World) -> None:
    world.new_instance("obj_crate")


def delete_a_crate(world: World) -> None:
    world.delete_instance(next(iter(world.containers)))


def redefine_pear(world: World) -> None:
    world.add_object_def(attrs.evolve(world.objects["obj_pear"], name="quince"))


CHANGES: dict[str, Callable[[World], None]] = {
    "a new instance": new_crate,
    "a deleted instance": delete_a_crate,
    "a new or changed definition": redefine_pear,
    "a rebuilt name table": World.reindex_objects,
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_of_names_or_definitions_empties_it(change: str) -> None:
    game = make_game()
    give(game, "agent_0", "obj_crate")  # an instance to delete
    world = game.world
    world.derived["test"] = "worked out before"
    revision = world.names_revision
    CHANGES[change](world)
    assert world.names_revision > revision
    assert world.derived == {}


def test_moving_things_about_keeps_it() -> None:
    game = make_game()
    world = game.world
    world.derived["test"] = "kept"
    give(game, "agent_0", "obj_pear", 3)
    world.spawn_on_ground("area_gate", "obj_pear", 2)
    game.tick({"agent_0": "drop 1 pear"})
    assert world.derived.get("test") == "kept"
