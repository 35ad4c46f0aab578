"""Observation and action spaces, built once per env (one object per agent for its whole life).

Layer: adapter. Text lives under a key of the Dict observation, never as a top-level `Text` space
(PettingZoo's AEC checks and SuperSuit reject that). The text charset covers every character the
game prints: printable ASCII, the newline, and every character of the world's and quests' texts;
anything else an agent writes is shown as `?` (`sanitize`).
"""

from __future__ import annotations

import re
import string
from typing import Any

import numpy as np
from gymnasium import spaces

from agentodyssey_pz.rules.parse import MAX_COMMAND_LENGTH
from agentodyssey_pz.world.schema import WorldDefinition, definition_to_dict

BASE_CHARS = frozenset(chr(c) for c in range(32, 127)) | {"\n"}
_OUTSIDE_ASCII = re.compile(r"[^\x20-\x7e\n]")
_PLAIN_BYTES = "".join(sorted(BASE_CHARS)).encode("ascii")
REPLACEMENT = "?"


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def text_charset(definition: WorldDefinition, extra: Any = None) -> frozenset[str]:
    """Every character the game can print for this world (and its quest data in `extra`)."""
    seen: set[str] = set()
    for text in _strings(definition_to_dict(definition)) + _strings(extra):
        seen.update(text)  # every character once, in C; filtered below
    return frozenset(BASE_CHARS | {ch for ch in seen if ch.isprintable()})


CUT = "..."
MIN_KEPT = 40  # a line shortened to fit keeps at least this much of its start


def shorten(text: str, max_length: int) -> str:
    """Cut `text` to `max_length`, the longest lines first (a crowded area's list of people or
    ground), so the short lines after them - stats, neighbours, feedback - survive; a cut ends
    with "...". Only when that is not enough is the end cut."""
    lines = text.split("\n")
    while len(text) > max_length:
        i = max(range(len(lines)), key=lambda k: len(lines[k]))
        keep = len(lines[i]) - (len(text) - max_length) - len(CUT)
        if keep < MIN_KEPT:
            break
        lines[i] = lines[i][:keep] + CUT
        text = "\n".join(lines)
    if len(text) > max_length:
        text = text[: max_length - len(CUT)] + CUT if max_length > len(CUT) else text[:max_length]
    return text


def sanitize(text: str, charset: frozenset[str], max_length: int) -> str:
    """Replace characters outside the charset and cut to max_length (`shorten`)."""
    if len(text) > max_length:
        text = shorten(text, max_length)
    # Printable ASCII and newlines are always in the charset. Fast path for the usual all-ASCII
    # text: deleting those bytes leaves nothing (five times faster than the regex scan below).
    if text.isascii() and not text.encode("ascii").translate(None, _PLAIN_BYTES):
        return text
    odd = set(_OUTSIDE_ASCII.findall(text))
    if not odd or odd <= charset:
        return text
    return "".join(ch if ch in charset else REPLACEMENT for ch in text)


def observation_space(
    obs_size: int,
    n_actions: int,
    *,
    text: bool,
    charset: frozenset[str],
    max_length: int,
    mask_key: str | None = "action_mask",
    vector: bool = True,
) -> spaces.Dict:
    """The Dict of what an observation holds: the vector, the mask (under `mask_key`; None: no
    mask) and the text, each when asked for."""
    parts: dict[str, spaces.Space] = {}
    if vector:
        parts["observation"] = spaces.Box(-1.0, 1.0, shape=(obs_size,), dtype=np.float32)
    if mask_key is not None:
        parts[mask_key] = spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8)
    if text:
        parts["text"] = spaces.Text(max_length=max_length, min_length=0, charset=charset)
    return spaces.Dict(parts)


def action_space(n_actions: int, *, text: bool, charset: frozenset[str]) -> spaces.Space:
    if text:
        return spaces.Text(max_length=MAX_COMMAND_LENGTH, min_length=1, charset=charset)
    return spaces.Discrete(n_actions)


# Tabs and line breaks separate words like spaces and are kept inside quotes (`rules.parse`).
COMMAND_WHITESPACE = frozenset("\t\n")


def command_charset(definition: WorldDefinition, texts: Any = ()) -> frozenset[str]:
    """What a typed command may contain: printable ASCII, tabs and line breaks, the characters of
    names and those of `texts` (what the quests ask to be written), so every command a valid
    action list offers lies in the action space."""
    names = [o.name for o in definition.entities.objects] + [
        n.name for n in definition.entities.npcs
    ]
    names += [a.name for _, a in definition.iter_areas()]
    chars = {ch for text in (*names, *texts) for ch in text if ch.isprintable()}
    return frozenset(set(string.printable[:-5]) | COMMAND_WHITESPACE | chars)
