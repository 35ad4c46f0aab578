"""`parse_action`: free text -> a canonical command (verb id, parameters), or why it is not one.

Layer: rule framework. The longest known verb phrase that starts the text (case-insensitively) and
is followed by whitespace or the end wins; the rest is split with POSIX shell rules, so quotes group
words (`write "hello world" note_2`) and tabs and line breaks separate words like spaces (inside
quotes they are kept), as in the reference. Hostile input - empty text, other control characters,
unbalanced quotes, text longer than `MAX_COMMAND_LENGTH` (our limit; the reference has none, and no
world's writable holds more than a few hundred characters) - gives a `ParseFailure`, never an
exception.
"""

from __future__ import annotations

import functools
import re
import shlex
import unicodedata
from collections.abc import Iterable

import attrs

MAX_COMMAND_LENGTH = 1000  # characters; longer input is refused before any other work


@attrs.frozen(slots=True)
class Command:
    """A canonical command: the verb's id (`pick_up`) and its parameters."""

    verb: str
    params: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.verb, *self.params])


@attrs.frozen(slots=True)
class ParseFailure:
    reason: str


class VerbTable:
    """Phrase -> verb id, searched longest phrase first (ties keep registration order)."""

    def __init__(self, phrases: Iterable[tuple[str, str]]) -> None:
        entries = [(phrase.casefold(), verb_id) for phrase, verb_id in phrases]
        self.entries = sorted(entries, key=lambda e: -len(e[0]))  # sort is stable

    def match(self, text: str) -> tuple[str, int] | None:
        """(verb id, length of the matched prefix) or None."""
        folded = text.casefold()
        if len(folded) != len(text):
            # Case folding changed the length (e.g. a German sharp s): compare per prefix instead.
            for phrase, verb_id in self.entries:
                n = len(phrase)
                if text[:n].casefold() == phrase and (len(text) == n or text[n].isspace()):
                    return verb_id, n
            return None
        for phrase, verb_id in self.entries:
            n = len(phrase)
            if folded.startswith(phrase) and (len(folded) == n or folded[n].isspace()):
                return verb_id, n
        return None


SHELL_WHITESPACE = " \t\r\n"  # what shlex splits at; the control characters among them are fine
_TO_SPACES = str.maketrans("\t\r\n", "   ")


def _control_character(text: str) -> str | None:
    for ch in text:
        if unicodedata.category(ch) == "Cc" and ch not in SHELL_WHITESPACE:
            return ch
    return None


def parse_action(text: object, verbs: VerbTable) -> Command | ParseFailure:
    """Parse one command. Never raises."""
    if not isinstance(text, str):
        return ParseFailure("no command was given" if text is None else "a command must be text")
    if len(text) > MAX_COMMAND_LENGTH:
        return ParseFailure(f"it is {len(text)} characters long (at most {MAX_COMMAND_LENGTH})")
    text = text.strip()
    if not text:
        return ParseFailure("it is empty")
    bad = None if text.isprintable() else _control_character(text)  # Cc is never printable
    if bad is not None:
        return ParseFailure(f"it contains the control character {bad!r}")
    found = verbs.match(text)
    if found is None:
        return ParseFailure("it does not start with a known action")
    verb_id, length = found
    rest = text[length:].strip()
    if not rest:
        return Command(verb_id, ())
    return split_params(verb_id, rest)


_SHELL_SPECIAL = frozenset("\"'\\")
_SAFE = re.compile(r"[\w@%+=:,./-]+", re.ASCII)  # what shlex.quote leaves bare


def quote_param(token: str) -> str:
    """A parameter as it must be typed to be read back unchanged (quoted only when needed)."""
    return token if _SAFE.fullmatch(token) else shlex.quote(token)


@functools.lru_cache(maxsize=1 << 16)  # a pure function of its arguments; lists repeat tick to tick
def command_text(verb_phrase: str, params: tuple[str, ...]) -> str:
    """A command string `parse_action` reads back to exactly these parameters."""
    if not params:
        return verb_phrase
    return f"{verb_phrase} {' '.join(map(quote_param, params))}"


def split_params(verb_id: str, rest: str) -> Command | ParseFailure:
    """POSIX shell splitting of the parameters. Without quotes or backslashes that is a split at
    spaces, tabs and line breaks, done without shlex."""
    if _SHELL_SPECIAL.isdisjoint(rest):
        return Command(verb_id, tuple(p for p in rest.translate(_TO_SPACES).split(" ") if p))
    try:
        params = shlex.split(rest, posix=True)
    except ValueError as exc:  # unbalanced quote, dangling backslash
        return ParseFailure(f"its quoting is broken ({exc})")
    return Command(verb_id, tuple(params))
