"""The core service the CLI and the GUI both drive: the agent loop, one turn at a time.

perceive (what kind of message is this) -> recall (hybrid search over memory) -> respond (a
prompt with a token budget per memory kind, streamed) -> reflect (store the episode, learn
facts from the user's words, update which answer styles work). Each reply records the memories
injected into it, with their scores: the memory lens.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from desktop_agent.core.assistant_setup import SYSTEM_PROMPT, AssistantSetup
from desktop_agent.core.background_consolidation import BackgroundConsolidation
from desktop_agent.core.chat_commands import ChatCommands
from desktop_agent.core.checked_replies import (
    answer_about_user,
    denied_line,
    risk_checked,
    with_risks,
)
from desktop_agent.core.conversation import Conversation
from desktop_agent.core.guarded import with_line_after, without_made_up_quote
from desktop_agent.core.null_memory import NullMemoryService
from desktop_agent.core.open_conversations import OpenConversations, restore
from desktop_agent.core.turn import Reply, Turn, canned_generation
from desktop_agent.errors import InputError
from desktop_agent.llm import (
    ChatEngine,
    ChatMessage,
    GenerationResult,
    GenerationSettings,
)

if TYPE_CHECKING:
    from desktop_agent.core.forget_rewrites import ForgetRewrites
    from desktop_agent.core.grounding_turn import Grounding
    from desktop_agent.core.intent import Intent
    from desktop_agent.core.learning import Extractor
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.memory_service import MemoryService, Recollection
    from desktop_agent.core.reply_versions import ReplyVersions
    from desktop_agent.core.risks import Risk
    from desktop_agent.memory.model import ForgetReceipt

__all__ = ["SYSTEM_PROMPT", "Assistant", "AssistantSetup", "Reply", "Turn"]

logger = logging.getLogger(__name__)


class Assistant:
    """Conversations with the chat engine, remembering through ``memory`` when it is given
    (without it, a ``NullMemoryService``: nothing is recalled or stored)."""

    def __init__(
        self,
        engine: ChatEngine,
        generation_settings: GenerationSettings,
        *,
        memory: MemoryService | NullMemoryService | None = None,
        memory_enabled: bool = True,
        recall_limit: int = 8,
        n_ctx: int = 4096,
        system_prompt: str = SYSTEM_PROMPT,
        instructions: str = "",
        extractor: Extractor | None = None,
        answer_mode: str = "composed",
    ) -> None:
        self._setup = AssistantSetup(
            engine,
            generation_settings,
            memory if memory is not None else NullMemoryService(),
            memory_enabled,
            recall_limit,
            n_ctx,
            system_prompt,
            instructions,
            extractor,
            answer_mode,
        )
        self._open = OpenConversations()
        self._commands = ChatCommands()
        self._consolidation = BackgroundConsolidation()

    @classmethod
    def from_setup(cls, setup: AssistantSetup) -> Assistant:
        assistant = cls(setup.engine, setup.generation_settings)
        assistant.use(setup)
        return assistant

    # --- what it is built from ---------------------------------------------------------------
    @property
    def setup(self) -> AssistantSetup:
        return self._setup

    def use(self, setup: AssistantSetup) -> None:
        """Go on with new parts and settings (a change of settings, a Lock, an unlock): all of
        them at once, so a turn starting meanwhile sees the old setup or the new, never a mix.
        Open conversations, a pending /forget and a running consolidation carry on."""
        self._setup = setup

    @property
    def engine(self) -> ChatEngine:
        return self._setup.engine

    @property
    def generation_settings(self) -> GenerationSettings:
        return self._setup.generation_settings

    @property
    def memory(self) -> MemoryService | NullMemoryService:
        return self._setup.memory

    @property
    def memory_enabled(self) -> bool:
        return self._setup.memory_enabled

    # --- conversations ---------------------------------------------------------------------
    def start_conversation(self, *, incognito: bool = False) -> Conversation:
        return self._open.start(incognito=incognito)

    def conversations(self) -> list[Conversation]:
        """Open and remembered conversations, the most recent first (callable from any thread)."""
        return self._open.listed(self._memory.conversations() if self._remembering() else None)

    def conversation(self, conversation_id: str) -> Conversation:
        conversation = self._open.get(conversation_id)
        if conversation is None:
            self.conversations()
            conversation = self._open.get(conversation_id)
        if conversation is None:
            raise InputError(f"no conversation with id {conversation_id}")
        if not conversation.messages and self._remembering():
            restore(conversation, self._memory.episodes(conversation_id))
        return conversation

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        if not title.strip():
            raise InputError("a conversation title cannot be empty")
        conversation = self.conversation(conversation_id)
        conversation.title = title.strip()
        if self._remembering() and not conversation.incognito:
            self._memory.rename_conversation(conversation_id, conversation.title)
        return conversation

    def pin_conversation(self, conversation_id: str, pinned: bool = True) -> Conversation:
        """Keep a conversation at the top of the list (remembered across restarts)."""
        conversation = self.conversation(conversation_id)
        conversation.pinned = pinned
        if self._remembering() and not conversation.incognito:
            self._memory.pin_conversation(conversation_id, pinned)
        return conversation

    def set_instructions(self, conversation_id: str, instructions: str) -> Conversation:
        """This chat's own instructions ("": the ones in Settings), remembered across restarts."""
        conversation = self.conversation(conversation_id)
        conversation.instructions = instructions.strip()
        if self._remembering() and not conversation.incognito:
            self._memory.set_conversation_instructions(conversation_id, conversation.instructions)
        return conversation

    def delete_conversation(self, conversation_id: str) -> ForgetReceipt | None:
        """Close a conversation and forget it, with everything learned only from it."""
        conversation = self.conversation(conversation_id)
        self._open.drop(conversation_id)
        memory = self.memory
        if conversation.incognito:
            return None
        with memory.lane:
            # Closed first, in the same job: a reply still streaming is not stored afterwards.
            memory.close_conversation(conversation_id)
            if memory.episodes(conversation_id):  # none without memory
                return memory.forget_conversation(conversation_id)
        return None

    def rate(self, episode_id: str, positive: bool) -> MemoryItem | None:
        """The user's thumbs up or down on one reply: the same statistics as typed feedback
        ("that was great", "not helpful"), counted once per reply. None when memory is off."""
        if not self._remembering():
            return None
        from desktop_agent.core.procedures import record_feedback

        return record_feedback(self._memory, episode_id, positive, about="content")

    def take_forget(self, receipt: ForgetReceipt) -> ForgetRewrites:
        """After a forget, wherever it was asked: the open conversations that showed words it
        erased show them erased, and send them so to the model (the stored exchanges were
        rewritten; these are the copies this process holds). The result rewrites the GUI's
        replies too, and names the conversations that changed."""
        from desktop_agent.core.forget_rewrites import ForgetRewrites
        from desktop_agent.memory.model import MemoryNotFound

        stored: dict[str, MemoryItem | None] = dict.fromkeys(receipt.ids)
        if self._remembering():
            for memory_id in receipt.redacted:
                try:
                    stored[memory_id] = self._memory.item(memory_id)
                except MemoryNotFound:
                    stored[memory_id] = None  # forgotten since, by another forget
        rewrites = ForgetRewrites(stored)
        changed = self._open.take_rewrites(rewrites)
        return replace(rewrites, conversations=tuple(c.id for c in changed))

    def exclude_memory(self, conversation_id: str, memory_id: str) -> None:
        """Keep one memory out of this conversation's prompts (from the memory lens)."""
        self._open.exclude(conversation_id, memory_id)

    # --- turns -------------------------------------------------------------------------------
    def send(self, conversation: Conversation, text: str) -> Turn:
        """Start the reply to ``text``; raises InputError for an empty message."""
        return self._send(conversation, text)

    def _send(
        self, conversation: Conversation, text: str, earlier: ReplyVersions | None = None
    ) -> Turn:
        """``earlier``: the versions of the reply being regenerated (a new one is added)."""
        if not text or not text.strip():
            raise InputError("the message is empty: type something to send")
        from desktop_agent.core.intent import perceive

        intent = perceive(text, self.memory.embedder)
        command = self._command(conversation, text, intent)
        if command is not None:
            return command
        action = self._choose_action(intent)
        grounded = self._grounded(conversation, text)
        if grounded is not None:
            injected = grounded.facts + grounded.past_recollections
            messages, _ = self._prompt(conversation, text, injected, action)
            generation = answer_about_user(
                self.engine,
                self.generation_settings,
                messages,
                grounded.answer,
                self._setup.answer_mode,
            )
        else:
            # A regenerated reply's own exchange is no memory to answer it with.
            own = {earlier.episode_id} if earlier and earlier.episode_id else set()
            recollections = self._recall(conversation, text, own)
            from desktop_agent.core.risks import relevant_risks

            remembered = self._risks(conversation, text)
            risks = relevant_risks(text, remembered)
            # A risk that matters for this request is stated in the prompt (and shown in the
            # lens) even when recall did not rank it: "what should I cook?" shares no word with
            # "allergic to peanuts".
            recollections = with_risks(recollections, risks)
            messages, injected = self._prompt(conversation, text, recollections, action)
            if risks:
                generation = risk_checked(
                    self.engine, self.generation_settings, messages, risks, text
                )
            else:
                generation = self.engine.chat(messages, self.generation_settings)
            from desktop_agent.core.grounding import DONT_KNOW  # (loads the memory side)

            generation = without_made_up_quote(generation, DONT_KNOW)
            if not risks and remembered:
                # not a request a risk matters for, so the reply streams; one saying a risk
                # is not so ("you have no allergies") is followed by the warning
                generation = with_line_after(generation, partial(denied_line, remembered))

        def on_finish(result: GenerationResult) -> Reply:
            from desktop_agent.core.reasoning import split_thinking

            # A reasoning model's thinking is shown folded, never kept: not in the history
            # sent back to the model, not in the episode, not learned from.
            thinking, answer = split_thinking(result.text)
            conversation.add("user", text)
            from desktop_agent.core.reply_versions import ReplyVersions, store_version

            index = conversation.reply_index()
            # Regenerated: a new version of the reply, shown (a reply stopped before its first
            # word adds none). Not learned from again: the user's words did not change.
            versions = earlier.plus(answer) if earlier else ReplyVersions((answer,))
            learned: tuple[MemoryItem, ...] = ()
            if self._writes(conversation) and versions.episode_id is None:
                # A stopped reply is remembered too: the user's words were said, and the
                # restored conversation must show what the screen showed.
                episode_id, learned = self._reflect(
                    conversation, text, answer, intent, action, injected
                )
                versions = ReplyVersions((answer,), 0, episode_id)
            elif self._writes(conversation) and answer:
                used = [r.item.id for r in injected]
                versions = store_version(self._memory, versions, used, action)
            if versions.text:
                conversation.add("assistant", versions.text)
            conversation.versions[index] = versions
            return Reply(
                conversation.id,
                answer,
                result,
                injected,
                learned,
                versions.episode_id,
                thinking=thinking,
                versions=versions,
            )

        return Turn(generation, on_finish, injected)

    def regenerate(self, conversation: Conversation) -> Turn:
        """Answer the last message again: the new reply becomes a version of the last one,
        shown and kept, and the earlier versions stay to switch back to
        (``choose_reply_version``)."""
        last = conversation.message_to_regenerate()
        earlier = conversation.versions.get(conversation.reply_index())
        conversation.drop_last_exchange()
        return self._send(conversation, last, earlier)

    def choose_reply_version(
        self, conversation: Conversation, index: int, version: int
    ) -> ReplyVersions:
        """Show version ``version`` (from 0) of the reply at ``conversation.messages[index]``
        and keep it: the stored exchange, what recall and the next prompts see, an export and
        the conversation after a restart hold the chosen version; the others stay stored."""
        versions = conversation.versions.get(index)
        if versions is None or index >= len(conversation.messages):
            raise InputError(f"message {index + 1} has no reply versions to choose from")
        chosen = versions.showing(version)
        if chosen.episode_id is not None and self._writes(conversation):
            from desktop_agent.core.reply_versions import store_choice

            chosen = store_choice(self._memory, chosen)
        conversation.messages[index] = ChatMessage("assistant", chosen.text)
        conversation.versions[index] = chosen
        return chosen

    def edit_and_resend(self, conversation: Conversation, text: str) -> Turn:
        """Replace the last user message with ``text`` and answer it."""
        if not text or not text.strip():
            raise InputError("the message is empty: type something to send")
        if conversation.last_user_message() is None:
            raise InputError("nothing to edit: the conversation has no message yet")
        conversation.drop_last_exchange()
        return self.send(conversation, text)

    # --- the loop's steps --------------------------------------------------------------------
    def _remembering(self) -> bool:
        return self.memory.is_open and self.memory_enabled

    @property
    def _memory(self) -> MemoryService:
        """The memory, where the caller has checked it is on (``_remembering``); a clear error
        if it was locked in between."""
        memory = self.memory
        if isinstance(memory, NullMemoryService):
            raise InputError(memory.reason)
        return memory

    def _writes(self, conversation: Conversation) -> bool:
        # Incognito writes nothing at all, not even the episode.
        return self._remembering() and not conversation.incognito

    def _recall(
        self, conversation: Conversation, text: str, skip: set[str] | None = None
    ) -> list[Recollection]:
        if not self._remembering() or conversation.incognito:
            return []
        from desktop_agent.core.prompt import relevant

        excluded = self._open.excluded(conversation.id) | self._memory.outdated_episodes()
        excluded |= skip or set()
        found = relevant(
            self._memory.search(text, limit=self._setup.recall_limit, exclude=excluded)
        )
        # A stored question is history, not knowledge: it is never evidence in a prompt.
        return [r for r in found if not r.hit.question]

    def _grounded(self, conversation: Conversation, text: str) -> Grounding | None:
        """For a question about the user: the facts that answer it and the composed answer."""
        if not self._remembering() or conversation.incognito:
            return None
        from desktop_agent.core.grounding_turn import ground

        excluded = self._open.excluded(conversation.id)
        said = [m.content for m in conversation.messages if m.role == "user"]
        # the question before, and the few before it that "that" in it may lean on
        return ground(
            self._memory,
            text,
            excluded,
            said[-1] if said else None,
            said[-4:-1],
            last_resort=True,
        )

    def _risks(self, conversation: Conversation, text: str) -> list[Risk]:
        """The remembered risks, but those ``text`` takes back."""
        if not self._remembering() or conversation.incognito:
            return []
        from desktop_agent.core.risks import risks_of, taken_back

        risks = risks_of(self._memory.active_facts())
        gone = taken_back(text, risks)
        return [r for r in risks if r not in gone]

    def _choose_action(self, intent: Intent) -> str:
        from desktop_agent.core.procedures import choose_style

        return choose_style(self._memory if self._remembering() else None, intent)

    def _prompt(
        self,
        conversation: Conversation,
        text: str,
        recollections: Sequence[Recollection],
        action: str,
    ) -> tuple[list[ChatMessage], tuple[Recollection, ...]]:
        from desktop_agent.core.prompt import chat_messages

        return chat_messages(self._setup, conversation, text, recollections, action)

    def _reflect(
        self,
        conversation: Conversation,
        text: str,
        reply: str,
        intent: Intent,
        action: str,
        injected: Sequence[Recollection],
    ) -> tuple[str | None, tuple[MemoryItem, ...]]:
        from desktop_agent.core.learning import reflect
        from desktop_agent.core.memory_service import ConversationClosed

        # One job in the write lane: the episode and what is learned from it land together,
        # before or after a delete of this conversation, never around it.
        try:
            with self._memory.lane:
                reflected = reflect(
                    self._memory,
                    conversation,
                    text,
                    reply,
                    intent,
                    action,
                    injected,
                    self._setup.extractor,
                )
        except ConversationClosed:
            return None, ()  # deleted while the reply streamed: nothing of it is kept
        if reflected[1]:
            self.consolidate_in_background()
        return reflected

    def consolidate_in_background(self) -> threading.Thread | None:
        """Merge duplicates, settle supersessions and refresh topics off the caller's thread;
        at most one run at a time (a run asked for meanwhile is folded into the next)."""
        memory = self.memory
        if isinstance(memory, NullMemoryService):
            return None
        return self._consolidation.start(memory)

    @property
    def last_consolidation_error(self) -> str | None:
        return self._consolidation.last_error

    def settle(self, timeout: float | None = None) -> bool:
        """Wait for the background consolidation run, if any (before the vault closes or the
        process exits); False if it is still running after ``timeout`` seconds."""
        return self._consolidation.settle(timeout)

    # --- chat commands -------------------------------------------------------------------------
    def _command(self, conversation: Conversation, text: str, intent: Intent) -> Turn | None:
        answer = self._commands.answer(
            conversation,
            text,
            intent,
            remembering=self._remembering(),
            memory=lambda: self._memory,
        )
        if answer is None:
            return None
        if answer.receipt is not None:
            self.take_forget(answer.receipt)
        if intent.told and self._writes(conversation):
            # "I've started at Ocado now. | also, please forget my salary": what was told
            # before the request is learned as any message is, after the offer was made
            from desktop_agent.core.intent import perceive

            told = perceive(intent.told, self.memory.embedder)
            self._reflect(conversation, intent.told, "", told, self._choose_action(told), ())
        return self._canned(conversation, text, answer.text, answer.receipt)

    def _canned(
        self,
        conversation: Conversation,
        text: str,
        reply: str,
        receipt: ForgetReceipt | None = None,
    ) -> Turn:
        generation = canned_generation(reply)

        def on_finish(result: GenerationResult) -> Reply:
            conversation.add("user", text)
            conversation.add("assistant", reply)
            return Reply(conversation.id, reply, result, receipt=receipt)

        return Turn(generation, on_finish)
