"""Random generators: the synthesis streams derived from a seed, and JSON export of generator state.

Layer: world core. Everything random in this package draws from a `random.Random` that is created
here from a seed and kept in the game state; nothing touches the process-wide `random` module.
CPython's Mersenne Twister is used on purpose: the reference engine's exact call sequence then
reproduces its worlds seed for seed.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

SUB_SEED_MAX = 10**9


@attrs.frozen
class SynthesisStreams:
    """One independent generator per synthesis stage, so editing one stage never shifts another."""

    npcs: random.Random  # derived for parity with the reference, which never draws from it
    places: random.Random
    connections: random.Random
    objects: random.Random
    npc_assign: random.Random


STREAM_NAMES = ("npcs", "places", "connections", "objects", "npc_assign")


def synthesis_streams(seed: int, order: tuple[str, ...] = STREAM_NAMES) -> SynthesisStreams:
    """Derive the five stage generators from `seed`: their seeds are drawn in `order` (the
    reference's order by default; mark's generator draws `connections` first)."""
    if sorted(order) != sorted(STREAM_NAMES):
        raise ValueError(f"a stream order names each of {', '.join(STREAM_NAMES)} once")
    base = random.Random(seed)
    subs = {name: base.randint(0, SUB_SEED_MAX) for name in order}
    return SynthesisStreams(**{name: random.Random(subs[name]) for name in STREAM_NAMES})


def state_to_data(rng: random.Random) -> list[Any]:
    """A generator's full state as JSON-compatible data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


MT_STATE_WORDS = 625  # a Mersenne Twister's 624 words plus its position


def rng_from_data(data: list[Any]) -> random.Random:
    """Rebuild a generator from `state_to_data` output (raises ValueError on malformed data)."""
    if not (
        isinstance(data, list)
        and len(data) == 3
        and type(data[0]) is int
        and isinstance(data[1], list)
        and len(data[1]) == MT_STATE_WORDS
        and all(type(w) is int and 0 <= w < 2**32 for w in data[1])
        and (data[2] is None or type(data[2]) is float)
    ):
        raise ValueError(
            "generator state must be [version, [625 integers from 0 to 2**32 - 1], gauss]"
        )
    rng = random.Random()
    try:
        rng.setstate((data[0], tuple(data[1]), data[2]))
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"generator state refused: {exc}") from exc
    return rng
