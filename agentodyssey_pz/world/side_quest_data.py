"""Side-quest data: the `side_quests` section of a world's quest data.

Layer: world core. The section names the guide prototype (its NPC record may come with the section)
and the pool of names its per-agent instances take, how many explored areas unlock the side quests,
the coin reward range of each of the four scenarios (collect, craft, talk, trade), and every
player-facing text as a template with `{variables}`. Loading is strict like the main quest's
(unknown keys are errors) and every problem is reported with its JSON path; references are checked
against the world definition. The rule that runs it is `rules/base/steps/side_quest.py`.
"""

from __future__ import annotations

from typing import Any

import attrs

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.quest_records import VARIABLE, forbid_unknown_keys
from agentodyssey_pz.world.schema import (
    CONVERTER,
    NpcDef,
    ObjectDef,
    WorldDefinition,
)
from agentodyssey_pz.world.strict_json import strict_converter

SCENARIOS = ("collect", "craft", "talk", "trade")  # also the order tasks are generated in

# Variables each template may use.
TEXT_VARIABLES: dict[str, frozenset[str]] = {
    "unlocked": frozenset({"guide"}),
    "completed": frozenset({"guide", "scenario", "description", "coins", "currency"}),
    "dialogue_header": frozenset({"guide"}),
    "dialogue_task": frozenset({"scenario", "description", "coins", "currency"}),
    "dialogue_empty": frozenset({"scenario"}),
}
TASK_VARIABLES: dict[str, frozenset[str]] = {
    "collect": frozenset({"count", "object"}),
    "craft": frozenset({"object"}),
    "talk": frozenset({"npc", "area"}),
    "trade": frozenset({"object", "npc", "area"}),
}


@attrs.frozen
class SideGuideDef:
    """The per-agent guide: an instance of `npc` for each agent, named from `names` (shuffled per
    seed); agents beyond the pool are called `fallback_name` (numbered when several are)."""

    npc: str
    names: tuple[str, ...]
    fallback_name: str


class ScenarioTable:
    """Mixin of the records holding one value per scenario (reward ranges, labels, templates)."""

    __slots__ = ()

    def get(self, scenario: str) -> Any:
        return getattr(self, scenario)


@attrs.frozen
class RewardRanges(ScenarioTable):
    collect: tuple[int, ...]
    craft: tuple[int, ...]
    talk: tuple[int, ...]
    trade: tuple[int, ...]


@attrs.frozen
class ScenarioTexts(ScenarioTable):
    collect: str
    craft: str
    talk: str
    trade: str


@attrs.frozen
class SideQuestTexts:
    """Feedback lines (first person, the agent speaking) and the guide's dialogue."""

    unlocked: str
    completed: str
    dialogue_header: str
    dialogue_task: str
    dialogue_empty: str
    scenario_names: ScenarioTexts
    tasks: ScenarioTexts  # task descriptions


@attrs.frozen
class SideQuestDef:
    guide: SideGuideDef
    unlock_after: int  # explored areas (the spawn area excluded) that unlock the side quests
    rewards: RewardRanges
    texts: SideQuestTexts
    npcs: tuple[NpcDef, ...] = ()
    # Side quests bring no objects of their own; the attributes exist for `quests.inject`.
    objects: tuple[ObjectDef, ...] = attrs.field(default=(), init=False)
    undistributable: tuple[str, ...] = attrs.field(default=(), init=False)

    def reward_range(self, scenario: str) -> tuple[int, int]:
        low, high = self.rewards.get(scenario)
        return low, high


RECORDS = (SideGuideDef, RewardRanges, ScenarioTexts, SideQuestTexts, SideQuestDef)


def make_side_quest_converter() -> Any:
    """Strict: unknown keys are errors (a typo would otherwise silently drop a text or range)."""
    converter = strict_converter(forbid_extra_keys=True)
    forbid_unknown_keys(converter, RECORDS)
    converter.register_structure_hook(NpcDef, lambda raw, _: CONVERTER.structure(raw, NpcDef))
    return converter


SIDE_QUEST_CONVERTER = make_side_quest_converter()


