"""Listings kept between ticks while an agent's reach is unchanged.

Layer: observe. Most base verbs (pick up, drop, equip, store, craft, inspect, wait ...) list what
they offer from the agent's reach alone (`BaseActionRule.lists_from_reach`), and an agent's reach
is often unchanged from one tick to the next (about half the ticks of a random walk). One cache per
environment keeps, per agent, the reach it last saw (`world.agents.reach_key`) and what those verbs
listed in it; a different reach, or a different World (reset, resume), starts the agent afresh.
Where reaches keep changing (crowded areas) the keys cost more than they save, and lookups pause.
A valid-action list built right after the mask of the same state (text mode) takes the mask's answer
(`again`) rather than building the key twice. In a world with darkness, what an agent is offered
also depends on whether it can see (`world.darkness`): listings made in the dark are kept under a
key of their own, so a reach seen in the light and then in the dark (a light dropped, or an area's
light changed by a rule) is listed afresh.
The listings are the very lists the rules returned: callers must not change them (`masks` copies
the lists it hands out).
"""

from __future__ import annotations

import functools
from typing import Any

from agentodyssey_pz.world.agents import AgentState, reach_key
from agentodyssey_pz.world.world import World


@functools.cache
def lists_from_reach(rule_class: type) -> bool:
    """Whether a rule's own class promises that its listings read only the reach (a promise
    inherited from a parent class does not count: the subclass may read more)."""
    return bool(vars(rule_class).get("lists_from_reach", False))


class AgentListings:
    """What the reach-only verbs listed for one agent in one reach."""

    __slots__ = ("commands", "found", "key", "params", "verbs")

    def __init__(self, key: tuple[Any, ...], verbs: frozenset[str] = frozenset()) -> None:
        self.key = key
        self.verbs = verbs  # the verbs whose listings are kept (`lists_from_reach`)
        self.found: dict[str, list[tuple[Any, tuple[str, ...]]]] = {}  # verb -> mask_targets
        self.params: dict[tuple[str, bool], list[tuple[str, ...]]] = {}  # (verb, all amounts)
        self.commands: dict[str, list[str]] = {}  # verb -> valid_commands


# Keeping listings pays when reaches repeat: a kept listing saves about four times what a key
# and a changed reach cost. Each window of PROBE_CALLS lookups counts how many found the reach
# unchanged; below MIN_REUSE of them (crowded areas, where the ground changes every tick), the next
# PAUSE_CALLS lookups list afresh without a key. Either way the listings are the same.
PROBE_CALLS = 512
MIN_REUSE = 0.3
PAUSE_CALLS = 4096


# Marks the key of a reach seen in the dark.
DARK = "dark"


class ListingPhase:
    """`ListingCache.listing_phase`'s `with` block (a plain class: it is entered every step)."""

    __slots__ = ("_cache",)

    def __init__(self, cache: ListingCache) -> None:
        self._cache = cache

    def __enter__(self) -> None:
        self._cache.shared = {}

    def __exit__(self, *exc_info: object) -> None:
        self._cache.shared = None


class ListingCache:
    def __init__(self) -> None:
        self._world: World | None = None
        self._rules: dict[str, Any] | None = None
        self._by_agent: dict[str, AgentListings] = {}
        self._handed: dict[str, AgentListings | None] = {}  # each agent's last `for_agent` answer
        self.shared: dict[Any, Any] | None = None  # `RuleContext.shared` during a `listing_phase`
        self._phase = ListingPhase(self)
        self.reach_verbs: frozenset[str] = frozenset()
        self._calls = self._reused = self._paused = 0
        self._plans: dict[str, tuple[Any, Any, int, Any]] = {}

    def plan(self, kind: str, rules: dict[str, Any], other: Any, build: Any) -> Any:
        """`build(rules, other)`, kept for this environment while the rule set (and `other`, e.g.
        the action catalogue) stay the same objects: the per-verb plans of the listing loops, kept
        here rather than in a process-wide table, which a process with many envs would outgrow."""
        found = self._plans.get(kind)
        # The length too: the same dict, changed (rule sets are not meant to be), is another set.
        if found is None or not (
            found[0] is rules and found[1] is other and found[2] == len(rules)
        ):
            found = self._plans[kind] = (rules, other, len(rules), build(rules, other))
        return found[3]

    def listing_phase(self) -> ListingPhase:
        """A stretch in which the state does not change (an env building every agent's
        observation and info after a tick), as a `with` block: listing code may share work across
        agents through `RuleContext.shared` within it, and only within it."""
        return self._phase

    def clear(self) -> None:
        self._world = None
        self._by_agent.clear()
        self._handed.clear()
        self._calls = self._reused = self._paused = 0

    def for_agent(
        self, world: World, rules: dict[str, Any], agent: AgentState, dark: bool | str = False
    ) -> AgentListings | None:
        """The agent's listings for its reach now (empty when the reach changed); None when its
        reach has no key (`reach_key`) or lookups are paused: list afresh and keep nothing.
        `dark`: whether the agent is in the dark (`world.darkness.in_darkness`)."""
        if world is not self._world or rules is not self._rules:
            self._by_agent.clear()
            self._handed.clear()
            self._world, self._rules = world, rules
            self.reach_verbs = frozenset(v for v, r in rules.items() if lists_from_reach(type(r)))
        listings: AgentListings | None = None
        if self._paused:
            self._paused -= 1
        else:
            self._calls += 1
            if self._calls == PROBE_CALLS:
                if self._reused < MIN_REUSE * PROBE_CALLS:
                    self._paused = PAUSE_CALLS
                    self._by_agent.clear()
                self._calls = self._reused = 0
            key = reach_key(world, agent)
            if dark and key is not None:  # a pair: never equal to a key of the light
                key = (key, DARK)
            if key is None:
                self._by_agent.pop(agent.id, None)
            else:
                listings = self._by_agent.get(agent.id)
                if listings is None or listings.key != key:
                    listings = self._by_agent[agent.id] = AgentListings(key, self.reach_verbs)
                else:
                    self._reused += 1
        self._handed[agent.id] = listings
        return listings

    def again(
        self, world: World, rules: dict[str, Any], agent: AgentState, dark: bool | str = False
    ) -> AgentListings | None:
        """What the last `for_agent` handed out for this agent, for a caller that knows nothing
        has changed since (the valid-action list built right after the mask of the same state):
        no key to build and compare. As `for_agent` when it has not been asked in this world."""
        if world is not self._world or rules is not self._rules or agent.id not in self._handed:
            return self.for_agent(world, rules, agent, dark)
        return self._handed[agent.id]
