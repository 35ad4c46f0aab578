"""What an agent may do now: valid-action lists for language agents, and action masks.

Layer: observe. Every verb rule enumerates the parameters it would accept (`valid_params`), computed
from the same state the rule reads, so a listed command is always accepted by the engine (with the
other agents idle). Lists are built only when asked for.

An agent in the dark (`world.darkness`) is offered only the verbs whose listings reveal nothing
darkness hides (`offered_in_dark`); the others list nothing and their entries are masked, though
typed they still work (docs/rule-packs.md, "Listings in the dark"). An agent whose turn is
lost this tick (`Game.forced_turn`) is offered only the command it will play (docs/rule-packs.md,
"Lost turns").
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from agentodyssey_pz.errors import RuleError
from agentodyssey_pz.observe.catalogue import ActionCatalogue, Target, in_order
from agentodyssey_pz.observe.listing_cache import AgentListings, ListingCache, lists_from_reach
from agentodyssey_pz.rules.base import BaseActionRule
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import Command, command_text
from agentodyssey_pz.world.darkness import in_darkness

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game
    from agentodyssey_pz.world.agents import AgentState

# The reference's grouping order (docs/mechanics/observations.md#valid-actions), with `talk to`
# and `defend` added; verbs of other packs follow in rule order.
VERB_ORDER = (
    "enter",
    "pick_up",
    "drop",
    "attack",
    "talk_to",
    "store",
    "take_out",
    "discard",
    "equip",
    "unequip",
    "inspect",
    "craft",
    "buy",
    "sell",
    "write",
    "defend",
    "wait",
)


ParamsByVerb = dict[str, list[tuple[str, ...]]]
# What the last mask saw, per verb: the (target, params) its rule reported. Executing a discrete
# action in that same state looks its parameters up here instead of asking the rule again.
MaskOptions = dict[str, list[tuple[Target, tuple[str, ...]]]]


def rule_raised(rule: object, method: str, exc: Exception) -> RuleError:
    """A rule's listing method raised while an observation was built: name the rule."""
    return RuleError(
        f"{type(rule).__qualname__} ({getattr(rule, 'name', '?')!r}) raised "
        f"{type(exc).__name__} in {method}: {exc}"
    )


@functools.cache
def reuses_mask(rule_class: type) -> bool:
    """Whether a verb's valid list may be taken from its mask list: it says so
    (`valid_params_from_mask`) in the very class that defines `mask_targets`, whose `valid_params`
    is its own or the base class's (derived from `mask_targets` under that promise), so a subclass
    that overrides one of them does not inherit the promise by accident; and its `valid_commands`
    is the base class's or that class's own, since its commands are then written from the mask's."""
    if not getattr(rule_class, "valid_params_from_mask", False):
        return False

    def owner(name: str) -> type:
        return next(k for k in rule_class.__mro__ if name in vars(k))

    promised = owner("valid_params_from_mask")
    if owner("valid_params") not in (promised, BaseActionRule):
        return False
    if owner("mask_targets") is not promised:
        return False
    return owner("valid_commands") in (promised, BaseActionRule)


@functools.cache
def offered_in_dark(rule_class: type, holdings_hidden: bool = True) -> bool:
    """Whether a verb is offered to an agent in the dark: it says so (`dark_safe`, or `dim_safe`
    where the dark hides only the surroundings: `holdings_hidden` False) in a class that its
    listing methods (`mask_targets`, `valid_params`, `valid_commands`) are inherited from, so a
    subclass that rewrites one of them below that class does not inherit the promise."""
    promises = ("dark_safe",) if holdings_hidden else ("dark_safe", "dim_safe")
    mro = rule_class.__mro__

    def owner(name: str) -> type:
        return next(k for k in mro if name in vars(k))

    for promise in promises:
        if getattr(rule_class, promise, False):
            promised = owner(promise)
            if all(
                issubclass(promised, owner(name))
                for name in ("mask_targets", "valid_params", "valid_commands")
            ):
                return True
    return False


def darkness_kind(game: Game, agent: AgentState) -> str:
    """ "" when the agent can see; "dark" in the dark; "dim" in a dark that hides only the
    surroundings (`features.darkness.hides`). Not even asks `in_darkness` in a world without
    darkness (every agent, every tick)."""
    world = game.world
    darkness = world.definition.features.darkness
    if darkness is None or not in_darkness(world, agent):
        return ""
    return "dim" if darkness.hides == "surroundings" else "dark"


