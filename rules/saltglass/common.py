"""What the saltglass pack's rules share: the two classes of area, the glass-like test, the
listen-glass test, and the tutorial rooms the background rules leave alone.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack). Area classes are read from an
area's display name, trimmed and lower-cased (settings of the rules that use them): "open salt" is
hall, yard, flats and basin, "observatory" library, orrery and spire.
"""

from __future__ import annotations

from collections.abc import Iterable

from agentodyssey_pz.rules.context import GameView, WorldTable
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.world import World

OPEN_SALT = ("hall", "yard", "flats", "basin")
OBSERVATORY = ("library", "orrery", "spire")
GLASS_TOKENS = ("glass", "lens", "saltglass", "brine")
LISTEN_PAPER_TOKENS = ("paper", "lens", "glass")  # a writable naming one of these is a listen-glass
TUTORIAL_KEY = "tutorial_room"


def area_class(area: Area | None) -> str:
    return (area.name if area is not None else "").strip().lower()


def is_open_salt(area: Area | None, names: Iterable[str] = OPEN_SALT) -> bool:
    return area is not None and area_class(area) in names


def is_observatory(area: Area | None, names: Iterable[str] = OBSERVATORY) -> bool:
    return area is not None and area_class(area) in names


def _texts(world: World, oid: str) -> tuple[str, str, str] | None:
    """(name, description, id) lower-cased of what an id names: the definition's (an instance's
    name is its own), None when the world knows no such object."""
    obj = world.find_def(oid)
    if obj is None:
        return None
    name = world.name_of(oid) if world.is_instance(oid) else obj.name
    return name.lower(), (obj.description or "").lower(), oid.lower()


def _glass_like(world: World, oid: str) -> bool:
    texts = _texts(world, oid)
    if texts is None:
        return False
    obj = world.def_of(oid)
    extra = (obj.name.lower(), obj.id.lower())
    return any(tok in t for tok in GLASS_TOKENS for t in (*texts, *extra))


def _listen_glass(world: World, oid: str) -> bool:
    if _glass_like(world, oid):
        return True
    obj = world.find_def(oid)
    if obj is None or obj.usage != "writable":
        return False
    texts = _texts(world, oid)
    assert texts is not None
    extra = (obj.name.lower(), obj.id.lower())
    return any(tok in t for tok in LISTEN_PAPER_TOKENS for t in (*texts, *extra))


class _GlassLike(WorldTable):
    """Object id -> glass-like, worked out once per id until names or definitions change (asked
    for every hand item of every agent, every tick)."""

    def work_out(self, oid: str) -> bool:
        return _glass_like(self.world, oid)


class _ListenGlass(WorldTable):
    def work_out(self, oid: str) -> bool:
        return _listen_glass(self.world, oid)


def is_glass_like(world: World, oid: str) -> bool:
    """Name, description or id holds `glass`, `lens`, `saltglass` or `brine` (case-insensitive);
    an instance is read through its definition, and matches by its own name or id too."""
    return _GlassLike.of(world)[oid]


def is_listen_glass(world: World, oid: str) -> bool:
    """What `listen` accepts in hand: glass-like, or a writable whose name, description or id holds
    `paper`, `lens` or `glass` (so blank or written paper counts)."""
    return _ListenGlass.of(world)[oid]


def held_glass(world: World, agent: AgentState) -> list[str]:
    """The glass-like ids in hand, in hand order."""
    return [oid for oid, n in agent.hands.items() if n > 0 and is_glass_like(world, oid)]


def tutorial_areas(game: GameView) -> frozenset[str]:
    """The tutorial rooms that exist now (the published game's "active tutorial room")."""
    if not game.tutorial_active:  # most games, most ticks: no dictionary look-up
        return frozenset()
    tutorial = game.world.auxiliary.get(TUTORIAL_KEY)
    if not tutorial:
        return frozenset()
    place = game.world.places.get(tutorial.get("place_id"))
    return frozenset(place.area_ids) if place is not None else frozenset()


def ord_sum(text: str) -> int:
    return sum(ord(c) for c in text)
