"""Sample data for `desktop-agent gui --screenshot`, made through the real services: chats
told facts (learned by the deterministic extraction), a /remember, a correction that
supersedes a fact, and feedback that teaches a strategy."""

from __future__ import annotations

from desktop_agent.app import App
from desktop_agent.core.assistant import Assistant, Reply
from desktop_agent.core.conversation import Conversation
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring

# (title, messages): each message is sent to the bundled model, which replies.
CONVERSATIONS = (
    (
        "Getting to know me",
        (
            "Hi, my name is Ana and I live in Lisbon.",
            "I work as a nurse at the city hospital.",
            "I prefer short answers with an example.",
        ),
    ),
    (
        "Food and weekends",
        (
            "I'm allergic to peanuts.",
            "I'm vegetarian, and I love hiking in the mountains.",
            "/remember my passport expires in March 2031",
        ),
    ),
    (
        "Boiling eggs",
        (
            "How do I boil an egg?",
            "Thanks, that helped!",
            "Actually, I moved to Porto last month.",
        ),
    ),
)

SHOWCASE = "What should I cook tonight? Keep in mind my peanut allergy and where I live."


class ScreenshotApp(App):
    """An App whose vault key lives in an in-memory keyring: the screenshots need no Secret
    Service and never touch the user's keychain."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._keyring = InMemoryKeyring()

    def key_source(self) -> KeyringKeySource:
        return KeyringKeySource(self._keyring)


def chat(assistant: Assistant, conversation: Conversation, text: str) -> Reply:
    """One whole turn, streamed to its end (the sample data is made before the window shows)."""
    turn = assistant.send(conversation, text)
    for _piece in turn:
        pass
    return turn.finish()


def seed(app: App, *, max_tokens: int = 24) -> list[Conversation]:
    """Fill the sample store; short replies keep it quick."""
    import dataclasses

    assistant = app.assistant
    setup = assistant.setup
    short = dataclasses.replace(setup.generation_settings, max_tokens=max_tokens)
    assistant.use(dataclasses.replace(setup, generation_settings=short))
    made = []
    try:
        for title, messages in CONVERSATIONS:
            conversation = assistant.start_conversation()
            for text in messages:
                chat(assistant, conversation, text)
            assistant.rename_conversation(conversation.id, title)
            made.append(conversation)
    finally:
        settings = setup.generation_settings
        assistant.use(dataclasses.replace(assistant.setup, generation_settings=settings))
    return made
