"""Reading a command out of a model's answer.

Side module (llm). Accepted forms, tried in this order:
1. the whole answer is a JSON object `{"reasoning": ..., "action": ...}` (the answer format both
   prompt styles ask for; "reasoning" may be missing);
2. the same inside a Markdown code fence (```json ... ``` or ``` ... ```);
3. the first balanced JSON object found anywhere in the text that has an "action" key;
4. a line `Action: <command>` (any case, optional markdown bold/backticks/quotes around the
   command); a preceding `Reasoning: ...` line is kept as the reasoning.

Anything else is a *format error* (`Parsed.error` says why), counted apart from invalid actions:
an invalid action is a parsed command the game refuses. The policy then re-asks once, showing the
error (setting `reask_on_format_error`), or waits. An "action" that is not a non-empty string, or
spans several lines, is a format error too (one command per turn).
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs

FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
ACTION_LINE = re.compile(r"^\s*[*_]*action[*_]*\s*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
REASONING_LINE = re.compile(
    r"^\s*[*_]*(?:reasoning|thought|thinking)[*_]*\s*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE
)
WRAPPERS = "`\"'*_ "


@attrs.frozen
class Parsed:
    action: str | None
    reasoning: str | None = None
    error: str | None = None
    form: str | None = None  # json | fence | embedded_json | action_line

    @property
    def ok(self) -> bool:
        return self.error is None


def parse_answer(text: str | None) -> Parsed:
    """The command in a model's answer, or a format error."""
    if text is None or not text.strip():
        return Parsed(None, error="the answer is empty")
    stripped = text.strip()
    whole = _loads(stripped)
    if whole is not None:
        return _from_object(whole, "json")
    for block in FENCE.findall(stripped):
        inner = _loads(block.strip())
        if inner is not None:
            return _from_object(inner, "fence")
    for candidate in _json_objects(stripped):
        if "action" in candidate:
            return _from_object(candidate, "embedded_json")
    match = ACTION_LINE.search(stripped)
    if match is not None:
        action = match.group(1).strip(WRAPPERS)
        reasoning = REASONING_LINE.search(stripped)
        if action:
            return Parsed(action, reasoning.group(1).strip() if reasoning else None, None, "action")
    return Parsed(
        None,
        error='no JSON object with an "action" key and no "Action: <command>" line in the answer',
    )


def _loads(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _from_object(data: dict[str, Any], form: str) -> Parsed:
    reasoning = data.get("reasoning")
    reasoning = reasoning.strip() if isinstance(reasoning, str) else None
    if "action" not in data:
        return Parsed(None, reasoning, 'the JSON object has no "action" key', form)
    action = data["action"]
    if not isinstance(action, str) or not action.strip():
        return Parsed(None, reasoning, f'"action" must be a non-empty string, got {action!r}', form)
    action = action.strip()
    if "\n" in action:
        return Parsed(None, reasoning, '"action" must be one command on one line', form)
    return Parsed(action, reasoning, None, form)


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object embedded in free text, in order (brace matching that skips
    strings; each candidate is then checked by the JSON parser)."""
    found: list[dict[str, Any]] = []
    start = text.find("{")
    while start != -1:
        end = _matching_brace(text, start)
        if end == -1:
            break
        value = _loads(text[start : end + 1])
        if value is not None:
            found.append(value)
            start = text.find("{", end + 1)
        else:
            start = text.find("{", start + 1)
    return found


def _matching_brace(text: str, start: int) -> int:
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1
