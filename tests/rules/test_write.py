"""`write <text> <writable>` (docs/mechanics/verbs.md#write).

A label is a writable (max_text_length 40); the quill is a writing tool (usage `write`). agent_0
stands at the gate, every ground cleared.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    equip_inventory,
    events,
    give,
    make_game,
    put_on_ground,
    restage,
    valid_params,
)

from agentodyssey_pz.world.schema import ObjectDef

GATE = "area_gate"
LIMIT = 40  # the label's max_text_length


# ----------------------------------------------------------------------------- staging helpers
def stage(quill: bool = True, text: str = "") -> tuple[Any, str, str]:
    """A cleared world; agent_0 holds a label with `text` (and the quill).

    Returns (game, label id, label name)."""
    game = blank_game()
    [label] = give(game, "agent_0", "obj_label")
    game.world.writables[label].text = text
    if quill:
        give(game, "agent_0", "obj_quill")
    return game, label, game.world.name_of(label)


# ----------------------------------------------------------------------------- success paths
def test_write_on_a_held_label_with_the_quill() -> None:
    game, label, name = stage()
    res = act(game, "agent_0", ("write", ("hello world", name)), tracking=True)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["write.done"]
    assert res.feedback_text("agent_0") == f'I wrote "hello world" on {name}.'
    assert game.world.writables[label].text == "hello world"
    hand = {"kind": "hand", "id": "agent_0"}
    assert events(res) == [
        ("track.utilize", {"obj_id": "obj_quill", "amount": 1, "src": hand}),
        ("track.utilize", {"obj_id": label, "amount": 1, "src": hand}),
        (
            "writable_written",
            {"obj_id": label, "written_text": "hello world", "area_id": GATE},
        ),
    ]
    assert agent(game).hands == {label: 1, "obj_quill": 1}  # nothing is used up


def test_quoted_text_is_one_parameter_through_the_parser() -> None:
    game, label, name = stage()
    res = act(game, "agent_0", f'write "pear cider" {name}')
    assert res.feedback_keys("agent_0") == ["write.done"]
    assert game.world.writables[label].text == "pear cider"


# (text already there, text written) -> (text after, part written, keys)
WRITES = [
    ("", "abc", "abc", "abc", ["write.done"]),
    ("ab", "cd", "abcd", "cd", ["write.done"]),  # appended, no separator
    ("x" * 35, "hello", "x" * 35 + "hello", "hello", ["write.done"]),  # exactly fills
    ("x" * 38, "hello", "x" * 38 + "he", "he", ["write.done", "write.truncated"]),
    ("", "y" * 50, "y" * 40, "y" * 40, ["write.done", "write.truncated"]),
    ("ab", "", "ab", "", ["write.done"]),  # an empty text succeeds and writes nothing
]


@pytest.mark.parametrize(("before", "text", "after", "written", "keys"), WRITES)
def test_text_is_appended_and_cut_to_the_room_left(
    before: str, text: str, after: str, written: str, keys: list[str]
) -> None:
    game, label, name = stage(text=before)
    res = act(game, "agent_0", ("write", (text, name)))
    assert res.feedback_keys("agent_0") == keys
    assert game.world.writables[label].text == after
    assert len(after) <= LIMIT
    assert res.events[-1].data["written_text"] == written
    assert res.feedback_text("agent_0").startswith(f'I wrote "{written}" on {name}.')


def test_truncation_line_says_how_much_did_not_fit() -> None:
    game, _, name = stage(text="x" * 38)
    res = act(game, "agent_0", ("write", ("hello", name)))
    assert res.feedback_text("agent_0").splitlines()[1] == (
        f"I ran out of space on {name}: 3 characters did not fit."
    )


# ----------------------------------------------------------------------------- soft failures
def _nothing(game: Any, label: str) -> None:
    pass


def _no_quill(game: Any, label: str) -> None:
    del agent(game).hands["obj_quill"]


def _quill_in_inventory(game: Any, label: str) -> None:
    del agent(game).hands["obj_quill"]
    equip_inventory(game, {"obj_quill": 1})


def _label_on_ground(game: Any, label: str) -> None:
    del agent(game).hands[label]
    game.world.areas[GATE].add_objects(label, 1)


def _label_on_ground_no_quill(game: Any, label: str) -> None:
    _label_on_ground(game, label)
    _no_quill(game, label)


def _label_in_inventory(game: Any, label: str) -> None:
    del agent(game).hands[label]
    equip_inventory(game, {label: 1})


def _full(game: Any, label: str) -> None:
    game.world.writables[label].text = "z" * LIMIT


def _over_full(game: Any, label: str) -> None:
    game.world.writables[label].text = "z" * (LIMIT + 5)


def _crate_here(game: Any, label: str) -> None:
    put_on_ground(game, GATE, "obj_crate")


FAILURES = [
    (_nothing, ("hi", "unicorn"), "write.unknown_object"),
    (_nothing, ("hi", "LABEL"), "write.unknown_object"),
    (_no_quill, ("hi", "unicorn"), "write.unknown_object"),  # the name first
    (_nothing, ("hi", "quill"), "write.not_writable"),
    (_nothing, ("hi", "label"), "write.not_writable"),  # the kind, not an instance
    (_crate_here, ("hi", "crate_{n}"), "write.not_writable"),
    (_no_quill, ("hi", "{name}"), "write.no_tool"),
    (_quill_in_inventory, ("hi", "{name}"), "write.no_tool"),  # a tool must be in hand
    (_label_on_ground_no_quill, ("hi", "{name}"), "write.no_tool"),  # the tool before the writable
    (_label_on_ground, ("hi", "{name}"), "write.not_held"),
    (_label_in_inventory, ("hi", "{name}"), "write.not_held"),
    (_full, ("hi", "{name}"), "write.no_room"),
    (_full, ("", "{name}"), "write.no_room"),
    # Quirk "a writable over its limit refuses more text": over its limit the reference appended a
    # tail-cut copy; we refuse.
    (_over_full, ("hi", "{name}"), "write.no_room"),
]


@pytest.mark.parametrize(("setup", "params", "key"), FAILURES)
def test_soft_failures_change_nothing(setup: Any, params: tuple[str, str], key: str) -> None:
    game, label, name = stage()
    n = game.world.container_count["obj_crate"]
    setup(game, label)
    check_refused(game, ("write", tuple(p.format(name=name, n=n) for p in params)), key)


def test_a_prewritten_writable_has_no_room_beyond_its_text() -> None:
    """`obj_given_*` writables: the limit is the length of their fixed text."""
    game, _, _ = stage()
    game.world.add_object_def(
        ObjectDef(
            id="obj_given_letter",
            name="letter",
            category="tool",
            usage="writable",
            size=1,
            text="meet me at the vats",
            max_text_length=100,
        )
    )
    del agent(game).hands[next(iter(agent(game).hands))]  # drop the label, keep the quill
    [letter] = give(game, "agent_0", "obj_given_letter")
    res = act(game, "agent_0", ("write", ("hi", game.world.name_of(letter))))
    assert res.feedback_keys("agent_0") == ["write.no_room"]
    assert game.world.writables[letter].text == "meet me at the vats"


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_offers_a_template_per_held_writable_with_room() -> None:
    game, _, name = stage(text="x" * 39)
    assert valid_params(game, "write") == [("your text", name)]
    game2, _, _ = stage(text="x" * 40)
    assert valid_params(game2, "write") == []


def test_valid_params_needs_a_writing_tool_in_hand() -> None:
    game, _, _ = stage(quill=False)
    give(game, "agent_0", "obj_label")  # two labels, nothing to write with
    assert valid_params(game, "write") == []
    game.world.areas[GATE].add_objects("obj_quill", 1)  # a quill on the ground does not count
    assert valid_params(game, "write") == []


# ----------------------------------------------------------------------------- exactness property
HELD = ["obj_quill", "obj_quill", "obj_label", "obj_label", "obj_pear", "obj_coin"]
TEXTS = ["", "a", "x" * 39, "x" * 40, "x" * 45]


def random_stage(game: Any, seed: int) -> Any:
    """A random writing situation on a reused game (the same for the same seed)."""
    rng = restage(game, seed)
    held = ["obj_quill", "obj_label"] if rng.random() < 0.5 else rng.sample(HELD, rng.randint(0, 2))
    for def_id in held:
        [oid] = give(game, "agent_0", def_id)
        if oid in game.world.writables:
            game.world.writables[oid].text = rng.choice(TEXTS)
    [lying] = put_on_ground(game, GATE, "obj_label")
    game.world.writables[lying].text = rng.choice(TEXTS)
    if rng.random() < 0.5:
        inner = game.world.new_instance("obj_label")
        equip_inventory(game, {"obj_quill": 1, inner: 1})
    return game


def names_to_try(game: Any, rng: random.Random) -> list[str]:
    """Every name of something in reach, and a sample of every other name in the world."""
    world, body = game.world, agent(game)
    near = [*body.hands, *body.equipped, *world.areas[GATE].objects]
    if body.inventory_id is not None:
        near += world.containers[body.inventory_id].items
    everything = [*world.obj_name_to_id, "inventory", "gate"]
    return [world.name_of(oid) for oid in near] + rng.sample(everything, 6)


def test_valid_params_agree_exactly_with_apply() -> None:
    """A listed writable accepts any text (the template and others); every other name fails.
    Not harness.check_valid_params_sampled: a listed tuple is a template standing for any text."""
    reused = make_game()
    checked = listed_total = 0
    for seed in range(200):
        listed = valid_params(random_stage(reused, seed), "write")
        listed_total += len(listed)
        rng = random.Random(1000 + seed)
        names = names_to_try(random_stage(reused, seed), rng)
        tries = [*listed, *((rng.choice(["hi", "", "w" * 50]), n) for n in names)]
        for params in tries:
            game = random_stage(reused, seed)
            res = act(game, "agent_0", ("write", params))
            assert not res.invalid["agent_0"]
            expected = ("your text", params[1]) in listed
            assert res.action_ok["agent_0"] == expected, (seed, params, res.feedback)
            checked += 1
    assert checked > 1500 and listed_total > 50
