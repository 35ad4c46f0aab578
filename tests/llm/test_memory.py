"""Memory modes and the context budget."""

from __future__ import annotations

from agentodyssey_pz.llm import LLMSettings
from agentodyssey_pz.llm.memory import Memory

SYSTEM = "system prompt"


def filled(memory: str, turns: int = 5, **changes) -> Memory:
    m = Memory(LLMSettings(model="m", memory=memory, **changes))
    for i in range(turns):
        m.add(f"observation {i}", f"action {i}", f"because {i}")
    return m


def users(messages) -> list[str]:
    return [m["content"] for m in messages if m["role"] == "user"]


def test_none_keeps_nothing() -> None:
    msgs = filled("none").messages(SYSTEM, "now", None, "native")
    assert [m["role"] for m in msgs] == ["system", "user"]


def test_full_keeps_every_turn_as_chat_turns() -> None:
    msgs = filled("full").messages(SYSTEM, "now", None, "native")
    assert len(msgs) == 1 + 2 * 5 + 1
    assert users(msgs)[0] == "observation 0" and '"action 4"' in msgs[-2]["content"]


def test_window_keeps_the_last_k() -> None:
    m = filled("window:2")
    assert [t.observation for t in m.turns] == ["observation 3", "observation 4"]


def test_reference_style_is_one_user_message_with_a_memory_block() -> None:
    msgs = filled("full", 2).messages(SYSTEM, "now", {"wait": ["wait"]}, "reference")
    assert [m["role"] for m in msgs] == ["system", "user"]
    text = msgs[1]["content"]
    assert text.index("observation 0") < text.index("Action: action 1") < text.index("now")
    assert "- wait" in text


def test_the_budget_drops_oldest_turns_first() -> None:
    m = filled("full", 50, context_tokens=200)
    msgs = m.messages(SYSTEM, "now", None, "native")
    kept = users(msgs)[:-1]
    assert m.dropped > 0 and len(kept) == 50 - m.dropped
    assert kept[-1] == "observation 49"  # the newest survive
    assert m.tokens(msgs) <= 200
    assert m.tokens(m._build(SYSTEM, "now", None, "native", m.turns[m.dropped - 1 :])) > 200


def test_the_servers_count_calibrates_the_budget() -> None:
    m = filled("full", 50, context_tokens=400)
    before = len(m.messages(SYSTEM, "now", None, "native"))
    m.calibrate(estimated=100, server_tokens=200)  # the real tokenizer counts twice as many
    after = len(m.messages(SYSTEM, "now", None, "native"))
    assert after < before


def test_summary_falls_due_and_replaces_the_turns() -> None:
    m = filled("summary:3", 2)
    assert not m.summary_due()
    m.add("observation 2", "wait", None)
    assert m.summary_due()
    request = m.summary_messages()
    assert "observation 0" in request[1]["content"] and "Action: wait" in request[1]["content"]
    m.apply_summary("  the mill is north  ")
    assert m.turns == [] and m.summary == "the mill is north"
    msgs = m.messages(SYSTEM, "now", None, "native")
    assert "the mill is north" in msgs[1]["content"]
