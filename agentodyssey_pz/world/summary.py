"""Facts about a world definition and one synthesised world, for `agentodyssey-pz validate`.

Layer: world core.
"""

from __future__ import annotations

import time

import attrs
import networkx as nx

from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.world import World


def crafting_depths(definition: WorldDefinition) -> dict[str, int]:
    """Crafting levels above raw materials per object: raw 0, else 1 + deepest ingredient."""
    recipes = nx.DiGraph()
    for obj in definition.entities.objects:
        recipes.add_node(obj.id)
        for ingredient in obj.craft.ingredients:
            recipes.add_edge(ingredient, obj.id)
    depth: dict[str, int] = {}
    for oid in nx.topological_sort(recipes):  # validation guarantees there is no cycle
        preds = list(recipes.predecessors(oid))
        depth[oid] = 1 + max(depth[p] for p in preds) if preds else 0
    return depth


def deepest_chain(definition: WorldDefinition) -> list[str]:
    """One longest crafting chain, raw material first."""
    depth = crafting_depths(definition)
    if not depth:
        return []
    recipes = {o.id: o.craft.ingredients for o in definition.entities.objects}
    chain = [max(depth, key=lambda oid: (depth[oid], oid))]
    while recipes.get(chain[-1]):
        chain.append(max(recipes[chain[-1]], key=lambda oid: (depth[oid], oid)))
    return chain[::-1]


@attrs.frozen
class WorldSummary:
    places: int
    areas: int
    objects_by_category: dict[str, int]
    npc_prototypes: int
    unique_npcs: int
    enemy_prototypes: int
    crafting_depth: int
    deepest_chain: list[str]
    seed: int
    graph_areas: int
    graph_paths: int
    locked_paths: int
    diameter: int
    npc_instances: int
    synthesis_ms: float


def summarize(definition: WorldDefinition, seed: int) -> WorldSummary:
    started = time.perf_counter()
    world = World.generate(definition, seed)
    elapsed_ms = (time.perf_counter() - started) * 1000
    npcs = definition.entities.npcs
    chain = deepest_chain(definition)
    return WorldSummary(
        places=len(definition.entities.places),
        areas=len(definition.iter_areas()),
        objects_by_category=world.objects_by_category(),
        npc_prototypes=len(npcs),
        unique_npcs=sum(n.unique for n in npcs),
        enemy_prototypes=sum(n.enemy for n in npcs),
        crafting_depth=max(len(chain) - 1, 0),
        deepest_chain=chain,
        seed=seed,
        graph_areas=len(world.graph),
        graph_paths=world.graph.edge_count,
        locked_paths=sum(1 for *_, d in world.graph.nx.edges(data=True) if d["locked"]),
        diameter=world.graph.diameter(),
        npc_instances=len(world.npcs),
        synthesis_ms=elapsed_ms,
    )


def format_summary(summary: WorldSummary) -> str:
    cats = ", ".join(f"{n} {c}" for c, n in sorted(summary.objects_by_category.items()))
    enemies = "enemy" if summary.enemy_prototypes == 1 else "enemies"
    return "\n".join(
        [
            f"places: {summary.places}",
            f"areas: {summary.areas}",
            f"objects: {sum(summary.objects_by_category.values())} ({cats})",
            f"NPC prototypes: {summary.npc_prototypes} ({summary.unique_npcs} unique, "
            f"{summary.enemy_prototypes} {enemies})",
            f"crafting depth: {summary.crafting_depth} ({' -> '.join(summary.deepest_chain)})",
            f"area graph (seed {summary.seed}): {summary.graph_areas} areas, "
            f"{summary.graph_paths} paths "
            f"({summary.locked_paths} locked), diameter {summary.diameter}",
            f"NPC instances (seed {summary.seed}): {summary.npc_instances}",
            f"synthesis time: {summary.synthesis_ms:.1f} ms",
        ]
    )
