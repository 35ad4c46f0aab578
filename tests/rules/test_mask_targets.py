"""Each verb's fast `mask_targets` equals what its own `valid_params` implies for the catalogue.

The catalogue entry of a verb is its canonical discrete form (amount "1", container "inventory");
`BaseActionRule.mask_targets` derives those entries from `valid_params`. Verbs may override it for
speed; this checks every override against the derivation in hundreds of random states on every
bundled world, so action masks stay exactly as valid as the valid-action lists.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from harness import act, give, make_game
from worlds_helper import bundled_worlds

from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.observe.listing_cache import ListingCache
from agentodyssey_pz.observe.masks import (
    action_mask,
    listing_plan,
    offered_in_dark,
    reuses_mask,
    valid_actions,
    valid_params_by_verb,
    verbs_in_order,
)
from agentodyssey_pz.rules.base import BaseActionRule
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import Command, command_text


def derived(rule: BaseActionRule, ctx: RuleContext) -> set:
    return {(t, tuple(p)) for t, p in BaseActionRule.mask_targets(rule, ctx)}


def overriding_verbs(game) -> list[str]:
    return [
        verb
        for verb, rule in game.engine.rules.items()
        if type(rule).mask_targets is not BaseActionRule.mask_targets
    ]


def walk(game, rng: random.Random, ticks: int):  # type: ignore[no-untyped-def]
    """Yield before each tick of a random walk (valid actions, uniform over verbs, then over
    commands) until `ticks` ticks or the end of the game."""
    for _ in range(ticks):
        yield
        actions = {}
        for agent_id in game.agent_ids:
            listed = valid_actions(game, agent_id)
            actions[agent_id] = rng.choice(listed[rng.choice(list(listed))])
        if game.tick(actions).terminated:
            return


def each_verb(game, verbs):  # type: ignore[no-untyped-def]
    """(agent id, verb, rule, context) for every agent and each of `verbs`, in the current state."""
    for agent_id in game.agent_ids:
        ctx = RuleContext(game, game.world, game.agents[agent_id], "", (), game.tick_index)
        for verb in verbs:
            ctx.action = verb
            yield agent_id, verb, game.engine.rules[verb], ctx


def wear_bag(game, agent_id: str) -> None:  # type: ignore[no-untyped-def]
    bag = next(o.id for o in game.world.objects.values() if o.is_container)
    (bag_id,) = give(game, agent_id, bag)
    result = act(game, agent_id, f"equip {game.world.containers[bag_id].name}")
    assert result.action_ok[agent_id]


@pytest.mark.parametrize("world", bundled_worlds())
def test_overrides_equal_the_derivation_from_valid_params(world: str) -> None:
    game = make_game(world, agents=3, seed=7, tutorial=False)
    verbs = overriding_verbs(game)
    assert verbs, "no verb overrides mask_targets: this test would check nothing"
    rng = random.Random(world)
    loose = [o.id for o in game.world.objects.values() if o.size and not o.is_instanced]
    for agent_id in game.agent_ids[:2]:  # two agents wear a bag: inventories get exercised
        wear_bag(game, agent_id)
        for oid in rng.sample(loose, 4):
            game.world.areas[game.agents[agent_id].area_id].add_objects(oid, rng.randint(1, 5))
    compared = 0
    for _ in walk(game, rng, 300):
        for agent_id, verb, rule, ctx in each_verb(game, verbs):
            fast = {(t, tuple(p)) for t, p in rule.mask_targets(ctx)}
            assert fast == derived(rule, ctx), (world, game.tick_index, agent_id, verb)
            compared += len(fast)
    assert compared > 200  # the walk reached states where the overridden verbs had entries


@pytest.mark.parametrize("world", bundled_worlds())
def test_verbs_that_promise_it_list_exactly_their_mask_parameters(world: str) -> None:
    """`valid_params_from_mask`: the valid-action list reuses the mask's findings for these verbs,
    so their valid parameters must be exactly the parameters of their mask targets."""
    game = make_game(world, agents=3, seed=11, tutorial=False)
    promising = [v for v, r in game.engine.rules.items() if reuses_mask(type(r))]
    assert {"pick_up", "drop", "enter", "attack", "talk_to", "inspect"} <= set(promising)
    catalogue = ActionCatalogue(game.definition, game.engine.rules)
    rng = random.Random(world)
    checked = 0
    for _ in walk(game, rng, 200):
        for _, verb, rule, ctx in each_verb(game, promising):
            projected = [p for _, p in rule.mask_targets(ctx)]
            assert rule.valid_params(ctx) == projected, (world, verb)
            checked += len(projected)
        for agent_id in game.agent_ids:
            options: dict = {}
            action_mask(game, agent_id, catalogue, np.empty(len(catalogue), np.int8), options)
            listed = valid_actions(game, agent_id)
            assert valid_actions(game, agent_id, mask_options=options) == listed
            # Without a mask too, these verbs' commands are written from their mask targets:
            # the same as writing out every verb's own `valid_params`.
            assert listed == valid_actions(game, agent_id, valid_params_by_verb(game, agent_id))
    assert checked > 300


def test_a_subclass_overriding_one_method_does_not_inherit_the_promise() -> None:
    from agentodyssey_pz.rules.base import CatalogueShape

    class Promising(BaseActionRule):
        name = verb = "promise"
        catalogue = CatalogueShape("object", name=0)
        valid_params_from_mask = True

        def apply(self, ctx, res):  # type: ignore[no-untyped-def]
            return None

        def valid_params(self, ctx, *, all_amounts=True):  # type: ignore[no-untyped-def]
            return [p for _, p in self.mask_targets(ctx)]

        def mask_targets(self, ctx):  # type: ignore[no-untyped-def]
            return []

    class NewList(Promising):
        def valid_params(self, ctx, *, all_amounts=True):  # type: ignore[no-untyped-def]
            return [("extra",)]

    class NewCommands(Promising):  # its valid list is still the mask's, written its own way
        def valid_commands(self, ctx):  # type: ignore[no-untyped-def]
            return ["promise everything"]

    assert reuses_mask(Promising)
    assert not reuses_mask(NewList)
    assert not reuses_mask(NewCommands)


def test_the_promise_derives_valid_params_from_mask_targets() -> None:
    """Under `valid_params_from_mask` a verb defines `mask_targets` alone: the base `valid_params`
    returns its parameters, whatever `all_amounts`, from the class's own (or a subclass's)
    `mask_targets`; the promise is kept by the class defining `mask_targets`, not by a subclass
    that rewrites either method."""
    from agentodyssey_pz.rules.base import CatalogueShape

    class Derived(BaseActionRule):
        name = verb = "derive"
        params = ("object_name",)
        param_min = param_max = 1
        catalogue = CatalogueShape("object", name=0)
        valid_params_from_mask = True

        def apply(self, ctx, res):  # type: ignore[no-untyped-def]
            return None

        def mask_targets(self, ctx):  # type: ignore[no-untyped-def]
            return [("coin", ("coin",)), ("apple", ("apple",))]

    class OtherMask(Derived):
        def mask_targets(self, ctx):  # type: ignore[no-untyped-def]
            return [("stick", ("stick",))]

    class OwnList(Derived):
        def valid_params(self, ctx, *, all_amounts=True):  # type: ignore[no-untyped-def]
            return [("coin",)]

    class Unpromised(Derived):  # turning the promise off gives the plain default back
        valid_params_from_mask = False

    ctx = None  # none of these listings reads it
    for all_amounts in (True, False):
        assert Derived().valid_params(ctx, all_amounts=all_amounts) == [("coin",), ("apple",)]
    assert OtherMask().valid_params(ctx) == [("stick",)]
    assert Unpromised().valid_params(ctx) == []
    assert reuses_mask(Derived)
    assert not reuses_mask(OtherMask) and not reuses_mask(OwnList) and not reuses_mask(Unpromised)


def test_the_promise_without_mask_targets_is_refused_when_the_class_is_made() -> None:
    """Each base listing derives from the other one: a verb promising `valid_params_from_mask`
    without a `mask_targets` of its own (with or without its own `valid_params`) is a TypeError
    naming it and the method, at class creation, never a recursion in the middle of a tick. A
    subclass of a class that defines `mask_targets` inherits it and is fine."""
    from agentodyssey_pz.rules.base import CatalogueShape

    with pytest.raises(TypeError, match=r"Bare sets `valid_params_from_mask = True` but does not"
                                        r" define `mask_targets`"):  # fmt: skip

        class Bare(BaseActionRule):
            name = verb = "bare"
            catalogue = CatalogueShape("none")
            valid_params_from_mask = True

            def apply(self, ctx, res):  # type: ignore[no-untyped-def]
                return None

    with pytest.raises(TypeError, match="ListOnly sets `valid_params_from_mask = True`"):

        class ListOnly(BaseActionRule):
            name = verb = "list_only"
            valid_params_from_mask = True

            def apply(self, ctx, res):  # type: ignore[no-untyped-def]
                return None

            def valid_params(self, ctx, *, all_amounts=True):  # type: ignore[no-untyped-def]
                return [()]

    class Masked(BaseActionRule):
        name = verb = "masked"
        catalogue = CatalogueShape("none")

        def apply(self, ctx, res):  # type: ignore[no-untyped-def]
            return None

        def mask_targets(self, ctx):  # type: ignore[no-untyped-def]
            return [(None, ())]

    class Promised(Masked):
        valid_params_from_mask = True

    assert Promised().valid_params(None) == [()]


def test_bundled_verbs_promising_the_mask_define_mask_targets_and_seldom_valid_params() -> None:
    """The bundled packs' verbs under `valid_params_from_mask` take their valid parameters from the
    base class (one mechanism, no copied one-line override), except `inspect`, whose two listings
    are both written out for speed."""
    from agentodyssey_pz.resources import bundled_pack_names
    from agentodyssey_pz.rules.packs import bundled_pack

    own_lists = []
    promising = 0
    for pack in ["base", *bundled_pack_names()]:
        for cls in bundled_pack(pack).action_rules:
            if cls.valid_params_from_mask:
                promising += 1
                if cls.valid_params is not BaseActionRule.valid_params:
                    own_lists.append(cls.name)
    # 25 verbs, jam and siphon (sabotage's listings), war_machines' attack (base's) and inspect
    assert promising == 29
    assert own_lists == ["inspect"]


def test_a_subclass_rewriting_a_listing_is_not_offered_in_the_dark() -> None:
    """`dark_safe` holds for a subclass that only changes what the verb does (a louder wait),
    not for one that rewrites a listing method below the class that promised, unless it promises
    again."""

    class Calm(BaseActionRule):
        name = verb = "calm"
        dark_safe = True

        def apply(self, ctx, res):  # type: ignore[no-untyped-def]
            return None

    class Louder(Calm):
        def apply(self, ctx, res):  # type: ignore[no-untyped-def]
            res.say(ctx.actor.id, "calm.loud", "I calmed down, loudly.")

    class Listing(Calm):
        def valid_params(self, ctx, *, all_amounts=True):  # type: ignore[no-untyped-def]
            return [()] if ctx.actor.hands else []  # reads the hands

    class Commands(Calm):
        def valid_commands(self, ctx):  # type: ignore[no-untyped-def]
            return ["calm"]

    class Promised(Listing):
        dark_safe = True

    class Hidden(Calm):
        dark_safe = False

    assert offered_in_dark(Calm) and offered_in_dark(Louder) and offered_in_dark(Promised)
    assert not offered_in_dark(Listing) and not offered_in_dark(Commands)
    assert not offered_in_dark(Hidden)
    assert not offered_in_dark(BaseActionRule)


def test_the_listing_plan_follows_its_rule_set() -> None:
    """`listing_plan`: each verb of a rule set in `VERB_ORDER` with its rule, phrase and mask
    promise; kept by an env's cache for the same dict, made afresh for another one or a changed
    one (and without a cache, the same plan built per call). The plan of the dark holds the verbs
    offered there, in the same order."""
    rules = make_game().engine.rules
    cache = ListingCache()
    plan = listing_plan(rules, cache)
    assert [v for v, *_ in plan] == list(verbs_in_order(rules))
    assert all(r is rules[v] and p == r.verb and m == reuses_mask(type(r)) for v, r, p, m in plan)
    dark = listing_plan(rules, cache, dark=True)
    assert dark == tuple(p for p in plan if offered_in_dark(type(p[1])))
    assert [v for v, *_ in dark] == ["enter", "defend", "wait"]
    assert listing_plan(rules, cache, dark=True) is dark and listing_plan(rules, dark=True) == dark
    assert listing_plan(rules, cache) is plan
    assert listing_plan(rules) == plan
    copied = dict(rules)
    assert listing_plan(copied, cache) == plan and listing_plan(copied, cache) is not plan
    del copied["wait"]
    assert "wait" not in [v for v, *_ in listing_plan(copied, cache)]


@pytest.mark.parametrize("world", bundled_worlds())
def test_each_verbs_written_commands_are_its_valid_params(world: str) -> None:
    """`valid_commands` (cached amount runs for store, discard, craft, buy, sell) writes exactly
    `valid_params`, in order, as commands the parser reads back to those parameters."""
    game = make_game(world, agents=3, seed=5, tutorial=False)
    rng = random.Random(f"{world}-commands")
    wear_bag(game, "agent_0")
    written = 0
    for _ in walk(game, rng, 200):
        for _, verb, rule, ctx in each_verb(game, list(game.engine.rules)):
            lines = rule.valid_commands(ctx)
            assert lines == [command_text(rule.verb, p) for p in rule.valid_params(ctx)], verb
            for line, params in zip(lines[:3], rule.valid_params(ctx)[:3], strict=False):
                assert game.engine.parse(line) == Command(verb, params), line
            written += len(lines)
    assert written > 2000
