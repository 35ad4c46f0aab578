"""Chat clients: the `ChatClient` protocol, the `openai` SDK client, the start-up check, and the
token estimate.

Side module (llm). A client turns a list of chat messages into a `Completion`, never an exception:
a policy calls it in the middle of a tick, where an error must become a logged reason to wait,
not a crash. `OpenAIChatClient` speaks to any OpenAI-compatible chat-completions endpoint (OpenAI,
vLLM, llama.cpp's server, Ollama, SGLang, ...) through `openai.AsyncOpenAI`, imported lazily (the
extra `llm`). Time-outs and retries are the SDK's own (`timeout`, `max_retries`: exponential backoff
from 0.5 s, `Retry-After` honoured); the retries a call took come from the SDK's raw response.

An `AsyncOpenAI` holds an HTTP connection pool bound to the event loop it was first used in, so a
client keeps one per loop and `aclose()` closes it: the evaluation runs one loop per episode and
closes its clients at the episode's end; a synchronous call (`LLMPolicy.__call__`) runs its own
short loop and closes the pool with it.

Token estimate (`estimate_tokens`), used when a server reports no `usage` and to keep prompts
within the context budget: ceil(characters / 4) per message plus 4 per message for the chat
template's role markers. Four characters per token is the usual rule of thumb for English with
BPE tokenizers; no tokenizer is downloaded. A call's `usage_from` says which numbers were used.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.llm.settings import LLMSettings

Message = Mapping[str, str]
INSTALL_HINT = 'the language-model policies need the openai SDK: pip install "agentodyssey_pz[llm]"'
PLACEHOLDER_KEY = "no-key"  # sent when the key variable is unset (local servers need none)
CHARS_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4
CHECK_TIMEOUT = 5.0  # seconds the start-up check waits at most


def estimate_tokens(messages: Sequence[Message] | str) -> int:
    """Tokens of a prompt (or of one text) by the documented rule, without a tokenizer."""
    if isinstance(messages, str):
        return math.ceil(len(messages) / CHARS_PER_TOKEN)
    return sum(
        math.ceil(len(str(m.get("content") or "")) / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE
        for m in messages
    )


@attrs.frozen
class Completion:
    """One call's outcome. `error` is None on success (then `text` is the answer, maybe "")."""

    text: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    usage_from: str = "estimate"  # "server" | "estimate"
    seconds: float = 0.0
    retries: int = 0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class ChatClient(Protocol):
    async def complete(self, messages: Sequence[Message], settings: LLMSettings) -> Completion: ...


def import_openai() -> Any:
    try:
        import openai
    except ImportError as exc:  # the extra is not installed
        raise ConfigError(INSTALL_HINT) from exc
    return openai


def api_key(settings: LLMSettings) -> str:
    return os.environ.get(settings.api_key_env) or PLACEHOLDER_KEY


def request_fields(settings: LLMSettings) -> dict[str, Any]:
    """The optional sampling fields of a request (only those set)."""
    fields: dict[str, Any] = {}
    for name in ("temperature", "top_p", "max_tokens", "seed"):
        value = getattr(settings, name)
        if value is not None:
            fields[name] = value
    if settings.response_format == "json_object":
        fields["response_format"] = {"type": "json_object"}
    elif settings.response_format == "json_schema":
        fields["response_format"] = {"type": "json_schema", "json_schema": ANSWER_SCHEMA}
    return fields


ANSWER_SCHEMA = {
    "name": "agent_answer",
    "strict": True,
    "schema": {
        "type": "object",
        "properties": {"reasoning": {"type": "string"}, "action": {"type": "string"}},
        "required": ["reasoning", "action"],
        "additionalProperties": False,
    },
}


