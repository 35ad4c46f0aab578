"""Slots for what a world gains while it runs: spare observation and action slots that world
expansion's new areas, places, object kinds and NPC prototypes take, in the order they appear.

Layer: observe. Spaces are fixed for the life of an env, but an expanding world is not; so each kind
of target gets its definition's slots first and then `spare` slots. After every tick the env hands
the world's additions (`World.additions`, in the order expansion added them) to `SlotTable.bind`,
which gives each new id the next free spare slot; a new episode (a new world) unbinds them all.
Additions beyond the spare slots get no slot (they are left out of the vector and the catalogue,
exactly as everything added was before spare slots existed).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentodyssey_pz.observe.catalogue import ActionCatalogue
    from agentodyssey_pz.observe.encode import ObservationLayout, VectorEncoder
    from agentodyssey_pz.world.world import World


class SlotTable:
    """Ids of one kind -> slot index: the definition's ids, then up to `spare` bound ids.

    `index` is one dict for the table's whole life (encoders keep a reference to it)."""

    def __init__(self, ids: Iterable[str], spare: int) -> None:
        self.ids: list[str] = list(ids)
        self.fixed = len(self.ids)
        self.size = self.fixed + spare
        self.index: dict[str, int] = {x: i for i, x in enumerate(self.ids)}

    def bind(self, ids: Iterable[str]) -> list[tuple[int, str]]:
        """Give each id that has no slot the next spare one; returns the new (slot, id) pairs."""
        new: list[tuple[int, str]] = []
        for x in ids:
            if x in self.index or len(self.ids) >= self.size:
                continue
            slot = len(self.ids)
            self.ids.append(x)
            self.index[x] = slot
            new.append((slot, x))
        return new

    def unbind(self) -> None:
        """Back to the definition's ids (a new world)."""
        for x in self.ids[self.fixed :]:
            del self.index[x]
        del self.ids[self.fixed :]

    @property
    def spare_left(self) -> int:
        return self.size - len(self.ids)


class SpareSlots:
    """Keeps an env's observation layout and action catalogue bound to its current world's
    additions. `sync` after every reset and tick: O(1) unless the world grew or was replaced."""

    def __init__(
        self, layout: ObservationLayout, catalogue: ActionCatalogue, encoder: VectorEncoder
    ) -> None:
        self.layout, self.catalogue, self.encoder = layout, catalogue, encoder
        self._world: World | None = None
        self._counts = (0, 0, 0)
        self._overflowed: World | None = None  # the world whose overflow was warned about

    def sync(self, world: World) -> None:
        if not self.layout.spare:
            if world is not self._world and any(world.addition_counts()):
                self._world = world  # warn once per world object
                _warn_overflow(world, 0)
            return
        layout = self.layout
        tables = (layout.areas, layout.places, layout.objects, layout.protos)
        if world is not self._world:  # a new episode or a restored state
            for table in tables:
                table.unbind()
            self.catalogue.unbind()
            self._world, self._counts = world, (0, 0, 0)
            self.encoder.forget_slots()
        counts = world.addition_counts()
        if counts == self._counts:
            return
        self._counts = counts
        areas, objects, protos = world.additions()
        places = list(dict.fromkeys(world.areas[a].place_id for a in areas))
        names = ("areas", "places", "objects", "protos")  # the catalogue has no place entries
        for name, table, ids in zip(names, tables, (areas, places, objects, protos), strict=True):
            for slot, target in table.bind(ids):
                if name != "places":
                    self.catalogue.bind(world, name, slot - table.fixed, target)
        most = max(len(areas), len(places), len(objects), len(protos))
        if most > layout.spare and self._overflowed is not world:
            self._overflowed = world
            _warn_overflow(world, layout.spare)
        self.encoder.forget_slots()


def _warn_overflow(world: World, spare: int) -> None:
    areas, objects, protos = (len(ids) for ids in world.additions())
    warnings.warn(
        f"world expansion has added {areas} areas, {objects} object kinds and {protos} NPC "
        f"prototypes, more than the {spare} spare slots per kind (expansion_slots): discrete "
        "agents cannot see or reach the rest; raise expansion_slots",
        stacklevel=4,
    )
