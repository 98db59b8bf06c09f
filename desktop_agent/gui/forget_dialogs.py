"""Asking before forgetting, and the receipt after: ids, kinds, time and the new key epoch,
never the forgotten text (the receipt must not undo the forgetting)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_service import receipt_touched

if TYPE_CHECKING:  # the GUI does not load the vault's package, only its results
    from desktop_agent.memory.model import ForgetReceipt

TYPED_WORD = "FORGET"


def confirm(parent: QWidget | None, title: str, text: str, action: str = "Forget") -> bool:
    """A Yes/Cancel question whose default is Cancel."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=parent)
    forget = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is forget


class TypedConfirmDialog(QDialog):
    """Forget everything: enabled only once the user has typed FORGET."""

    def __init__(self, count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Forget everything")
        layout = QVBoxLayout(self)
        text = QLabel(
            f"<b>Forget all {count} memories?</b><br>Every memory, episode and strategy is "
            "erased and its keys destroyed. This cannot be undone, and no backup made "
            f"before can bring them back without its passphrase.<br><br>Type <b>{TYPED_WORD}</b> "
            "to confirm."
        )
        text.setWordWrap(True)
        layout.addWidget(text)
        self.word_edit = QLineEdit(placeholderText=TYPED_WORD)
        layout.addWidget(self.word_edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.forget_button = self.buttons.addButton(
            "Forget everything", QDialogButtonBox.ButtonRole.DestructiveRole
        )
        self.forget_button.setEnabled(False)
        self.forget_button.clicked.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.word_edit.textChanged.connect(self._check)
        self.setMinimumWidth(440)

    @Slot(str)
    def _check(self, text: str) -> None:
        self.forget_button.setEnabled(text.strip() == TYPED_WORD)


def confirm_typed(parent: QWidget | None, count: int) -> bool:
    dialog = TypedConfirmDialog(count, parent)
    return dialog.exec() == QDialog.DialogCode.Accepted


def forgotten_summary(receipt: ForgetReceipt) -> str:
    """ "Forgotten: 1 memory and 1 message it came from and 1 topic summary": the memories the
    user asked to forget counted apart from what went with them, as the question put it."""
    topics = sum(1 for kind in receipt.kinds if kind == "topic")
    count = len(receipt.ids) - topics - len(receipt.learned)
    only_topics = count == 0  # only topics were asked for
    also = receipt_touched(receipt, topics_asked=only_topics)
    count = topics if only_topics else count
    return f"Forgotten: {count} memor{'y' if count == 1 else 'ies'}" + (f" {also}" if also else "")


_UNREADABLE = (
    "<br><span style='color:gray'>The text cannot be read from any file, old version or "
    "backup, even with the current keys. This receipt holds no text.</span>"
)


def _left_in_damaged_files(damaged: tuple[str, ...]) -> str:
    """A forget that met damaged data files: its keys are gone, but the files could not be
    rewritten, so the promise above would not be true."""
    files = ", ".join(html.escape(d) for d in damaged[:3]) + (" …" if len(damaged) > 3 else "")
    return (
        f"<br><span style='color:#b42318'><b>Not everywhere:</b> {files} of the memory table "
        "is damaged and was left as it was. The forgotten memories' keys are destroyed, so "
        "their text cannot be decrypted, but their encrypted rows in that file could not be "
        "deleted. Settings › Memory &amp; security shows the damage.</span>"
    )


class ReceiptDialog(QDialog):
    """Shows a ForgetReceipt; non-modal, so the app stays usable while it is open."""

    def __init__(self, receipt: ForgetReceipt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.receipt = receipt
        self.setWindowTitle("Forget receipt")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        layout = QVBoxLayout(self)
        count = len(receipt.ids)
        when = receipt.at.astimezone().strftime("%d %b %Y, %H:%M:%S")
        summary = QLabel(
            f"<b>{forgotten_summary(receipt)}</b><br>"
            f"at {when} · keys destroyed, key epoch now <b>{receipt.epoch}</b>"
            + (f" · {receipt.rekeyed} related memories re-keyed" if receipt.rekeyed else "")
            + (_left_in_damaged_files(receipt.damaged) if receipt.damaged else _UNREADABLE)
        )
        summary.setObjectName("receiptSummary")
        summary.setWordWrap(True)
        layout.addWidget(summary)
        self.table = QTableWidget(count, 2)
        self.table.setHorizontalHeaderLabels(["Memory id", "Kind"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for row, (memory_id, kind) in enumerate(zip(receipt.ids, receipt.kinds, strict=True)):
            self.table.setItem(row, 0, QTableWidgetItem(str(memory_id)))
            self.table.setItem(row, 1, QTableWidgetItem(kind))
        self.table.setMaximumHeight(40 + 26 * min(count, 8))
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        buttons.accepted.connect(self.close)
        layout.addWidget(buttons)
        self.resize(520, self.sizeHint().height())

    def text(self) -> str:
        """Everything the receipt shows, as plain text (for copying and for tests)."""
        rows = [
            f"{self.table.item(r, 0).text()} {self.table.item(r, 1).text()}"
            for r in range(self.table.rowCount())
        ]
        r = self.receipt
        n = len(r.redacted)
        also = f" ({n} message{'s' if n != 1 else ''} redacted)" if n else ""
        return f"{len(r.ids)} forgotten{also} at {r.at.isoformat()} epoch {r.epoch}\n" + "\n".join(
            rows
        )


def show_receipt(receipt: ForgetReceipt, parent: QWidget | None) -> ReceiptDialog:
    dialog = ReceiptDialog(receipt, parent)
    dialog.show()
    return dialog
