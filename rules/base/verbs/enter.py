"""`enter <area>`: walk to a neighbouring area, unlocking a locked path on the way if I can.

Rule pack `base`; docs/mechanics/verbs.md#enter. A locked path opens (for good, both directions)
with one unit of its own key held in hand, which is used up. Fixed reference quirk: the reference
ignores the path's key and only accepts `obj_key`; we honour the key the path names and fall back to
`obj_key` for paths locked without a key. As
docs/mechanics/verbs.md#quirk-a-path-opens-with-its-own-key says, nothing else opens a lock here:
lockpicks are a pack feature (e.g. cinderdeep's `lockpick` verb). I cannot leave while an engaged
enemy stands in this area.

In the dark (`world.darkness`) the listings offer only what an agent that cannot see its hands or
who is near knows will work: the unlocked paths, and nothing while it is engaged in a fight. Typed,
`enter` works in the dark as in the light (a key in hand still opens a lock).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.darkness import in_darkness
from agentodyssey_pz.world.graph import KEY, LOCKED
from agentodyssey_pz.world.world import World

from ..carrying import hand_loc

FALLBACK_KEY = "obj_key"  # opens paths locked without a named key (a well-known id)


def blocking_enemies(world: World, agent: AgentState) -> list[str]:
    """Names of engaged NPCs that are alive and stand in the agent's area.

    Deliberately looser than the reference (which blocks while the NPC merely still exists;
    docs/mechanics/verbs.md#quirk-a-stale-engagement-does-not-block): an NPC killed or gone earlier
    in this tick no longer blocks, although the combat-rhythm rule drops the stale engagement only
    at the end of the tick. Pinned by
    tests/rules/test_enter.py::test_stale_engagements_do_not_block."""
    here = world.areas[agent.area_id].npcs
    names = []
    for npc_id, engagement in agent.combats.items():
        npc = world.npcs.get(npc_id)
        if (
            engagement.area_id == agent.area_id
            and npc is not None
            and npc.hp > 0
            and npc_id in here
        ):
            names.append(npc.name)
    return names


def find_neighbor(world: World, area_id: str, name: str, agent_id: str) -> str | None:
    """The first neighbour (in path order) with that name that this agent may use (another
    agent's personal path, e.g. to its tutorial room, does not exist for it)."""
    for neighbor, neighbor_name, _ in world.named_neighbors(area_id, agent_id):
        if neighbor_name == name:
            return neighbor
    return None


def opener_in_hand(agent: AgentState, key: str | None) -> str | None:
    """The held key that opens a path locked with `key` (`obj_key` when it names none)."""
    wanted = key or FALLBACK_KEY
    return wanted if agent.hands.get(wanted, 0) > 0 else None


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Enter(BaseActionRule):
    name = "enter"
    verb = "enter"
    params = ("area_name",)
    param_min = 1
    param_max = 1
    description = "Walk to a neighbouring area; a locked path needs its key in hand."
    catalogue = CatalogueShape("area", name=0)
    valid_params_from_mask = True
    dark_safe = True  # in the dark its listings read neither hands nor NPCs (`mask_targets`)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        blockers = blocking_enemies(world, agent)
        if blockers:
            return res.fail(
                agent.id,
                "enter.in_combat",
                f"I cannot leave: I am fighting {', '.join(blockers)}, who blocks my way.",
            )
        target = find_neighbor(world, agent.area_id, name, agent.id)
        if target is None:
            return res.fail(
                agent.id, "enter.no_path", f"I cannot enter {name}: no path leads there from here."
            )
        origin = agent.area_id
        if world.graph.is_locked(origin, target):
            key = world.graph.path(origin, target)[KEY]  # type: ignore[index]  # locked: a path
            opener = opener_in_hand(agent, key)
            if opener is None:
                needed = (
                    world.objects[key or FALLBACK_KEY].name
                    if (key or FALLBACK_KEY) in world.objects
                    else "a key"
                )
                return res.fail(
                    agent.id,
                    "enter.locked",
                    f"The way to {name} is locked; I need {needed} in hand.",
                )
            remove_count(agent.hands, opener, 1)
            world.graph.set_locked(origin, target, False)
            res.track_consume(agent.id, opener, 1, hand_loc(agent))
            res.say(
                agent.id,
                "enter.unlocked",
                f"I opened the lock with my {world.name_of(opener)}, which is used up.",
            )
        ctx.game.move_agent(agent, target)
        res.say(agent.id, "enter.done", f"I entered {name}.")
        res.emit(
            "area_entered", agent.id, {"from_area": origin, "to_area": target, "area_name": name}
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        """Each reachable neighbour by name; its catalogue target is the area that name means
        world-wide (`World.area_named`), as for any command naming an area. In the dark, only
        unlocked paths (the key in hand is hidden) and nothing while engaged in a fight (whether
        the foe still blocks the way is hidden): each of those works all the same."""
        agent, world = ctx.actor, ctx.world
        # Darkness is asked only where it matters (a fight, a lock): most calls never ask.
        if agent.combats and (blocking_enemies(world, agent) or in_darkness(world, agent)):
            return []
        area_named = world.area_named
        out: list[tuple[str | None, tuple[str, ...]]] = []
        # a plain loop: two or three neighbours, every agent, every tick
        for _, name, path in world.named_neighbors(agent.area_id, agent.id):
            if not path[LOCKED] or (
                opener_in_hand(agent, path[KEY]) is not None and not in_darkness(world, agent)
            ):
                out.append((area_named(name), (name,)))
        return out