@functools.lru_cache(maxsize=64)  # rule sets are fixed per game: a handful per process
def _verb_order(verbs: tuple[tuple[str, str | None], ...]) -> tuple[str, ...]:
    order = list(in_order(tuple(v for v, _ in verbs), VERB_ORDER))
    follows = {v: after for v, after in verbs if after is not None and after != v}
    placed = set(order) - set(follows)
    pending = [v for v in order if v in follows]
    order = [v for v in order if v in placed]
    while pending:  # each verb right after the one it names, chains in turn (a before b: b, a)
        ready = [v for v in pending if follows[v] in placed]
        if not ready:  # names a verb that is absent (or a cycle): where it was, at the end
            order += pending
            break
        for v in reversed(ready):  # the first of several after one verb ends first
            order.insert(order.index(follows[v]) + 1, v)
            placed.add(v)
        pending = [v for v in pending if v not in placed]
    return tuple(order)


def verbs_in_order(rules: dict) -> tuple[str, ...]:
    """The verb ids of a rule set in `VERB_ORDER`, other packs' verbs after them, except
    those that name the verb they come right after (`BaseActionRule.listed_after`)."""
    return _verb_order(tuple((v, getattr(r, "listed_after", None)) for v, r in rules.items()))


# (verb id, rule, verb phrase, whether its valid list is its mask list) per verb in `VERB_ORDER`'s
# order: what the per-agent listing loops need, found once per rule set instead of per verb and
# agent. The env keeps it in its `ListingCache`; callers without one (a command line, the audit's
# fresh listings) build it per call, a few microseconds. An agent in the dark is listed from the
# plan of the verbs offered there (`dark="dark"` or "dim"), so the loops ask nothing more per verb.
ListingPlan = tuple[tuple[str, Any, str, bool], ...]


def listing_plan(
    rules: dict, cache: ListingCache | None = None, dark: str | bool = ""
) -> ListingPlan:
    """The rule set's listing plan (`dark`: "dim", or "dark" (True), of the verbs offered there,
    see `darkness_kind`): the env's own (`cache`), else built afresh."""
    kind = "" if not dark else "dim" if dark == "dim" else "dark"
    if not kind:
        build = build_listing_plan
    else:
        build = build_dim_listing_plan if kind == "dim" else build_dark_listing_plan
    if cache is not None:
        return cache.plan(f"{kind} listing", rules, None, build)
    return build(rules)


def build_listing_plan(rules: dict, _: object = None) -> ListingPlan:
    return tuple(
        (verb_id, rules[verb_id], rules[verb_id].verb, reuses_mask(type(rules[verb_id])))
        for verb_id in verbs_in_order(rules)
    )


def build_dark_listing_plan(rules: dict, _: object = None) -> ListingPlan:
    return tuple(p for p in build_listing_plan(rules) if offered_in_dark(type(p[1])))


def build_dim_listing_plan(rules: dict, _: object = None) -> ListingPlan:
    return tuple(p for p in build_listing_plan(rules) if offered_in_dark(type(p[1]), False))


# (verb, rule, the verb's catalogue slots, whether its listing is kept while the reach holds) per
# catalogue verb: what `action_mask` needs per verb, found once per env instead of per verb and
# agent. The rule, not its bound method: a rule's methods may be wrapped after the env was made.
MaskPlan = tuple[tuple[str, Any, dict, bool], ...]


def mask_plan(rules: dict, catalogue: ActionCatalogue) -> MaskPlan:
    return tuple(
        (verb, rules[verb], catalogue.slots[verb], lists_from_reach(type(rules[verb])))
        for verb in catalogue.verbs
    )


def dark_mask_plan(rules: dict, catalogue: ActionCatalogue) -> MaskPlan:
    """`mask_plan` of the verbs offered in the dark."""
    return tuple(p for p in mask_plan(rules, catalogue) if offered_in_dark(type(p[1])))


def dim_mask_plan(rules: dict, catalogue: ActionCatalogue) -> MaskPlan:
    """`mask_plan` of the verbs offered in a dark that hides only the surroundings."""
    return tuple(p for p in mask_plan(rules, catalogue) if offered_in_dark(type(p[1]), False))


