"""Sealed containers: container instances a rule has closed to `store`, `take out` and `discard`.

Layer: world core. A rule seals a container by adding its id to `world.auxiliary[SEALED]` (id ->
the words that say why, e.g. "under quarantine") and unseals it by removing it; the base pack's
container verbs then refuse it and do not list it (rules/base/containers.py), wherever it lies, and
`agents.reach_key` covers the table so kept listings follow it. Nothing is sealed unless a rule
does it: the `outbreak` pack's lockdown with its `seal_containers` setting (docs/rule-packs.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentodyssey_pz.world.world import World

SEALED = "sealed_containers"


def sealed_table(world: World) -> dict[str, str] | None:
    """The sealed containers (id -> why), or None when none is (the usual case: one lookup)."""
    found = world.auxiliary.get(SEALED)
    return found if found else None
