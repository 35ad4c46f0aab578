"""Rule base classes and `RuleResult`, the record every rule writes what happened into.

Layer: rule framework. An action rule is one verb; a step rule is one background system run once per
tick. Rules change state and report through `RuleResult`: feedback lines (each with a stable key
naming the outcome, e.g. `pick_up.hands_full`), events, and per-agent flags. A soft failure
(`res.fail`) leaves the state untouched and tells the agent why; it never raises.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import attrs

from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import (
    TRACK_CONSUME,
    TRACK_MOVE,
    TRACK_SPAWN,
    TRACK_UTILIZE,
    Event,
)
from agentodyssey_pz.rules.parse import Command, command_text
from agentodyssey_pz.rules.state_shape import rule_state_problems
from agentodyssey_pz.world.agents import INVENTORY
from agentodyssey_pz.world.quests import texts_to_write
from agentodyssey_pz.world.world import World

LOG = logging.getLogger("agentodyssey_pz.rules")


class RuleResult:
    """Feedback, events and flags of one tick, for every agent."""

    __slots__ = ("action_ok", "by_agent", "events", "feedback", "invalid", "tracking")

    def __init__(self, agent_ids: Iterable[str], tracking: bool = False) -> None:
        ids = list(agent_ids)
        self.feedback: dict[str, list[tuple[str, str]]] = {a: [] for a in ids}
        self.invalid: dict[str, bool] = dict.fromkeys(ids, False)  # step_invalid_action
        self.action_ok: dict[str, bool] = dict.fromkeys(ids, False)
        self.events: list[Event] = []
        self.by_agent: dict[str | None, list[Event]] = {}
        # Dependency tracking is opt-in; when off, track_* calls cost one attribute test.
        self.tracking = tracking

    # ---------------------------------------------------------------- feedback
    def say(self, agent_id: str, key: str, text: str) -> None:
        """Add one feedback line (`key` names the outcome; `text` is what the agent reads). An id
        without an entry gets one, so a pack may address anyone."""
        lines = self.feedback.get(agent_id)
        if lines is None:
            lines = self.feedback[agent_id] = []
        lines.append((key, text))

    def fail(self, agent_id: str, key: str, text: str) -> None:
        """A soft failure: the agent is told why, its action counts as not taken."""
        self.say(agent_id, key, text)
        self.action_ok[agent_id] = False

    def mark_invalid(self, agent_id: str, key: str, text: str) -> None:
        """Unparsable or malformed input: flagged invalid; the agent does nothing this tick."""
        self.fail(agent_id, key, text)
        self.invalid[agent_id] = True

    def feedback_text(self, agent_id: str) -> str:
        texts = []  # a plain loop: a line or two, every agent, every tick
        for _, text in self.feedback[agent_id]:
            if text:
                texts.append(text)
        return "\n".join(texts)

    def feedback_keys(self, agent_id: str) -> list[str]:
        return [key for key, _ in self.feedback[agent_id]]

    # ---------------------------------------------------------------- events
    def emit(self, type_: str, agent_id: str | None, data: dict[str, Any] | None = None) -> Event:
        event = Event(type_, agent_id, data if data is not None else {})
        self.events.append(event)
        bucket = self.by_agent.get(agent_id)
        if bucket is None:
            self.by_agent[agent_id] = [event]
        else:
            bucket.append(event)
        return event

    def events_of(self, agent_id: str | None, type_: str | None = None) -> list[Event]:
        """This tick's events about one agent, optionally of one type, in order."""
        bucket = self.by_agent.get(agent_id)
        if not bucket:
            return []
        return bucket if type_ is None else [e for e in bucket if e.type == type_]

    def has_event(self, type_: str) -> bool:
        for event in self.events:  # noqa: SIM110 - a plain loop: asked every tick (termination)
            if event.type == type_:
                return True
        return False

    # ---------------------------------------------------------------- dependency tracking
    def track_move(self, agent_id: str, obj_id: str, amount: int, src: dict, dst: dict) -> None:
        if self.tracking and amount > 0:
            self.emit(
                TRACK_MOVE,
                agent_id,
                {"obj_id": obj_id, "amount": int(amount), "src": src, "dst": dst},
            )

    def track_spawn(self, agent_id: str, obj_id: str, amount: int, dst: dict) -> None:
        if self.tracking and amount > 0:
            self.emit(TRACK_SPAWN, agent_id, {"obj_id": obj_id, "amount": int(amount), "dst": dst})

    def track_consume(self, agent_id: str, obj_id: str, amount: int, src: dict) -> None:
        if self.tracking and amount > 0:
            self.emit(
                TRACK_CONSUME, agent_id, {"obj_id": obj_id, "amount": int(amount), "src": src}
            )

    def track_utilize(self, agent_id: str, obj_id: str, amount: int, src: dict) -> None:
        if self.tracking and amount > 0:
            self.emit(
                TRACK_UTILIZE, agent_id, {"obj_id": obj_id, "amount": int(amount), "src": src}
            )


