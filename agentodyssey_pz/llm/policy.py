"""`LLMPolicy`: a policy that asks a language model for each command.

Side module (llm). Like every policy it is callable, `policy(observation, info) -> command`
(synchronously: it runs a short event loop of its own); evaluation awaits `act_async` instead, so
that every LLM agent of a tick has its request in flight at once (`evaluate.runner`).

One turn (`act_async`):
1. budget spent (`accounting.Ledger.exhausted`)? -> "wait", logged `waited: "budget"`, no call;
2. summary memory due? -> one "summary" call (`memory`);
3. the "act" call with the system prompt (`prompt`, built at `bind` from the env's rules), the
   remembered turns within the context budget, the observation and (option) the valid commands;
4. a failed call (server down, time-out after the SDK's retries, 429/500 after retries, a
   malformed body) -> "wait", `waited: "server_error"`, the error kept in the call's entry;
5. an answer `parse` cannot read is a format error: re-asked once with the error shown (option
   `reask_on_format_error`, a "reask" call), else, or if the re-ask fails too, "wait" with
   `waited: "format_error"` (or "server_error" when the re-ask call itself failed).
Every call is logged in the step's `llm` record; nothing raises out of a turn but a bug.

The step record (`step_record()`, written by the runner under the step's `"llm"` key):

    {"input_tokens", "output_tokens", "seconds" (the turn's calls summed), "format_error" (the
     first answer could not be parsed), "reasked", "waited": null | "budget" | "server_error" |
     "format_error", "cost" (null without a price table), "reasoning", "calls": [{"purpose":
     "act" | "reask" | "summary", "messages", "response", "input_tokens", "output_tokens",
     "usage_from", "seconds", "retries", "error"}]}

`messages` is the list sent. With `log_messages="compact"` (the default) a system message is
written in full the first time the agent sends it in an episode and as `{"role": "system",
"sha256": <hex of its content>}` afterwards (the summary call's fixed system prompt likewise);
"full" writes every message of every call.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from agentodyssey_pz.llm import prompt
from agentodyssey_pz.llm.accounting import Ledger
from agentodyssey_pz.llm.client import ChatClient, Completion, OpenAIChatClient, estimate_tokens
from agentodyssey_pz.llm.memory import Memory
from agentodyssey_pz.llm.parse import parse_answer
from agentodyssey_pz.llm.settings import LLMSettings
from agentodyssey_pz.policies.base import BasePolicy

WAIT = "wait"


class LLMPolicy(BasePolicy):
    name = "llm"

    def __init__(
        self, settings: LLMSettings, *, client: ChatClient | None = None, name: str = "llm"
    ) -> None:
        super().__init__()
        self.settings = settings
        self.name = name  # type: ignore[misc]  # the instance's report name
        self._given_client = client
        self.client: Any = client
        self.memory = Memory(settings)
        self.ledger = Ledger(settings)
        self.system: str | None = None
        self._logged_system: set[str] = set()
        self._record: dict[str, Any] | None = None

    # ------------------------------------------------------------------ episode lifecycle
    def bind(self, env: Any, agent_id: str, seed: int) -> None:
        super().bind(env, agent_id, seed)
        self.memory.reset()
        self.ledger.reset()
        self._logged_system = set()
        self._record = None
        rules = getattr(getattr(getattr(env, "game", None), "engine", None), "rules", None)
        verbs = prompt.verbs_of_rules(rules.values()) if isinstance(rules, Mapping) else []
        self.system = prompt.system_prompt(verbs, self.settings.prompt_style) if verbs else None
        client = self._given_client
        if client is not None and hasattr(client, "for_agent"):
            self.client = client.for_agent(agent_id)  # a replay serves this agent's answers

    def _chat(self) -> Any:
        if self.client is None:
            self.client = OpenAIChatClient(self.settings)
        return self.client

    def check_server(self) -> None:
        """Start-up check (ConfigError on an unreachable server); only for the SDK client."""
        if self._given_client is None:
            from agentodyssey_pz.llm.client import check_server

            check_server(self.settings)

    async def aclose(self) -> None:
        close = getattr(self.client, "aclose", None)
        if close is not None:
            await close()

    # ------------------------------------------------------------------ acting
    def __call__(self, observation: Any, info: Mapping[str, Any]) -> str:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError("LLMPolicy called inside an event loop: await act_async instead")

        async def once() -> str:
            try:
                return await self.act_async(observation, info)
            finally:
                await self.aclose()

        return asyncio.run(once())

    async def act_async(self, observation: Any, info: Mapping[str, Any]) -> str:
        text = observation.get("text", "") if isinstance(observation, Mapping) else str(observation)
        listing = info.get("valid_actions") if isinstance(info, Mapping) else None
        shown = listing if self.settings.show_valid_actions else None
        record = self._record = new_record()
        spent = self.ledger.exhausted()
        if spent is not None:
            record["waited"], record["budget"] = "budget", spent
            return self._finish(record, text, None, None)
        system = self.system or prompt.system_prompt(
            prompt.verbs_of_listing(listing), self.settings.prompt_style
        )
        if self.memory.summary_due():
            done = await self._call("summary", self.memory.summary_messages(), record)
            if done.ok and done.text and done.text.strip():
                self.memory.apply_summary(done.text)
        messages = self.memory.messages(system, text, shown, self.settings.prompt_style)
        answer = await self._call("act", messages, record)
        if not answer.ok:
            record["waited"] = "server_error"
            return self._finish(record, text, None, None)
        parsed = parse_answer(answer.text)
        if not parsed.ok:
            record["format_error"] = True
            record["parse_error"] = parsed.error
            if self.settings.reask_on_format_error and self.ledger.exhausted() is None:
                record["reasked"] = True
                again = [
                    *messages,
                    {"role": "assistant", "content": answer.text or ""},
                    {"role": "user", "content": prompt.reask_message(str(parsed.error))},
                ]
                second = await self._call("reask", again, record)
                if not second.ok:
                    record["waited"] = "server_error"
                    return self._finish(record, text, None, None)
                parsed = parse_answer(second.text)
            if not parsed.ok:
                record["waited"] = "format_error"
                return self._finish(record, text, None, parsed.reasoning)
        return self._finish(record, text, parsed.action, parsed.reasoning)

    def _finish(
        self, record: dict[str, Any], text: str, action: str | None, reasoning: str | None
    ) -> str:
        record["reasoning"] = reasoning
        record["cost"] = self.settings.cost(record["input_tokens"], record["output_tokens"])
        record["seconds"] = round(record["seconds"], 6)
        self.memory.add(text, action, reasoning)
        return action if action is not None else WAIT

    async def _call(
        self, purpose: str, messages: Sequence[Mapping[str, str]], record: dict[str, Any]
    ) -> Completion:
        try:
            done = await self._chat().complete(messages, self.settings)
        except Exception as exc:  # a client of the user's that raises: still no crash mid-tick
            done = Completion(None, error=f"client raised {type(exc).__name__}: {exc}")
        if done.usage_from == "server" and purpose != "summary":
            self.memory.calibrate(estimate_tokens(messages), done.input_tokens)
        entry = {
            "purpose": purpose,
            "messages": self._loggable(messages),
            "response": done.text,
            "input_tokens": done.input_tokens,
            "output_tokens": done.output_tokens,
            "usage_from": done.usage_from,
            "seconds": round(done.seconds, 6),
            "retries": done.retries,
            "error": done.error,
        }
        self.ledger.add(entry)
        record["calls"].append(entry)
        record["input_tokens"] += done.input_tokens
        record["output_tokens"] += done.output_tokens
        record["seconds"] += done.seconds
        return done

    def _loggable(self, messages: Sequence[Mapping[str, str]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for message in messages:
            if self.settings.log_messages == "compact" and message.get("role") == "system":
                content = str(message.get("content", ""))
                digest = hashlib.sha256(content.encode("utf-8")).hexdigest()
                if digest in self._logged_system:
                    out.append({"role": "system", "sha256": digest})
                    continue
                self._logged_system.add(digest)
            out.append(dict(message))
        return out

    # ------------------------------------------------------------------ what the runner reads
    def step_record(self) -> dict[str, Any] | None:
        """This step's `llm` log entry (None before the first turn)."""
        return self._record

    def episode_summary(self) -> dict[str, Any]:
        ledger = self.ledger
        return {
            "calls": ledger.calls,
            "input_tokens": ledger.input_tokens,
            "output_tokens": ledger.output_tokens,
            "seconds": round(ledger.seconds, 6),
            "retries": ledger.retries,
            "errors": ledger.errors,
            "cost": ledger.cost,
            "budget": ledger.exhausted(),
        }

    # ------------------------------------------------------------------ question answering
    def answer_questions(self, questions: Sequence[str]) -> list[str]:
        """Answer free-text questions from what the agent remembers (its summary and remembered
        turns), one call each; "" for a call that fails. Not logged in the trajectory."""

        async def ask_all() -> list[str]:
            try:
                answers = []
                for question in questions:
                    done = await self._chat().complete(self._question(question), self.settings)
                    answers.append(done.text.strip() if done.ok and done.text else "")
                return answers
            finally:
                await self.aclose()

        return asyncio.run(ask_all())

    def _question(self, question: str) -> list[dict[str, str]]:
        notes = [f"Notes: {self.memory.summary}"] if self.memory.summary else []
        notes += [
            f"{t.observation.strip()}\n{prompt.readable_reply(t.action, t.reasoning)}"
            for t in self.memory.turns
        ]
        system = (
            "You played a text adventure game. Answer the question from what you remember, "
            "in a few words, with no explanation."
        )
        user = "What I remember:\n" + ("\n\n".join(notes) or "(nothing)") + f"\n\n{question}"
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def new_record() -> dict[str, Any]:
    return {
        "input_tokens": 0,
        "output_tokens": 0,
        "seconds": 0.0,
        "format_error": False,
        "reasked": False,
        "waited": None,
        "cost": None,
        "reasoning": None,
        "calls": [],
    }


@attrs.frozen
class LLMPolicyFactory:
    """A picklable zero-argument factory of `LLMPolicy` with a name: what `EvalConfig.policies`
    takes for a language-model policy (one fresh policy per agent and episode)."""

    name: str
    settings: LLMSettings

    def __call__(self) -> LLMPolicy:
        return LLMPolicy(self.settings, name=self.name)
