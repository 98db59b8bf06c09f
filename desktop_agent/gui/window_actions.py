"""The main window's actions, toolbar and menus (a part of MainWindow, kept apart for size)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QSizePolicy, QToolBar, QToolButton, QWidget

from desktop_agent.gui.theme import icon
from desktop_agent.gui.workers import run_in_background


class WindowActions:
    """Mixed into MainWindow: every command has one QAction, with its shortcut and icon."""

    # Provided by MainWindow.
    chat: Any
    controller: Any
    conversations: Any
    conversations_dock: Any

    def _action(
        self, text: str, slot, shortcut=None, icon_name: str = "", tip: str = ""
    ) -> QAction:  # noqa: ANN001
        action = QAction(text, self)
        if shortcut is not None:
            keys = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(k) for k in keys])
        if icon_name:
            action.setIcon(icon(icon_name))
            action.setProperty("icon_name", icon_name)
        if tip:
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)  # shortcuts work even when the menu bar is hidden
        return action

    def _build_actions(self) -> None:
        keys = QKeySequence.StandardKey
        self.new_action = self._action(
            "&New chat", self.new_chat, "Ctrl+N", "new-chat", "New chat (Ctrl+N)"
        )
        self.incognito_action = self._action(
            "New &incognito chat", self.new_incognito_chat, "Ctrl+Shift+N", "incognito"
        )
        self.settings_action = self._action(
            "&Settings…",
            self.open_settings,
            ["Ctrl+,", keys.Preferences],
            "settings",
            "Settings (Ctrl+,)",
        )
        self.export_action = self._action(
            "&Export conversation…", self.export_conversation, "Ctrl+Shift+S", "export"
        )
        self.quit_action = self._action("&Quit", self.close, keys.Quit)
        self.send_action = self._action(
            "&Send", self.chat.composer.submit, ["Ctrl+Return", "Ctrl+Enter"], "send"
        )
        self.stop_action = self._action("S&top", self.stop_or_cancel, "Esc", "stop")
        self.regenerate_action = self._action(
            "&Regenerate", self.controller.regenerate, "Ctrl+Shift+R", "regenerate"
        )
        self.edit_action = self._action(
            "&Edit last message", self.controller.start_edit, "Ctrl+Shift+E", "edit"
        )
        self.copy_action = self._action(
            "&Copy last reply", self.copy_last_reply, "Ctrl+Shift+C", "copy"
        )
        self.rename_action = self._action(
            "Re&name conversation", self.conversations.rename_current, "F2", "rename"
        )
        self.delete_action = self._action(
            "&Delete conversation…", self.conversations.delete_current, "Ctrl+Shift+Del", "delete"
        )
        self.search_action = self._action(
            "&Find conversation", self._focus_search, keys.Find, "search"
        )
        self.composer_action = self._action("Focus message box", self._focus_composer, "Ctrl+L")
        self.zoom_in_action = self._action(
            "&Larger text", lambda: self.change_text_size(+1), [keys.ZoomIn, "Ctrl+="]
        )
        self.zoom_out_action = self._action(
            "&Smaller text", lambda: self.change_text_size(-1), keys.ZoomOut
        )
        self.zoom_reset_action = self._action(
            "&Actual text size", lambda: self.change_text_size(0), "Ctrl+0"
        )
        self.shortcuts_action = self._action(
            "&Keyboard shortcuts", self.show_shortcuts, ["F1", keys.HelpContents]
        )
        self.instructions_action = self._action(
            "&Instructions for this chat…", self.edit_chat_instructions, None, "edit"
        )

    def edit_chat_instructions(self) -> None:
        """This chat's own instructions, instead of the ones in Settings (empty: those)."""
        from PySide6.QtWidgets import QInputDialog

        conversation = self.controller.conversation
        if conversation is None:
            self.statusBar().showMessage("Start a chat first: instructions belong to a chat.", 5000)
            return
        text, ok = QInputDialog.getMultiLineText(
            self,
            "Instructions for this chat",
            "How should the assistant answer in this chat? Leave empty to use the ones in "
            "Settings.",
            conversation.instructions,
        )
        if ok:
            conversation.instructions = text.strip()  # followed at once; stored off this thread
            chosen, chat_id, assistant = text.strip(), conversation.id, self.session.assistant
            run_in_background(
                lambda: assistant.set_instructions(chat_id, chosen),
                on_error=lambda error: self.statusBar().showMessage(
                    f"Could not keep these instructions: {error}", 8000
                ),
                name="chat-instructions",
                lane="memory",
                owner=self,
            )
            shown = (
                "this chat's own instructions" if text.strip() else "the instructions in Settings"
            )
            self.statusBar().showMessage(f"This chat now follows {shown}.", 5000)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Main toolbar", self)
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setIconSize(QSize(18, 18))
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.addAction(self.new_action)
        self.incognito_button = QToolButton(objectName="incognitoToggle", checkable=True)
        self.incognito_button.setText("Incognito")
        self.incognito_button.setToolTip(
            "Incognito chat: nothing from it is remembered (Ctrl+Shift+N)"
        )
        self.incognito_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.incognito_button.toggled.connect(self._incognito_toggled)
        bar.addWidget(self.incognito_button)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        bar.addAction(self.settings_action)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.toolbar = bar
        self._retint()

    def _build_menus(self) -> None:
        menus = self.menuBar()
        file_menu = menus.addMenu("&File")
        for action in (self.new_action, self.incognito_action):
            file_menu.addAction(action)
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        chat_menu = menus.addMenu("&Chat")
        for action in (
            self.send_action,
            self.stop_action,
            self.regenerate_action,
            self.edit_action,
            self.copy_action,
        ):
            chat_menu.addAction(action)
        chat_menu.addSeparator()
        for action in (self.rename_action, self.delete_action, self.search_action):
            chat_menu.addAction(action)
        chat_menu.addAction(self.instructions_action)
        self.view_menu = menus.addMenu("&View")
        self.view_menu.addAction(self.conversations_dock.toggleViewAction())
        self.view_menu.addAction(self.toolbar.toggleViewAction())
        self.view_menu.addSeparator()
        for action in (self.zoom_in_action, self.zoom_out_action, self.zoom_reset_action):
            self.view_menu.addAction(action)
        help_menu = menus.addMenu("&Help")
        help_menu.addAction("&Welcome", self.show_welcome)
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction("&Diagnostics…", self._diagnostics)
        help_menu.addAction("&About desktop-agent", self._about)
