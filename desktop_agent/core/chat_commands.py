"""The chat's own commands: /remember, /forget, and the yes/no that confirms a forget.

Each answer is a line of text (and a forget's receipt); the assistant turns it into a Turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from desktop_agent.core.conversation import Conversation
    from desktop_agent.core.intent import Intent
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.memory.model import ForgetReceipt

# A forget is confirmed the way people answer in a chat ("yep", "yeah go ahead", "sure, do it",
# "yes please delete it"): every word of the answer one of these, the first a yes. Any other
# word ("yes but not the part about Sam") leaves it unconfirmed: nothing is forgotten on a doubt.
_YES: Final = frozenset(
    "/yes yes y ye yea yeah yep yup ya yas sure ok okay k confirm confirmed "
    "absolutely definitely certainly correct right".split()
)
_YES_TOO: Final = frozenset(
    "please pls plz do it go ahead delete forget erase wipe remove them that those all of "
    "thanks thank you ty cheers sure yes yeah yep ok okay just".split()
)
_PLEASE_DO: Final = re.compile(r"^(?:please\s+do|go\s+ahead|do\s+it)\b")
_NO: Final = frozenset("/no no n nope nah cancel keep don't dont not never actually wait".split())
_NO_TOO: Final = frozenset(
    "keep it them that those please pls thanks thank you mind no don't dont do actually "
    "wait never not".split()
)
_WORDS: Final = re.compile(r"/?[\w'’]+")


def _words(answer: str) -> list[str]:
    said = answer.casefold().replace("’", "'").replace("👍", " yes ").replace("👎", " no ")
    return _WORDS.findall(said)


def confirms(answer: str) -> bool:
    """Whether ``answer`` to an offer to forget says yes, and nothing but yes."""
    words = _words(answer)
    if not words:
        return False
    opens = words[0] in _YES or _PLEASE_DO.match(" ".join(words)) is not None
    return opens and all(w in _YES or w in _YES_TOO for w in words)


def declines(answer: str) -> bool:
    """Whether ``answer`` to an offer to forget says no ("nah", "no, keep it")."""
    words = _words(answer)
    return bool(words) and words[0] in _NO and all(w in _NO or w in _NO_TOO for w in words)


@dataclass(frozen=True, slots=True)
class PendingForget:
    """A /forget the user still has to confirm."""

    ids: tuple[str, ...]
    # Words said but never learned as a fact: episode id -> ranges of the user's message.
    words: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    # What the request named and the offer listed: erased from the chat once forgotten.
    topic: str = ""
    offered: tuple[str, ...] = ()
    # What the request's message told before it ("update: callum and sasha broke up 😬 | can
    # you delete the sasha stuff"), kept as a message of its own.
    told: str = ""


@dataclass(frozen=True, slots=True)
class CommandReply:
    """What the assistant says to a command (not written by the model)."""

    text: str
    receipt: ForgetReceipt | None = None


class ChatCommands:
    """Commands typed in a chat; a /forget waits for a yes or no in its conversation."""

    def __init__(self) -> None:
        self._pending: dict[str, PendingForget] = {}

    def answer(
        self,
        conversation: Conversation,
        text: str,
        intent: Intent,
        *,
        remembering: bool,
        memory: Callable[[], MemoryService],
    ) -> CommandReply | None:
        """The reply to ``text`` if it is a command or a confirmation, else None.
        ``memory()`` gives the memory service (an InputError when it is locked)."""
        pending = self._pending.pop(conversation.id, None)
        stripped = text.strip()
        if pending is not None:
            if confirms(stripped):
                service = memory()
                reply = _confirmed(_with_told(pending, conversation, service), service)
                _erase_offer(conversation, pending)
                return reply
            if declines(stripped):
                return CommandReply("Kept: nothing was forgotten.")
        if intent.kind != "command":
            return None
        if not remembering:
            return CommandReply("Memory is off, so there is nothing to remember or forget.")
        if intent.command == "remember":
            if conversation.incognito:
                return CommandReply("This is an incognito chat: nothing is remembered.")
            from desktop_agent.core.learning import remember_explicitly

            item = remember_explicitly(memory(), conversation, intent.argument)
            return CommandReply(f"I'll remember that: {item.text}")
        if intent.command == "forget":
            from desktop_agent.core.intent import whom_meant
            from desktop_agent.core.named_people import people_by_name

            earlier = [m.content for m in conversation.messages if m.role == "user"]
            if earlier and earlier[-1] == text:
                earlier.pop()  # (the request itself)
            if intent.told:  # whom the message named before the request: "Ollie asked me ..."
                earlier.append(intent.told)
            service = memory()
            topic = whom_meant(intent.argument, earlier, people_by_name(service))
            return self._forget(conversation, topic, service, intent.told or "")
        return None

    def _forget(
        self, conversation: Conversation, topic: str, memory: MemoryService, told: str = ""
    ) -> CommandReply:
        from desktop_agent.core.forget_request import offer_to_forget

        offer = offer_to_forget(memory, topic)
        if not offer:
            return CommandReply(f"I don't remember anything about “{topic}”.")
        offered = tuple(offer.lines())
        self._pending[conversation.id] = PendingForget(offer.ids, offer.words, topic, offered, told)
        lines = "\n".join(f"{i}. {line}" for i, line in enumerate(offered, 1))
        # Blank lines around the list: the reply is Markdown, where single newlines run the
        # question into the last item.
        if offer.said and offer.facts:
            return CommandReply(
                f"I found these memories and words you said:\n\n{lines}\n\nForget them (the "
                "words erased from the conversation too)? Answer yes or no."
            )
        if offer.said:
            # No fact was learned of it, but the user said it ("forget my phone number").
            these = "these words" if len(offer.said) == 1 else f"these {len(offer.said)} sentences"
            return CommandReply(
                f"You told me:\n\n{lines}\n\nForget {these} (erased from the conversation "
                "too)? Answer yes or no."
            )
        also = memory.forget_preview(offer.ids).describe()
        also_line = f"This also erases {also[4:]}. " if also else ""
        return CommandReply(
            f"I found these memories:\n\n{lines}\n\n{also_line}Forget them? Answer yes or no."
        )


def _confirmed(pending: PendingForget, memory: MemoryService) -> CommandReply:
    """The user said yes: forget what was offered."""
    from desktop_agent.core.memory_service import receipt_touched

    if pending.words and pending.ids:  # a person and a thing: facts of one, words of the other
        from desktop_agent.core.forget_request import forget_pending

        receipt = forget_pending(memory, pending.ids, pending.words)
        return CommandReply(
            f"Forgotten: {len(receipt.ids)} memor{'y' if len(receipt.ids) == 1 else 'ies'}, "
            f"erased from {len(receipt.redacted)} "
            f"message{'s' if len(receipt.redacted) != 1 else ''} (keys destroyed, epoch "
            f"{receipt.epoch})." + _not_everywhere(receipt),
            receipt,
        )
    if pending.words:
        receipt = memory.forget_words(pending.words)
        # (what the offer listed: the request's own words are erased beside it)
        count = len(pending.offered) or sum(len(r) for r in pending.words.values())
        what = "those words" if count == 1 else f"those {count} sentences"
        return CommandReply(
            f"Forgotten: {what}, erased from "
            f"{len(receipt.redacted)} message{'s' if len(receipt.redacted) != 1 else ''}"
            f" (keys destroyed, epoch {receipt.epoch})." + _not_everywhere(receipt),
            receipt,
        )
    receipt = memory.forget(pending.ids)
    asked = len(pending.ids)
    also = receipt_touched(receipt)
    return CommandReply(
        f"Forgotten: {asked} memor{'y' if asked == 1 else 'ies'}"
        + (f" {also}" if also else "")
        + f" (keys destroyed, epoch {receipt.epoch})."
        + _not_everywhere(receipt),
        receipt,
    )


def _with_told(
    pending: PendingForget, conversation: Conversation, memory: MemoryService
) -> PendingForget:
    """``pending`` with the topic's words in what its request's message told before it: the
    chat shows that message with them erased (``_erase_offer``), and its stored words are
    erased too, or "callum and sasha broke up" keeps the name the user asked to forget."""
    if not pending.told:
        return pending
    episode = next(
        (e for e in reversed(memory.episodes(conversation.id)) if e.user_text == pending.told),
        None,
    )
    if episode is None:
        return pending
    spans = [
        found.span() for piece in _pieces(pending.topic) for found in piece.finditer(pending.told)
    ]
    if not spans:
        return pending
    words = dict(pending.words)
    # (overlapping ranges are merged where they are redacted: ``redaction.rewrite_episode``)
    words[episode.id] = tuple(sorted({*words.get(episode.id, ()), *spans}))
    return replace(pending, words=words)


def _pieces(topic: str) -> list[re.Pattern[str]]:
    """The topic as one, and each of "Luca and the Seville trip" as the request said it."""
    said = [topic, *re.split(r"\s+and\s+", topic)]
    return [
        re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)", re.IGNORECASE)
        for piece in sorted({p.strip() for p in said if len(p.strip()) > 1}, key=len, reverse=True)
    ]


def _erase_offer(conversation: Conversation, pending: PendingForget) -> None:
    """The request and the offer just before the "yes" quote what is now forgotten: the chat
    keeps them with those words erased, as the stored messages are (the model reads this
    history next, and the screen shows it)."""
    from desktop_agent.core.conversation import opening_words
    from desktop_agent.core.redaction import MARK
    from desktop_agent.llm import ChatMessage

    messages = conversation.messages
    if len(messages) < 2 or messages[-1].role != "assistant" or messages[-2].role != "user":
        return
    untitled = not conversation.chosen_title()
    offer = messages[-1].content
    for number, line in enumerate(pending.offered, 1):
        offer = offer.replace(f"{number}. {line}", f"{number}. {MARK}")
    messages[-1] = ChatMessage("assistant", offer)
    for named in _pieces(pending.topic):
        messages[-2] = ChatMessage("user", named.sub(MARK, messages[-2].content))
    if untitled:
        conversation.title = opening_words(conversation.first_user_message())


def _not_everywhere(receipt: ForgetReceipt) -> str:
    """A damaged data file kept encrypted rows of what was forgotten: said, not hidden."""
    if not receipt.damaged:
        return ""
    return (
        f" But {receipt.damaged[0]} of the memory store is damaged and was left as it was: "
        "the keys are destroyed, so the text cannot be decrypted, yet encrypted rows of it "
        "stay in that file."
    )
