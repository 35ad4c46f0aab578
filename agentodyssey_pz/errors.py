"""Exception types of agentodyssey_pz (a leaf module: every layer may import it)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs


@attrs.frozen
class Problem:
    """One finding about user-supplied data: where it is, what is wrong, and the offending value."""

    path: str
    message: str
    severity: str = "error"  # "error" refuses the data; "warning" loads it and reports

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class AgentOdysseyError(Exception):
    """Base class of every error this package raises on purpose."""


class DataError(AgentOdysseyError):
    """User data (a world definition, quest data, a checkpoint ...) is invalid.

    Carries every problem found, not only the first, so a user fixes a file in one pass.
    """

    kind = "data"

    def __init__(self, problems: Iterable[Problem], source: str | None = None) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = f" in {self.source}" if self.source else ""
        count = len(self.problems)
        head = f"invalid {self.kind}{where}: {count} problem{'s' if count != 1 else ''}"
        return "\n".join([head, *(f"  - {p}" for p in self.problems)])


class WorldDefinitionError(DataError):
    """A world definition cannot be loaded; `problems` lists each error with its JSON path."""

    kind = "world definition"


class QuestDataError(DataError):
    """Quest or tutorial data cannot be loaded; `problems` lists each error with its JSON path."""

    kind = "quest data"


class WorldStateError(DataError):
    """Saved world state (from a checkpoint) is malformed."""

    kind = "world state"


class RulePackError(AgentOdysseyError):
    """A rule pack cannot be found, imported or registered."""


class CheckpointError(AgentOdysseyError):
    """A checkpoint is missing, corrupt, or belongs to another world or format version."""


class RuleError(AgentOdysseyError):
    """A rule (or the reward function) raised in the middle of a tick. The tick's changes so far
    stay in the state, so the game refuses to go on or be saved: reset it, or resume from its last
    checkpoint (which holds the state before that tick)."""


class RuleCodeWarning(UserWarning):
    """A checkpoint's rule packs have changed since it was saved: replaying its journal may not
    reproduce the saved run."""


class PublishedGameError(AgentOdysseyError):
    """AgentOdyssey's own copy (its games' files) is missing, or one of its files cannot be read
    as the importer expects; the message is one line saying what to do."""


class ConfigError(AgentOdysseyError):
    """A configuration value is invalid; the message names the field."""


class Problems:
    """Collects problems while checking user data, so all of them are reported in one go."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def error(self, path: str, message: str) -> None:
        self.items.append(Problem(path, message, "error"))

    def warn(self, path: str, message: str) -> None:
        self.items.append(Problem(path, message, "warning"))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]

    def raise_if_errors(self, error_type: type[DataError], source: str | None = None) -> None:
        if self.errors:
            raise error_type(self.errors, source)
