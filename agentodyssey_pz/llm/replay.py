"""`ReplayClient`: plays a logged language-model run again without a server.

Side module (llm). Built from a trajectory log (`from_trajectory(path)`), it holds every agent's
logged calls (the `llm.calls` of its step records, in tick order) and serves them back in order:
`for_agent(agent)` (which `LLMPolicy.bind` calls) gives that agent's queue, whose `complete`
returns the next logged call as a `Completion`: the same text or error, tokens, `usage_from`,
seconds and retries. The policy's choices depend only on those, so replaying a logged run with the
same settings gives the same commands, hence the same trajectory (the env is seeded from the log's
header). A request beyond the log, or one whose purpose differs from the log's (settings changed),
gets an error Completion, so the agent waits and the difference shows in the trajectory.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from agentodyssey_pz.llm.client import Completion, Message
from agentodyssey_pz.llm.settings import LLMSettings


class ReplayClient:
    def __init__(self, calls_by_agent: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        self.calls_by_agent = {agent: list(calls) for agent, calls in calls_by_agent.items()}

    @classmethod
    def from_trajectory(cls, path: str | os.PathLike[str]) -> ReplayClient:
        from agentodyssey_pz.evaluate.trajectory import read_trajectory

        _, steps = read_trajectory(path)
        calls: dict[str, list[Mapping[str, Any]]] = {}
        for record in steps:
            llm = record.get("llm")
            if isinstance(llm, Mapping):
                calls.setdefault(record["agent"], []).extend(llm.get("calls", ()))
        return cls(calls)

    def for_agent(self, agent: str) -> AgentReplay:
        return AgentReplay(agent, self.calls_by_agent.get(agent, []))


class AgentReplay:
    """One agent's logged calls, served in order."""

    def __init__(self, agent: str, calls: Sequence[Mapping[str, Any]]) -> None:
        self.agent = agent
        self.calls = list(calls)
        self.position = 0

    async def complete(self, messages: Sequence[Message], settings: LLMSettings) -> Completion:
        if self.position >= len(self.calls):
            return Completion(None, error=f"replay: {self.agent} has no more logged calls")
        call = self.calls[self.position]
        self.position += 1
        return Completion(
            call.get("response"),
            int(call.get("input_tokens", 0)),
            int(call.get("output_tokens", 0)),
            str(call.get("usage_from", "estimate")),
            float(call.get("seconds", 0.0)),
            int(call.get("retries", 0)),
            call.get("error"),
        )