IN_HAND = "in hand"  # catalogue targets `(kind, IN_HAND)`: with the container I hold


def entry_key(kind: str, suffix: str | None) -> Any:
    """A catalogue target: the kind alone, or (kind, suffix) for an entry of another container
    (IN_HAND) or text."""
    return kind if suffix is None else (kind, suffix)


ONE = "1"


# Target kinds of the discrete catalogue (observe.catalogue covers each).
CATALOGUE_TARGETS = (
    "none", "area", "npc", "object", "craftable", "equippable", "tradable", "storable", "writable"
)  # fmt: skip


def _known_target(_: object, __: attrs.Attribute, value: object) -> None:
    if value not in CATALOGUE_TARGETS:
        raise ValueError(f"CatalogueShape: unknown target kind {value!r}; the kinds are "
                         f"{', '.join(CATALOGUE_TARGETS)}")  # fmt: skip


def _optional_position(_: object, attribute: attrs.Attribute, value: object) -> None:
    if value is not None and (type(value) is not int or value < 0):
        raise ValueError(f"CatalogueShape.{attribute.name}: a parameter position (0, 1, ...) or "
                         f"None, got {value!r}")  # fmt: skip


def _words(_: object, __: attrs.Attribute, value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(w, str) and w.split() for w in value):
        raise ValueError(f"CatalogueShape.words: a tuple of words, got {value!r}")


@attrs.frozen
class CatalogueShape:
    """How a verb appears in the discrete action catalogue: one entry per target of a kind.

    `target` is one of CATALOGUE_TARGETS ("none": a single entry, e.g. wait); `name` is the
    position of the parameter naming the target; an entry's amount parameter (position `amount`)
    is "1" and its container parameter (position `container`) is "inventory". With `text` (the
    position of a free-text parameter) there is an entry per target and per text the game's
    quests ask to be written (its target key is `(target, text)`). `words` adds one entry per
    word, the verb followed by that word alone (target key `(word,)`), e.g. `inspect inventory`.
    With `in_hand` a verb with a container parameter also gets an entry per target for a
    container held in hand (target key `(target, IN_HAND)`)."""

    target: str = attrs.field(validator=_known_target)
    name: int | None = attrs.field(default=None, validator=_optional_position)
    amount: int | None = attrs.field(default=None, validator=_optional_position)
    container: int | None = attrs.field(default=None, validator=_optional_position)
    text: int | None = attrs.field(default=None, validator=_optional_position)
    words: tuple[str, ...] = attrs.field(default=(), validator=_words)
    in_hand: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))

    def __attrs_post_init__(self) -> None:
        if self.target != "none" and self.name is None:
            raise ValueError(f"CatalogueShape({self.target!r}): `name` (the position of the "
                             "parameter naming the target) is required")  # fmt: skip
        if self.in_hand and self.container is None:
            raise ValueError("CatalogueShape: `in_hand` needs a `container` position")


