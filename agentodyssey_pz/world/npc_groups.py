"""Who stands where among the NPCs, grouped by owner, for `World.visible_npcs`.

Layer: world graph core. Per area, the ids of the NPCs standing there grouped by owner (None:
everyone's NPCs), each group in arrival order, and each placed NPC's arrival number and the owner
it is filed under. A viewer's NPCs are two groups (everyone's and its own), not a walk past every
other agent's personal guides and bosses, which a crowd brings along in numbers. `World` files an
NPC whenever it places, removes or re-owns one, and rebuilds the groups from `Area.npcs` after a
load.
"""

from __future__ import annotations


class NpcGroups:
    __slots__ = ("_by_area", "_filed", "arrivals")

    def __init__(self) -> None:
        self._by_area: dict[str, dict[str | None, dict[str, None]]] = {}
        self._filed: dict[str, tuple[int, str | None]] = {}
        # Counts every filing and unfiling: the number of the last change (`World` keeps it per
        # area to tell whether what a viewer saw there still holds).
        self.arrivals = 0

    def file(self, npc_id: str, owner: str | None, area_id: str, arrival: int | None = None) -> int:
        """File a placed NPC under its owner: last in line, or at `arrival` (an owner change).
        Returns the number of this change."""
        groups = self._by_area.get(area_id)
        if groups is None:
            groups = self._by_area[area_id] = {}
        group = groups.get(owner)
        if group is None:
            group = groups[owner] = {}
        self.arrivals += 1
        if arrival is None:
            arrival = self.arrivals
            group[npc_id] = None
        else:  # back into its place in the group's arrival order
            members = [*group, npc_id]
            filed = self._filed
            members.sort(key=lambda n: arrival if n == npc_id else filed[n][0])
            group.clear()
            group.update(dict.fromkeys(members))
        self._filed[npc_id] = (arrival, owner)
        return self.arrivals

    def unfile(self, npc_id: str, area_id: str) -> int | None:
        """Take an NPC out of its group; the number of this change (None: it was not filed)."""
        filed = self._filed.pop(npc_id, None)
        if filed is None:
            return None
        groups = self._by_area[area_id]
        group = groups[filed[1]]
        del group[npc_id]
        if not group:
            del groups[filed[1]]
        self.arrivals += 1
        return self.arrivals

    def arrival_of(self, npc_id: str) -> int:
        return self._filed[npc_id][0]

    def visible(self, area_id: str, viewer: str | None) -> tuple[str, ...]:
        """Ids of everyone's NPCs in the area and the viewer's own (None: everyone's only), in
        arrival order."""
        groups = self._by_area.get(area_id)
        if not groups:
            return ()
        public = groups.get(None, {})
        own = groups.get(viewer) if viewer is not None else None
        if not own:
            return tuple(public)
        if not public:
            return tuple(own)
        filed = self._filed
        return tuple(sorted([*public, *own], key=lambda npc_id: filed[npc_id][0]))
