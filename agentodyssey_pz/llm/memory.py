"""What a language-model agent remembers between turns, kept within a context budget.

Side module (llm). A turn is (observation text, the answer's action and reasoning). Modes
(setting `memory`):
- "none": each prompt holds only the current observation.
- "full": every past turn.
- "window:K": the last K turns.
- "summary" / "summary:K": a running summary the model writes itself. Turns pile up; once K (8 by
  default) have, the policy makes one extra call (purpose "summary", logged like the others) that
  merges the previous summary and those turns into new notes, and the turns are dropped. The
  summary opens every prompt. A summary call that fails keeps the turns (retried next turn).
In every mode the prompt is kept within `context_tokens`: while the estimate is over budget the
oldest remembered turn is dropped (the current observation is never cut; a prompt that is too long
even without memory is sent as it is and the server decides). The estimate is `client.
estimate_tokens` scaled by the ratio of the server's reported prompt tokens to our estimate of the
previous call (the server's usage, when given, calibrates the rule of thumb to the real
tokenizer); the scale starts at 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from agentodyssey_pz.llm import prompt
from agentodyssey_pz.llm.client import estimate_tokens
from agentodyssey_pz.llm.settings import LLMSettings


@attrs.frozen
class Turn:
    observation: str
    action: str | None
    reasoning: str | None

    def answer_json(self) -> str:
        import json

        return json.dumps({"reasoning": self.reasoning or "", "action": self.action or "wait"})


class Memory:
    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.mode = settings.memory_mode
        self.k = settings.memory_turns
        self.turns: list[Turn] = []
        self.summary = ""
        self.scale = 1.0  # server tokens per estimated token, from the last call with usage
        self.dropped = 0  # turns left out of the last prompt by the budget

    def reset(self) -> None:
        self.turns, self.summary, self.scale, self.dropped = [], "", 1.0, 0

    def add(self, observation: str, action: str | None, reasoning: str | None) -> None:
        if self.mode == "none":
            return
        self.turns.append(Turn(observation, action, reasoning))
        if self.mode == "window" and self.k is not None:
            del self.turns[: -self.k]

    def calibrate(self, estimated: int, server_tokens: int) -> None:
        if estimated > 0 and server_tokens > 0:
            self.scale = server_tokens / estimated

    def tokens(self, messages: Sequence[Mapping[str, str]]) -> float:
        return estimate_tokens(messages) * self.scale

    # ------------------------------------------------------------------ summary mode
    def summary_due(self) -> bool:
        return self.mode == "summary" and self.k is not None and len(self.turns) >= self.k

    def summary_messages(self) -> list[dict[str, str]]:
        text = "\n\n".join(
            f"{t.observation.strip()}\n{prompt.readable_reply(t.action, t.reasoning)}"
            for t in self.turns
        )
        return prompt.summary_request(self.summary, text)

    def apply_summary(self, text: str) -> None:
        self.summary = text.strip()
        self.turns = []

    # ------------------------------------------------------------------ the prompt
    def messages(
        self,
        system: str,
        observation: str,
        valid_actions: Mapping[str, Sequence[str]] | None,
        style: str,
    ) -> list[dict[str, str]]:
        """This turn's messages, with as many remembered turns as the budget allows."""
        turns = list(self.turns)
        self.dropped = 0
        while True:
            built = self._build(system, observation, valid_actions, style, turns)
            if not turns or self.tokens(built) <= self.settings.context_tokens:
                return built
            turns.pop(0)
            self.dropped += 1

    def _build(
        self,
        system: str,
        observation: str,
        valid_actions: Mapping[str, Sequence[str]] | None,
        style: str,
        turns: Sequence[Turn],
    ) -> list[dict[str, str]]:
        out = [{"role": "system", "content": system}]
        if style == "reference":
            blocks = [f"Notes: {self.summary}"] if self.summary else []
            blocks += [
                f"{t.observation.strip()}\n{prompt.readable_reply(t.action, t.reasoning)}"
                for t in turns
            ]
            user = prompt.reference_turn(observation, valid_actions, "\n\n".join(blocks))
            return [*out, {"role": "user", "content": user}]
        if self.summary:
            out.append({"role": "user", "content": f"My notes so far:\n{self.summary}"})
            out.append({"role": "assistant", "content": "Noted."})
        for t in turns:
            out.append({"role": "user", "content": t.observation.strip()})
            out.append({"role": "assistant", "content": t.answer_json()})
        out.append({"role": "user", "content": prompt.native_turn(observation, valid_actions)})
        return out
