"""Help -> Diagnostics: what this install is, where its files are, and the end of its log.

The log holds no memory's words (desktop_agent/logs.py), so it can be copied into a bug
report as it is.
"""

from __future__ import annotations

import platform
import sys

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent import __version__
from desktop_agent.health import Check
from desktop_agent.logs import log_file, tail
from desktop_agent.paths import AppPaths

TAIL_LINES = 300


class DiagnosticsDialog(QDialog):
    def __init__(self, paths: AppPaths, model: str, memory: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Diagnostics")
        self.resize(720, 520)
        self.paths = paths
        facts = QFormLayout()
        for label, value in (
            ("Version", f"desktop-agent {__version__}"),
            ("Python", f"{platform.python_version()} ({sys.platform})"),
            ("Qt", f"{qVersion()} (PySide6 {pyside_version}, {QGuiApplication.platformName()})"),
            ("Model", model),
            ("Memory", memory),
            ("Data folder", str(paths.data_dir)),
            ("Log file", str(log_file(paths))),
        ):
            shown = QLabel(value)
            shown.setWordWrap(True)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            facts.addRow(f"{label}:", shown)
        self.checks_label = QLabel("Checking the parts (as `desktop-agent doctor` does)…")
        self.checks_label.setWordWrap(True)
        self.checks_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.log_view = QPlainTextEdit(readOnly=True)
        self.log_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.log_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.copy_button = QPushButton("Copy all")
        self.copy_button.clicked.connect(self.copy_all)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        folder = QPushButton("Open log folder")
        folder.clicked.connect(self.open_folder)
        for button in (self.copy_button, refresh, folder):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addLayout(facts)
        layout.addWidget(self.checks_label)
        layout.addWidget(
            QLabel(f"The last {TAIL_LINES} lines of the log (no memory is ever written there):")
        )
        layout.addWidget(self.log_view, 1)
        layout.addWidget(buttons)
        self._facts = facts
        self.refresh()

    def set_checks(self, checks: list[Check]) -> None:
        """What `doctor` reports, one line per part."""
        marks = {True: "ok", False: "FAIL"}
        lines = [
            f"[{marks[c.ok] if c.ok or c.required else 'warn'}] {c.name}: {c.detail}"
            for c in checks
        ]
        self.checks_label.setText("\n".join(lines))

    def refresh(self) -> None:
        lines = tail(self.paths, TAIL_LINES)
        self.log_view.setPlainText("\n".join(lines) if lines else "The log is empty.")
        bar = self.log_view.verticalScrollBar()
        bar.setValue(bar.maximum())

    def report(self) -> str:
        """The facts and the log tail as one text, for a bug report."""
        rows = []
        for row in range(self._facts.rowCount()):
            label = self._facts.itemAt(row, QFormLayout.ItemRole.LabelRole).widget()
            field = self._facts.itemAt(row, QFormLayout.ItemRole.FieldRole).widget()
            assert isinstance(label, QLabel) and isinstance(field, QLabel)
            rows.append(f"{label.text()} {field.text()}")
        return "\n".join([*rows, "", self.checks_label.text(), "", self.log_view.toPlainText()])

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self.report())
        self.copy_button.setText("Copied")

    def open_folder(self) -> None:
        self.paths.log_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.paths.log_dir)))
