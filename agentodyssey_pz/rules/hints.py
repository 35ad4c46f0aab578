"""A hint for a command that failed on a name: the name in reach it was probably meant to be.

Layer: rule framework. Language agents write `pick up PENNY` (names are case-sensitive), `pick up
bag` (the one here is `bag_0`: containers and writables go by instance names) or `enter orchad`.
The verb's own feedback says what failed; this adds "Did you mean penny?" when a name in reach -
here, in hand, equipped, in the inventory, an NPC or its wares, a neighbouring area - is one of
those near misses. It runs only after a failed action, so it costs nothing on the common path.
"""

from __future__ import annotations

import difflib

from agentodyssey_pz.rules.context import RuleContext

CLOSE_ENOUGH = 0.85  # difflib ratio for a misspelling (`orchad` -> `orchard`)


def name_hint(ctx: RuleContext) -> str | None:
    """'Did you mean X?' for the first parameter that is a near miss of a name in reach, if any."""
    params = [p for p in ctx.params if p and not p.isdigit()]
    if not params:
        return None
    reach = names_in_reach(ctx)
    for param in params:
        if param in reach:
            continue
        match = closest(param, reach)
        if match is not None:
            return f"Did you mean {match}?"
    return None


def closest(word: str, names: list[str]) -> str | None:
    """The name `word` most likely means: the same name in another case, an instance of that
    name (`bag` -> `bag_0`), or a close spelling."""
    folded = word.casefold()
    for name in names:
        if name.casefold() == folded:
            return name
    for name in names:
        if _instance_head(name) == folded:
            return name
    # A spelling match, but not another instance of the same thing (`flour_sack_1` is gone;
    # `flour_sack_5` is a different sack, not a typo).
    head = _instance_head(word)
    spelt = [n for n in names if head is None or _instance_head(n) != head]
    found = difflib.get_close_matches(word, spelt, n=1, cutoff=CLOSE_ENOUGH)
    return found[0] if found else None


def _instance_head(name: str) -> str | None:
    """`flour_sack` for an instance name such as `flour_sack_1`, else None."""
    head, _, tail = name.rpartition("_")
    return head.casefold() if head and tail.isdigit() else None


def names_in_reach(ctx: RuleContext) -> list[str]:
    """Names an agent can act on where it stands, in a fixed order (things, people, places)."""
    world, agent = ctx.world, ctx.actor
    stores = [world.areas[agent.area_id].objects, agent.hands, agent.equipped]
    if agent.inventory_id is not None:
        stores.append(world.containers[agent.inventory_id].items)
    names: dict[str, None] = {}
    for store in stores:
        for oid in store:
            if world.find_def(oid) is not None:
                names[world.name_of(oid)] = None
    for npc in world.npcs_seen_by(agent.area_id, agent.id):
        names[npc.name] = None
        for oid in npc.inventory:
            if world.find_def(oid) is not None:
                names[world.name_of(oid)] = None
    for area_id in world.graph.visible_neighbors(agent.area_id, agent.id):
        names[world.areas[area_id].name] = None
    return list(names)
