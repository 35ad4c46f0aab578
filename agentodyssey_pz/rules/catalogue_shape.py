"""`CatalogueShape`: how a verb appears in the discrete action catalogue (re-exported by
`rules.base`, its home for rule authors). Kept out of the modules a compiled build compiles
(scripts/build_mypyc.py): mypyc would check the `attrs.field(...)` class attributes against the
field types.
"""

from __future__ import annotations

import attrs

# Target kinds of the discrete catalogue (observe.catalogue covers each).
CATALOGUE_TARGETS = (
    "none", "area", "npc", "object", "craftable", "equippable", "tradable", "storable", "writable"
)  # fmt: skip


def _known_target(_: object, __: attrs.Attribute, value: object) -> None:
    if value not in CATALOGUE_TARGETS:
        raise ValueError(f"CatalogueShape: unknown target kind {value!r}; the kinds are "
                         f"{', '.join(CATALOGUE_TARGETS)}")  # fmt: skip


def _optional_position(_: object, attribute: attrs.Attribute, value: object) -> None:
    if value is not None and (type(value) is not int or value < 0):
        raise ValueError(f"CatalogueShape.{attribute.name}: a parameter position (0, 1, ...) or "
                         f"None, got {value!r}")  # fmt: skip


def _words(_: object, __: attrs.Attribute, value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(w, str) and w.split() for w in value):
        raise ValueError(f"CatalogueShape.words: a tuple of words, got {value!r}")


@attrs.frozen
class CatalogueShape:
    """How a verb appears in the discrete action catalogue: one entry per target of a kind.

    `target` is one of CATALOGUE_TARGETS ("none": a single entry, e.g. wait); `name` is the
    position of the parameter naming the target; an entry's amount parameter (position `amount`)
    is "1" and its container parameter (position `container`) is "inventory". With `text` (the
    position of a free-text parameter) there is an entry per target and per text the game's
    quests ask to be written (its target key is `(target, text)`). `words` adds one entry per
    word, the verb followed by that word alone (target key `(word,)`), e.g. `inspect inventory`.
    With `in_hand` a verb with a container parameter also gets an entry per target for a
    container held in hand (target key `(target, IN_HAND)`)."""

    target: str = attrs.field(validator=_known_target)
    name: int | None = attrs.field(default=None, validator=_optional_position)
    amount: int | None = attrs.field(default=None, validator=_optional_position)
    container: int | None = attrs.field(default=None, validator=_optional_position)
    text: int | None = attrs.field(default=None, validator=_optional_position)
    words: tuple[str, ...] = attrs.field(default=(), validator=_words)
    in_hand: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))

    def __attrs_post_init__(self) -> None:
        if self.target != "none" and self.name is None:
            raise ValueError(f"CatalogueShape({self.target!r}): `name` (the position of the "
                             "parameter naming the target) is required")  # fmt: skip
        if self.in_hand and self.container is None:
            raise ValueError("CatalogueShape: `in_hand` needs a `container` position")