def valid_params_by_verb(
    game: Game,
    agent_id: str,
    *,
    all_amounts: bool = True,
    mask_options: MaskOptions | None = None,
    cache: ListingCache | None = None,
) -> ParamsByVerb:
    """Verb id -> every parameter tuple with which it would take effect now (verbs in `VERB_ORDER`'s
    order; verbs with nothing to offer are left out).

    `mask_options`: what `action_mask` found for this agent in this very state; verbs whose valid
    list is their mask list (`valid_params_from_mask`) are then not asked again. `cache`: the
    environment's listings of earlier ticks, reused for reach-only verbs while the reach holds."""
    rules = game.engine.rules
    agent = game.agents[agent_id]
    ctx = _listing_context(game, agent, cache)
    # `darkness_kind`, not even called in a world without darkness (every agent, every tick).
    no_dark = game.world.definition.features.darkness is None
    dark = "" if no_dark else darkness_kind(game, agent)
    kept = _kept_listings(cache, game, rules, agent, dark, same_state=mask_options is not None)
    forced = game.forced_turn(agent) if game.hooks.forcing else None
    out: ParamsByVerb = {}
    for verb_id, rule, _, from_mask in listing_plan(rules, cache, dark):
        if forced is not None and verb_id != forced[1].verb:
            continue
        cached = kept.params.get((verb_id, all_amounts)) if kept is not None else None
        if cached is not None:
            params_list = list(cached)
        elif from_mask and mask_options is not None:
            params_list = [params for _, params in mask_options.get(verb_id, ())]
        else:
            ctx.action = verb_id
            try:
                params_list = rule.valid_params(ctx, all_amounts=all_amounts)
            except Exception as exc:
                raise rule_raised(rule, "valid_params", exc) from exc
            if kept is not None and verb_id in kept.verbs:
                kept.params[verb_id, all_amounts] = params_list
                params_list = list(params_list)
        if forced is not None:
            params_list = [p for p in params_list if p == forced[1].params]
        if params_list:
            out[verb_id] = params_list
    return out


def valid_actions(
    game: Game,
    agent_id: str,
    params_by_verb: ParamsByVerb | None = None,
    *,
    mask_options: MaskOptions | None = None,
    cache: ListingCache | None = None,
) -> dict[str, list[str]]:
    """Verb phrase -> every command this agent could issue now with effect, in `VERB_ORDER`'s order.

    Each verb writes its own list (`valid_commands`), except verbs whose valid list is their mask
    list (`reuses_mask`): their mask targets are written out. Given `params_by_verb`, those
    parameters are written out instead. `mask_options`: what `action_mask` found for this agent in
    this very state, so those verbs are not asked again. `cache`: the environment's listings of
    earlier ticks, reused for reach-only verbs while the reach holds (each list handed out is a
    copy)."""
    rules = game.engine.rules
    if params_by_verb is not None:
        return {
            rules[verb].verb: [command_text(rules[verb].verb, p) for p in params_list]
            for verb, params_list in params_by_verb.items()
        }
    agent = game.agents[agent_id]
    ctx = _listing_context(game, agent, cache)
    # `darkness_kind`, not even called in a world without darkness (every agent, every tick).
    no_dark = game.world.definition.features.darkness is None
    dark = "" if no_dark else darkness_kind(game, agent)
    kept = _kept_listings(cache, game, rules, agent, dark, same_state=mask_options is not None)
    forced = game.forced_turn(agent) if game.hooks.forcing else None
    out: dict[str, list[str]] = {}
    for verb_id, rule, phrase, from_mask in listing_plan(rules, cache, dark):
        if forced is not None and verb_id != forced[1].verb:
            continue
        cached = kept.commands.get(verb_id) if kept is not None else None
        if cached is not None:
            lines = list(cached)
        else:
            ctx.action = verb_id
            try:
                if not from_mask:
                    lines = rule.valid_commands(ctx)
                else:  # the mask's findings written out, no valid-params list in between
                    found = (
                        rule.mask_targets(ctx)
                        if mask_options is None
                        else mask_options.get(verb_id, ())
                    )
                    lines = [command_text(phrase, p) for _, p in found] if found else []
            except Exception as exc:
                method = "mask_targets" if from_mask else "valid_commands"
                raise rule_raised(rule, method, exc) from exc
            if kept is not None and verb_id in kept.verbs:
                kept.commands[verb_id] = lines
                lines = list(lines)
        if forced is not None:
            lines = [line for line in lines if line == command_text(phrase, forced[1].params)]
        if lines:
            out[phrase] = lines
    return out


def _kept_listings(
    cache: ListingCache | None,
    game: Game,
    rules: dict,
    agent: AgentState,
    dark: str,
    *,
    same_state: bool,
) -> AgentListings | None:
    """The cache's listings for this agent (`dark`: `darkness_kind`, "" in the light);
    `same_state`: the caller also holds the mask of this very state, whose lookup answered for it
    already."""
    if cache is None:
        return None
    if same_state:
        return cache.again(game.world, rules, agent, dark)
    return cache.for_agent(game.world, rules, agent, dark)


def _listing_context(
    game: Game, agent: AgentState, cache: ListingCache | None = None, verb: str = ""
) -> RuleContext:
    """The context a listing method is asked in: no parameters, and the cache's `shared` memo
    while the env is in a listing phase."""
    shared = cache.shared if cache is not None else None
    return RuleContext(game, game.world, agent, verb, (), game.tick_index, shared)


