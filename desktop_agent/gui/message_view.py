"""One message in the transcript: a bubble with Markdown text, its actions, and (for replies)
the memory lens that shows which memories went into it."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor, QGuiApplication, QTextCharFormat
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.assistant import Reply
from desktop_agent.core.reply_versions import ReplyVersions
from desktop_agent.gui.markdown_text import MarkdownText, hard_line_breaks, stable_prefix_length
from desktop_agent.gui.memory_lens import MemoryLens
from desktop_agent.gui.theme import current_theme, icon
from desktop_agent.gui.version_switcher import VersionSwitcher

# Re-exported: tests and older imports find the Markdown view and its helpers here.
__all__ = ["MarkdownText", "MessageView", "hard_line_breaks", "stable_prefix_length"]

# Learned memories named in a reply's "Memory updated" note; the rest are counted.
MAX_LEARNED_SHOWN = 3


class MessageView(QFrame):
    """A chat bubble. ``role`` is "user", "assistant" or "error"."""

    message_did_request_copy = Signal(str)
    message_did_request_edit = Signal()
    message_did_request_regenerate = Signal()
    memory_lens_did_open = Signal(object)
    memory_did_request_inspect = Signal(str)
    memory_did_request_exclude = Signal(str)
    reply_did_rate = Signal(str, bool)  # the reply's episode id, thumbs up
    reply_did_request_version = Signal(int)  # after Regenerate: the version to show, from 0

    def __init__(
        self, role: str, text: str, *, incognito: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.role = role
        self._said = text if role == "user" else ""
        self.incognito = incognito
        self.reply: Reply | None = None
        self.message_index: int | None = None  # a reply's place in the conversation's messages
        self.memories: tuple[Any, ...] | None = None  # Recollections, once known
        self.streaming = False
        self._lens: MemoryLens | None = None
        self.setObjectName(
            {"user": "bubbleUser", "assistant": "bubbleAssistant"}.get(role, "bubbleError")
        )
        # Preferred, not Maximum: the memory lens wraps its lines, and a Maximum policy would cap
        # the bubble at the height it had when it was wider.
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self._build()
        self.set_text(text)

    def _build(self) -> None:
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(14, 10, 14, 8)
        self.layout_.setSpacing(4)
        header = QHBoxLayout()
        names = {"user": "You", "assistant": "Assistant", "error": "Something went wrong"}
        self.role_label = QLabel(names.get(self.role, self.role), objectName="bubbleRole")
        self.stats_label = QLabel("", objectName="bubbleStats")
        header.addWidget(self.role_label)
        header.addStretch(1)
        header.addWidget(self.stats_label)
        self.layout_.addLayout(header)

        self.text_view = MarkdownText(self)
        self.text_view.code_did_request_copy.connect(self.message_did_request_copy)
        self.layout_.addWidget(self.text_view)
        # While streaming, the paragraph being written renders here, so each timer tick
        # re-renders one paragraph, not the whole reply.
        self.tail_view = MarkdownText(self)
        self.tail_view.hide()
        self.layout_.addWidget(self.tail_view)
        self._stable = ""

        self.actions = QHBoxLayout()
        self.actions.setSpacing(2)
        self.copy_button = self._action("copy", "Copy", "Copy this message as Markdown")
        self.copy_button.clicked.connect(self._copy)
        self.edit_button = self._action("edit", "Edit", "Edit and resend your last message")
        self.edit_button.clicked.connect(self.message_did_request_edit)
        self.regenerate_button = self._action(
            "regenerate", "Regenerate", "Answer this message again (Ctrl+Shift+R)"
        )
        self.regenerate_button.clicked.connect(self.message_did_request_regenerate)
        self.lens_button = QToolButton(objectName="memoryLensButton", checkable=True)
        self.lens_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.lens_button.setToolTip("Show the memories this reply used")
        self.lens_button.toggled.connect(self._toggle_lens)
        self.lens_button.hide()
        self.version_switcher = VersionSwitcher(self)
        self.version_switcher.version_did_request.connect(self._show_version)
        self.actions.addWidget(self.version_switcher)
        self.actions.addWidget(self.lens_button)
        self.actions.addStretch(1)
        self.thumbs_up = self._action("thumbs-up", "", "Good reply: answer like this more often")
        self.thumbs_down = self._action("thumbs-down", "", "Bad reply: answer like this less often")
        for thumb, positive in ((self.thumbs_up, True), (self.thumbs_down, False)):
            thumb.setCheckable(True)
            thumb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
            thumb.clicked.connect(lambda _c=False, p=positive: self._rate(p))
            thumb.hide()
            self.actions.addWidget(thumb)
        for button in (self.copy_button, self.edit_button, self.regenerate_button):
            self.actions.addWidget(button)
        self.edit_button.hide()
        self.regenerate_button.hide()
        if self.role == "error":
            self.copy_button.hide()
        self.layout_.addLayout(self.actions)

    def _action(self, icon_name: str, text: str, tip: str) -> QToolButton:
        button = QToolButton(objectName="bubbleAction", text=text, toolTip=tip)
        button.setIcon(icon(icon_name, current_theme().muted))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setAutoRaise(True)
        return button

    def retint(self) -> None:
        """Redraw with the current theme's colours (code backgrounds, icons)."""
        muted = current_theme().muted
        for button, name in (
            (self.copy_button, "copy"),
            (self.edit_button, "edit"),
            (self.regenerate_button, "regenerate"),
            (self.thumbs_up, "thumbs-up"),
            (self.thumbs_down, "thumbs-down"),
        ):
            button.setIcon(icon(name, muted))
        self.lens_button.setIcon(icon("memory", current_theme().accent))
        self.version_switcher.retint()
        self.set_text(self.text)

    # --- content ---
    @property
    def text(self) -> str:
        if self.streaming:
            return self._stable + self.tail_view.markdown
        if self.role == "user":
            return self._said
        return self.text_view.markdown

    def set_text(self, text: str) -> None:
        if self.role == "user":
            # What the user typed keeps its lines (Shift+Enter): in Markdown a lone newline
            # would join them into one paragraph.
            self._said = text
            self.text_view.set_markdown(hard_line_breaks(text))
            return
        self.text_view.set_markdown(text)

    def stream_text(self, text: str) -> None:
        """Show a reply that is still growing: finished paragraphs render once, the last one
        on every call."""
        cut = stable_prefix_length(text)
        stable, tail = text[:cut], text[cut:]
        if stable != self._stable:
            self._stable = stable
            self.text_view.set_markdown(stable)
            self.text_view.setVisible(bool(stable))
        self.tail_view.set_markdown(tail)
        self.tail_view.setVisible(bool(tail.strip()))

    def set_status(self, status: str) -> None:
        self.stats_label.setText(status)

    def set_streaming(self, streaming: bool) -> None:
        if self.streaming and not streaming:  # back to one view with the whole text
            self.set_text(self._stable + self.tail_view.markdown)
            self.tail_view.hide()
            self.text_view.show()
        self.streaming = streaming
        self.copy_button.setVisible(not streaming and self.role != "error")
        if streaming:
            self.regenerate_button.hide()
            if self.memories is None:
                self.lens_button.hide()

    def set_reply(self, reply: Reply) -> None:
        """Show the reply's figures and its memory lens button."""
        self.reply = reply
        self.memories = reply.memories_used
        result = reply.result
        if reply.versions is None and not reply.memories_used and not result.completion_tokens:
            # A command's answer ("Forgotten: ..."): no model wrote it, no memory shaped it,
            # so neither "0 tokens" nor "used 0 memories".
            self.set_status("")
            return
        if result.finish_reason == "memory":
            parts = ["answered from memory"]
        else:
            parts = [f"{result.completion_tokens} tokens"]
        if result.tokens_per_second:
            parts.append(f"{result.tokens_per_second:.1f} tok/s")
        if result.cancelled:
            parts.append("stopped")
        self.set_status(" · ".join(parts))
        if reply.versions is not None and reply.text:
            self.version_switcher.figures[reply.versions.chosen] = (
                self.stats_label.text(),
                reply.memories_used,
            )
        self._show_lens_button("used")
        if reply.episode_id is not None and result.finish_reason != "memory":
            self.thumbs_up.show()
            self.thumbs_down.show()
        if reply.thinking:
            self._show_thinking(reply.thinking)
        if reply.learned:
            self._show_learned(reply.learned)

    def _show_learned(self, learned: tuple[Any, ...]) -> None:
        """ "Memory updated: User lives in Oslo": what this turn taught, each a link to it in
        the inspector (where it can be corrected or forgotten)."""
        accent = current_theme().accent
        links = ", ".join(
            f'<a href="memory:{item.id}" style="color:{accent}; text-decoration:none;">'
            f"{html.escape(item.text)}</a>"
            for item in learned[:MAX_LEARNED_SHOWN]
        )
        more = len(learned) - MAX_LEARNED_SHOWN
        if more > 0:
            links += f" and {more} more"
        self.learned_label = QLabel(f"Memory updated: {links}", objectName="learnedNote")
        self.learned_label.setWordWrap(True)
        self.learned_label.setTextFormat(Qt.TextFormat.RichText)
        self.learned_label.setToolTip("Open in the memory inspector to check, edit or forget it")
        self.learned_label.linkActivated.connect(
            lambda link: self.memory_did_request_inspect.emit(link.removeprefix("memory:"))
        )
        # Under the answer, above the row of actions.
        self.layout_.insertWidget(self.layout_.count() - 1, self.learned_label)
        self.learned_label.show()

    def _show_thinking(self, thinking: str) -> None:
        """A reasoning model's thinking, folded above the answer; a click unfolds it."""
        self.thinking_button = QToolButton(objectName="thinkingToggle", checkable=True)
        self.thinking_button.setText("Show thinking")
        self.thinking_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.thinking_button.setIcon(icon("chevron-right"))
        self.thinking_view = QLabel(thinking, objectName="thinkingText")
        self.thinking_view.setWordWrap(True)
        self.thinking_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.thinking_view.hide()

        def toggle(shown: bool) -> None:
            self.thinking_view.setVisible(shown)
            self.thinking_button.setText("Hide thinking" if shown else "Show thinking")
            self.thinking_button.setIcon(icon("chevron-down" if shown else "chevron-right"))

        self.thinking_button.toggled.connect(toggle)
        # Above the answer: it came first.
        self.layout_.insertWidget(1, self.thinking_button)
        self.layout_.insertWidget(2, self.thinking_view)

    def set_versions(self, versions: ReplyVersions) -> None:
        """Show the chosen one of the reply's versions, with ‹ n/m › when there are several,
        and its figures and memories when this session wrote it."""
        self.version_switcher.set_versions(versions)
        if versions.text and self.text != versions.text:
            self.set_text(versions.text)
        status, memories = self.version_switcher.figures.get(versions.chosen, ("", None))
        self.set_status(status)
        if self._lens is not None and memories is not self.memories:  # another version's
            self.lens_button.setChecked(False)
            self._lens.deleteLater()
            self._lens = None
        self.memories = memories
        if memories is None:
            self.lens_button.hide()
        else:
            self._show_lens_button("used")

    @Slot(int)
    def _show_version(self, version: int) -> None:
        """Shown at once; the controller has the core keep it."""
        if self.version_switcher.versions is not None:
            self.set_versions(self.version_switcher.versions.showing(version))
            self.reply_did_request_version.emit(version)

    def preview_memories(self, memories: tuple[Any, ...]) -> None:
        """While the reply streams: the memories recalled for it are known already."""
        self.memories = memories
        self._show_lens_button("using")

    compact = False

    def set_compact(self, compact: bool) -> None:
        """Narrow: Copy, Edit and Regenerate as icons and the lens button as "used 3", so the
        row of actions fits the bubble (their tooltips say what they do)."""
        self.compact = compact
        style = (
            Qt.ToolButtonStyle.ToolButtonIconOnly
            if compact
            else Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        )
        for button in (self.copy_button, self.edit_button, self.regenerate_button):
            button.setToolButtonStyle(style)
        if self.lens_button.text():
            self._show_lens_button(self.lens_button.text().split()[0])

    def _show_lens_button(self, verb: str) -> None:
        count = len(self.memories or ())
        noun = f"memor{'y' if count == 1 else 'ies'}"
        self.lens_button.setText(f"{verb} {count}" if self.compact else f"{verb} {count} {noun}")
        self.lens_button.setIcon(icon("memory", current_theme().accent))
        self.lens_button.show()

    def set_last(self, last: bool, busy: bool) -> None:
        """Only the last exchange can be edited or regenerated, and not while a reply streams."""
        self.edit_button.setVisible(self.role == "user" and last and not busy)
        # A command's answer ("I'll remember that.") is not regenerated: that would repeat it.
        command = self.reply is not None and self.reply.versions is None
        self.regenerate_button.setVisible(
            self.role == "assistant" and last and not busy and not self.streaming and not command
        )
        self.version_switcher.setEnabled(not busy)

    # --- memory lens ---
    @property
    def lens_open(self) -> bool:
        return self._lens is not None and self._lens.isVisible()

    def open_lens(self, open_: bool = True) -> None:
        self.lens_button.setChecked(open_)

    @Slot(bool)
    def _toggle_lens(self, checked: bool) -> None:
        if checked and self._lens is None and self.memories is not None:
            self._lens = MemoryLens(self.memories, self.incognito, self)
            self._lens.memory_did_request_inspect.connect(self.memory_did_request_inspect)
            self._lens.memory_did_request_exclude.connect(self.memory_did_request_exclude)
            self.layout_.addWidget(self._lens)
        if self._lens is not None:
            self._lens.setVisible(checked)
        if checked and self.memories is not None:
            self.memory_lens_did_open.emit(self.memories)

    @property
    def lens(self) -> MemoryLens | None:
        return self._lens

    # --- highlight (jumping here from a memory's provenance) ---
    def highlight(self, words: str = "") -> None:
        """Frame this bubble, and mark ``words`` in its text if they are there."""
        self.setProperty("highlighted", True)
        self.style().unpolish(self)
        self.style().polish(self)
        selections = []
        if words:
            found = self.text_view.document().find(words)
            if not found.isNull():
                selection = QTextEdit.ExtraSelection()
                selection.cursor = found
                mark = QTextCharFormat()
                mark.setBackground(QColor(current_theme().highlight))
                selection.format = mark
                selections.append(selection)
        self.text_view.setExtraSelections(selections)

    def clear_highlight(self) -> None:
        if self.property("highlighted"):
            self.setProperty("highlighted", False)
            self.style().unpolish(self)
            self.style().polish(self)
            self.text_view.setExtraSelections([])

    def _rate(self, positive: bool) -> None:
        """One verdict per reply (as typed feedback counts once): the chosen thumb stays."""
        reply = self.reply
        if reply is None or reply.episode_id is None:
            return
        chosen, other = (
            (self.thumbs_up, self.thumbs_down) if positive else (self.thumbs_down, self.thumbs_up)
        )
        chosen.setChecked(True)
        chosen.setEnabled(False)
        other.hide()
        chosen.setToolTip("Thanks: noted for how I answer")
        self.reply_did_rate.emit(reply.episode_id, positive)

    @Slot()
    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text)
        self.message_did_request_copy.emit(self.text)
