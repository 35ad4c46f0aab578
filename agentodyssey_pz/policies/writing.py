"""Writing: notes with a given text, written on a blank writable with a writing tool in hand.

Policies layer; a mixin of the planner (`planner.Planner`). The `write` verb needs the tool and the
writable both in hand; a note is then carried where it must lie and dropped there.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.planning import Plan, Stuck
from agentodyssey_pz.world.agents import carried_stores

WRITE_USAGE = "write"  # objects with this usage are writing tools (docs/mechanics/verbs.md#write)


class Writing:
    """Writing and leaving notes (mixed into the planner)."""

    def leave_note(self: Any, text: str, area: str) -> Plan:
        """Write `text` on a blank writable (where I am: dangerous places stay short visits),
        carry it to `area` and drop it there."""
        note = yield from self.write_note(text)
        yield from self.goto(area)
        yield from self.hold(note)
        yield f"drop {self.world.name_of(note)}"

    def write_note(self: Any, text: str, kind: str | None = None) -> Plan:
        """Write `text` on a blank writable I carry (of definition `kind`, if given), got first
        when I have none."""
        tool, note = yield from self.ready_note(kind)
        yield from self.hold(tool)
        yield from self.hold(note, keep=[tool])
        yield f'write "{text}" {self.world.name_of(note)}'
        if not self.ok():
            raise Stuck(f"writing on {self.world.name_of(note)} failed")
        return note

    def ready_note(self: Any, kind: str | None = None) -> Plan:
        """Carry a writing tool and a blank writable (of definition `kind`, if given), getting
        what I lack; returns (tool, writable)."""
        world = self.world
        tool = next(
            (d for d, o in world.objects.items() if o.usage == WRITE_USAGE and self.have(d)), None
        )
        if tool is None:
            tools = [d for d, o in world.objects.items() if o.usage == WRITE_USAGE]
            if not tools:
                raise Stuck("this world has no writing tool")
            tool = min(tools, key=lambda d: self.cost(d, 1))
            yield from self.obtain(tool, 1)
        note = self.blank_note(kind)
        if note is None:
            kinds = [
                d
                for d, o in world.objects.items()
                if o.is_writable and not o.text and kind in (None, d)
            ]
            if not kinds:
                raise Stuck("this world has no blank writable")
            did = min(kinds, key=lambda d: self.cost(d, self.have(d) + 1))
            yield from self.obtain(did, self.have(did) + 1)
            note = self.blank_note(kind)
        if note is None:
            raise Stuck("no blank writable")
        return tool, note

    def blank_note(self: Any, kind: str | None = None) -> str | None:
        world, agent, inv = self.world, self.agent, self.inventory()
        for store in [agent.hands] + ([inv.items] if inv else []):
            for oid in store:
                writable = world.writables.get(oid)
                if writable is not None and writable.text == "" and kind in (None, writable.def_id):
                    return oid
        return None

    def carries_text(
        self: Any,
        text: str,
        contains: bool = False,
        where: str | None = None,
        kind: str | None = None,
    ) -> bool:
        """Whether a writable I carry (of definition `kind`, if given) bears `text` (as the
        quest conditions compare texts), looked for where `where` says
        (docs/world-format.md#111-main-quest; default: all I carry)."""
        conditions = self._base("conditions")
        world, agent = self.world, self.agent
        if where is None:
            stores = [agent.equipped, *carried_stores(world, agent)]
        else:
            stores = conditions.stores_in(world, agent, where)
        target = conditions.normal_text(text)
        return bool(conditions.any_text(world, stores, target, contains, kind))

    def note_with(
        self: Any, text: str, contains: bool = False, kind: str | None = None
    ) -> str | None:
        """A writable I carry (hands, inventory, held containers; of definition `kind`, if
        given) bearing `text`, else None."""
        conditions = self._base("conditions")
        world, target = self.world, conditions.normal_text(text)
        for store in carried_stores(world, self.agent):
            for oid in store:
                if conditions.any_text(world, ({oid: 1},), target, contains, kind):
                    return oid
        return None
