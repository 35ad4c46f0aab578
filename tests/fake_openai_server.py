"""A fake OpenAI-compatible chat-completions server for the tests (standard library only).

`FakeServer` listens on 127.0.0.1 on an ephemeral port (`ThreadingHTTPServer`, one thread per
request, so concurrent clients really overlap). Use it as a context manager:

    with FakeServer(latency=0.05) as server:
        settings = LLMSettings(model="fake", base_url=server.base_url)
        ...
        server.log  # every request received, with the reply and usage sent back

What it answers, request by request:
- `script`: a list of `Reply` consumed in order (FIFO), one per chat request; when it runs out,
  the `responder` answers. `Reply.kind`: "ok" (status 200, `content`), "429" (with `Retry-After`
  and `retry-after-ms` headers), "500", "timeout" (sleeps `seconds` before answering, past a
  client's timeout), "malformed" (a body that is not JSON), "empty" (content "").
- `responder(body, n)`: a function of the request body (the JSON sent) and the request number
  (0-based) returning the content text; default `first_listed`: a JSON answer naming the first
  command listed as a bullet (`- command`) in the last user message, else "wait".
- `latency`: seconds every answer waits first (all requests, in parallel threads); `delay(body,
  n)`: more seconds for one request (e.g. to make answers arrive out of order).
- `usage`: its own deterministic token count, `count_tokens`: words (whitespace-split) of each
  message plus 3 per message for the prompt, words of the content for the completion. Tests compare
  the client's accounting with the sums in `server.log`.
`GET /v1/models` lists one model, `model_name`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BULLET = re.compile(r"^- (.+)$", re.MULTILINE)


@dataclass
class Reply:
    """One scripted answer."""

    kind: str = "ok"  # ok | 429 | 500 | timeout | malformed | empty
    content: str | None = None  # for "ok": the text (None: ask the responder)
    seconds: float = 0.0  # extra wait before answering (for "timeout": how long to hang)
    retry_after_ms: int = 10  # for "429" and "500": the delay the client is asked to wait


def count_tokens(text: str) -> int:
    return len(text.split())


def prompt_tokens(messages: Iterable[dict[str, Any]]) -> int:
    return sum(count_tokens(str(m.get("content") or "")) + 3 for m in messages)


def last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            return str(message.get("content") or "")
    return ""


def listed_commands(body: dict[str, Any]) -> list[str]:
    return [m.strip() for m in BULLET.findall(last_user_text(body))]


def answer(action: str, reasoning: str = "fake server") -> str:
    return json.dumps({"reasoning": reasoning, "action": action})


def first_listed(body: dict[str, Any], n: int) -> str:
    commands = listed_commands(body)
    return answer(commands[0] if commands else "wait")


def cycle_listed(body: dict[str, Any], n: int) -> str:
    """The n-th listed command (mod the list): varied, yet a function of the request alone."""
    commands = listed_commands(body)
    return answer(commands[n % len(commands)] if commands else "wait")


def by_content(body: dict[str, Any], n: int) -> str:
    """A command chosen by the request's own text (not by arrival order): the same prompt gets the
    same answer however concurrent requests interleave."""
    commands = listed_commands(body)
    if not commands:
        return answer("wait")
    text = json.dumps(body.get("messages", []), sort_keys=True)
    return answer(commands[sum(text.encode()) % len(commands)])


@dataclass
class Logged:
    """One request received and what was sent back."""

    body: dict[str, Any] | None
    kind: str
    content: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    started: float = 0.0
    finished: float = 0.0


@dataclass
class _State:
    script: list[Reply] = field(default_factory=list)
    log: list[Logged] = field(default_factory=list)
    count: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeServer:
    def __init__(
        self,
        script: Iterable[Reply] = (),
        *,
        latency: float = 0.0,
        responder: Callable[[dict[str, Any], int], str] = first_listed,
        model_name: str = "fake-model",
        delay: Callable[[dict[str, Any], int], float] | None = None,
    ) -> None:
        self.latency = latency
        self.delay = delay
        self.responder = responder
        self.model_name = model_name
        self._state = _State(script=list(script))
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> FakeServer:
        handler = _handler_for(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop answering (a server that dies): later requests find nothing listening."""
        self._stop.set()  # wakes sleeping handlers
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # ------------------------------------------------------------------ scripting and the log
    def push(self, *replies: Reply) -> None:
        with self._state.lock:
            self._state.script.extend(replies)

    @property
    def log(self) -> list[Logged]:
        with self._state.lock:
            return list(self._state.log)

    def max_in_flight(self) -> int:
        """The most requests the server was answering at once (from the log's time stamps)."""
        events = sorted(
            [(e.started, 1) for e in self.log] + [(e.finished, -1) for e in self.log],
            key=lambda item: (item[0], item[1]),
        )
        most = now = 0
        for _, step in events:
            now += step
            most = max(most, now)
        return most

    def answered(self) -> list[Logged]:
        """The requests that got a 200 answer with usage (what a client can account for)."""
        return [entry for entry in self.log if entry.kind in ("ok", "empty")]

    def usage_totals(self) -> tuple[int, int]:
        ok = self.answered()
        return sum(e.prompt_tokens for e in ok), sum(e.completion_tokens for e in ok)

    def _next(self) -> tuple[Reply | None, int]:
        with self._state.lock:
            n = self._state.count
            self._state.count += 1
            reply = self._state.script.pop(0) if self._state.script else None
            return reply, n

    def _record(self, entry: Logged) -> None:
        with self._state.lock:
            self._state.log.append(entry)

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._stop.wait(seconds)


