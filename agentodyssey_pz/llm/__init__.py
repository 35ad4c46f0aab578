"""Language-model agents: settings, chat clients, prompts, memory, parsing, accounting, replay.

A side module on top of every layer (like `policies` and `evaluate`). The `openai` SDK it talks
through is an optional extra (`pip install "agentodyssey_pz[llm]"`), imported only when a request
is made. `LLMPolicy` is a policy like the others; `evaluate` runs several at once per tick.

    from agentodyssey_pz.llm import LLMPolicy, LLMSettings
    policy = LLMPolicy(LLMSettings(model="smollm2", base_url="http://127.0.0.1:8080/v1"))

Modules: `settings` (LLMSettings), `client` (ChatClient, OpenAIChatClient, check_server, the token
estimate), `prompt`, `memory`, `parse`, `accounting`, `policy` (LLMPolicy, LLMPolicyFactory),
`replay` (ReplayClient), `agents_config` (several LLM policies from a TOML/JSON file).
"""

from __future__ import annotations

from agentodyssey_pz.llm.accounting import Ledger, llm_totals, merge_totals
from agentodyssey_pz.llm.client import (
    ChatClient,
    Completion,
    OpenAIChatClient,
    check_server,
    estimate_tokens,
)
from agentodyssey_pz.llm.parse import Parsed, parse_answer
from agentodyssey_pz.llm.policy import LLMPolicy, LLMPolicyFactory
from agentodyssey_pz.llm.replay import ReplayClient
from agentodyssey_pz.llm.settings import LLMSettings

__all__ = [
    "ChatClient",
    "Completion",
    "LLMPolicy",
    "LLMPolicyFactory",
    "LLMSettings",
    "Ledger",
    "OpenAIChatClient",
    "Parsed",
    "ReplayClient",
    "check_server",
    "estimate_tokens",
    "llm_totals",
    "merge_totals",
    "parse_answer",
]
