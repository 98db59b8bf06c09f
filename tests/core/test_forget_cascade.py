"""Forgetting a message forgets what was learned from it (issue 13, item 7): a secret told in a
message must not live on in a fact or a topic summary once the message is forgotten."""

from __future__ import annotations

import json

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.consolidation import consolidate
from desktop_agent.core.memory_service import MemoryService
from tests.core.conftest import chat

SECRET = "Zorblax"


def test_forgetting_an_episode_forgets_the_facts_learned_only_from_it(
    assistant: Assistant, memory: MemoryService
) -> None:
    conversation = assistant.start_conversation()
    told = chat(assistant, conversation, f"My dog is called {SECRET} and I'm allergic to peanuts.")
    again = chat(assistant, assistant.start_conversation(), "I'm allergic to peanuts, remember.")
    memory.remember("User has asthma", subject_key="condition:asthma")
    consolidate(memory, force=True)
    assert any(SECRET in i.text for i in memory.items("semantic"))
    peanuts = [i for i in memory.items("semantic") if "peanut" in i.text]
    assert peanuts and {p.episode_id for p in peanuts[0].provenance} >= {told.episode_id}

    preview = memory.forget_preview([told.episode_id])
    assert preview.learned  # said before: the dog's name goes with its message
    assert "learned from it" in preview.describe()

    receipt = memory.forget([told.episode_id])

    assert set(preview.learned) <= set(receipt.learned)
    everything = " ".join(i.text for i in memory.items())
    assert SECRET not in everything  # not in a fact, a topic summary or another message
    # The allergy was said again elsewhere: it stays, without the forgotten source.
    (kept,) = [i for i in memory.items("semantic") if "peanut" in i.text]
    assert {p.episode_id for p in kept.provenance} == {again.episode_id}


def test_the_cli_says_what_else_a_forgotten_message_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import keyring

    from desktop_agent.cli import main
    from desktop_agent.secrets.memory_backend import InMemoryKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(InMemoryKeyring())
    try:
        from desktop_agent.app import App
        from desktop_agent.core.learning import learn

        app = App()
        try:
            memory = app.memory
            episode = memory.record_episode("c1", f"My cat is called {SECRET}.", "Noted.")
            with memory.lane:
                learn(memory, episode, f"My cat is called {SECRET}.")
            assert any(SECRET in i.text for i in memory.items("semantic"))
        finally:
            app.close()
        assert main(["memory", "forget", episode.id, "--dry-run"]) == 0
        assert "1 fact learned from it" in capsys.readouterr().out
        assert main(["memory", "forget", episode.id, "--json"]) == 0
        receipt = json.loads(capsys.readouterr().out)
        assert len(receipt["learned"]) == 1
        assert main(["memory", "list", "--json"]) == 0
        assert SECRET not in capsys.readouterr().out
    finally:
        keyring.set_keyring(previous)


def test_a_chat_forget_that_met_a_damaged_file_says_so() -> None:
    # A stand-in service: damaging a Lance data file on cue is the vault tests' business
    # (tests/memory); here only what the chat says about such a receipt.
    from datetime import UTC, datetime

    from desktop_agent.core.chat_commands import PendingForget, _confirmed
    from desktop_agent.memory.model import ForgetReceipt

    class Damaged:
        def forget(self, ids: object) -> ForgetReceipt:
            at = datetime.now(UTC)
            return ForgetReceipt(("m1",), ("semantic",), at, 4, damaged=("fragment 3",))

    reply = _confirmed(PendingForget(("m1",)), Damaged())  # type: ignore[arg-type]
    assert reply.text.startswith("Forgotten: 1 memory")
    assert "fragment 3 of the memory store is damaged" in reply.text


def test_forgetting_a_fact_forgets_what_was_read_from_inside_its_words(
    assistant: Assistant, memory: MemoryService
) -> None:
    # Given the dentist's name, read only from inside the appointment's words
    told = "I have a dentist appointment with Dr. Feldman on March 14 at 10:30."
    chat(assistant, assistant.start_conversation(), told)
    keys = {i.subject_key: i.id for i in memory.items("semantic")}
    assert "name_of:dentist" in keys
    (appointment,) = [i for k, i in keys.items() if k.startswith("plan:")]

    # When the appointment is forgotten, the preview says the name goes too, and it does
    preview = memory.forget_preview([appointment])
    assert preview.learned == (keys["name_of:dentist"],)
    memory.forget([appointment])
    assert "Feldman" not in " ".join(i.text for i in memory.items())


@pytest.mark.parametrize(
    ("told", "forgotten", "kept"),
    [
        ("I live in Lisbon with my sister Ana.", "home_city", "User's sister is named Ana"),
        # the brother's name is his, not the debt's
        ("I owe my brother Teodor 450 euros for the car repair, I'll pay him back in March.",
         "plan:", "User's brother is named Teodor"),
    ],
)  # fmt: skip
def test_what_is_inside_a_forgotten_fact_but_its_own_stays(
    assistant: Assistant, memory: MemoryService, told: str, forgotten: str, kept: str
) -> None:
    chat(assistant, assistant.start_conversation(), told)
    (doomed,) = [i.id for i in memory.items("semantic") if i.subject_key.startswith(forgotten)]
    assert not memory.forget_preview([doomed]).learned
    memory.forget([doomed])
    assert kept in [i.text for i in memory.items("semantic")]
