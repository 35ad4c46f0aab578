"""`world_expansion_step` (priority 100): the world grows when some agent has explored all of it.

Rule pack `base`; docs/mechanics/step-rules.md#world-expansion. Active when the game says expansion
is enabled (`GameConfig.world_expansion`, else the world's `features.online_expansion`) and has a
generator: `Game(expansion_generator=...)` (a language-model one plugs in there), or the offline
`ProceduralExpander` that `GameConfig(world_expansion=True)` brings. With neither - a world that
only sets `online_expansion` - the rule does nothing, as the reference without a language model
(an injectable generator, default none). When the areas of the
world (tutorial rooms aside) are all among one agent's visited areas, the generator
is called with a seed from the game's generator and its expansion spec is merged with
`World.expand`, which validates it first and changes nothing when it is invalid. Every agent is then
told which new lands appeared.

Fixed reference quirks: the generator runs synchronously, so there is no pending job and no "the
world starts to change" line; the trigger sees this tick's visits (the engine records them
before the step rules; docs/mechanics/step-rules.md#quirk-step-rules-see-this-ticks-visits); one
feature flag source
(docs/mechanics/step-rules.md#quirk-expansion-is-synchronous-and-quiet-on-failure); a failed or
empty expansion is logged, nobody is told, and it is retried when some agent visits an area it had
not visited, or after a back-off of RETRY_TICKS ticks, doubling with each failure in a row up to
MAX_RETRY_TICKS (the reference re-triggers every other tick and spams its agents, 7; waiting for
visits alone would end growth for good once every area is seen, after one bad reply of a language
model). State lives in `world.auxiliary["world_expansion"]`: `{"count", "total_areas",
"retry_after_visits"}`, with `"failures"` and `"retry_at_tick"` after a failure.
"""

from __future__ import annotations

import logging
from typing import Any

from agentodyssey_pz.errors import WorldDefinitionError
from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.expansion import check_expansion
from agentodyssey_pz.world.synthesis import SynthesisOptions
from agentodyssey_pz.world.world import World

LOG = logging.getLogger("agentodyssey_pz.rules")
STATE_KEY = "world_expansion"
TUTORIAL_KEY = "tutorial_room"
SEED_RANGE = (0, 10**9)  # the seed handed to the generator and to World.expand
RETRY_TICKS = 10  # back-off after a failed expansion, doubling per failure in a row ...
MAX_RETRY_TICKS = 320  # ... up to this


def tutorial_areas(world: World) -> set[str]:
    """Areas of the tutorial place and of every recorded tutorial room (never to be explored)."""
    tutorial = world.auxiliary.get(TUTORIAL_KEY) or {}
    place = world.places.get(tutorial.get("place_id", ""))
    areas = set(place.area_ids) if place is not None else set()
    rooms = tutorial.get("rooms") or {}
    areas |= {room["area_id"] for room in rooms.values() if room.get("area_id") in world.areas}
    return areas


@mypyc_attr(native_class=False)  # spike: packs subclass it
class WorldExpansion(BaseStepRule):
    name = "world_expansion_step"
    priority = 100
    description = "Adds new places when an agent has visited every area of the world."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        generator = getattr(game, "expansion_generator", None)
        if generator is None or not game.expansion_enabled():
            return
        state = world.auxiliary.get(STATE_KEY)
        if state is None:
            explorable = len(world.areas) - len(tutorial_areas(world))
            state = world.auxiliary[STATE_KEY] = {
                "count": 0, "total_areas": explorable, "retry_after_visits": None
            }  # fmt: skip
        blocked = state.get("retry_after_visits")
        retry_at = state.get("retry_at_tick")
        waiting = retry_at is None or game.tick_index < retry_at
        if blocked is not None and _total_visits(game) <= blocked and waiting:
            return  # the last attempt failed: no new area seen since, and the back-off runs
        if not self._someone_explored_everything(game, world):
            return
        seed = game.rng.randint(*SEED_RANGE)
        known_areas = set(world.areas)
        places = self._expand(game, world, generator, seed)
        if places is None:
            failures = state.get("failures", 0) + 1
            state["failures"] = failures
            state["retry_after_visits"] = _total_visits(game)
            backoff = min(RETRY_TICKS * 2 ** (failures - 1), MAX_RETRY_TICKS)
            state["retry_at_tick"] = game.tick_index + backoff
            return
        if res.tracking:  # the new lands' objects came into existence: tell the tracker
            for area in (a for a in world.areas.values() if a.id not in known_areas):
                for oid, count in area.objects.items():
                    res.track_spawn("env", oid, count, location("area", area.id))
        state["count"] += 1
        state["total_areas"] = len(world.areas) - len(tutorial_areas(world))
        state["retry_after_visits"] = None
        state.pop("failures", None)
        state.pop("retry_at_tick", None)
        text = (
            f"I sense the world growing: new lands have appeared beyond its farthest reaches "
            f"({', '.join(places)})."
        )
        for agent_id in game.agents:
            res.say(agent_id, "world_expansion.new_lands", text)

    @staticmethod
    def _someone_explored_everything(game: Any, world: World) -> bool:
        """Whether every area but the tutorial rooms is among some agent's visited areas.

        The size test is O(1) per agent; the full test runs only for an agent that has visited
        as many areas as there are (visits are never forgotten, so that is rare and brief)."""
        skipped = tutorial_areas(world)
        needed = len(world.areas) - len(skipped)
        for agent in game.agents.values():
            visited = agent.visited
            if len(visited) >= needed and all(
                a in visited for a in world.areas if a not in skipped
            ):
                return True
        return False

    @staticmethod
    def _expand(game: Any, world: World, generator: Any, seed: int) -> list[str] | None:
        """Generate and merge; the new place names, or None (logged) when nothing was added."""
        try:
            spec = generator(world, seed)
        except Exception as exc:  # a user generator may fail in any way
            LOG.warning("world expansion: the generator failed (%r); the world stays as it is", exc)
            return None
        parsed, problems = check_expansion(world, spec)
        if problems.errors:
            LOG.warning("world expansion refused: %s", WorldDefinitionError(problems.errors))
            return None
        if not parsed.places:
            LOG.warning("world expansion: the generator brought no new place; nothing was added")
            return None
        # The game's synthesis switches (GameConfig), so expansions draw like the world did.
        config, defaults = game.config, SynthesisOptions()
        options = SynthesisOptions(
            eager_light_draw=getattr(config, "eager_light_draw", defaults.eager_light_draw),
            zero_loot_keeps_prototype_count=getattr(
                config, "zero_loot_keeps_prototype_count", defaults.zero_loot_keeps_prototype_count
            ),
        )
        try:
            result = world.expand(spec, seed, options)
        except WorldDefinitionError as exc:
            LOG.warning("world expansion refused: %s", exc)
            return None
        for problem in result.warnings:
            LOG.warning("world expansion: %s", problem)
        return result.place_names


def _total_visits(game: Any) -> int:
    return sum(len(agent.visited) for agent in game.agents.values())
