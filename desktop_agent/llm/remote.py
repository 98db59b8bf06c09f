"""RemoteEngine: an OpenAI-compatible chat server (llama.cpp's server, llama-cpp-python's
``llama_cpp.server``, Ollama, LM Studio) behind the same ``ChatEngine`` protocol.

Only the prompt of each turn goes to the server; memory, recall and extraction stay on this
computer. Replies stream over server-sent events; Stop closes the connection.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlparse

from desktop_agent.errors import ModelError
from desktop_agent.llm.types import ChatMessage, EngineInfo, Generation, GenerationResult
from desktop_agent.llm.types import GenerationSettings as Settings

CHARS_PER_TOKEN = 4


class RemoteEngine:
    def __init__(self, base_url: str, *, model: str = "", api_key: str = "", n_ctx: int = 4096):
        url = base_url.strip().rstrip("/")
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ModelError(f"not a server URL: {base_url!r} (e.g. http://127.0.0.1:8080)")
        self.base_url = url if url.endswith("/v1") else f"{url}/v1"
        self.model = model
        self.api_key = api_key
        self.n_ctx = n_ctx
        self._info: EngineInfo | None = None

    # --- lifecycle ---
    def start(self) -> None:
        """Ask the server which models it serves (so a wrong URL fails here, clearly)."""
        listed = self._get("/models")
        served = [m.get("id", "") for m in listed.get("data", []) if isinstance(m, dict)]
        if not self.model:
            if not served:
                raise ModelError(f"the server at {self.base_url} lists no model")
            self.model = served[0]
        self._info = EngineInfo(
            model_path=f"{self.base_url} ({self.model})",
            model_name=self.model.rsplit("/", 1)[-1],
            n_ctx=self.n_ctx,
            n_threads=0,
            chat_template="(the server's)",
            metadata={"server": self.base_url},
        )

    @property
    def info(self) -> EngineInfo:
        if self._info is None:
            raise ModelError("the remote engine is not started")
        return self._info

    def close(self) -> None:
        self._info = None

    def __enter__(self) -> RemoteEngine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // CHARS_PER_TOKEN)

    # --- chat ---
    def chat(self, messages: Sequence[ChatMessage], settings: Settings) -> Generation:
        generation = Generation()
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "stream": True,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "max_tokens": settings.max_tokens,
            "repeat_penalty": settings.repeat_penalty,  # llama.cpp servers; others ignore it
        }
        if settings.seed >= 0:
            body["seed"] = settings.seed
        thread = threading.Thread(
            target=self._stream, args=(body, generation), name="remote-chat", daemon=True
        )
        thread.start()
        return generation

    def _stream(self, body: dict[str, Any], generation: Generation) -> None:
        started = time.perf_counter()
        first: float | None = None
        pieces: list[str] = []
        count, finish = 0, "stop"
        try:
            with self._open("/chat/completions", body) as response:
                for raw in response:
                    if generation.cancel_event.is_set():
                        finish = "cancelled"
                        break
                    line = raw.decode("utf-8", "replace").strip()
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    choice = (json.loads(data).get("choices") or [{}])[0]
                    piece = (choice.get("delta") or {}).get("content") or ""
                    if piece:
                        first = first or time.perf_counter()
                        count += 1
                        pieces.append(piece)
                        generation._emit(piece)
                    if choice.get("finish_reason"):
                        finish = choice["finish_reason"]
        except ModelError as error:
            generation._finish(None, error)
            return
        except (OSError, ValueError) as error:
            generation._finish(None, ModelError(f"the server stopped answering: {error}"))
            return
        ended = time.perf_counter()
        decode = ended - (first or ended)
        generation._finish(
            GenerationResult(
                text="".join(pieces),
                prompt_tokens=0,
                completion_tokens=count,
                dropped_messages=0,
                cancelled=generation.cancel_event.is_set(),
                finish_reason=finish,
                time_to_first_token_s=(first or ended) - started,
                tokens_per_second=(count - 1) / decode if count > 1 and decode > 0 else 0.0,
            )
        )

    # --- HTTP ---
    def _request(self, path: str, body: dict[str, Any] | None) -> urllib.request.Request:
        headers = {"Content-Type": "application/json", "User-Agent": "desktop-agent"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = json.dumps(body).encode() if body is not None else None
        return urllib.request.Request(self.base_url + path, data=data, headers=headers)

    def _open(self, path: str, body: dict[str, Any] | None) -> Any:
        try:
            return urllib.request.urlopen(self._request(path, body), timeout=60)  # noqa: S310
        except urllib.error.HTTPError as error:
            detail = error.read(300).decode("utf-8", "replace").strip()
            raise ModelError(f"the server refused: HTTP {error.code} {detail}") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ModelError(f"cannot reach the chat server {self.base_url}: {reason}") from None

    def _get(self, path: str) -> dict[str, Any]:
        with self._open(path, None) as response:
            try:
                return dict(json.loads(response.read()))
            except ValueError:
                raise ModelError(
                    f"{self.base_url} is not an OpenAI-compatible server (no JSON at {path})"
                ) from None
