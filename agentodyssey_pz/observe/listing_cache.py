"""Listings kept between ticks while an agent's reach is unchanged.

Layer: observe. Most base verbs (pick up, drop, equip, store, craft, inspect, wait ...) list what
they offer from the agent's reach alone (`BaseActionRule.lists_from_reach`), and an agent's reach
is often unchanged from one tick to the next (about half the ticks of a random walk). One cache per
environment keeps, per agent, the reach it last saw (`world.agents.reach_key`) and what those verbs
listed in it; a different reach, or a different World (reset, resume), starts the agent afresh.
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

    __slots__ = ("commands", "found", "key", "params")

    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key
        self.found: dict[str, list[tuple[Any, tuple[str, ...]]]] = {}  # verb -> mask_targets
        self.params: dict[tuple[str, bool], list[tuple[str, ...]]] = {}  # (verb, all amounts)
        self.commands: dict[str, list[str]] = {}  # verb -> valid_commands


class ListingCache:
    def __init__(self) -> None:
        self._world: World | None = None
        self._rules: dict[str, Any] | None = None
        self._by_agent: dict[str, AgentListings] = {}
        self.reach_verbs: frozenset[str] = frozenset()

    def clear(self) -> None:
        self._world = None
        self._by_agent.clear()

    def for_agent(self, world: World, rules: dict[str, Any], agent: AgentState) -> AgentListings:
        """The agent's listings for its reach now (empty when the reach changed)."""
        if world is not self._world or rules is not self._rules:
            self._by_agent.clear()
            self._world, self._rules = world, rules
            self.reach_verbs = frozenset(v for v, r in rules.items() if lists_from_reach(type(r)))
        key = reach_key(world, agent)
        listings = self._by_agent.get(agent.id)
        if listings is None or listings.key != key:
            listings = self._by_agent[agent.id] = AgentListings(key)
        return listings
