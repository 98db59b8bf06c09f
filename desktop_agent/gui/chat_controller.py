"""Drives one ChatView from the core service: send, stop, regenerate, edit and resend, and
choose which version of a regenerated reply is kept.

Every call into the core that can wait (on the model loading, on prompt processing) runs
through ``run_in_background``; Stop calls ``TurnStream.cancel()`` directly on the GUI thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from desktop_agent.core.assistant import Assistant, Reply, Turn
from desktop_agent.core.conversation import Conversation
from desktop_agent.core.forget_rewrites import ForgetRewrites
from desktop_agent.core.reply_versions import ReplyVersions
from desktop_agent.errors import InputError, UserError
from desktop_agent.gui.chat_view import ChatView
from desktop_agent.gui.session import MEMORY_LANE
from desktop_agent.gui.workers import MemoriesUsed, Task, TurnStream, run_in_background


class ChatController(QObject):
    """The current conversation and the one turn that may be streaming."""

    conversation_did_change = Signal(str)  # id: title or messages changed
    message_did_send = Signal(str, str)  # conversation id, text
    generation_did_start = Signal()
    generation_did_end = Signal(object)  # Reply, or None when it failed
    controller_did_fail = Signal(str)
    reply_version_did_change = Signal(object)  # ReplyVersions, as kept

    def __init__(self, assistant: Assistant, view: ChatView, parent: QObject | None = None):
        super().__init__(parent)
        self.assistant = assistant
        self.view = view
        self.conversation: Conversation | None = None
        self.model_ready = False
        # Per conversation: message index -> the Reply that wrote it (figures, memory lens).
        self.replies: dict[str, dict[int, Reply]] = {}
        self.stream: TurnStream | None = None
        self.task: Task | None = None
        self._turn_conversation: Conversation | None = None
        self._submitted = ""
        self._drew_bubbles = False
        self._first_piece_at: float | None = None
        self.pieces = 0
        view.message_did_submit.connect(self.send)
        view.stop_did_request.connect(self.stop)
        view.regenerate_did_request.connect(self.regenerate)
        view.edit_did_request.connect(self.start_edit)
        view.reply_version_did_request.connect(self.choose_version)

    @property
    def busy(self) -> bool:
        return self.task is not None

    # --- conversations ---
    def new_conversation(self, *, incognito: bool = False) -> Conversation:
        self.stop()
        self.conversation = self.assistant.start_conversation(incognito=incognito)
        self.view.show_conversation(self.conversation)
        self.conversation_did_change.emit(self.conversation.id)
        return self.conversation

    def open(self, conversation_id: str) -> None:
        if self.conversation is not None and self.conversation.id == conversation_id:
            return
        try:
            conversation = self.assistant.conversation(conversation_id)
        except UserError as error:
            self.controller_did_fail.emit(str(error))
            return
        self.stop()
        self.conversation = conversation
        self.view.composer.cancel_edit()
        self.view.show_conversation(conversation, self.replies.get(conversation_id))

    def take_forget(self, rewrites: ForgetRewrites) -> None:
        """A forget rewrote memories this window shows: each reply's lens and "memory updated"
        line take them as stored now, and the transcript on screen is drawn again if it showed
        them (in its messages or in a lens)."""
        current = self.conversation.id if self.conversation is not None else None
        lens_changed = False
        for conversation_id, replies in self.replies.items():
            for index, reply in list(replies.items()):
                now = rewrites.reply(reply)
                if now is not reply:
                    replies[index] = now
                    lens_changed |= conversation_id == current
        conversation = self.conversation
        if conversation is None or self.busy:
            return  # (a streaming turn redraws when it ends)
        if lens_changed or conversation.id in rewrites.conversations:
            self.view.show_conversation(conversation, self.replies.get(conversation.id))

    def forget(self, conversation_id: str) -> None:
        """The conversation was deleted: stop its turn and drop what the GUI kept of it."""
        self.replies.pop(conversation_id, None)
        if self.conversation is not None and self.conversation.id == conversation_id:
            self.stop()
            self.conversation = None

    # --- turns ---
    @Slot(str, bool)
    def send(self, text: str, editing: bool = False) -> None:
        if self.busy:
            return
        conversation = self.conversation or self.new_conversation()
        if editing:
            self._start(
                conversation,
                lambda: self.assistant.edit_and_resend(conversation, text),
                text=text,
                drop="exchange",
            )
        else:
            self._start(conversation, lambda: self.assistant.send(conversation, text), text=text)

    @Slot()
    def regenerate(self) -> None:
        if self.busy or self.conversation is None:
            return
        conversation = self.conversation
        try:  # checked before the reply leaves the screen (a command's answer stays)
            conversation.message_to_regenerate()
        except InputError as error:
            self.view.composer.show_error(str(error))
            return
        self._start(
            conversation, lambda: self.assistant.regenerate(conversation), text=None, drop="reply"
        )

    @Slot(int, int)
    def choose_version(self, index: int, version: int) -> None:
        """Keep version ``version`` of the reply at message ``index`` (the view shows it
        already); on the memory lane, in order with the other writes."""
        conversation = self.conversation
        if conversation is None:
            return

        def failed(error: BaseException) -> None:
            if self._is_current(conversation):  # back to what the core keeps
                self.view.show_conversation(conversation, self.replies.get(conversation.id))
                self.view.composer.show_error(f"That version was not kept: {error}")
            self.controller_did_fail.emit(str(error))

        run_in_background(
            lambda: self.assistant.choose_reply_version(conversation, index, version),
            on_done=self._version_kept,
            on_error=failed,
            name="choose-reply-version",
            lane=MEMORY_LANE,
            owner=self,
        )

    @Slot(object)
    def _version_kept(self, versions: ReplyVersions) -> None:
        self.reply_version_did_change.emit(versions)

    @Slot()
    def start_edit(self) -> None:
        if self.busy or self.conversation is None:
            return
        last = next(
            (m.content for m in reversed(self.conversation.messages) if m.role == "user"), None
        )
        if last is None:
            self.view.composer.show_error("nothing to edit: the conversation has no message yet")
            return
        self.view.composer.start_edit(last)

    @Slot()
    def stop(self) -> None:
        """Cancel the streaming turn, right now, from the GUI thread."""
        if self.stream is not None and not self.stream.cancelled:
            self.stream.cancel()
            self.view.set_reply_status("Stopping…")

    def _start(
        self,
        conversation: Conversation,
        start_turn: Callable[[], Turn],
        *,
        text: str | None,
        drop: str = "",
    ) -> None:
        # Bubbles are drawn at once for a message worth sending; the core still decides, and
        # on an error the transcript is redrawn from the conversation.
        self._drew_bubbles = text is None or bool(text.strip())
        self._submitted = text or ""
        if self._drew_bubbles:
            if drop:
                self.view.drop_last_exchange(keep_user=drop == "reply")
            if text is not None:
                self.view.add_user_message(text)
                self.view.composer.edit.clear()
            status = "Thinking…" if self.model_ready else "Waiting for the model to load…"
            self.view.begin_reply(status)
        else:
            self.view.set_busy(True)
        self._turn_conversation = conversation
        self._first_piece_at = None
        self.pieces = 0
        self.stream = TurnStream(start_turn)
        self.task = run_in_background(
            self.stream.run,
            on_yield=self._on_piece,
            on_done=self._on_done,
            on_error=self._on_error,
            name="turn",
        )
        if text is not None:
            self.message_did_send.emit(conversation.id, text)
        self.generation_did_start.emit()

    def live_speed(self) -> float:
        """Pieces per second since the first one (about tokens per second)."""
        if self._first_piece_at is None or self.pieces < 2:
            return 0.0
        elapsed = time.perf_counter() - self._first_piece_at
        return (self.pieces - 1) / elapsed if elapsed > 0 else 0.0

    @Slot(object)
    def _on_piece(self, piece: str | MemoriesUsed) -> None:
        if isinstance(piece, MemoriesUsed):
            if self._is_current(self._turn_conversation) and self.view.streaming is not None:
                self.view.streaming.preview_memories(piece.memories)
            return
        if self._first_piece_at is None:
            self._first_piece_at = time.perf_counter()
        self.pieces += 1
        if self._is_current(self._turn_conversation):
            self.view.append_piece(piece)

    @Slot(object)
    def _on_done(self, reply: Reply) -> None:
        conversation = self._end_turn()
        replies = self.replies.setdefault(conversation.id, {})
        for index in [i for i in replies if i >= len(conversation.messages)]:
            del replies[index]
        if reply.text:
            replies[len(conversation.messages) - 1] = reply
        index = conversation.reply_index()  # where the reply is in the messages
        self.view.end_reply(reply if self._is_current(conversation) else None, index)
        if reply.receipt is not None and self._is_current(conversation):
            # a forget from this chat: its request and offer are erased too (the core did it;
            # the lenses follow from memory_did_change, as for any forget)
            self.view.show_conversation(conversation, self.replies.get(conversation.id))
        self.conversation_did_change.emit(conversation.id)
        self.generation_did_end.emit(reply)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        conversation = self._end_turn()
        self.view.end_reply(None)
        if self._is_current(conversation):
            if self._drew_bubbles:
                self.view.show_conversation(conversation, self.replies.get(conversation.id))
            if not self.view.composer.text and self._submitted.strip():
                self.view.composer.set_text(self._submitted)
            message = str(error) if isinstance(error, UserError) else f"{error}"
            if isinstance(error, UserError):
                self.view.composer.show_error(message)
            else:
                self.view.show_error(f"The model failed: {message}")
        self.conversation_did_change.emit(conversation.id)
        self.controller_did_fail.emit(str(error))
        self.generation_did_end.emit(None)

    def _end_turn(self) -> Conversation:
        conversation = self._turn_conversation
        assert conversation is not None
        self.task = None
        self.stream = None
        self._turn_conversation = None
        return conversation

    def _is_current(self, conversation: Conversation | None) -> bool:
        return conversation is not None and conversation is self.conversation