class OpenAIChatClient:
    """`ChatClient` over `openai.AsyncOpenAI` (one per event loop; see the module docstring)."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self._openai = import_openai()
        self._client: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _client_for_loop(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            s = self.settings
            self._client = self._openai.AsyncOpenAI(
                api_key=api_key(s),
                base_url=s.base_url,
                timeout=s.timeout,
                max_retries=s.max_retries,
            )
            self._loop = loop
        return self._client

    async def aclose(self) -> None:
        client, self._client, self._loop = self._client, None, None
        if client is not None:
            await client.close()

    async def complete(self, messages: Sequence[Message], settings: LLMSettings) -> Completion:
        openai = self._openai
        started = time.perf_counter()
        estimate = estimate_tokens(messages)
        retries = 0  # known once a raw response is in, even if its body then fails to parse
        try:
            client = self._client_for_loop()
            raw = await client.chat.completions.with_raw_response.create(
                model=settings.model,
                messages=[dict(m) for m in messages],
                extra_body=dict(settings.extra_body) or None,
                **request_fields(settings),
            )
            retries = int(getattr(raw, "retries_taken", 0))
            response = raw.parse()
        except openai.APITimeoutError:
            error = f"timeout after {settings.timeout:g} s"
            return self._failed(error, estimate, started, settings.max_retries)
        except openai.APIConnectionError as exc:
            error = f"connection error: {exc.__cause__ or exc}"
            return self._failed(error, estimate, started, settings.max_retries)
        except openai.APIStatusError as exc:
            retried = settings.max_retries if _retryable(exc.status_code) else 0
            error = f"HTTP {exc.status_code}: {_short(exc.message)}"
            return self._failed(error, estimate, started, retried)
        except (openai.OpenAIError, ValueError, TypeError) as exc:  # a malformed body and the like
            error = f"bad response: {_short(str(exc))}"
            return self._failed(error, estimate, started, retries)
        seconds = time.perf_counter() - started
        text = _content(response)
        if text is None:
            return Completion(None, estimate, 0, "estimate", seconds, retries, "no answer")
        usage = getattr(response, "usage", None)
        prompt = getattr(usage, "prompt_tokens", None)
        completion = getattr(usage, "completion_tokens", None)
        if isinstance(prompt, int) and isinstance(completion, int):
            return Completion(text, prompt, completion, "server", seconds, retries)
        return Completion(text, estimate, estimate_tokens(text), "estimate", seconds, retries)

    @staticmethod
    def _failed(error: str, estimate: int, started: float, retries: int) -> Completion:
        # Nothing is known to have been generated; what was sent may have been billed, but no
        # numbers came back, so a failed call counts no tokens.
        return Completion(None, 0, 0, "estimate", time.perf_counter() - started, retries, error)


def _retryable(status: int) -> bool:
    return status in (408, 409, 429) or status >= 500


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _content(response: Any) -> str | None:
    choices = getattr(response, "choices", None)
    if not choices:
        return None
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None)
    return content if isinstance(content, str) else ("" if message is not None else None)


def check_server(settings: LLMSettings, timeout: float = CHECK_TIMEOUT) -> list[str]:
    """Make sure the server answers before an evaluation starts: GET {base_url}/models with a short
    time-out and no retries. Returns the model ids it lists ([] when it lists none, or does not
    implement the route); raises ConfigError with one clear line when it cannot be reached or
    refuses the key. A model missing from the list is not an error: single-model servers (llama.cpp)
    answer whatever name they are asked for."""
    openai = import_openai()
    where = settings.base_url or "the OpenAI API"
    client = openai.OpenAI(
        api_key=api_key(settings),
        base_url=settings.base_url,
        timeout=min(timeout, settings.timeout),
        max_retries=0,
    )
    try:
        return [model.id for model in client.models.list()]
    except openai.APITimeoutError:
        raise ConfigError(
            f"llm: the language-model server at {where} did not answer within "
            f"{min(timeout, settings.timeout):g} s"
        ) from None
    except openai.APIConnectionError as exc:
        raise ConfigError(
            f"llm: cannot reach the language-model server at {where} ({exc.__cause__ or exc})"
        ) from None
    except openai.AuthenticationError:
        raise ConfigError(
            f"llm: the server at {where} refused the API key (set ${settings.api_key_env})"
        ) from None
    except openai.NotFoundError:
        return []
    except openai.APIStatusError as exc:
        raise ConfigError(
            f"llm: the server at {where} answered HTTP {exc.status_code} to GET /models"
        ) from None
    finally:
        client.close()
