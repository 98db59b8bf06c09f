"""Asks for a backup passphrase: typed twice when it protects a new backup."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

MIN_LENGTH = 8


class PassphraseDialog(QDialog):
    """``confirm=True``: the passphrase is typed twice and must be at least 8 characters."""

    def __init__(self, title: str, text: str, *, confirm: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.confirm = confirm
        layout = QVBoxLayout(self)
        intro = QLabel(text)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.first_edit = QLineEdit(echoMode=QLineEdit.EchoMode.Password)
        self.second_edit = QLineEdit(echoMode=QLineEdit.EchoMode.Password)
        form.addRow("Passphrase:", self.first_edit)
        if confirm:
            form.addRow("Repeat it:", self.second_edit)
        layout.addLayout(form)
        self.error_label = QLabel(objectName="errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)

    @property
    def passphrase(self) -> str:
        return self.first_edit.text()

    def problem(self) -> str:
        if not self.passphrase:
            return "Type a passphrase."
        if self.confirm and len(self.passphrase) < MIN_LENGTH:
            return f"Use at least {MIN_LENGTH} characters."
        if self.confirm and self.second_edit.text() != self.passphrase:
            return "The two passphrases differ."
        return ""

    @Slot()
    def accept(self) -> None:
        problem = self.problem()
        if problem:
            self.error_label.setText(problem)
            self.error_label.show()
            return
        super().accept()


def ask_passphrase(parent: QWidget | None, title: str, text: str, *, confirm: bool) -> str | None:
    dialog = PassphraseDialog(title, text, confirm=confirm, parent=parent)
    return dialog.passphrase if dialog.exec() == QDialog.DialogCode.Accepted else None
