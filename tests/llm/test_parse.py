"""Reading commands out of model answers: every accepted form, and what is a format error."""

from __future__ import annotations

import pytest

from agentodyssey_pz.llm.parse import parse_answer


@pytest.mark.parametrize(
    ("text", "action", "reasoning", "form"),
    [
        ('{"reasoning": "go", "action": "enter orchard"}', "enter orchard", "go", "json"),
        ('  {"action": " wait "}  ', "wait", None, "json"),
        ('```json\n{"reasoning": "r", "action": "pick up penny"}\n```', "pick up penny", "r",
         "fence"),
        ('Sure!\n```\n{"action": "defend"}\n```\nGood luck.', "defend", None, "fence"),
        ('I think {"reasoning": "a {brace} in text", "action": "talk to Wat"} is best.',
         "talk to Wat", "a {brace} in text", "embedded_json"),
        ('{"note": 1} then {"action": "craft 1 rope"}', "craft 1 rope", None, "embedded_json"),
        ("Reasoning: the orchard is near.\nAction: enter orchard", "enter orchard",
         "the orchard is near.", "action"),
        ("**Action:** `pick up latchkey`", "pick up latchkey", None, "action"),
        ('ACTION = "enter orchard"', "enter orchard", None, "action"),
    ],
)  # fmt: skip
def test_every_accepted_form(text: str, action: str, reasoning: str | None, form: str) -> None:
    parsed = parse_answer(text)
    assert parsed.ok, parsed.error
    assert (parsed.action, parsed.reasoning, parsed.form) == (action, reasoning, form)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (None, "empty"),
        ("", "empty"),
        ("   \n", "empty"),
        ("I would like to go to the orchard.", "no JSON object"),
        ('{"reasoning": "no action here"}', 'no "action" key'),
        ('{"action": 3}', "non-empty string"),
        ('{"action": ""}', "non-empty string"),
        ('{"action": "enter a\\nenter b"}', "one line"),
        ('{"action": "enter orchard"', "no JSON object"),  # cut off
        ("[1, 2, 3]", "no JSON object"),
    ],
)
def test_format_errors(text: str | None, why: str) -> None:
    parsed = parse_answer(text)
    assert not parsed.ok and parsed.action is None
    assert why in str(parsed.error)


def test_reasoning_is_kept_when_the_action_is_bad() -> None:
    parsed = parse_answer('{"reasoning": "thinking", "action": null}')
    assert parsed.reasoning == "thinking" and not parsed.ok
