"""The darkness check of an audit: an agent in the dark is offered nothing that depends on what
darkness hides.

Sits on top, with the rest of `agentodyssey_pz.audit`. On a copy of the game, everything darkness
hides from the agent (`world.darkness`: what it holds and wears, the ground, NPCs and other agents
here; where the dark hides only the surroundings, `features.darkness.hides` "surroundings", the
ground, NPCs and other agents only) is changed, and its action mask and valid-action list must stay
as they were: a verb declared `dark_safe` (or `dim_safe`) whose listing reads any of those is
named.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from agentodyssey_pz.audit.report import DARK, Findings
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.observe.masks import action_mask, valid_actions
from agentodyssey_pz.world.darkness import hides_holdings, in_darkness


def change_hidden(game: Game, agent_id: str) -> list[str]:
    """Change, in place, what darkness hides from an agent that is in the dark, keeping it in the
    dark: its hands and the ground here are emptied, or get a unit of something when empty; what
    it wears comes off; NPCs here leave the map, or one from elsewhere comes; other agents here go
    elsewhere, or one comes. Where the dark hides only the surroundings, its hands and what it
    wears stay. Returns what was changed, in words."""
    world, agent = game.world, game.agents[agent_id]
    lights = world.definition.features.darkness.light_objects  # in the dark: darkness is on
    thing = next(
        (o.id for o in world.objects.values() if o.id not in lights and not o.is_instanced), None
    )
    changed = []
    area = world.areas[agent.area_id]
    holdings = hides_holdings(world)
    stores = (("hands", agent.hands), ("ground", area.objects)) if holdings else ()
    for where, store in stores or (("ground", area.objects),):
        if store:
            store.clear()
            changed.append(f"{where} emptied")
        elif thing is not None:
            store[thing] = 1
            changed.append(f"1 {world.name_of(thing)} put in the {where}")
    if holdings and (agent.equipped or agent.inventory_id is not None):
        agent.equipped.clear()
        agent.inventory_id = None
        changed.append("nothing worn")
    here = world.visible_npcs(area.id, agent_id)
    if here:
        for npc_id in here:
            world.remove_npc_from_map(npc_id)
        changed.append(f"{len(here)} NPC(s) gone")
    else:
        placed = (n for n in world.npcs.values() if n.area_id not in (None, area.id))
        comer = next((n for n in placed if n.owner is None), None)
        if comer is not None:
            world.place_npc(comer.id, area.id)
            changed.append(f"{comer.name} came")
    others = [a for a in game.agents_in(area.id) if a.id != agent_id]
    elsewhere = next((a for a in world.areas if a != area.id), None)
    if others and elsewhere is not None:
        for other in others:
            game.move_agent(other, elsewhere)
        changed.append(f"{len(others)} agent(s) gone")
    elif not others:
        comer_agent = next((a for a in game.agents.values() if a.id != agent_id), None)
        if comer_agent is not None:
            game.move_agent(comer_agent, area.id)
            changed.append(f"{comer_agent.id} came")
    return changed


def check_hidden(
    game: Game,
    frozen: bytes,
    catalogue: ActionCatalogue,
    agent: str,
    findings: Findings,
    tick: int,
) -> None:
    """If `agent` is in the dark: its mask and valid-action list, built afresh, equal those of a
    copy (`frozen`, the pickled game) whose hidden things were changed (`change_hidden`)."""
    if not in_darkness(game.world, game.agents[agent]):
        return
    copy: Game = pickle.loads(frozen)
    changed = ", ".join(change_hidden(copy, agent)) or "nothing to change"
    mask, other_mask = action_mask(game, agent, catalogue), action_mask(copy, agent, catalogue)
    for i in np.flatnonzero(mask != other_mask):
        entry = catalogue.entries[int(i)]
        findings.add(
            DARK,
            entry.verb,
            f"tick {tick}, {agent} in the dark: {entry.label!r} is "
            f"{'on' if mask[i] else 'off'}, and {'on' if other_mask[i] else 'off'} once {changed}",
        )
    listed, other_listed = valid_actions(game, agent), valid_actions(copy, agent)
    for phrase in dict.fromkeys([*listed, *other_listed]):
        before: list[Any] = listed.get(phrase, [])
        after: list[Any] = other_listed.get(phrase, [])
        if before != after:
            findings.add(
                DARK,
                findings.verb_of.get(phrase, phrase),
                f"tick {tick}, {agent} in the dark: it is offered {before[:3]} ({len(before)}), "
                f"and {after[:3]} ({len(after)}) once {changed}",
            )
