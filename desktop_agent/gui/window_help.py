"""The main window's Help menu: the welcome, keyboard shortcuts, diagnostics and About (a part
of MainWindow, kept apart for size)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Slot, qVersion
from PySide6.QtWidgets import QMessageBox

from desktop_agent.errors import UserError
from desktop_agent.gui.workers import run_in_background


class WindowHelp:
    """Mixed into MainWindow: Help's dialogs, each opened without blocking the window and kept
    as one of its attributes."""

    # Provided by MainWindow.
    session: Any
    gui_settings: Any
    inspector_dock: Any
    open_settings: Any

    @Slot()
    def show_welcome(self) -> None:
        """The first-run welcome (Help > Welcome shows it again)."""
        from desktop_agent.gui.welcome_dialog import WelcomeDialog
        from desktop_agent.health import check_keyring

        self.gui_settings.setValue("welcome/shown", True)
        info = self.session.model_info
        try:
            model = info.model_name if info is not None else self.session.app.model_path().stem
        except UserError:
            model = "no model yet"
        dialog = WelcomeDialog(self.session.app.paths, model, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.welcome_did_request_models.connect(lambda: self.open_settings("models"))
        dialog.welcome_did_request_inspector.connect(self._show_inspector)
        app = self.session.app
        run_in_background(
            lambda: check_keyring(app), on_done=dialog.set_keyring, name="welcome", owner=dialog
        )
        dialog.open()
        self.welcome_dialog = dialog

    def _show_inspector(self) -> None:
        self.inspector_dock.show()
        self.inspector_dock.raise_()

    @Slot()
    def show_shortcuts(self) -> None:
        from desktop_agent.gui.shortcuts_dialog import ShortcutsDialog

        dialog = ShortcutsDialog(self.actions(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.shortcuts_dialog = dialog

    @Slot()
    def _diagnostics(self) -> None:
        from desktop_agent.gui.diagnostics_dialog import DiagnosticsDialog

        info = self.session.model_info
        model = (
            f"{info.model_name} ({info.n_ctx} tokens of context)"
            if info is not None
            else "not loaded"
        )
        memory = self.session.memory
        status = (
            f"unlocked, {len(memory.vault)} memories"
            if memory.is_open
            else (self.session.memory_problem or "locked")
        )
        from desktop_agent.health import run_checks

        dialog = DiagnosticsDialog(self.session.app.paths, model, status, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        app = self.session.app
        run_in_background(
            lambda: run_checks(app, include_model=False),
            on_done=dialog.set_checks,
            name="diagnostics",
            owner=dialog,
        )
        dialog.open()
        self.diagnostics_dialog = dialog

    @Slot()
    def _about(self) -> None:
        from desktop_agent import __version__

        QMessageBox.about(
            self,
            "About desktop-agent",
            f"<b>desktop-agent {__version__}</b><br>A private assistant that runs entirely on "
            "this computer and remembers what you choose to let it remember, encrypted, with "
            "its keys in your system keyring.<br><br>"
            "Licensed under the MIT license.<br><br>"
            "<b>Built with</b><br>"
            f"Qt {qVersion()} and PySide6 (LGPL v3) · llama.cpp and llama-cpp-python (MIT) · "
            "LanceDB and Lance (Apache 2.0) · ONNX Runtime (MIT) · spaCy and en_core_web_sm "
            "(MIT) · cryptography (Apache 2.0 / BSD) · Pygments (BSD)<br><br>"
            "<b>Bundled models</b><br>"
            "SmolLM2-135M-Instruct, Hugging Face (Apache 2.0) · all-MiniLM-L6-v2, "
            "sentence-transformers (Apache 2.0)",
        )