def _handler_for(server: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Buffered: headers and body leave in one write (two small writes meet Nagle's algorithm
        # and the client's delayed ACK: a 40 ms stall per answer on Linux).
        wbufsize = 1 << 16

        def log_message(self, *_: Any) -> None:  # quiet
            pass

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
            except OSError:  # the client gave up (a time-out) or the server is stopping
                self.close_connection = True

        def dead(self) -> bool:
            # A stopped server also drops the kept-alive connections it still has threads for.
            if server._stop.is_set():
                self.close_connection = True
                return True
            return False

        def do_GET(self) -> None:
            if self.dead():
                return
            if self.path.rstrip("/").endswith("/models"):
                data = {"object": "list", "data": [{"id": server.model_name, "object": "model"}]}
                self._send(200, json.dumps(data).encode())
            else:
                self._send(404, b'{"error": {"message": "not found"}}')

        def do_POST(self) -> None:
            if self.dead():
                return
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                body = None
            reply, n = server._next()
            reply = reply or Reply()
            started = time.perf_counter()
            extra = server.delay(body, n) if server.delay is not None and body else 0.0
            server._sleep(server.latency + reply.seconds + extra)
            entry = Logged(body=body, kind=reply.kind, content=None, started=started)
            if reply.kind == "429":
                headers = {
                    "retry-after-ms": str(reply.retry_after_ms),
                    "Retry-After": str(max(1, reply.retry_after_ms // 1000)),
                }
                self._send(429, b'{"error": {"message": "rate limited"}}', headers)
            elif reply.kind in ("500", "timeout") or body is None:
                # a timeout's client has gone by now; answer as a broken server would
                headers = {"retry-after-ms": str(reply.retry_after_ms)}
                self._send(500, b'{"error": {"message": "internal error"}}', headers)
            elif reply.kind == "malformed":
                self._send(200, b'{"id": "x", "choices": [ this is not json')
            else:
                content = "" if reply.kind == "empty" else reply.content
                if content is None:
                    content = server.responder(body, n)
                entry.content = content
                entry.prompt_tokens = prompt_tokens(body.get("messages", []))
                entry.completion_tokens = count_tokens(content)
                data = {
                    "id": f"chatcmpl-{n}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", server.model_name),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": entry.prompt_tokens,
                        "completion_tokens": entry.completion_tokens,
                        "total_tokens": entry.prompt_tokens + entry.completion_tokens,
                    },
                }
                self._send(200, json.dumps(data).encode())
            entry.finished = time.perf_counter()
            server._record(entry)

    return Handler
