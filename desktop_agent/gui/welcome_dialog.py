"""The first-run welcome: where the data lives, that nothing leaves the machine, whether the
keyring can hold the memory's key, which model answers, and what memory is, in two lines.

Shown once (the window records it); Help > Welcome shows it again. The keyring check can wait
on D-Bus, so the window runs it off the GUI thread and fills it in (``set_keyring``).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.health import Check
from desktop_agent.paths import AppPaths


class WelcomeDialog(QDialog):
    welcome_did_request_models = Signal()
    welcome_did_request_inspector = Signal()

    def __init__(self, paths: AppPaths, model: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Welcome to desktop-agent")
        self.setMinimumWidth(520)
        title = QLabel("<h2>Welcome to desktop-agent</h2>")
        private = self._paragraph(
            "<b>Private by design.</b> The model runs on this computer and nothing you type "
            "leaves it: no account, no cloud, no telemetry. Your memories, settings and logs are "
            f"kept in <code>{html.escape(str(paths.data_dir))}</code>."
        )
        self.keyring_label = self._paragraph("<b>Keyring.</b> Checking your system keyring…")
        self.model_label = self._paragraph(
            f"<b>Model.</b> Replies come from <b>{html.escape(model)}</b>. The bundled model is "
            "small and fast but weak; a larger one from the catalog answers far better if this "
            "computer has the memory for it."
        )
        memory = self._paragraph(
            "<b>Memory.</b> It remembers what you tell it about yourself, encrypted, and shows "
            "which memories shaped each answer. You can check, correct or forget any of them in "
            'the <a href="inspector">memory inspector</a>; forgetting destroys the keys.'
        )
        memory.linkActivated.connect(lambda _link: self._then(self.welcome_did_request_inspector))
        buttons = QDialogButtonBox()
        self.models_button = QPushButton("Choose a model…")
        self.models_button.clicked.connect(lambda: self._then(self.welcome_did_request_models))
        self.start_button = QPushButton("Start chatting")
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.accept)
        buttons.addButton(self.models_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.start_button, QDialogButtonBox.ButtonRole.AcceptRole)
        layout = QVBoxLayout(self)
        layout.setSpacing(12)
        for widget in (title, private, self.keyring_label, self.model_label, memory):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(buttons)

    @staticmethod
    def _paragraph(text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        return label

    def _then(self, signal: Signal) -> None:
        self.accept()
        signal.emit()

    def set_keyring(self, check: Check) -> None:
        """The keyring check's result, in words: fine, or what passphrase mode is for."""
        if check.ok and "passphrase" in check.detail:
            text = (
                "<b>Keyring.</b> Your memory's key is protected by your passphrase (Argon2id). "
                "You will be asked for it when the app starts."
            )
        elif check.ok:
            text = (
                f"<b>Keyring.</b> The memory's key is kept in {html.escape(_friendly(check.detail))}, "
                "unlocked with your login."
            )
        else:
            text = (
                "<b>Keyring.</b> No secure system keyring was found, so memory cannot be "
                "encrypted with one. Start your desktop's keyring (e.g. GNOME Keyring), or use "
                "<b>passphrase mode</b> in Settings › Memory &amp; security: the key is then "
                "derived from a passphrase you type at each start. Until then the assistant "
                "chats but remembers nothing."
            )
        self.keyring_label.setText(text)
        self.keyring_ok = check.ok


_KEYRINGS = {
    "SecretService": "your system keyring (Secret Service: GNOME Keyring or KWallet)",
    "kwallet": "KWallet",
    "macOS": "the macOS Keychain",
    "Windows": "the Windows Credential Locker",
}


def _friendly(backend: str) -> str:
    """keyring.backends.SecretService.Keyring -> words a user knows."""
    for marker, words in _KEYRINGS.items():
        if marker in backend:
            return words
    return backend
