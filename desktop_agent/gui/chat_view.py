"""The chat: the incognito banner, the transcript of bubbles, and the composer.

Streamed pieces are buffered and drawn on a 40 ms timer, and only the reply being written is
re-rendered, never the whole transcript.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.assistant import Reply
from desktop_agent.core.conversation import Conversation
from desktop_agent.gui.composer import Composer
from desktop_agent.gui.message_view import MessageView
from desktop_agent.gui.theme import current_theme, icon, theme_signals

FLUSH_MS = 40
COLUMN_WIDTH = 860
# Narrower than this, the bubbles show their actions as icons (their tooltips say what).
COMPACT_BELOW = 460


class IncognitoBanner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("incognitoBanner")
        row = QHBoxLayout(self)
        row.setContentsMargins(16, 8, 16, 8)
        self.icon_label = QLabel()
        row.addWidget(self.icon_label)
        text = QLabel(
            "<b>Incognito chat</b> — nothing from this conversation is remembered, "
            "and it is gone when you close the app."
        )
        text.setWordWrap(True)
        row.addWidget(text, 1)
        self.retint()

    def retint(self) -> None:
        self.icon_label.setPixmap(icon("incognito", current_theme().incognito_text).pixmap(20, 20))


class EmptyState(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        title = QLabel("How can I help?", objectName="emptyTitle")
        hint = QLabel(
            "Everything runs on this computer. Nothing you type leaves it.",
            objectName="emptyHint",
        )
        for label in (title, hint):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)  # a narrow chat (800-pixel window, a dock open) wraps it
            layout.addWidget(label)
        layout.addStretch(3)


class ChatView(QWidget):
    """Shows one conversation; the controller tells it what changed."""

    message_did_submit = Signal(str, bool)  # text, editing
    stop_did_request = Signal()
    regenerate_did_request = Signal()
    edit_did_request = Signal()
    memory_lens_did_open = Signal(object)
    memory_did_request_inspect = Signal(str)
    memory_did_request_exclude = Signal(str)
    reply_did_rate = Signal(str, bool)  # episode id, thumbs up
    reply_version_did_request = Signal(int, int)  # the reply's message index, version
    text_did_copy = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bubbles: list[MessageView] = []
        self.streaming: MessageView | None = None
        self.busy = False
        self.incognito = False
        self._pending: list[str] = []
        self._stream_text = ""
        # The figures of the versions of the reply being regenerated, for its new card.
        self._earlier_figures: dict[int, tuple[str, tuple[Any, ...]]] = {}
        self._flush_timer = QTimer(self, interval=FLUSH_MS)
        self._flush_timer.timeout.connect(self.flush)
        self._build()
        theme_signals().theme_did_change.connect(self._retint)

    @Slot(object)
    def _retint(self, _theme: object) -> None:
        for bubble in self.bubbles:
            bubble.retint()
        self.banner.retint()
        self.composer.retint()

    def _build(self) -> None:
        self.banner = IncognitoBanner(self)
        self.banner.hide()

        self.body = QWidget(objectName="transcriptBody")
        self.column = QVBoxLayout()
        self.column.setSpacing(12)
        self.column.setContentsMargins(0, 16, 0, 16)
        self.column.addStretch(1)
        centred = QHBoxLayout(self.body)
        centred.setContentsMargins(20, 0, 20, 0)
        centred.addStretch(1)
        holder = QWidget()
        holder.setLayout(self.column)
        holder.setMaximumWidth(COLUMN_WIDTH)
        centred.addWidget(holder, 100)
        centred.addStretch(1)

        self.scroll = QScrollArea(objectName="transcript")
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(self.body)
        self.scroll.verticalScrollBar().rangeChanged.connect(self._follow)
        self._at_bottom = True
        self.scroll.verticalScrollBar().valueChanged.connect(self._note_position)

        self.empty = EmptyState(self)

        self.composer = Composer(self)
        self.composer.composer_did_submit.connect(self.message_did_submit)
        self.composer.composer_did_request_stop.connect(self.stop_did_request)
        bottom = QHBoxLayout()
        bottom.setContentsMargins(12, 4, 12, 14)
        bottom.addStretch(1)
        bottom.addWidget(self.composer, 100)
        bottom.addStretch(1)
        self.composer.setMaximumWidth(COLUMN_WIDTH)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.empty, 1)
        layout.addLayout(bottom)
        self._update_empty()

    # --- whole conversation ---
    def show_conversation(
        self, conversation: Conversation, replies: Mapping[int, Reply] | None = None
    ) -> None:
        """Rebuild the transcript (on switching conversations, not per token)."""
        self._stop_flushing()
        for bubble in list(self.bubbles):
            self._remove(bubble)
        self.streaming = None
        self.set_incognito(conversation.incognito)
        replies = replies or {}
        for index, message in enumerate(conversation.messages):
            bubble = self._add_bubble(message.role, message.content)
            bubble.message_index = index
            if index in replies:
                bubble.set_reply(replies[index])
            if message.role == "assistant" and index in conversation.versions:
                bubble.set_versions(conversation.versions[index])
        self.refresh_actions()
        self._at_bottom = True

    def set_incognito(self, incognito: bool) -> None:
        self.incognito = incognito
        self.banner.setVisible(incognito)
        hint = "Enter to send, Shift+Enter for a new line"
        lead = "Incognito message, not remembered" if incognito else "Message the assistant"
        self.composer.edit.set_hint(lead, hint)

    # --- one turn ---
    def add_user_message(self, text: str) -> MessageView:
        bubble = self._add_bubble("user", text)
        self._at_bottom = True
        return bubble

    def begin_reply(self, status: str = "Thinking…") -> MessageView:
        self.streaming = self._add_bubble("assistant", "")
        self.streaming.version_switcher.figures = self._earlier_figures
        self._earlier_figures = {}
        self.streaming.set_streaming(True)
        self.streaming.set_status(status)
        self._stream_text = ""
        self._pending = []
        self._flush_timer.start()
        self.set_busy(True)
        return self.streaming

    @Slot(object)
    def append_piece(self, piece: str) -> None:
        """Buffer one streamed piece; the timer draws it."""
        self._pending.append(piece)

    @Slot()
    def flush(self) -> None:
        if not self._pending or self.streaming is None:
            return
        self._stream_text += "".join(self._pending)
        self._pending.clear()
        self.streaming.stream_text(self._stream_text)
        self.streaming.set_status("Writing…")

    def set_reply_status(self, status: str) -> None:
        if self.streaming is not None:
            self.streaming.set_status(status)

    def end_reply(self, reply: Reply | None, index: int | None = None) -> None:
        """The reply is complete (``None``, or empty and not stopped: it produced no text and
        is removed; stopped before its first word, it stays, saying so). ``index``: its place
        in the conversation's messages."""
        self.flush()
        self._stop_flushing()
        bubble, self.streaming = self.streaming, None
        if bubble is not None:
            stopped = reply is not None and reply.result.cancelled
            versions = reply.versions if reply is not None else None
            shown = versions.text if versions is not None else reply.text if reply else ""
            if reply is None or not (shown or stopped):
                self._remove(bubble)
            elif not shown:
                bubble.set_streaming(False)
                bubble.set_reply(reply)
                bubble.set_status("Stopped before the first word · Regenerate to try again")
            else:
                bubble.set_streaming(False)
                if bubble.text != shown:
                    bubble.set_text(shown)
                bubble.set_reply(reply)
                bubble.message_index = index
                if versions is not None:
                    bubble.set_versions(versions)
                if not reply.text:  # a regenerated reply stopped at once: the earlier stays
                    bubble.set_status("Stopped before the first word · kept the earlier version")
        self.set_busy(False)

    def drop_last_exchange(self, *, keep_user: bool) -> None:
        """Remove the last reply, and unless ``keep_user`` the message it answered."""
        self._drop_errors()
        while self.bubbles and self.bubbles[-1].role == "assistant":
            if keep_user:  # regenerated: the new card keeps what was shown of the versions
                self._earlier_figures = self.bubbles[-1].version_switcher.figures
            self._remove(self.bubbles[-1])
        if not keep_user and self.bubbles and self.bubbles[-1].role == "user":
            self._remove(self.bubbles[-1])

    def show_error(self, message: str) -> None:
        bubble = self._add_bubble("error", message)
        bubble.role_label.setText("Could not answer")

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.composer.set_busy(busy)
        self.refresh_actions()

    def refresh_actions(self) -> None:
        real = [b for b in self.bubbles if b.role != "error"]
        last_user = next((b for b in reversed(real) if b.role == "user"), None)
        last_reply = real[-1] if real and real[-1].role == "assistant" else None
        for bubble in real:
            bubble.set_last(bubble is last_user or bubble is last_reply, self.busy)
        self._update_empty()

    def highlight_message(self, user_text: str, words: str = "") -> MessageView | None:
        """Frame the user's message ``user_text`` (and ``words`` in it) and scroll to it."""
        for bubble in self.bubbles:
            bubble.clear_highlight()
        target = next(
            (b for b in self.bubbles if b.role == "user" and b.text.strip() == user_text.strip()),
            None,
        )
        if target is None:
            return None
        target.highlight(words)
        self._at_bottom = False
        holder = target.holder  # type: ignore[attr-defined]
        QTimer.singleShot(0, lambda: self.scroll.ensureWidgetVisible(holder, 0, 60))
        return target

    def last_reply_view(self) -> MessageView | None:
        return next((b for b in reversed(self.bubbles) if b.role == "assistant"), None)

    # --- internals ---
    def _add_bubble(self, role: str, text: str) -> MessageView:
        self._drop_errors()
        bubble = MessageView(role, text, incognito=self.incognito, parent=self.body)
        bubble.message_did_request_edit.connect(self.edit_did_request)
        bubble.message_did_request_regenerate.connect(self.regenerate_did_request)
        bubble.message_did_request_copy.connect(self.text_did_copy)
        bubble.memory_lens_did_open.connect(self.memory_lens_did_open)
        bubble.memory_did_request_inspect.connect(self.memory_did_request_inspect)
        bubble.memory_did_request_exclude.connect(self.memory_did_request_exclude)
        bubble.reply_did_rate.connect(self.reply_did_rate)
        bubble.reply_did_request_version.connect(
            lambda version, b=bubble: self.reply_version_did_request.emit(b.message_index, version)
        )
        holder = QWidget(self.body)
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        if role == "user":  # the user's bubbles sit on the right, narrower
            row.addStretch(1)
            row.addWidget(bubble, 5)
        else:
            row.addWidget(bubble)
        bubble.holder = holder  # type: ignore[attr-defined]
        self.column.insertWidget(self.column.count() - 1, holder)
        self.bubbles.append(bubble)
        bubble.set_compact(self._compact())
        self._update_empty()
        return bubble

    def _compact(self) -> bool:
        """Too narrow for the bubbles' action labels (a panel open in a small window)."""
        room = min(self.scroll.viewport().width(), COLUMN_WIDTH) - 40  # the body's margins
        return room < COMPACT_BELOW

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        compact = self._compact()
        for bubble in self.bubbles:
            bubble.set_compact(compact)

    def _remove(self, bubble: MessageView) -> None:
        if bubble in self.bubbles:
            self.bubbles.remove(bubble)
        holder = bubble.holder  # type: ignore[attr-defined]
        self.column.removeWidget(holder)
        holder.hide()
        holder.deleteLater()
        self._update_empty()

    def _drop_errors(self) -> None:
        for bubble in [b for b in self.bubbles if b.role == "error"]:
            self._remove(bubble)

    def _stop_flushing(self) -> None:
        self._flush_timer.stop()
        self._pending.clear()

    def _update_empty(self) -> None:
        has_messages = bool(self.bubbles)
        self.scroll.setVisible(has_messages)
        self.empty.setVisible(not has_messages)

    @Slot(int)
    def _note_position(self, value: int) -> None:
        bar = self.scroll.verticalScrollBar()
        self._at_bottom = value >= bar.maximum() - 24

    @Slot(int, int)
    def _follow(self, _minimum: int, maximum: int) -> None:
        """Keep the newest text in view while it streams, unless the user scrolled up."""
        if self._at_bottom:
            self.scroll.verticalScrollBar().setValue(maximum)
