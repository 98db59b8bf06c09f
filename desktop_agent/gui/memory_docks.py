"""The main window's memory panels: the inspector, the timeline and what-I-know docked on the
right, and what the chat asks of them (a part of MainWindow, kept apart for size)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer, Slot
from PySide6.QtGui import QKeySequence

from desktop_agent.gui import passphrase_dialog
from desktop_agent.gui.memory_detail import Source
from desktop_agent.gui.memory_inspector import MemoryInspector
from desktop_agent.gui.profile_panel import ProfilePanel
from desktop_agent.gui.theme import icon
from desktop_agent.gui.timeline_panel import TimelinePanel


class MemoryDocks:
    """Mixed into MainWindow."""

    # Provided by MainWindow.
    session: Any
    chat: Any
    controller: Any
    conversations: Any
    status: Any
    view_menu: Any
    toolbar: Any
    settings_action: Any
    _regrow_conversations: Any

    def _build_memory_panels(self) -> None:
        session = self.session
        self.inspector = MemoryInspector(session)
        self.timeline = TimelinePanel(session)
        self.profile = ProfilePanel(session)
        self.view_menu.addSeparator()
        self.inspector_dock = self.add_panel("Memory inspector", self.inspector)
        self.timeline_dock = self.add_panel("Timeline", self.timeline)
        self.profile_dock = self.add_panel("What I know", self.profile)
        self.tabifyDockWidget(self.inspector_dock, self.timeline_dock)
        self.tabifyDockWidget(self.timeline_dock, self.profile_dock)
        for dock, name, key, tip in (
            (self.inspector_dock, "memory", "Ctrl+Shift+M", "Memory inspector"),
            (self.timeline_dock, "timeline", "Ctrl+Shift+T", "Episodes timeline"),
            (self.profile_dock, "profile", "Ctrl+Shift+K", "What I know about you"),
        ):
            toggle = dock.toggleViewAction()
            # The panels share one tabbed dock: opened, a panel comes to the front, not behind
            # the tab that was showing.
            toggle.toggled.connect(lambda shown, d=dock: shown and QTimer.singleShot(0, d.raise_))
            # Opened in a small window, the panel makes room for the conversation list.
            dock.visibilityChanged.connect(
                lambda _shown: QTimer.singleShot(0, self._regrow_conversations)
            )
            toggle.setIcon(icon(name))
            toggle.setProperty("icon_name", name)
            toggle.setShortcut(QKeySequence(key))
            toggle.setToolTip(f"{tip} ({key})")
            self.addAction(toggle)
            self.toolbar.insertAction(self.settings_action, toggle)
            dock.hide()
        self.toolbar.insertSeparator(self.settings_action)

    # --- memory ---
    @Slot(str)
    def show_memory(self, memory_id: str) -> None:
        """Open the inspector on one memory (from the lens, the profile, a link)."""
        self.inspector_dock.show()
        self.inspector_dock.raise_()
        self.inspector.select_memory(memory_id)

    @Slot(str)
    def rate_reply(self, episode_id: str, positive: bool) -> None:
        """Thumbs up or down: counted in procedural memory on the memory lane."""
        assistant = self.session.assistant

        def done(_result: object) -> None:
            self.status.showMessage(
                "Thanks: I'll answer more like that"
                if positive
                else "Noted: I'll try another way of answering",
                4000,
            )

        self.session.run_memory(
            lambda _memory: assistant.rate(episode_id, positive),
            on_done=done,
            on_error=lambda error: self.status.showMessage(f"Feedback not saved: {error}", 6000),
            name="rate-reply",
            owner=self,
        )

    def exclude_memory(self, memory_id: str) -> None:
        conversation = self.controller.conversation
        if conversation is None:
            return
        self.session.assistant.exclude_memory(conversation.id, memory_id)
        for bubble in self.chat.bubbles:
            if bubble.lens is not None:
                bubble.lens.mark_excluded(memory_id)
        self.status.showMessage("Excluded: this memory is not used in this conversation", 5000)

    @Slot(object)
    def open_source(self, source: Source) -> None:
        if source.conversation_id:
            self.open_exchange(source.conversation_id, source.user_text, source.words)

    @Slot(str, str)
    def open_exchange(self, conversation_id: str, user_text: str = "", words: str = "") -> None:
        """Show a remembered conversation and frame the user's message ``user_text``."""
        if self.conversations.model.row_of(conversation_id) < 0:
            self.conversations.refresh()
        self.open_conversation(conversation_id)
        if user_text and self.chat.highlight_message(user_text, words) is None:
            self.status.showMessage("That message is no longer in the conversation", 5000)

    @Slot(str)
    def _conversation_forgotten(self, conversation_id: str) -> None:
        self.conversations.model.drop(conversation_id)
        self._conversation_deleted(conversation_id)

    @Slot(object)
    def _conversation_receipt(self, receipt: object) -> None:
        if receipt is not None:
            count = len(receipt.ids)  # type: ignore[attr-defined]
            epoch = receipt.epoch  # type: ignore[attr-defined]
            self.status.showMessage(
                f"Conversation forgotten with what was learned only from it: {count} memories, "
                f"key epoch {epoch}",
                8000,
            )

    @Slot(bool)
    def ask_memory_passphrase(self, creating: bool) -> None:
        """Passphrase mode: ask for it (twice for a new vault), then unlock; cancel leaves
        the app running without memory."""
        text = (
            "Choose a passphrase for your memory vault. It encrypts everything the assistant "
            "remembers; without it nothing can be read, so keep it safe."
            if creating
            else "Your memory vault is locked with a passphrase. Type it to unlock memory."
        )
        passphrase = passphrase_dialog.ask_passphrase(self, "Unlock memory", text, confirm=creating)
        if passphrase is None:
            self._memory_state_changed()
            return
        self.session.open_memory(passphrase)

    @Slot()
    def _memory_state_changed(self, *_: object) -> None:
        if self.session.memory.is_open:
            self.conversations.refresh_in_background()
        self._sync_incognito()
