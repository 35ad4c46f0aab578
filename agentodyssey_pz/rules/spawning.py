"""A new NPC in the middle of a game: the one way background rules of any pack bring one in.

Layer: rule framework. The living world's scouts and enemy respawn, and the war machines'
territory reclamation, spawn NPCs the way world synthesis makes them
(docs/mechanics/world-synthesis.md#npc-instances), drawing from the game's generator. Rule packs
cannot import each other's modules, which is why this lives here.
"""

from __future__ import annotations

from agentodyssey_pz.rules.context import GameView
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import NpcDef
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc


def spawn_npc(game: GameView, proto: NpcDef, level: int, area_id: str) -> Npc:
    """A fresh instance of a prototype at `level`, placed in an area: the next instance index of
    its prototype (none for a unique one), coins and loot drawn from the game's generator as world
    synthesis draws them (the world's synthesis variant decides the loot roll)."""
    world = game.world
    index = None if proto.unique else world.take_npc_index(proto.id)
    options = SynthesisOptions(
        zero_loot_keeps_prototype_count=game.config.zero_loot_keeps_prototype_count
    )
    npc = create_npc(world, proto, index, level, game.rng, options)
    world.add_npc(npc, area_id)
    return npc