def action_mask(
    game: Game,
    agent_id: str,
    catalogue: ActionCatalogue,
    out: np.ndarray | None = None,
    options: MaskOptions | None = None,
    cache: ListingCache | None = None,
) -> np.ndarray:
    """Fill `out` (int8, one slot per catalogue entry; a new array when None) with 1 where the
    entry would take effect now.

    Each verb reports its entries that would take effect, with the concrete parameters
    (`mask_targets`, equivalent to its own `valid_params` - the tests check both); execution
    resolves an entry to those same parameters. `options`, when given, receives what each verb
    reported, for `resolve_entry` (read-only: the lists may be the cache's). `cache`: the
    environment's listings of earlier ticks, reused for reach-only verbs while the reach holds."""
    if out is None:
        out = np.zeros(len(catalogue), np.int8)
    else:
        out.fill(0)
    view = memoryview(out)  # item writes without numpy's per-call cost (a few per verb)
    rules = game.engine.rules
    agent = game.agents[agent_id]
    # `darkness_kind`, not even called in a world without darkness (every agent, every tick).
    no_dark = game.world.definition.features.darkness is None
    dark = "" if no_dark else darkness_kind(game, agent)
    build = mask_plan if not dark else dim_mask_plan if dark == "dim" else dark_mask_plan
    if cache is not None:
        plan = cache.plan(f"{dark} mask", rules, catalogue, build)
    else:
        plan = build(rules, catalogue)
    ctx = _listing_context(game, agent, cache)
    kept = _kept_listings(cache, game, rules, agent, dark, same_state=False)
    kept_found = kept.found if kept is not None else None
    forced = game.forced_turn(agent) if game.hooks.forcing else None
    for verb, rule, slots, reach_only in plan:
        if forced is not None and verb != forced[1].verb:
            continue
        found = kept_found.get(verb) if reach_only and kept_found is not None else None
        if found is None:
            ctx.action = verb
            try:
                found = rule.mask_targets(ctx)
            except Exception as exc:
                raise rule_raised(rule, "mask_targets", exc) from exc
            if reach_only and kept_found is not None:
                kept_found[verb] = found
        if forced is not None:  # a lost turn: only the command it is replaced with
            found = [(t, p) for t, p in found if p == forced[1].params]
        if not found:
            continue
        if options is not None:
            options[verb] = found
        for target, _ in found:
            i = slots.get(target)
            if i is not None:  # None: a target the definition lacks (e.g. added by expansion)
                view[i] = 1
    return out


def resolve_entry(
    game: Game,
    agent_id: str,
    catalogue: ActionCatalogue,
    index: int,
    options: MaskOptions | None = None,
) -> Command:
    """The concrete command a catalogue entry means for this agent now.

    The parameters its verb reports first for the entry's target (from `options` when the mask of
    this very state filled it); if the entry is not possible now, its canonical form (definition
    names), which the rule refuses with feedback. In the dark, a verb not offered there
    (`offered_in_dark`) runs its canonical command, as if typed: it may work, and it tells the
    agent nothing darkness hides (`options` of a mask made in the dark hold no such verb)."""
    entry = catalogue.entries[index]
    if options is not None:
        found = options.get(entry.verb, ())
    else:
        rule, agent = game.engine.rules[entry.verb], game.agents[agent_id]
        dark = darkness_kind(game, agent)
        if dark and not offered_in_dark(type(rule), dark == "dark"):
            found = ()
        else:
            found = rule.mask_targets(_listing_context(game, agent, verb=entry.verb))
    for target, params in found:
        if target == entry.target:
            return Command(entry.verb, tuple(params))
    return canonical_command(game, catalogue, index)


def canonical_command(game: Game, catalogue: ActionCatalogue, index: int) -> Command:
    """An entry's command with definition names (what its label says). Parameters a label leaves
    to the state (the merchant of `buy 1 bread`) are filled with a placeholder (`<npc_name>`), so
    a masked entry is a well-formed command its verb refuses, like any other."""
    entry = catalogue.entries[index]
    rule = game.engine.rules[entry.verb]
    parsed = game.engine.parse(entry.label)  # quoted texts stay one parameter
    if isinstance(parsed, Command) and parsed.verb == entry.verb:
        params = parsed.params
    else:
        params = tuple(entry.label.split(" ")[len(rule.verb.split(" ")) :])  # a spare's label
    missing = rule.params[len(params) : rule.param_min]
    shape = rule.catalogue
    if shape is not None and shape.target == "npc" and shape.name is not None:
        # A prototype's name an NPC of another prototype now bears (a quest guide renamed from a
        # pool of names): the entry means this prototype, so its canonical command names no one.
        name = params[shape.name] if shape.name < len(params) else None
        npc_id = game.world.npc_name_to_id.get(name) if name is not None else None
        if npc_id is not None and game.world.npcs[npc_id].def_id != entry.target:
            params = (*params[: shape.name], "<npc_name>", *params[shape.name + 1 :])
    return Command(entry.verb, (*params, *(f"<{name}>" for name in missing)))
