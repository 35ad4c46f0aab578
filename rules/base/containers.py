"""What `store`, `take out` and `discard` share: naming a container in reach and listing its room.

Rule pack `base`; docs/mechanics/verbs.md#where-things-can-be. A container is named either by the
literal `inventory` (the container equipped as inventory) or by its instance name (`crate_0`); a
named one must be on the ground here, equipped as inventory, or held in hand. Free space is always
`capacity - agents.container_load`: one load formula for every container (quirk "one load
formula", docs/mechanics/verbs.md#quirk-one-load-formula). A container a rule has sealed
(`world.sealed`) is refused and not listed.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import IN_HAND
from agentodyssey_pz.rules.context import Shared, once_per_phase
from agentodyssey_pz.world.agents import AgentState, container_load
from agentodyssey_pz.world.entities import ContainerInstance
from agentodyssey_pz.world.sealed import sealed_table
from agentodyssey_pz.world.world import World

from .carrying import INVENTORY, is_reachable_container

# Outcome suffixes of a failed lookup (each verb prefixes its own id: `store.no_inventory`).
NO_INVENTORY = "no_inventory"
NO_CONTAINER = "no_container"
NOT_IN_REACH = "container_not_here"
SEALED_SHUT = "sealed"


def locate_container(
    world: World, agent: AgentState, name: str
) -> tuple[ContainerInstance | None, str, str]:
    """Resolve a container name within reach.

    Returns (container, "", "") or (None, outcome suffix, the reason in words).
    """
    cid: str | None
    if name == INVENTORY:
        if agent.inventory_id is None:
            return None, NO_INVENTORY, "I have no inventory equipped"
        cid = agent.inventory_id
    else:
        cid = world.obj_name_to_id.get(name)
        if cid is None or cid not in world.containers:
            return None, NO_CONTAINER, f"there is no container called {name}"
        if not is_reachable_container(world, agent, cid):
            return None, NOT_IN_REACH, f"{name} is not here, in my hands or equipped"
    sealed = sealed_table(world)
    if sealed is not None and cid in sealed:
        return None, SEALED_SHUT, f"{name} is sealed {sealed[cid]}"
    return world.containers[cid], "", ""


def unsealed(world: World, found: list) -> list:
    """`found` ((..., container) tuples) without the sealed containers; `found` itself when no
    container is sealed."""
    sealed = sealed_table(world)
    if sealed is None:
        return found
    return [entry for entry in found if entry[-1].id not in sealed]


def free_space(world: World, container: ContainerInstance, shared: Shared = None) -> int:
    """Capacity left (negative when a container is over-full). `shared`: `RuleContext.shared`,
    where the agents of a crowded area, listing what they may store, work it out once."""
    return once_per_phase(shared, ("free_space", container.id), _free_space, world, container)


def _free_space(world: World, container: ContainerInstance) -> int:
    return (world.def_of(container.id).capacity or 0) - container_load(world, container)


def names_itself(world: World, oid: str) -> str | None:
    """The name that resolves to `oid`, or None when that name is shadowed by another id."""
    found = world.listing(oid)  # None too for an id no definition knows (never listed)
    return found[1] if found is not None else None


def command_name(world: World, container_id: str) -> str | None:
    """The name a command calls a container instance by: its own, when that name leads back to it
    and is not the literal `inventory` (which means the equipped one); else None."""
    name = names_itself(world, container_id)
    return name if name != INVENTORY else None


def reachable_containers(
    world: World, agent: AgentState, shared: Shared = None
) -> list[tuple[str, ContainerInstance]]:
    """Every (name, container) a command can use right now: `inventory` first when one is
    equipped, then container instances held in hand, the equipped one, and those on the ground,
    each by an instance name that resolves to it. Looks only at hands, equipment and this ground.
    `shared`: `RuleContext.shared`, where the ground's part is worked out once per area and each
    agent's whole list once (store, take out and discard all ask for it); read it, never change
    it."""
    found = once_per_phase(
        shared, ("reachable_containers", agent.id), _reachable_containers, world, agent, shared
    )
    return unsealed(world, found)


def _reachable_containers(
    world: World, agent: AgentState, shared: Shared
) -> list[tuple[str, ContainerInstance]]:
    containers = world.containers
    found: list[tuple[str, ContainerInstance]] = []
    seen: set[str] = set()
    inventory_id = agent.inventory_id
    if inventory_id is not None:
        found.append((INVENTORY, containers[inventory_id]))
    for cid in (*agent.hands, inventory_id):
        if cid not in containers or cid in seen:  # most things in hand are not containers
            continue
        seen.add(cid)
        name = command_name(world, cid)
        if name is not None:
            found.append((name, containers[cid]))
    ground = ground_containers(world, agent.area_id, shared)
    if seen:  # an instance lies in one place only; kept exact even where a state breaks that
        ground = [(name, box) for name, box in ground if box.id not in seen]
    return found + ground if found else list(ground)


def ground_containers(
    world: World, area_id: str, shared: Shared = None
) -> list[tuple[str, ContainerInstance]]:
    """(name, container) of each container on the ground of an area that its instance name
    resolves to (not the literal `inventory`), in ground order; the list is `shared`'s when given
    (read it, never change it)."""
    return once_per_phase(
        shared, ("ground_containers", area_id), _ground_containers, world, area_id
    )


def _ground_containers(world: World, area_id: str) -> list[tuple[str, ContainerInstance]]:
    containers = world.containers
    found = []
    for cid in world.areas[area_id].objects:
        if cid in containers:
            name = command_name(world, cid)
            if name is not None:
                found.append((name, containers[cid]))
    return found


def catalogue_containers(
    world: World, agent: AgentState
) -> list[tuple[str | None, str, ContainerInstance]]:
    """The containers discrete actions use, as (entry key suffix, name, container): the equipped
    inventory (suffix None: `store 1 rope inventory`), then each container held in hand by its
    own name (suffix IN_HAND: `store 1 rope <container in hand>`)."""
    containers = world.containers
    found: list[tuple[str | None, str, ContainerInstance]] = []
    if agent.inventory_id is not None:
        found.append((None, INVENTORY, containers[agent.inventory_id]))
    for cid in agent.hands:
        name = command_name(world, cid) if cid in containers else None
        if name is not None:
            found.append((IN_HAND, name, containers[cid]))
    return unsealed(world, found)


def contents_by_name(
    world: World, container: ContainerInstance, shared: Shared = None
) -> list[tuple[str, str, int]]:
    """(name, id, count) of each entry of a container whose name resolves back to it; the list is
    `shared`'s when given (`RuleContext.shared`: read it, never change it)."""
    return once_per_phase(
        shared, ("contents_by_name", container.id), _contents_by_name, world, container
    )


def _contents_by_name(world: World, container: ContainerInstance) -> list[tuple[str, str, int]]:
    listed = []
    for oid, count in container.items.items():
        name = names_itself(world, oid)
        if name is not None and count > 0:
            listed.append((name, oid, count))
    return listed