def target_id(world: World, kind: str, name: str) -> str | None:
    """The definition-level target a name stands for: an area id, an NPC prototype id, or an
    object definition id (instances resolve to their definition); None when unknown."""
    if kind == "area":
        return world.area_named(name)
    if kind == "npc":
        npc_id = world.npc_name_to_id.get(name)
        return world.npcs[npc_id].def_id if npc_id is not None else None
    oid = world.obj_name_to_id.get(name)
    return world.def_of(oid).id if oid is not None else None


class BaseActionRule(ABC):
    """One verb. Class attributes describe it; `apply` carries it out for `ctx.agent`.

    `name` is the canonical snake_case id (`pick_up`), `verb` the words typed (`pick up`).
    """

    name: ClassVar[str]
    verb: ClassVar[str]
    params: ClassVar[tuple[str, ...]] = ()
    param_min: ClassVar[int] = 0
    param_max: ClassVar[int | None] = 0  # None = unbounded
    description: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()  # extra phrasings accepted by the parser
    catalogue: ClassVar[CatalogueShape | None] = None  # None: not in the discrete catalogue
    # True when `valid_params` is exactly the parameters of `mask_targets` (no amounts, no
    # containers): the base `valid_params` then returns those parameters (a verb defines
    # `mask_targets` alone), and a valid-action list built right after a mask reuses what the mask
    # found. A class that sets it must define `mask_targets` (checked when it is created).
    valid_params_from_mask: ClassVar[bool] = False
    # True when this verb's listings (`mask_targets`, `valid_params`, `valid_commands`) read
    # nothing but what `world.agents.reach_key` covers (names and definitions included): the
    # environment then reuses them while an agent's reach is unchanged. Only honoured when set in
    # the rule's own class, so a subclass that changes what its listings read does not inherit it.
    lists_from_reach: ClassVar[bool] = False
    # True when this verb's listings reveal nothing that darkness hides (`world.darkness`): what
    # an agent holds or wears, the ground, NPCs and other agents, or read it only outside the dark.
    # Only such verbs are offered to an agent in the dark; every other verb lists nothing there
    # (typed, it still works). Honoured while the class that sets it also owns the listing methods
    # (`observe.masks.offered_in_dark`), so a subclass changing a listing does not inherit it.
    dark_safe: ClassVar[bool] = False
    # True when this verb's listings reveal nothing of the agent's surroundings (the ground, NPCs,
    # other agents), or read them only outside the dark: offered in a darkness that hides only
    # those (`features.darkness.hides` "surroundings"), as `dark_safe` verbs are everywhere. Same
    # ownership rule as `dark_safe`.
    dim_safe: ClassVar[bool] = False
    # The verb id this verb comes right after in valid-action lists (a game that lists its verbs
    # among the base ones: quarantine's after `write`); None: after the base verbs, in rule order.
    listed_after: ClassVar[str | None] = None
    # Numbers a world may tune, with their defaults (`rules.settings`): each instance reads its
    # own `self.settings`, these updated with the world's `features.rule_settings`.
    settings: ClassVar[Mapping[str, Any]] = {}
    # The id of the verb this one replaces on purpose (a pack's subclass of a base verb): that
    # replacement is then silent; any other is logged as a warning (`add_action_rule`).
    replaces: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The base `valid_params` derives from `mask_targets` under this promise, and the base
        # `mask_targets` from `valid_params`: without a `mask_targets` of its own, each would ask
        # the other forever. (A non-bool value is left to the pack loader, which names it.)
        if cls.valid_params_from_mask is True and cls.mask_targets is BaseActionRule.mask_targets:
            raise TypeError(
                f"{cls.__qualname__} sets `valid_params_from_mask = True` but does not define "
                "`mask_targets`: its valid parameters are read from its mask targets, so define "
                "`mask_targets` (the base one is derived from `valid_params`), or drop the flag"
            )

    @classmethod
    def usage(cls) -> str:
        return " ".join([cls.verb, *(f"<{p}>" for p in cls.params)])

    def validate_params(self, ctx: RuleContext, res: RuleResult) -> bool:
        """Check the parameter count; on a mismatch say the expected form and flag it invalid."""
        n = len(ctx.params)
        if n < self.param_min or (self.param_max is not None and n > self.param_max):
            res.mark_invalid(
                ctx.actor.id,
                "invalid.param_count",
                f"Invalid action: '{self.verb}' is written '{self.usage()}', but I gave {n} "
                f"parameter{'s' if n != 1 else ''}. I do nothing this turn.",
            )
            return False
        return True

    @abstractmethod
    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        """Carry the verb out; report soft failures with `res.fail` and leave the state unchanged.

        (`return res.fail(...)` is the idiom for "stop here": `fail` returns None.)
        """

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        """Every parameter tuple with which `apply` would take effect now for `ctx.agent`, assuming
        the other agents do nothing first. Amount parameters are enumerated 1..max, or only "1"
        when `all_amounts` is False (what action masks need). The default: with
        `valid_params_from_mask`, the parameters of `mask_targets` (`all_amounts` changes nothing);
        else a verb without parameters is always valid, any other lists nothing (override it)."""
        if self.valid_params_from_mask:
            return [params for _, params in self.mask_targets(ctx)]
        return [()] if self.param_max == 0 else []

    def valid_commands(self, ctx: RuleContext) -> list[str]:
        """`valid_params` written as commands, as language agents are shown them (the parser
        reads each back to its parameters). A verb listing many amounts may override it with a
        cached equivalent (the tests check the two agree)."""
        verb, found = self.verb, self.valid_params(ctx)
        # Nothing to write, most of the time: no comprehension then (3.11 builds a function for it)
        return [command_text(verb, params) for params in found] if found else []

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """(target, params) for every catalogue entry of this verb that would take effect now:
        the entry's target (see CatalogueShape: a definition-level id, None for a verb with a
        single entry, or a tuple key) and the concrete parameters that carry it out (amount "1",
        container "inventory" or one held in hand, each catalogue text for a text parameter).

        Derived from `valid_params(all_amounts=False)`; a verb may override it with a faster
        equivalent (the tests check the two agree)."""
        shape = self.catalogue
        if shape is None:
            return []
        out: list[tuple[Any, tuple[str, ...]]] = []
        world, agent = ctx.world, ctx.actor
        for params in self.valid_params(ctx, all_amounts=False):
            if shape.amount is not None and params[shape.amount] != ONE:
                continue
            held = shape.container is not None and params[shape.container] != INVENTORY
            if held:
                cid = world.obj_name_to_id.get(params[shape.container])
                if not shape.in_hand or cid not in agent.hands or cid not in world.containers:
                    continue
            if shape.name is None:
                out.append((None, params))
                continue
            target: Any = target_id(world, shape.target, params[shape.name])
            if target is None and len(params) == 1 and params[0] in shape.words:
                out.append(((params[0],), params))
            elif target is not None and shape.text is not None:
                for text in texts_to_write(ctx.game.quests):
                    written = (*params[: shape.text], text, *params[shape.text + 1 :])
                    out.append(((target, text), written))
            elif target is not None:
                out.append((entry_key(target, IN_HAND if held else None), params))
        return out


