"""Stop 43: what a forget of "a person and a thing" offers, as the user reads it."""

from __future__ import annotations

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.forget_request import offer_to_forget
from tests.core.conftest import chat


def test_a_sentence_naming_the_person_and_the_thing_is_offered_whole(
    assistant: Assistant,
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "my brother Rui is a pilot for TAP. I teach maths")
    chat(assistant, conversation, "Rui and I had a huge row at the Algarve house last weekend.")

    said = offer_to_forget(assistant.memory, "Rui and the Algarve house").lines()

    assert "“Rui and I had a huge row at the Algarve house last weekend.”" in said, said
    assert "“Rui”" not in said, said
