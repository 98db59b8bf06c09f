"""The core service the CLI and the GUI both drive: the agent loop, one turn at a time.

perceive (what kind of message is this) -> recall (hybrid search over memory) -> respond (a
prompt with a token budget per memory kind, streamed) -> reflect (store the episode, learn
facts from the user's words, update which answer styles work). Each reply records the memories
injected into it, with their scores: the memory lens.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from desktop_agent.core.conversation import Conversation
from desktop_agent.errors import InputError
from desktop_agent.llm import (
    ChatEngine,
    ChatMessage,
    Generation,
    GenerationResult,
    GenerationSettings,
)

if TYPE_CHECKING:
    from desktop_agent.core.grounding import GroundedAnswer
    from desktop_agent.core.grounding_turn import Grounding
    from desktop_agent.core.intent import Intent
    from desktop_agent.core.learning import Extractor
    from desktop_agent.core.memory_model import MemoryItem
    from desktop_agent.core.memory_service import MemoryService, Recollection
    from desktop_agent.core.reply_versions import ReplyVersions
    from desktop_agent.core.risks import Risk
    from desktop_agent.memory.model import ForgetReceipt

SYSTEM_PROMPT = (
    "You are a helpful, honest assistant running privately on the user's own computer. "
    "Answer clearly and briefly."
)
# A recalled memory goes into the prompt only when it shares a keyword with the message or is
# this close in meaning, and scores at least this share of the best hit. Measured with
# all-MiniLM-L6-v2: "What food should I avoid?" / "User is allergic to peanuts" 0.254,
# "Where do I live?" / "User lives in Lisbon" 0.326; unrelated pairs 0.04-0.24 ("What is the
# capital of France?" / "User lives in Lisbon" 0.239).
MIN_COSINE = 0.25
RELATIVE_RECALL_FLOOR = 0.3
CONFIRM_WORDS = {"/yes", "yes", "y", "yes please", "confirm"}
CANCEL_WORDS = {"/no", "no", "n", "cancel", "keep them"}

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Reply:
    conversation_id: str
    text: str
    result: GenerationResult
    memories_used: tuple[Recollection, ...] = field(default=())
    learned: tuple[MemoryItem, ...] = field(default=())
    episode_id: str | None = None
    receipt: ForgetReceipt | None = None
    thinking: str = ""  # a reasoning model's <think> part, shown folded, never stored
    # This reply among the versions of its exchange (Regenerate adds one); None for commands.
    versions: ReplyVersions | None = None


@dataclass(frozen=True, slots=True)
class PendingForget:
    """A /forget the user still has to confirm."""

    ids: tuple[str, ...]
    # Words said but never learned as a fact: episode id -> ranges of the user's message.
    words: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)


class Turn:
    """One streamed reply. Iterate for text pieces (from any one thread), ``cancel()`` from any
    thread, then ``finish()`` for the Reply; reflection happens exactly once, in finish()."""

    def __init__(
        self,
        generation: Generation,
        on_finish: Callable[[GenerationResult], Reply],
        memories_used: tuple[Recollection, ...] = (),
    ) -> None:
        self._generation = generation
        self._on_finish = on_finish
        self._reply: Reply | None = None
        self._lock = threading.Lock()
        # Known before the first token: the GUI can show the memory lens while streaming.
        self.memories_used = memories_used

    def __iter__(self) -> Iterator[str]:
        return iter(self._generation)

    def cancel(self) -> None:
        self._generation.cancel()

    @property
    def cancelled(self) -> bool:
        return self._generation.cancelled

    def finish(self) -> Reply:
        with self._lock:
            if self._reply is None:
                self._reply = self._on_finish(self._generation.result())
            return self._reply


def relevant(found: list[Recollection]) -> list[Recollection]:
    """Only the hits worth acting on: a weak match costs prompt tokens and misleads a small
    model, and /forget must not offer unrelated memories.

    Fused scores are normalised per query (the best candidate always looks good), so the
    test is on the raw signals: a shared keyword, or a cosine that all-MiniLM-L6-v2 gives
    related sentences; then within reach of the best hit.
    """
    related = [r for r in found if r.hit.keyword_score > 0 or r.hit.vector_score >= MIN_COSINE]
    if not related:
        return []
    floor = RELATIVE_RECALL_FLOOR * related[0].hit.score
    return [r for r in related if r.hit.score >= floor]


def _with_risks(found: list[Recollection], risks: Sequence[Risk]) -> list[Recollection]:
    from desktop_agent.core.grounding_turn import listed

    have = {r.item.id for r in found}
    added = [listed(r.memory) for r in risks if r.memory.id not in have]
    return [*added, *found]


def _run(generation: Generation, cancel: threading.Event) -> GenerationResult:
    """Wait for a whole reply, passing a Stop on to it."""
    while not generation.done:
        if cancel.wait(0.05):
            generation.cancel()
            break
    return generation.result()


# finish_reason of a reply the core wrote from memory (a grounded answer), not the model.
FROM_MEMORY = "memory"


def canned_generation(text: str, finish_reason: str = "stop") -> Generation:
    """A finished Generation holding ``text``: replies the model does not write (commands,
    answers composed from memory)."""
    generation = Generation()
    generation._emit(text)
    generation._finish(GenerationResult(text, 0, 0, 0, False, finish_reason, 0.0, 0.0))
    return generation


class Assistant:
    """Conversations with the chat engine, remembering through ``memory`` when it is given."""

    def __init__(
        self,
        engine: ChatEngine,
        generation_settings: GenerationSettings,
        *,
        memory: MemoryService | None = None,
        memory_enabled: bool = True,
        recall_limit: int = 8,
        n_ctx: int = 4096,
        system_prompt: str = SYSTEM_PROMPT,
        instructions: str = "",
        extractor: Extractor | None = None,
        answer_mode: str = "composed",
    ) -> None:
        self.engine = engine
        self.generation_settings = generation_settings
        self.memory = memory
        self.memory_enabled = memory_enabled
        self.recall_limit = recall_limit
        self.n_ctx = n_ctx
        self.system_prompt = system_prompt
        self.instructions = instructions
        # None: the deterministic rules (the bundled model's JSON is unreliable).
        self.extractor = extractor
        # Questions about the user: "composed" from the facts by the core, or "model" (checked).
        self.answer_mode = answer_mode
        self._conversations: dict[str, Conversation] = {}
        # The GUI lists conversations on its memory thread while chatting on others.
        self._conversations_lock = threading.RLock()
        self._seen_remembered: set[str] = set()  # conversations the memory held when last read
        self._pending: dict[str, PendingForget] = {}
        self._excluded: dict[str, set[str]] = {}
        self._consolidating = threading.Lock()
        self._consolidation: threading.Thread | None = None
        self.last_consolidation_error: str | None = None

    # --- conversations ---------------------------------------------------------------------
    def start_conversation(self, *, incognito: bool = False) -> Conversation:
        conversation = Conversation(incognito=incognito)
        with self._conversations_lock:
            self._conversations[conversation.id] = conversation
        return conversation

    def conversations(self) -> list[Conversation]:
        """Open and remembered conversations, the most recent first (callable from any thread)."""
        remembering = self._remembering()
        remembered = self._memory.conversations() if remembering else []
        with self._conversations_lock:
            for summary in remembered:
                if summary.id not in self._conversations:
                    self._conversations[summary.id] = Conversation(
                        id=summary.id,
                        title=summary.title,
                        started_at=summary.started_at,
                        pinned=summary.pinned,
                    )
            if remembering:
                # Seen in memory before and gone now: forgotten (a conversation, or everything),
                # so it leaves the list too. Open chats not yet remembered stay.
                now = {s.id for s in remembered}
                for gone in self._seen_remembered - now:
                    self._conversations.pop(gone, None)
                self._seen_remembered = now
            listed = list(self._conversations.values())
        return sorted(listed, key=lambda c: c.started_at, reverse=True)

    def conversation(self, conversation_id: str) -> Conversation:
        conversation = self._conversations.get(conversation_id)
        if conversation is None:
            self.conversations()
            conversation = self._conversations.get(conversation_id)
        if conversation is None:
            raise InputError(f"no conversation with id {conversation_id}")
        if not conversation.messages and self._remembering():
            from desktop_agent.core.reply_versions import versions_of

            for episode in self._memory.episodes(conversation_id):
                if episode.reply_text or (episode.meta or {}).get("source") == "chat":
                    conversation.messages.append(ChatMessage("user", episode.user_text))
                    conversation.messages.append(ChatMessage("assistant", episode.reply_text))
                    conversation.versions[len(conversation.messages) - 1] = versions_of(episode)
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

    def delete_conversation(self, conversation_id: str) -> ForgetReceipt | None:
        """Close a conversation and forget it, with everything learned only from it."""
        conversation = self.conversation(conversation_id)
        with self._conversations_lock:
            self._conversations.pop(conversation_id, None)
        if self.memory is None or conversation.incognito:
            return None
        with self.memory.lane:
            # Closed first, in the same job: a reply still streaming is not stored afterwards.
            self.memory.close_conversation(conversation_id)
            if self.memory.episodes(conversation_id):
                return self.memory.forget_conversation(conversation_id)
        return None

    def rate(self, episode_id: str, positive: bool) -> MemoryItem | None:
        """The user's thumbs up or down on one reply: the same statistics as typed feedback
        ("that was great", "not helpful"), counted once per reply. None when memory is off."""
        if not self._remembering():
            return None
        from desktop_agent.core.procedures import record_feedback

        return record_feedback(self._memory, episode_id, positive, about="content")

    def exclude_memory(self, conversation_id: str, memory_id: str) -> None:
        """Keep one memory out of this conversation's prompts (from the memory lens)."""
        self._excluded.setdefault(conversation_id, set()).add(memory_id)

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

        intent = perceive(text, self.memory.embedder if self.memory is not None else None)
        command = self._command(conversation, text, intent)
        if command is not None:
            return command
        action = self._choose_action(intent)
        grounded = self._grounded(conversation, text)
        if grounded is not None:
            injected = grounded.facts + grounded.past_recollections
            messages, _ = self._prompt(conversation, text, injected, action)
            generation = self._answer_about_user(messages, grounded.answer)
        else:
            # A regenerated reply's own exchange is no memory to answer it with.
            own = {earlier.episode_id} if earlier and earlier.episode_id else set()
            recollections = self._recall(conversation, text, own)
            risks = self._risks(conversation, text)
            # A risk that matters for this request is stated in the prompt (and shown in the
            # lens) even when recall did not rank it: "what should I cook?" shares no word with
            # "allergic to peanuts".
            recollections = _with_risks(recollections, risks)
            messages, injected = self._prompt(conversation, text, recollections, action)
            if risks:
                generation = self._guarded(messages, risks, text)
            else:
                generation = self.engine.chat(messages, self.generation_settings)

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
        last = conversation.last_user_message()
        if last is None:
            raise InputError("nothing to regenerate: the conversation has no message yet")
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
        return self.memory is not None and self.memory_enabled

    @property
    def _memory(self) -> MemoryService:
        """The memory, where the caller has checked it is on (``_remembering``); a clear error
        if it was locked in between."""
        if self.memory is None:
            raise InputError("memory is locked: unlock it in Settings to use it")
        return self.memory

    def _writes(self, conversation: Conversation) -> bool:
        # Incognito writes nothing at all, not even the episode.
        return self._remembering() and not conversation.incognito

    def _recall(
        self, conversation: Conversation, text: str, skip: set[str] | None = None
    ) -> list[Recollection]:
        if not self._remembering() or conversation.incognito:
            return []
        excluded = self._excluded.get(conversation.id, set()) | self._memory.outdated_episodes()
        excluded |= skip or set()
        found = relevant(self._memory.search(text, limit=self.recall_limit, exclude=excluded))
        # A stored question is history, not knowledge: it is never evidence in a prompt.
        return [r for r in found if not r.hit.question]

    def _grounded(self, conversation: Conversation, text: str) -> Grounding | None:
        """For a question about the user: the facts that answer it and the composed answer."""
        if not self._remembering() or conversation.incognito:
            return None
        from desktop_agent.core.grounding_turn import ground

        excluded = self._excluded.get(conversation.id, set())
        return ground(self._memory, text, excluded)

    def _answer_about_user(self, messages: list[ChatMessage], answer: GroundedAnswer) -> Generation:
        """The composed answer; or the model's, when it is capable and its answer holds."""
        if self.answer_mode != "model" or not answer.known:
            return canned_generation(answer.text, FROM_MEMORY)
        from desktop_agent.core.grounding import check_answer
        from desktop_agent.core.guarded import guarded_generation

        def produce(cancel: threading.Event) -> tuple[str, GenerationResult]:
            result = _run(self.engine.chat(messages, self.generation_settings), cancel)
            if result.cancelled or check_answer(result.text, answer):
                return result.text, result
            return answer.text, result

        return guarded_generation(produce)

    def _risks(self, conversation: Conversation, text: str) -> list[Risk]:
        if not self._remembering() or conversation.incognito:
            return []
        from desktop_agent.core.risks import relevant_risks, risks_of

        return relevant_risks(text, risks_of(self._memory.active_facts()))

    def _guarded(self, messages: list[ChatMessage], risks: list[Risk], text: str) -> Generation:
        """A reply checked against the remembered risks before it is shown: regenerated with
        the risks stated first if it breaks one, else a warning naming the memory appended.
        When the user names what a risk rules out ("would penicillin help?"), a reply that
        does not mention the risk gets a reminder of it."""
        from desktop_agent.core.guarded import guarded_generation
        from desktop_agent.core.risks import (
            named_risks,
            reminder,
            risk_instruction,
            violations,
            warning,
        )

        named = named_risks(text, risks)

        def with_reason(reply: str) -> str:
            # Named by the user, or by the reply even to exclude it ("you should not cook
            # shellfish"): the reply says why, or the reminder does.
            spoken = [r for r in risks if r in named or named_risks(reply, [r])]
            missing = [r for r in spoken if not r.mentioned_in(reply)]
            return f"{reply.rstrip()}\n\n{reminder(missing)}" if missing else reply

        def produce(cancel: threading.Event) -> tuple[str, GenerationResult]:
            result = _run(self.engine.chat(messages, self.generation_settings), cancel)
            if result.cancelled:
                return result.text, result
            if not violations(result.text, risks):
                return with_reason(result.text), result
            system = f"{risk_instruction(risks)}\n\n{messages[0].content}"
            stated = [ChatMessage("system", system), *messages[1:]]
            retry = _run(self.engine.chat(stated, self.generation_settings), cancel)
            if retry.cancelled:
                return retry.text, retry
            broken = violations(retry.text, risks)
            if not broken:
                return with_reason(retry.text), retry
            return f"{retry.text.rstrip()}\n\n{warning(broken)}", retry

        return guarded_generation(produce)

    def _choose_action(self, intent: Intent) -> str:
        from desktop_agent.core.procedures import choose_style

        return choose_style(self.memory if self._remembering() else None, intent)

    def _prompt(
        self,
        conversation: Conversation,
        text: str,
        recollections: Sequence[Recollection],
        action: str,
    ) -> tuple[list[ChatMessage], tuple[Recollection, ...]]:
        from desktop_agent.core.prompt import build_system_prompt
        from desktop_agent.core.working_memory import working_memory

        budget = self.n_ctx - self.generation_settings.max_tokens
        working = working_memory(
            conversation.messages, history_tokens=max(budget // 2, 256), goal=conversation.goal
        )
        base = self.system_prompt
        instructions = (conversation.instructions or self.instructions).strip()
        if instructions:
            base = f"{base}\n\nThe user's instructions for how you answer:\n{instructions}"
        built = build_system_prompt(
            base,
            recollections,
            style=action,
            working_summary=working.summary,
            goal=working.goal,
        )
        messages = [ChatMessage("system", built.system), *working.recent, ChatMessage("user", text)]
        return messages, built.injected

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
                    self.extractor,
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
        if memory is None or not self._consolidating.acquire(blocking=False):
            return None

        def run() -> None:
            from desktop_agent.core.consolidation import consolidate

            try:
                consolidate(memory)
            except Exception as error:  # never let a background run take the chat down
                self.last_consolidation_error = str(error)
                logger.exception("consolidation failed")
            finally:
                self._consolidating.release()

        thread = threading.Thread(target=run, name="consolidation", daemon=True)
        thread.start()
        self._consolidation = thread
        return thread

    def settle(self, timeout: float | None = None) -> bool:
        """Wait for the background consolidation run, if any (before the vault closes or the
        process exits); False if it is still running after ``timeout`` seconds."""
        thread = self._consolidation
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    # --- chat commands -------------------------------------------------------------------------
    def _command(self, conversation: Conversation, text: str, intent: Intent) -> Turn | None:
        pending = self._pending.pop(conversation.id, None)
        stripped = text.strip()
        if pending is not None:
            answer = stripped.casefold().rstrip(".!")
            if answer in CONFIRM_WORDS:
                from desktop_agent.core.memory_service import also_touched

                if pending.words:
                    receipt = self._memory.forget_words(pending.words)
                    count = sum(len(r) for r in pending.words.values())
                    what = "those words" if count == 1 else f"those {count} sentences"
                    return self._canned(
                        conversation,
                        text,
                        f"Forgotten: {what}, erased from "
                        f"{len(receipt.redacted)} message{'s' if len(receipt.redacted) != 1 else ''}"
                        f" (keys destroyed, epoch {receipt.epoch}).",
                        receipt=receipt,
                    )
                receipt = self._memory.forget(pending.ids)
                asked = len(pending.ids)
                topics = sum(1 for kind in receipt.kinds if kind == "topic")
                also = also_touched(len(receipt.redacted), topics, len(receipt.learned))
                return self._canned(
                    conversation,
                    text,
                    f"Forgotten: {asked} memor{'y' if asked == 1 else 'ies'}"
                    + (f" {also}" if also else "")
                    + f" (keys destroyed, epoch {receipt.epoch}).",
                    receipt=receipt,
                )
            if answer in CANCEL_WORDS:
                return self._canned(conversation, text, "Kept: nothing was forgotten.")
        if intent.kind != "command":
            return None
        if not self._remembering():
            return self._canned(
                conversation, text, "Memory is off, so there is nothing to remember or forget."
            )
        if intent.command == "remember":
            if conversation.incognito:
                return self._canned(
                    conversation, text, "This is an incognito chat: nothing is remembered."
                )
            from desktop_agent.core.learning import remember_explicitly

            item = remember_explicitly(self._memory, conversation, intent.argument)
            return self._canned(conversation, text, f"I'll remember that: {item.text}")
        if intent.command == "forget":
            from desktop_agent.core.forget_request import facts_to_forget

            matches = facts_to_forget(self._memory, intent.argument)
            if not matches:
                return self._forget_said(conversation, text, intent.argument)
            ids = tuple(r.item.id for r in matches)
            self._pending[conversation.id] = PendingForget(ids)
            lines = "\n".join(f"{i}. {r.item.text}" for i, r in enumerate(matches, 1))
            also = self._memory.forget_preview(ids).describe()
            also_line = f"\nThis also erases {also[4:]}." if also else ""
            return self._canned(
                conversation,
                text,
                f"I found these memories:\n{lines}{also_line}\nForget them? Answer yes or no.",
            )
        return None

    def _forget_said(self, conversation: Conversation, text: str, topic: str) -> Turn:
        """No fact was learned about ``topic``, but the user may have said it: offer to forget
        the messages that say it ("forget my phone number")."""
        from desktop_agent.core.statements import statements_about

        episodes = self._memory.search(topic, limit=10, kinds=("episodic",)) if topic else []
        said = statements_about(topic, episodes)
        if not said:
            return self._canned(conversation, text, f"I don't remember anything about “{topic}”.")
        words: dict[str, tuple[tuple[int, int], ...]] = {}
        for statement in said:
            episode_id = statement.source.item.id
            words[episode_id] = (*words.get(episode_id, ()), statement.span)
        self._pending[conversation.id] = PendingForget((), words)
        lines = "\n".join(f"{i}. “{s.sentence}”" for i, s in enumerate(said, 1))
        these = "these words" if len(said) == 1 else f"these {len(said)} sentences"
        return self._canned(
            conversation,
            text,
            f"You told me:\n{lines}\nForget {these} (erased from the conversation too)? "
            "Answer yes or no.",
        )

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