def load_section(
    raw: Any, definition: WorldDefinition, path: str, problems: Problems
) -> SideQuestDef | None:
    """Structure and check the section; problems go to `problems` with their JSON paths. A shape
    error does not stop the checks of the parts that have the right shape."""
    from agentodyssey_pz.world.validate import section_parts

    section, parts = section_parts(raw, SideQuestDef, path, problems, SIDE_QUEST_CONVERTER)
    npcs: dict[str, NpcDef] | None = None  # None: the section's NPC list is malformed
    if "npcs" in parts:
        npcs = {n.id: n for n in definition.entities.npcs}  # the world's records win (inject)
        listed: set[str] = set()
        for i, npc in enumerate(parts["npcs"]):
            if npc.id in listed:
                problems.error(f"{path}.npcs[{i}].id", f"NPC '{npc.id}' is listed twice")
            listed.add(npc.id)
            npcs.setdefault(npc.id, npc)
    if "guide" in parts:
        _check_guide(parts["guide"], npcs, f"{path}.guide", problems)
    if parts.get("unlock_after", 0) < 0:
        problems.error(f"{path}.unlock_after", f"must be 0 or more, got {parts['unlock_after']}")
    if "rewards" in parts:
        _check_rewards(parts["rewards"], f"{path}.rewards", problems)
    if "texts" in parts:
        _check_texts(parts["texts"], f"{path}.texts", problems)
    if not any(o.category == "currency" for o in definition.entities.objects):
        problems.error(
            f"{path}.rewards",
            "side quests pay in the world's currency, but the world defines no object of "
            "category 'currency'",
        )
    return section


def _check_guide(
    guide: SideGuideDef, npcs: dict[str, NpcDef] | None, path: str, problems: Problems
) -> None:
    """`npcs` None: the NPC list is malformed (reported), so the guide's NPC is not looked up."""
    proto = npcs.get(guide.npc) if npcs is not None else None
    if npcs is not None and proto is None:
        problems.error(f"{path}.npc", f"unknown NPC '{guide.npc}'")
    elif proto is not None and proto.enemy:
        problems.error(f"{path}.npc", f"the guide '{guide.npc}' must not be an enemy")
    if not guide.names:
        problems.error(f"{path}.names", "a guide needs at least one name")
    for i, name in enumerate(guide.names):
        _check_name(name, f"{path}.names[{i}]", problems)
    if len(set(guide.names)) != len(guide.names):
        problems.error(f"{path}.names", "guide names must be distinct")
    _check_name(guide.fallback_name, f"{path}.fallback_name", problems)
    if guide.fallback_name in guide.names:
        problems.error(f"{path}.fallback_name", "must differ from every name of the pool")


def _check_name(name: str, path: str, problems: Problems) -> None:
    if not name or any(ch.isspace() for ch in name):
        problems.error(path, f"guide name '{name}' must be one word")


def _check_rewards(rewards: RewardRanges, path: str, problems: Problems) -> None:
    for scenario in SCENARIOS:
        where, value = f"{path}.{scenario}", rewards.get(scenario)
        if len(value) != 2:
            problems.error(where, f"expected [low, high], got {list(value)}")
        elif not 0 <= value[0] <= value[1]:
            problems.error(where, f"expected 0 <= low <= high, got {list(value)}")


def _check_template(text: str, allowed: frozenset[str], path: str, problems: Problems) -> None:
    if not text.strip():
        problems.error(path, "text must not be empty")
    for name in VARIABLE.findall(text):
        if name not in allowed:
            problems.error(
                path,
                f"unknown variable '{{{name}}}' (this text may use: {', '.join(sorted(allowed))})",
            )


def _check_texts(texts: SideQuestTexts, path: str, problems: Problems) -> None:
    for field, allowed in TEXT_VARIABLES.items():
        _check_template(getattr(texts, field), allowed, f"{path}.{field}", problems)
    for scenario in SCENARIOS:
        label = texts.scenario_names.get(scenario)
        _check_template(label, frozenset(), f"{path}.scenario_names.{scenario}", problems)
        task_path = f"{path}.tasks.{scenario}"
        _check_template(texts.tasks.get(scenario), TASK_VARIABLES[scenario], task_path, problems)
