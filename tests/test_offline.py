"""Offline proof (issue 12, part 6): a whole turn (recall, reply, extraction, storage) and a
second session that uses what the first stored, with every network connection refused.

The app is built as `desktop-agent` builds it (App: the bundled model, the ONNX embedder, the
English parser, a real encrypted vault). Internet sockets are refused in-process; local ones
(Unix sockets) still work, as they would on a machine with its network cable pulled.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import keyring
import pytest

from desktop_agent.app import App
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from desktop_agent.settings import Settings

ATTEMPTS: list[str] = []


class NetworkRefused(OSError):
    pass


def _refuse(family: int, what: str) -> None:
    if family in (socket.AF_INET, socket.AF_INET6):
        ATTEMPTS.append(what)
        raise NetworkRefused(f"network access in an offline test: {what}")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def connect(self: socket.socket, address: Any) -> None:
        _refuse(self.family, f"connect {address!r}")
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _refuse(self.family, f"connect_ex {address!r}")
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        ATTEMPTS.append(f"getaddrinfo {host!r}")
        raise NetworkRefused(f"name lookup in an offline test: {host!r}")

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    ATTEMPTS.clear()
    previous = keyring.get_keyring()
    keyring.set_keyring(InMemoryKeyring())
    yield
    keyring.set_keyring(previous)


def _turn(app: App, text: str) -> Any:
    assistant = app.assistant
    turn = assistant.send(assistant.start_conversation(), text)
    for _ in turn:
        pass
    return turn.finish()


def test_a_whole_turn_and_the_next_session_run_with_the_network_refused(no_network: None) -> None:
    # The refusal itself works (else the test would prove nothing).
    with pytest.raises(NetworkRefused):
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    ATTEMPTS.clear()

    settings = Settings().replace("model", n_threads=2, max_tokens=32, seed=7, n_ctx=2048)
    first = App(settings=settings)
    try:
        told = _turn(first, "I live in Lisbon and I'm allergic to peanuts.")
        assert told.text.strip()  # the local model replied
        assert {m.subject_key for m in told.learned} >= {"home_city"}  # extraction ran
        assert told.episode_id is not None  # and the exchange was stored
    finally:
        first.close()

    second = App(settings=settings)
    try:
        asked = _turn(second, "Where do I live?")
        assert "Lisbon" in asked.text  # recall across sessions, from the encrypted store
        assert any("Lisbon" in r.item.text for r in asked.memories_used)
    finally:
        second.close()
    assert ATTEMPTS == []  # nothing even tried to reach the network