class BaseStepRule(ABC):
    """A background system run once per tick (bootstrap included) after every agent has acted.

    Rules run in ascending `priority`; equal priorities run in `name` order (the reference's
    order, since its names sort the same way as its class names).
    """

    name: ClassVar[str]
    priority: ClassVar[float]  # any finite number; the base rules use whole ones
    description: ClassVar[str] = ""
    # State the rule keeps in a saved game, checked on load (`rules.state_shape`): each agent's
    # `progress[state_key]` and the world's `auxiliary[state_key]` (None: that place is unused).
    state_key: ClassVar[str | None] = None
    progress_shape: ClassVar[Any] = None
    state_shape: ClassVar[Any] = None
    # Numbers a world may tune, with their defaults (`rules.settings`), read as `self.settings`.
    settings: ClassVar[Mapping[str, Any]] = {}

    def reset(self, game: Any) -> None:  # noqa: B027 - optional hook, empty by default
        """Called once per episode after the world is built, before the bootstrap tick."""

    @abstractmethod
    def apply(self, ctx: RuleContext, res: RuleResult) -> None: ...

    # Lost turns (docs/rule-packs.md#lost-turns): a rule overriding `forced_command` may make an
    # agent play another command than its own this tick; the engine asks only such rules.
    def forced_command(self, game: Any, agent: Any) -> Command | None:
        """The command `agent` plays this tick instead of its own (a lost turn), or None. Asked
        before each agent acts and by the listings (which then offer that command alone), so it
        must only read the state and draw nothing."""
        return None

    def on_forced(self, ctx: RuleContext, res: RuleResult) -> None:  # noqa: B027 - optional
        """Called when this rule's `forced_command` replaced `ctx.actor`'s command, just before
        the forced one runs: clear what caused it, tell the agent."""

    def ground_sights(self, world: World, area_id: str) -> Sequence[tuple[int, str]]:
        """Things seen lying in `area_id` that are not objects of the world (a salt mirage):
        `(count, name)` pairs the text observation appends to the ground's list. Nothing can act
        on them: no catalogue entry, no listed command. The engine asks only the rules whose class
        overrides this (`Game.hooks.sights`), so a world without such a rule pays nothing."""
        return ()

    def world_state(self, world: World, fresh: Callable[[], dict]) -> dict:
        """This rule's record in `world.auxiliary[state_key]`, made by `fresh()` on first use."""
        state = world.auxiliary.get(self.state_key)
        if state is None:
            state = world.auxiliary[self.state_key] = fresh()
        return state

    def check_saved_state(self, world: World, agents: Any) -> list[str]:
        """Problems ("path: what is wrong") in the state this rule keeps, in a game being loaded
        and not yet installed, so an edited checkpoint is refused on load instead of failing in
        the middle of a tick. A rule that keeps state in the usual places declares their shapes
        (`state_key`, `progress_shape`, `state_shape`); one that keeps it elsewhere overrides
        this."""
        if self.state_key is None:
            return []
        return rule_state_problems(
            world, agents, self.state_key, self.progress_shape, self.state_shape
        )


