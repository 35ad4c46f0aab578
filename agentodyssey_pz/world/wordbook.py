"""Words for made-up content: syllables, landforms, adjectives, creature and trade nouns, object
roles (category/usage, size, nouns, description templates), material families and combat-rhythm
weights, plus a book that hands out each generated name once.

Layer: world core. Shared by the procedural world generator and the procedural world expander.
All of it is original to this project (no names from AgentOdyssey or other games).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import attrs


def words_of(text: str) -> tuple[str, ...]:
    return tuple(text.split())


ONSETS = words_of("b br d dr f g gr h k kr l m n p pr r s sk st t th tr v z sh ch w y")
# Plain vowels repeated so that most syllables stay short and easy to type.
VOWELS = words_of("a e i o u a e i o ae ei ou")
CODAS = ("", "", "", *words_of("n r l s th k m nd rn st x"))
LANDFORMS = words_of(
    "Fen Vale Marches Downs Steppe Weald Mire Heights Crossing Terrace Shoals Barrens Thicket "
    "Gorge Plateau Strand Moor Basin Ridge Wilds Sprawl Fields Narrows Bluffs"
)
# Object adjectives; all start with a consonant so that "A {adj}" always reads right.
ADJECTIVES = words_of(
    "pitted glossy heavy streaked brittle dense dull well-worn speckled sturdy rough polished "
    "humming scarred pale dark knotted gleaming"
)
FOLK_ADJECTIVES = words_of("weathered wary cheerful gaunt restless quiet stooped")
BEAST_ADJECTIVES = words_of("snarling ragged hungry hulking scarred venomous twitching")
CREATURES = words_of(
    "stalker lurker hound wisp prowler gnawer husk brute skulker moth serpent beetle hulk "
    "raptor leech golem"
)
BOSS_TITLES = words_of("tyrant matriarch colossus sovereign warlord devourer")
TRADES = words_of("chandler peddler broker outfitter monger factor")
VILLAGER_ROLES = words_of("herder gleaner tinker drover forager cooper")


@attrs.frozen
class Role:
    """What kind of object a role makes: its category/usage pair, size, names and descriptions."""

    category: str
    usage: str
    size: int | None
    nouns: tuple[str, ...]
    sentences: tuple[str, ...]  # one-sentence templates; {adj} and {noun} are filled in
    priced: bool = True  # False: "value": null (currency, stations)


def role_of(pair: str, size: int | None, nouns: str, *sentences: str, priced: bool = True) -> Role:
    category, usage = pair.split("/")
    return Role(category, usage, size, words_of(nouns), sentences, priced)


ROLES: Mapping[str, Role] = MappingProxyType(
    {
        "coin": role_of(
            "currency/exchange", 0, "coin", "A {adj} disc of minted metal.", priced=False
        ),
        "raw": role_of("material/craft", 1, "", "A {adj} piece of {noun} gathered in the wilds."),
        "processed": role_of("material/craft", 1, "", "A {adj} {noun}, worked from rougher stuff."),
        "stone": role_of("material/craft", 1, "stone slab cobble", "A {adj} chunk of {noun}."),
        "ore": role_of("material/craft", 1, "ore lode nugget", "A {adj} lump of {noun}."),
        "ingot": role_of(
            "material/craft", 1, "ingot bar billet", "A {adj} {noun} smelted from ore."
        ),
        "drop": role_of(
            "material/craft",
            1,
            "pelt fang chitin scale ichor horn claw gland quill",
            "A {adj} {noun} taken from a slain creature.",
        ),
        "trophy": role_of(
            "material/craft", 1, "heart crown eye core sigil", "The {adj} {noun} of a fearsome foe."
        ),
        "component": role_of(
            "material/craft",
            1,
            "rivet hilt strap fitting buckle grip binding rod hinge",
            "A {adj} {noun} that goes into finer gear.",
        ),
        "refinement": role_of(
            "material/craft",
            1,
            "filigree temper inlay etching gilding",
            "A {adj} {noun} of the highest craft.",
        ),
        "blank": role_of(
            "material/craft", 1, "blank", "A {adj} {noun}, ready to be cut into a key."
        ),
        "key": role_of("tool/unlock", 1, "key", "A {adj} key that opens locked ways."),
        "lockpick": role_of(
            "tool/lockpick", 1, "pick probe shim", "A {adj} {noun} for easy locks."
        ),
        "container": role_of(
            "container/store", 3, "satchel haversack rucksack", "A {adj} {noun} for a modest load."
        ),
        "writable": role_of(
            "tool/writable", 1, "sheet scroll vellum folio", "A {adj} {noun} with room for notes."
        ),
        "pen": role_of("tool/write", 1, "stylus scriber nib", "A {adj} {noun} for writing notes."),
        "weapon": role_of(
            "weapon/attack",
            3,
            "blade glaive cleaver maul halberd saber warpick falchion spear hatchet flail scythe",
            "A {adj} {noun} that hits harder than bare hands.",
            "A {adj} {noun}, balanced for a fight.",
        ),
        "armor": role_of(
            "armor/defend",
            4,
            "hauberk cuirass brigandine vest helm mantle buckler breastplate coif tabard",
            "A {adj} {noun} that turns aside some blows.",
        ),
        "bench": role_of(
            "station/craft",
            None,
            "bench trestle worktop",
            "A {adj} {noun}; most gear is put together next to one.",
            priced=False,
        ),
        "smelter": role_of(
            "station/craft",
            None,
            "smelter hearth kiln crucible bloomery smeltery retort cupola",
            "A {adj} {noun}; ore and stranger stuff is rendered down next to one.",
            priced=False,
        ),
    }
)


@attrs.frozen
class MaterialKind:
    """A raw material and the one processed form made from it (a 'material family')."""

    raw_nouns: str
    processed_nouns: str
    quantity: float  # raw units per processed unit; a fraction means one raw yields several
    is_smelted: bool  # made at the tier's smelting station rather than at the bench


MATERIAL_KINDS = (
    MaterialKind("log bough stalk", "plank lath batten", 0.5, False),
    MaterialKind("fiber reed floss", "cloth weave twill", 2, False),
    MaterialKind("crystal geode prism", "shard lens facet", 0.25, False),
    MaterialKind("sap resin gum", "glue varnish lacquer", 2, True),
    MaterialKind("clay loam silt", "tile brick pot", 1, True),
    MaterialKind("salt brine grit", "flux powder paste", 0.5, True),
)
TIMBER, FIBER = MATERIAL_KINDS[0], MATERIAL_KINDS[1]

# Combat rhythm draws (docs/mechanics/combat.md#npc-stats): mostly attacks.
PATTERN_ACTIONS = ("attack", "defend", "wait")
PATTERN_WEIGHTS = (0.55, 0.25, 0.2)


class NameBook:
    """Generated words and names, each handed out once (the set is only tested, never iterated)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def claim(self, name: str) -> bool:
        if name in self.used:
            return False
        self.used.add(name)
        return True

    def word(self, syllables: int = 2) -> str:
        while True:
            parts = [self.rng.choice(ONSETS) + self.rng.choice(VOWELS) for _ in range(syllables)]
            word = "".join(parts) + self.rng.choice(CODAS)
            if self.claim(word):
                return word

    def compound(self, nouns: Sequence[str], stem: str | None = None) -> str:
        """`<stem>_<noun>` with a free noun for the given stem, else with a fresh stem."""
        if stem is not None:
            for noun in self.rng.sample(list(nouns), len(nouns)):
                if self.claim(f"{stem}_{noun}"):
                    return f"{stem}_{noun}"
        while True:
            name = f"{self.word()}_{self.rng.choice(nouns)}"
            if self.claim(name):
                return name
