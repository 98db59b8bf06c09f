"""The remote engine against a real OpenAI-compatible server: llama-cpp-python's own
``llama_cpp.server`` serving the bundled model on 127.0.0.1 (installed by `make`)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_agent.errors import ModelError
from desktop_agent.llm import ChatMessage, GenerationSettings
from desktop_agent.llm.remote import RemoteEngine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    # A file, not a pipe: llama.cpp logs more than a pipe holds while it loads.
    log = tmp_path_factory.mktemp("server") / "server.log"
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {log.read_text()[-500:]}")
            try:
                with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as response:
                    json.loads(response.read())
                break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail(f"llama_cpp.server did not answer: {log.read_text()[-500:]}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_streams_a_reply_from_the_server(server_url: str) -> None:
    with RemoteEngine(server_url) as engine:
        assert engine.info.model_name.endswith(".gguf")
        settings = GenerationSettings(max_tokens=16, temperature=0.0, seed=1)
        generation = engine.chat([ChatMessage("user", "Say hello.")], settings)
        pieces = list(generation)
        result = generation.result(timeout=60)
        assert len(pieces) >= 2 and result.text == "".join(pieces) and result.text.strip()
        assert result.completion_tokens == len(pieces) and not result.cancelled


def test_stop_ends_the_stream(server_url: str) -> None:
    with RemoteEngine(server_url) as engine:
        settings = GenerationSettings(max_tokens=400, temperature=0.7)
        generation = engine.chat([ChatMessage("user", "Tell me a long story.")], settings)
        for count, _ in enumerate(generation, 1):
            if count == 3:
                generation.cancel()
        result = generation.result(timeout=60)
        assert result.cancelled and result.completion_tokens < 400


def test_the_cli_chats_through_the_server(
    server_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    from desktop_agent.cli import main

    monkeypatch.setenv("DESKTOP_AGENT_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO('"Say hello."\n'))
    assert main(["chat", "--jsonl", "--server", server_url, "--incognito"]) == 0
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert line["reply"].strip() and line["model"].endswith(".gguf")
    assert line["completion_tokens"] > 0


@pytest.mark.parametrize(
    ("url", "message"),
    [("ftp://x", "not a server URL"), ("http://127.0.0.1:9", "cannot reach the chat server")],
)
def test_a_bad_server_is_one_clear_error(url: str, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        RemoteEngine(url).start()