class BaseInitRule(ABC):
    """Runs once per episode, after the world is built and before the bootstrap tick's step rules
    (a world pack's way to set up its world: place things, seed `world_state` ...)."""

    name: ClassVar[str]
    description: ClassVar[str] = ""
    settings: ClassVar[Mapping[str, Any]] = {}

    @abstractmethod
    def apply(self, ctx: RuleContext, res: RuleResult) -> None: ...


def step_order_key(rule: type[BaseStepRule] | BaseStepRule) -> tuple[float, str]:
    return (rule.priority, rule.name)


ActionRuleT = TypeVar("ActionRuleT", type[BaseActionRule], BaseActionRule)


def add_action_rule(rules: dict[str, ActionRuleT], rule: ActionRuleT) -> None:
    """Add an action rule (class or instance) under its id. An earlier rule with the same id, or
    with the same verb phrase under another id, is replaced with a warning: a pack overrides a
    base verb by reusing its id or its verb string (docs/rule-packs.md#overriding-and-combining). A
    rule whose `replaces` names that earlier id replaces it on purpose, silently."""
    for other_id, other in list(rules.items()):
        if other_id == rule.name or other.verb.casefold() == rule.verb.casefold():
            if rule.replaces != other_id:
                LOG.warning(
                    "verb '%s' (%s) replaces the earlier '%s' (%s)",
                    rule.verb, rule.name, other.verb, other_id,
                )  # fmt: skip
            if other_id != rule.name:
                del rules[other_id]
    rules[rule.name] = rule
