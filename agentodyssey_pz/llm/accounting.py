"""Token, time and cost accounting of language-model calls; budgets; totals from trajectory logs.

Side module (llm). Every call (an action, a re-ask, a summary) is counted: input and output
tokens (the server's `usage` when it reports one, else the estimate of `client`), seconds, the
SDK's retries, and the error if it failed (a failed call counts no tokens: none came back). Cost is
`(input x price_input + output x price_output) / 1e6` when the settings carry a price table.

Budgets (`token_budget`: input + output tokens; `cost_budget`) are per episode: before each turn
`Ledger.exhausted()` is checked, and once spent the agent waits, its step logged with
`waited: "budget"`. The call that crosses the budget is still made (its size is known only
after), so the totals may pass the budget by one turn's calls.

`llm_totals(records)` sums the `llm` fields of step records (what the report shows per agent
and policy): the report's numbers are recomputed from the logs, never from the policy's memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from agentodyssey_pz.llm.settings import LLMSettings


class Ledger:
    """One agent's running totals over one episode."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.reset()

    def reset(self) -> None:
        self.input_tokens = self.output_tokens = self.calls = self.errors = self.retries = 0
        self.seconds = 0.0

    def add(self, call: Mapping[str, Any]) -> None:
        self.calls += 1
        self.input_tokens += int(call["input_tokens"])
        self.output_tokens += int(call["output_tokens"])
        self.seconds += float(call["seconds"])
        self.retries += int(call["retries"])
        self.errors += call["error"] is not None

    @property
    def cost(self) -> float | None:
        return self.settings.cost(self.input_tokens, self.output_tokens)

    def exhausted(self) -> str | None:
        """Why no more calls may be made this episode, or None."""
        s = self.settings
        if s.token_budget is not None and self.input_tokens + self.output_tokens >= s.token_budget:
            return f"token budget of {s.token_budget:,} spent"
        cost = self.cost
        if s.cost_budget is not None and cost is not None and cost >= s.cost_budget:
            return f"cost budget of {s.cost_budget:g} spent"
        return None


def empty_totals() -> dict[str, Any]:
    return {
        "steps": 0,
        "calls": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "seconds": 0.0,
        "retries": 0,
        "errors": 0,
        "format_errors": 0,
        "reasks": 0,
        "waited": {},
        "cost": None,
    }


def llm_totals(records: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Totals of the `llm` fields of step records; None when none of them has one."""
    totals = empty_totals()
    waited: Counter[str] = Counter()
    found = False
    for record in records:
        llm = record.get("llm")
        if not isinstance(llm, Mapping):
            continue
        found = True
        totals["steps"] += 1
        totals["input_tokens"] += int(llm["input_tokens"])
        totals["output_tokens"] += int(llm["output_tokens"])
        totals["seconds"] += float(llm["seconds"])
        totals["format_errors"] += bool(llm["format_error"])
        totals["reasks"] += bool(llm["reasked"])
        if llm.get("waited"):
            waited[str(llm["waited"])] += 1
        if llm.get("cost") is not None:
            totals["cost"] = (totals["cost"] or 0.0) + float(llm["cost"])
        for call in llm.get("calls", ()):
            totals["calls"] += 1
            totals["retries"] += int(call.get("retries", 0))
            totals["errors"] += call.get("error") is not None
    if not found:
        return None
    totals["waited"] = dict(sorted(waited.items()))
    return merge_totals([totals])


def merge_totals(parts: Iterable[Mapping[str, Any] | None]) -> dict[str, Any] | None:
    """Sum of several totals (agents of a policy, episodes); None when all are None."""
    out = empty_totals()
    found = False
    waited: Counter[str] = Counter()
    for part in parts:
        if part is None:
            continue
        found = True
        for key in ("steps", "calls", "input_tokens", "output_tokens", "retries", "errors"):
            out[key] += int(part[key])
        for key in ("format_errors", "reasks"):
            out[key] += int(part[key])
        out["seconds"] += float(part["seconds"])
        waited.update(part["waited"])
        if part["cost"] is not None:
            out["cost"] = (out["cost"] or 0.0) + float(part["cost"])
    if not found:
        return None
    out["seconds"] = round(out["seconds"], 6)
    if out["cost"] is not None:
        out["cost"] = round(out["cost"], 9)
    out["waited"] = dict(sorted(waited.items()))
    return out
