"""`LLMSettings`: everything one language-model policy is configured by, validated on creation.

Side module (llm). Settings come from Python, command-line flags or an agents-config file
(`from_mapping(data, where)`), so every field is checked and a bad value raises ConfigError naming
the key (`where` prefixes it: "agents-config policies.smol: temperature: ...").

Fields and defaults:
- model (required), base_url (None: the SDK's default, OpenAI's API), api_key_env
  ("OPENAI_API_KEY"; when the variable is unset a placeholder key is sent, since a local server
  needs none).
- temperature, top_p, max_tokens, seed: sent with every request when set (None: the server's
  default). extra_body: a dict of further request fields (e.g. `{"min_p": 0.1}` for vLLM).
- timeout (seconds per request) and max_retries: handed to the `openai` SDK, which retries
  connection errors, time-outs, 408/409/429/5xx with exponential backoff (0.5 s doubling, up to
  8 s, honouring `Retry-After`).
- max_concurrency: requests of this policy's agents in flight at once within a tick (the runner
  uses the largest value among the episode's policies as the episode's bound).
- memory: "none" | "full" | "window:K" | "summary" | "summary:K" (see `memory`); context_tokens:
  the prompt's budget in tokens (oldest turns are dropped first).
- show_valid_actions: list the commands valid now in each turn's prompt.
- reask_on_format_error: re-ask once, showing the parse error, before waiting.
- response_format: None, "json_object" or "json_schema" (schema-constrained output, where the
  server supports it).
- prompt_style: "native" (ours) or "reference" (the published harness's structure and answer
  format, for comparable numbers).
- price_input / price_output: price per million tokens (cost is reported when both are set);
  token_budget / cost_budget: per episode; once spent the agent waits, reason "budget".
- log_messages: "compact" (the system prompt in full on an agent's first call, then by its
  SHA-256) or "full" (every message of every call).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import attrs

from agentodyssey_pz.errors import ConfigError

MEMORY = re.compile(r"none|full|window:([1-9][0-9]*)|summary(?::([1-9][0-9]*))?")
RESPONSE_FORMATS = (None, "json_object", "json_schema")
PROMPT_STYLES = ("native", "reference")
LOG_MODES = ("compact", "full")
DEFAULT_SUMMARY_EVERY = 8


def _number(low: float | None = None, high: float | None = None, *, optional: bool = True) -> Any:
    def check(_: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and optional:
            return
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        ok = ok and math.isfinite(value)
        ok = ok and (low is None or value >= low) and (high is None or value <= high)
        if not ok:
            span = f" between {low} and {high}" if high is not None else f" >= {low}"
            raise ConfigError(f"{attribute.name}: expected a number{span}, got {value!r}")

    return check


def _integer(low: int, *, optional: bool = False) -> Any:
    def check(_: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and optional:
            return
        if type(value) is not int or value < low:
            raise ConfigError(f"{attribute.name}: expected an integer >= {low}, got {value!r}")

    return check


def _text(optional: bool = False) -> Any:
    def check(_: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and optional:
            return
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{attribute.name}: expected a non-empty string, got {value!r}")

    return check


def _one_of(options: tuple[Any, ...]) -> Any:
    def check(_: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value not in options:
            shown = ", ".join("null" if o is None else repr(o) for o in options)
            raise ConfigError(f"{attribute.name}: expected one of {shown}, got {value!r}")

    return check


def _memory(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, str) or MEMORY.fullmatch(value) is None:
        raise ConfigError(
            f"{attribute.name}: expected 'none', 'full', 'window:K' or 'summary[:K]' (K a "
            f"positive integer), got {value!r}"
        )


def _bool(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"{attribute.name}: expected true or false, got {value!r}")


def _extra_body(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ConfigError(f"{attribute.name}: expected a table of request fields, got {value!r}")


def _frozen_dict(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


@attrs.frozen
class LLMSettings:
    model: str = attrs.field(validator=_text())
    base_url: str | None = attrs.field(default=None, validator=_text(optional=True))
    api_key_env: str = attrs.field(default="OPENAI_API_KEY", validator=_text())
    temperature: float | None = attrs.field(default=None, validator=_number(0, 2))
    top_p: float | None = attrs.field(default=None, validator=_number(0, 1))
    max_tokens: int | None = attrs.field(default=256, validator=_integer(1, optional=True))
    seed: int | None = attrs.field(default=None, validator=_integer(0, optional=True))
    timeout: float = attrs.field(default=60.0, validator=_number(0.001, optional=False))
    max_retries: int = attrs.field(default=2, validator=_integer(0))
    extra_body: Mapping[str, Any] = attrs.field(
        factory=dict, converter=_frozen_dict, validator=_extra_body, hash=False
    )
    max_concurrency: int = attrs.field(default=16, validator=_integer(1))
    memory: str = attrs.field(default="window:8", validator=_memory)
    context_tokens: int = attrs.field(default=8192, validator=_integer(64))
    show_valid_actions: bool = attrs.field(default=True, validator=_bool)
    reask_on_format_error: bool = attrs.field(default=True, validator=_bool)
    response_format: str | None = attrs.field(default=None, validator=_one_of(RESPONSE_FORMATS))
    prompt_style: str = attrs.field(default="native", validator=_one_of(PROMPT_STYLES))
    price_input: float | None = attrs.field(default=None, validator=_number(0))
    price_output: float | None = attrs.field(default=None, validator=_number(0))
    token_budget: int | None = attrs.field(default=None, validator=_integer(1, optional=True))
    cost_budget: float | None = attrs.field(default=None, validator=_number(0))
    log_messages: str = attrs.field(default="compact", validator=_one_of(LOG_MODES))

    def __attrs_post_init__(self) -> None:
        if self.cost_budget is not None and (self.price_input is None or self.price_output is None):
            raise ConfigError("cost_budget: needs price_input and price_output (the price table)")

    # ------------------------------------------------------------------ derived
    @property
    def memory_mode(self) -> str:
        """ "none", "full", "window" or "summary"."""
        return self.memory.split(":")[0]

    @property
    def memory_turns(self) -> int | None:
        """K of window:K (turns kept), or of summary:K (turns between summaries)."""
        match = MEMORY.fullmatch(self.memory)
        assert match is not None
        if match.group(1):
            return int(match.group(1))
        if self.memory_mode == "summary":
            return int(match.group(2)) if match.group(2) else DEFAULT_SUMMARY_EVERY
        return None

    @property
    def priced(self) -> bool:
        return self.price_input is not None and self.price_output is not None

    def cost(self, input_tokens: int, output_tokens: int) -> float | None:
        if not self.priced:
            return None
        assert self.price_input is not None and self.price_output is not None
        return (input_tokens * self.price_input + output_tokens * self.price_output) / 1e6

    def as_dict(self) -> dict[str, Any]:
        """JSON-compatible (what a trajectory header or report records; never the key itself)."""
        return {f.name: getattr(self, f.name) for f in attrs.fields(LLMSettings)} | {
            "extra_body": dict(self.extra_body)
        }

    def replace(self, **changes: Any) -> LLMSettings:
        return attrs.evolve(self, **changes)

    @classmethod
    def from_mapping(cls, data: Any, where: str = "llm settings") -> LLMSettings:
        """Settings from a parsed TOML/JSON table; ConfigError naming `where` and the key."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"{where}: expected a table of settings, got {type(data).__name__}")
        known = {f.name for f in attrs.fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise ConfigError(
                f"{where}: unknown setting{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                f"(known: {', '.join(sorted(known))})"
            )
        if "model" not in data:
            raise ConfigError(f"{where}: model: missing (the model name the server serves)")
        try:
            return cls(**dict(data))
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
