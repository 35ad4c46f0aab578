"""Prompts: the system prompt built from the env's own rule set, and each turn's messages.

Side module (llm). The verbs come from the game's loaded rules (`env.game.engine.rules`: every
verb of every rule pack, with its parameters and description), so a new verb, from a bundled pack
or the user's, reaches the model with no prompt edit. An unbound policy (called on a bare
observation) lists the verb phrases of the turn's valid-action lists instead.

Two styles (setting `prompt_style`):
- "native": a system prompt explaining the game's command syntax (instance names, amounts,
  quoted text for `write`), one line per verb `usage: description`, and the answer format. Each
  turn's user message is the observation, then (with `show_valid_actions`) the commands valid now,
  one `- command` bullet each, then the request for the answer. Memory turns precede it as earlier
  user/assistant messages.
- "reference": the published AgentOdyssey harness's structure, so numbers compare: the system
  prompt lists the action space as `- verb <param> ...` lines with the same JSON answer format
  (keys "reasoning" and "action", JSON only); each turn is ONE user message holding the memory as
  a text block (each past observation followed by `Reasoning: ...` and `Action: ...` lines), then
  the current observation, then the request. With `show_valid_actions=False` and memory "none" or
  "full" it matches that harness's no-memory and long-context agents. The wording is ours.

Both ask for `{"reasoning": "...", "action": "<one command>"}` (`parse` accepts more).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

MAX_LISTED = 300  # commands listed per turn at most (a crowded area's store/discard amounts)


@attrs.frozen
class Verb:
    usage: str  # "craft <amount> <obj_name>"
    description: str


def verbs_of_rules(rules: Iterable[Any]) -> list[Verb]:
    """The verbs of a game's loaded rules, in the rule table's order, each once."""
    out: list[Verb] = []
    seen: set[str] = set()
    for rule in rules:
        verb = getattr(rule, "verb", None)
        if not isinstance(verb, str) or verb in seen:
            continue
        seen.add(verb)
        params = tuple(getattr(rule, "params", ()) or ())
        usage = " ".join([verb, *(f"<{p}>" for p in params)])
        out.append(Verb(usage, str(getattr(rule, "description", "") or "").strip()))
    return out


def verbs_of_listing(valid_actions: Mapping[str, Sequence[str]] | None) -> list[Verb]:
    return [Verb(phrase, "") for phrase in (valid_actions or {})]


ANSWER_FORMAT = (
    "Answer with one JSON object and nothing else:\n"
    '{"reasoning": "<a sentence or two on why>", "action": "<one command>"}'
)


def native_system_prompt(verbs: Sequence[Verb]) -> str:
    lines = [
        "You control one character in a multi-player text adventure. Each turn you read what "
        "your character perceives and give exactly one command; other players act in the same "
        "world at the same time.",
        "",
        "Commands are a verb followed by its parameters, separated by spaces. Use names exactly "
        "as the observation writes them (they are case-sensitive; containers and writables go by "
        "instance names such as flour_sack_0). Amounts are whole numbers. Text to write goes in "
        'double quotes: write "some words" note_0.',
        "",
        "Verbs:",
    ]
    for verb in verbs:
        lines.append(f"- {verb.usage}" + (f": {verb.description}" if verb.description else ""))
    lines += [
        "",
        "A command that fails costs the turn. Explore, gather, craft, trade and follow the quests "
        "to score.",
        "",
        ANSWER_FORMAT,
    ]
    return "\n".join(lines)


def reference_system_prompt(verbs: Sequence[Verb]) -> str:
    lines = [
        "You are playing a text adventure game described in words. On each turn, pick ONE "
        "action from the action space.",
        "",
        "Action space:",
        *(f"- {verb.usage}" for verb in verbs),
        "",
        "Answer format (strict): a single JSON object with exactly two keys,",
        '{"reasoning": "<why this action, in a few sentences>", "action": "<the action>"}',
        "",
        "- Reply with the JSON object only, nothing before or after it.",
        "- The action must follow one of the forms in the action space.",
    ]
    return "\n".join(lines)


def system_prompt(verbs: Sequence[Verb], style: str) -> str:
    return reference_system_prompt(verbs) if style == "reference" else native_system_prompt(verbs)


def valid_action_lines(valid_actions: Mapping[str, Sequence[str]] | None) -> list[str]:
    commands = [c for group in (valid_actions or {}).values() for c in group]
    lines = [f"- {c}" for c in commands[:MAX_LISTED]]
    if len(commands) > MAX_LISTED:
        lines.append(f"(and {len(commands) - MAX_LISTED} more of the same verbs)")
    return lines


def native_turn(observation: str, valid_actions: Mapping[str, Sequence[str]] | None) -> str:
    parts = [observation.strip()]
    if valid_actions is not None:
        parts += ["", "Commands that would work now:", *valid_action_lines(valid_actions)]
    parts += ["", "Your command? Answer with the JSON object only."]
    return "\n".join(parts)


def reference_turn(
    observation: str, valid_actions: Mapping[str, Sequence[str]] | None, memory_text: str
) -> str:
    parts = []
    if memory_text:
        parts += ["What I remember:", memory_text.strip(), ""]
    parts += ["What I observe now:", observation.strip()]
    if valid_actions is not None:
        parts += ["", "Actions possible now:", *valid_action_lines(valid_actions)]
    parts += ["", "What do I do next? Reply with the JSON object only."]
    return "\n".join(parts)


def readable_reply(action: str | None, reasoning: str | None) -> str:
    """How a past answer reads in the reference style's memory block."""
    lines = [f"Reasoning: {reasoning}"] if reasoning else []
    return "\n".join([*lines, f"Action: {action if action is not None else 'wait'}"])


def reask_message(error: str) -> str:
    # A concrete example: small models copy a placeholder such as "<one command>" word for word.
    return (
        f"I could not read a command in that answer ({error}). Answer again with one JSON "
        'object only, the command itself as "action", for example: '
        '{"reasoning": "I want to see what lies east.", "action": "enter forest"}'
    )


SUMMARY_SYSTEM = (
    "You keep the notes of a player in a text adventure. Merge the earlier notes and the new "
    "turns into short notes that keep what matters for later: places and how they connect, "
    "where things and people are, what was made, bought or learned, open goals and what failed. "
    "Write plain text, at most 200 words."
)


def summary_request(previous: str, turns_text: str) -> list[dict[str, str]]:
    user = f"Earlier notes:\n{previous or '(none)'}\n\nNew turns:\n{turns_text}\n\nUpdated notes:"
    return [{"role": "system", "content": SUMMARY_SYSTEM}, {"role": "user", "content": user}]
