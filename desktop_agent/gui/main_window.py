"""The main window: conversations on the left, the chat in the middle, and the memory panels
(inspector, timeline, what I know) docked on the right, each toggled from the toolbar."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from desktop_agent.core.assistant import Reply
from desktop_agent.errors import UserError
from desktop_agent.gui.chat_controller import ChatController
from desktop_agent.gui.chat_view import ChatView
from desktop_agent.gui.conversation_list import ConversationListPanel
from desktop_agent.gui.memory_docks import MemoryDocks
from desktop_agent.gui.session import Session
from desktop_agent.gui.settings_dialog import SettingsDialog
from desktop_agent.gui.status_bar import StatusBar
from desktop_agent.gui.theme import app_icon, current_theme, icon, theme_signals
from desktop_agent.gui.window_actions import WindowActions
from desktop_agent.gui.window_help import WindowHelp
from desktop_agent.gui.window_layout import WindowLayout
from desktop_agent.llm.types import EngineInfo

# How far Ctrl+= / Ctrl+- move the chat's text from the system size, in points.
TEXT_SIZE_MIN_DELTA, TEXT_SIZE_MAX_DELTA = -4, 12
CHAT_MIN_WIDTH = 340


class MainWindow(WindowActions, MemoryDocks, WindowLayout, WindowHelp, QMainWindow):
    """The app's window. ``memory_lens_did_open(memories)`` fires when the user opens the
    memory lens under a reply (for the memory inspector to show them)."""

    memory_lens_did_open = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("desktop-agent")
        self.setWindowIcon(app_icon())
        self.setObjectName("mainWindow")
        self.setDockOptions(
            QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks
        )
        self.gui_settings = QSettings(
            str(session.app.paths.config_dir / "gui.ini"), QSettings.Format.IniFormat
        )
        self.chat = ChatView(self)
        self.setCentralWidget(self.chat)
        # The chat stays usable beside an open panel, even at 800x600: the dock gives way.
        self.chat.setMinimumWidth(CHAT_MIN_WIDTH)
        self.controller = ChatController(session.assistant, self.chat, self)
        self.conversations = ConversationListPanel(session.assistant, self)
        self.conversations_dock = self._dock("Conversations", self.conversations, floatable=False)
        self.status = StatusBar(self)
        self.setStatusBar(self.status)
        self._speed_timer = QTimer(self, interval=500)
        self._speed_timer.timeout.connect(self._show_live_speed)
        self._build_actions()
        self._build_toolbar()
        self._build_menus()
        self._build_memory_panels()
        self._connect()
        self._restore_layout()
        self.text_size_delta = int(self.gui_settings.value("view/text_size_delta", 0) or 0)
        self._apply_text_size()
        if not self.gui_settings.value("welcome/shown", False, type=bool):
            QTimer.singleShot(0, self.show_welcome)  # once the window is on screen
        self._open_first_conversation()
        self._show_settings_state()

    # --- building ---
    def _connect(self) -> None:
        session, controller = self.session, self.controller
        session.loading_did_change.connect(self.status.set_loading)
        session.loading_did_change.connect(self._show_settings_state)
        session.model_did_load.connect(self._model_loaded)
        session.model_did_fail.connect(self._model_failed)
        session.settings_did_change.connect(self._show_settings_state)
        self.conversations.conversation_did_select.connect(self.open_conversation)
        self.conversations.conversation_did_request_new.connect(self.new_chat)
        self.conversations.conversation_did_delete.connect(self._conversation_deleted)
        self.conversations.panel_did_fail.connect(self._show_message)
        controller.conversation_did_change.connect(self._conversation_changed)
        controller.generation_did_start.connect(self._generation_started)
        controller.message_did_send.connect(self.conversations.set_pending_title)
        controller.generation_did_end.connect(self._generation_ended)
        controller.controller_did_fail.connect(self._show_message)
        self.chat.memory_lens_did_open.connect(self.memory_lens_did_open)
        self.chat.memory_did_request_inspect.connect(self.show_memory)
        self.chat.memory_did_request_exclude.connect(self.exclude_memory)
        self.chat.reply_did_rate.connect(self.rate_reply)
        self.inspector.inspector_did_request_source.connect(self.open_source)
        self.timeline.timeline_did_request_open.connect(self.open_exchange)
        self.timeline.timeline_did_forget.connect(self._conversation_forgotten)
        self.profile.profile_did_request_inspect.connect(self.show_memory)
        for panel in (self.inspector, self.timeline, self.profile):
            panel.panel_did_report.connect(self._show_message)
        session.memory_did_open.connect(self._memory_state_changed)
        session.memory_did_fail.connect(self._memory_state_changed)
        session.memory_did_lock.connect(self._memory_state_changed)
        session.memory_did_need_passphrase.connect(self.ask_memory_passphrase)
        session.memory_did_change.connect(self._memory_changed)
        self.conversations.conversation_did_forget.connect(self._conversation_receipt)
        self.chat.text_did_copy.connect(lambda _t: self.status.showMessage("Copied", 2000))
        theme_signals().theme_did_change.connect(self._retint)

    @Slot(object)
    def _memory_changed(self, change: object) -> None:
        """Messages were forgotten or had words erased (a conversation, everything, or what a
        fact was learned from): the sidebar must not keep their titles, nor the chat on screen,
        the memory lens or the next prompt their words."""
        receipt = getattr(change, "receipt", None)
        if receipt is None or not self.session.memory.is_open:
            return
        rewrites = self.session.assistant.take_forget(receipt)
        self.controller.take_forget(rewrites)
        for conversation_id in rewrites.conversations:
            self.conversations.model.pending_titles.pop(conversation_id, None)
            self.conversations.model.title_changed(conversation_id)
        if "episodic" not in receipt.kinds:
            return
        conversation = self.controller.conversation
        if (
            conversation is not None
            and conversation.messages
            and not conversation.incognito
            and self.session.assistant.memory_enabled  # else its turns were never remembered
            and not self.session.memory.episodes(conversation.id)
        ):
            self.new_chat()
        self.conversations.refresh_in_background()

    # --- conversations ---
    def _open_first_conversation(self) -> None:
        existing = self.session.assistant.conversations()
        if existing:
            self.open_conversation(existing[0].id)
        else:
            self.new_chat()

    @Slot()
    def new_chat(self) -> None:
        self._new(incognito=False)

    @Slot()
    def new_incognito_chat(self) -> None:
        self._new(incognito=True)

    def _new(self, *, incognito: bool) -> None:
        current = self.controller.conversation
        if current is not None and not current.messages and not self.controller.busy:
            if current.incognito == incognito:  # already on a fresh chat of that kind
                self._focus_composer()
                return
            self.conversations.delete(current.id, confirm=False)
        conversation = self.controller.new_conversation(incognito=incognito)
        # Added, not re-read: re-reading rebuilds remembered conversations from the vault.
        self.conversations.model.add(conversation)
        self.conversations.select(conversation.id)
        self._sync_incognito()
        self._focus_composer()

    @Slot(str)
    def open_conversation(self, conversation_id: str) -> None:
        self.controller.open(conversation_id)
        self.conversations.select(conversation_id)
        self._sync_incognito()

    @Slot(str)
    def _conversation_deleted(self, conversation_id: str) -> None:
        was_current = (
            self.controller.conversation is not None
            and self.controller.conversation.id == conversation_id
        )
        self.controller.forget(conversation_id)
        if was_current:
            self._open_first_conversation()

    @Slot(str)
    def _conversation_changed(self, conversation_id: str) -> None:
        self.conversations.model.title_changed(conversation_id)
        self.conversations.refresh_in_background(select_id=conversation_id)

    @Slot(bool)
    def _incognito_toggled(self, checked: bool) -> None:
        current = self.controller.conversation
        if current is None or current.incognito != checked:
            self._new(incognito=checked)

    def _sync_incognito(self) -> None:
        incognito = bool(self.controller.conversation and self.controller.conversation.incognito)
        self.incognito_button.blockSignals(True)
        self.incognito_button.setChecked(incognito)
        self.incognito_button.blockSignals(False)
        theme = current_theme()
        self.incognito_button.setIcon(
            icon("incognito", theme.incognito_text if incognito else theme.text)
        )
        self.status.set_memory(
            self.session.settings.memory.enabled,
            incognito,
            problem=None if self.session.memory.is_open else self.session.memory_problem,
            opening=self.session.memory_opening,
        )

    # --- turns ---
    @Slot()
    def stop_or_cancel(self) -> None:
        if self.controller.busy:
            self.controller.stop()
        else:
            self.chat.composer.cancel_edit()

    @Slot()
    def _generation_started(self) -> None:
        self.status.set_speed(None, "Generating…")
        self._enable_turn_actions(False)
        self._speed_timer.start()

    @Slot()
    def _show_live_speed(self) -> None:
        self.status.set_speed(self.controller.live_speed(), "Generating…")

    @Slot(object)
    def _generation_ended(self, reply: Reply | None) -> None:
        self._speed_timer.stop()
        self._enable_turn_actions(True)
        if reply is None:
            self.status.set_speed(None)
            return
        result = reply.result
        if result.cancelled:
            note = "Stopped"
        elif result.completion_tokens:
            note = f"First token {result.time_to_first_token_s:.2f} s"
        else:
            note = ""  # composed by the core (a command, an answer from memory): no model timing
        self.status.set_speed(result.tokens_per_second, note)
        if self._pending_settings is not None:
            settings, self._pending_settings = self._pending_settings, None
            self._apply_settings(settings)

    def _enable_turn_actions(self, enabled: bool) -> None:
        for action in (self.regenerate_action, self.edit_action, self.settings_action):
            action.setEnabled(enabled)

    @Slot()
    def export_conversation(self, path: Path | None = None) -> Path | None:
        """Write the open conversation to a Markdown or JSON file (asked for when not given);
        the file is plain text, and the dialog says so."""
        from desktop_agent.core.transcript import format_for, render

        conversation = self.controller.conversation
        if conversation is None or not conversation.messages:
            self.status.showMessage(
                "Nothing to export: this conversation has no messages yet", 4000
            )
            return None
        if path is None:
            name = "".join(c if c.isalnum() or c in " -_" else "_" for c in conversation.title)
            chosen, _filter = QFileDialog.getSaveFileName(
                self,
                "Export conversation (the file is not encrypted)",
                str(Path.home() / f"{name.strip() or 'conversation'}.md"),
                "Markdown (*.md);;JSON (*.json)",
            )
            if not chosen:
                return None
            path = Path(chosen)
        fmt = format_for(path.name)
        try:
            path.write_text(render(conversation, fmt), encoding="utf-8")
        except OSError as error:
            # Not modal: the window stays usable while the message is up.
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                "Export failed",
                f"Could not write {path}: {error.strerror}. Nothing was changed.",
                parent=self,
            )
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()
            self.export_problem = box
            return None
        self.status.showMessage(f"Exported to {path}", 5000)
        return path

    @Slot()
    def copy_last_reply(self) -> None:
        view = self.chat.last_reply_view()
        if view is not None:
            QGuiApplication.clipboard().setText(view.text)
            self.status.showMessage("Copied the last reply", 2000)

    # --- model and settings ---
    @Slot(object)
    def _model_loaded(self, info: EngineInfo) -> None:
        self.controller.model_ready = True
        self.status.set_model(
            Path(info.model_path).stem,
            f"{info.model_name}\n{info.model_path}\n"
            f"context {info.n_ctx} tokens · {info.n_threads} threads",
        )
        self.chat.set_reply_status("Thinking…")
        if self.session.app.model_fallback:
            # The chosen model could not load: say so where it stays visible, and how to fix it
            self.model_notice = f"{self.session.app.model_fallback}. Choose another in Settings."
            self.status.showMessage(self.model_notice, 15_000)

    model_notice = ""

    @Slot(str)
    def _model_failed(self, message: str) -> None:
        self.status.set_model("No model")
        QMessageBox.warning(self, "The model could not be loaded", message)

    _pending_settings = None

    @Slot()
    def open_settings(self, page: str = "") -> None:
        dialog = SettingsDialog(self.session.settings, self, session=self.session)
        if page == "models":
            dialog.tabs.setCurrentWidget(dialog.models_panel)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            settings = dialog.result_settings()
            if self.controller.busy:  # apply once the turn has stopped
                self._pending_settings = settings
                self.controller.stop()
            else:
                self._apply_settings(settings)

    def _apply_settings(self, settings) -> None:  # noqa: ANN001
        try:
            reloading = self.session.apply_settings(settings)
        except (OSError, UserError) as error:
            self._show_message(f"Settings not saved: {error}")
            return
        if reloading:
            self.controller.model_ready = False
            self.status.set_model("Loading…")
        self.status.showMessage("Settings saved", 3000)

    @Slot()
    def _show_settings_state(self, *_: object) -> None:
        self._sync_incognito()

    # --- misc ---
    @Slot(str)
    def _show_message(self, message: str) -> None:
        self.status.showMessage(message, 6000)

    @Slot()
    def _focus_composer(self) -> None:
        self.chat.composer.edit.setFocus()

    @Slot()
    def _focus_search(self) -> None:
        self.conversations_dock.show()
        self.conversations.search.setFocus()
        self.conversations.search.selectAll()

    @Slot()
    def _retint(self, *_: object) -> None:
        for action in self.actions():
            name = action.property("icon_name")
            if name:
                action.setIcon(icon(name))
        self._sync_incognito()
        self.status.retint()

    # --- text size ---
    def change_text_size(self, step: int) -> None:
        """Ctrl+= / Ctrl+- / Ctrl+0: the chat's text a point larger, smaller, or as the
        system has it; remembered across restarts."""
        delta = 0 if step == 0 else self.text_size_delta + step
        self.text_size_delta = max(TEXT_SIZE_MIN_DELTA, min(TEXT_SIZE_MAX_DELTA, delta))
        self.gui_settings.setValue("view/text_size_delta", self.text_size_delta)
        self._apply_text_size()
        self.status.showMessage(
            "Text size: as the system has it"
            if self.text_size_delta == 0
            else f"Text size: {self.text_size_delta:+d} pt",
            2000,
        )

    def _apply_text_size(self) -> None:
        # A style sheet, not setFont: under the app's style sheet fonts do not propagate to
        # styled children. Only the text read and typed grows; labels and buttons keep theirs.
        size = max(6.0, QApplication.font().pointSizeF() + self.text_size_delta)
        self.chat.setStyleSheet(
            ""
            if self.text_size_delta == 0
            else f"QTextBrowser#bubbleText, QPlainTextEdit#composer {{ font-size: {size:g}pt; }}"
        )

    # --- layout ---
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._regrow_conversations)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.inspector.inbox.commit_rejects()  # a Reject still waiting for Undo is meant
        self.save_layout()
        self.controller.stop()
        super().closeEvent(event)
