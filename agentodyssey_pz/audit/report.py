"""What an audit found: problems grouped by check and verb, each with a count and its first case.

Sits on top, with the rest of `agentodyssey_pz.audit`.
"""

from __future__ import annotations

import inspect
from typing import Any

import attrs

from agentodyssey_pz.evaluate.report import counted

# The checks, in the order a report lists them.
KEPT, MASK, VALID, RAISED = "kept listings", "exact mask", "valid actions", "raised"
DARK = "hidden in the dark"
REPLAY, PROCESSES, RESUME = "replay", "another process", "resume"
CHECKS = (KEPT, MASK, VALID, RAISED, DARK, REPLAY, PROCESSES, RESUME)


@attrs.frozen
class Problem:
    """One broken promise: how often it was seen, and the first case in words. `verb` and
    `rule` are empty for the checks of the whole game (replay, another process, resume)."""

    check: str  # one of CHECKS
    verb: str  # verb id, or ""
    rule: str  # the rule's class and source file, or ""
    count: int
    first: str


@attrs.define
class AuditReport:
    world: str
    agents: int
    ticks: int
    states: int  # states whose entries and commands were tried on copies
    tries: int  # actions tried on copies
    resumed: int  # ticks played by a game loaded from a snapshot beside the original
    other_process: bool  # whether the walk was played again in another process
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        lines = [
            f"audit of {self.world}: {counted(self.agents, 'agent')}, "
            f"{counted(self.ticks, 'tick')} compared and replayed"
            f"{', also in another process' if self.other_process else ''}, "
            f"{counted(self.tries, 'action')} tried at {counted(self.states, 'state')}, "
            f"{counted(self.resumed, 'tick')} resumed from a snapshot"
        ]
        if self.ok:
            lines.append(
                "no problems: exact masks, listed commands taken, kept listings fresh, the same "
                "game on replay, in another process and after a resume"
            )
            return "\n".join(lines)
        lines.append(f"{len(self.problems)} problem(s):")
        for p in self.problems:
            subject = f"verb {p.verb!r}, {p.rule}, " if p.verb else ""
            lines.append(f"- {p.check}: {subject}{p.count} time(s)")
            lines.append(f"    first: {p.first}")
        return "\n".join(lines)


def rule_origin(rule: object) -> str:
    """`Class (file)` of a rule, for a report."""
    try:
        where = inspect.getsourcefile(type(rule)) or type(rule).__module__
    except TypeError:
        where = type(rule).__module__
    return f"{type(rule).__qualname__} ({where})"


class Findings:
    """Problems grouped by (check, verb): a count and the first case."""

    def __init__(self, rules: dict[str, Any]) -> None:
        self._rules = rules
        self._seen: dict[tuple[str, str], list[Any]] = {}
        # Verb phrase ("pick up", as valid-action lists are keyed) -> verb id ("pick_up").
        self.verb_of = {rule.verb: verb for verb, rule in rules.items()}

    def add(self, check: str, verb: str, text: str) -> None:
        found = self._seen.setdefault((check, verb), [0, text])
        found[0] += 1

    def problems(self) -> list[Problem]:
        """In the order of the checks, then of the verbs."""
        found = []
        for (check, verb), (count, first) in sorted(
            self._seen.items(), key=lambda item: (CHECKS.index(item[0][0]), item[0][1])
        ):
            rule = self._rules.get(verb)
            origin = rule_origin(rule) if rule is not None else ""
            found.append(Problem(check, verb, origin, count, first))
        return found
