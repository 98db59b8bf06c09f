"""Settings › Memory & security: where the key lives, lock and unlock, rotate keys, backups,
and the audit log with its chain verification. Each button acts at once, off the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_service import MemoryService
from desktop_agent.errors import UserError
from desktop_agent.gui import passphrase_dialog
from desktop_agent.gui.security_status import status_html
from desktop_agent.gui.session import Session
from desktop_agent.gui.theme import icon

AUDIT_COLUMNS = ("#", "When", "Action", "Count", "Epoch", "Memory ids")


@dataclass(frozen=True, slots=True)
class SecurityState:
    status: Any  # KeyStatus
    entries: list[Any]  # AuditEntry


def read_security(memory: MemoryService) -> SecurityState:
    return SecurityState(memory.key_status(), memory.audit_entries())


def choose_export_path(parent: QWidget) -> str:
    path, _ = QFileDialog.getSaveFileName(
        parent,
        "Export an encrypted backup",
        str(Path.home() / "desktop-agent-backup.dabk"),
        "desktop-agent backups (*.dabk);;All files (*)",
    )
    return path


def choose_import_path(parent: QWidget) -> str:
    path, _ = QFileDialog.getOpenFileName(
        parent, "Import a backup", str(Path.home()), "desktop-agent backups (*.dabk);;All files (*)"
    )
    return path


def _group(title: str) -> tuple[QGroupBox, QVBoxLayout]:
    group = QGroupBox(title)
    box = QVBoxLayout(group)
    return group, box


def _hint(text: str) -> QLabel:
    label = QLabel(text, objectName="hintLabel")
    label.setWordWrap(True)
    return label


class SecuritySettings(QWidget):
    """The security tab; it drives the session's memory, never the settings file."""

    # (rows done, rows in all) of a re-encryption, sent from the memory lane's thread.
    rekey_did_progress = Signal(int, int)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.state: SecurityState | None = None
        self.busy = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(10)
        layout.addWidget(self._keys_group())
        layout.addWidget(self._backup_group())
        layout.addWidget(self._audit_group(), 1)
        self.message_label = QLabel(objectName="hintLabel")
        self.message_label.setWordWrap(True)
        layout.addWidget(self.message_label)
        session.memory_did_open.connect(self.refresh)
        session.memory_did_lock.connect(self.refresh)
        session.memory_did_fail.connect(self.refresh)
        session.memory_did_change.connect(self.refresh)
        self.refresh()

    # --- layout ---
    def _keys_group(self) -> QGroupBox:
        group, box = _group("Keys")
        self.status_label = QLabel(objectName="keyStatus")
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.addWidget(self.status_label)
        row = QHBoxLayout()
        self.lock_button = QPushButton(icon("lock"), "Lock now")
        self.lock_button.clicked.connect(self.lock)
        self.unlock_button = QPushButton(icon("unlock"), "Unlock")
        self.unlock_button.clicked.connect(self.unlock)
        self.rotate_button = QPushButton(icon("rotate"), "Rotate keys")
        self.rotate_button.clicked.connect(self.rotate)
        self.rekey_button = QPushButton(icon("rotate"), "Re-encrypt all…")
        self.rekey_button.setToolTip(
            "Re-encrypt every memory under new data keys and destroy the old ones"
        )
        self.rekey_button.clicked.connect(self.rekey)
        self.rekey_did_progress.connect(self._rekey_progressed)
        # Shown only when memories went missing from the store behind the app's back.
        self.accept_missing_button = QPushButton(icon("delete"), "Forget missing…")
        self.accept_missing_button.clicked.connect(self.accept_missing)
        self.accept_missing_button.hide()
        # Passphrase mode only (shown by _show_state): a new KEK wrapped under a new passphrase.
        self.passphrase_button = QPushButton(icon("lock"), "Change passphrase…")
        self.passphrase_button.clicked.connect(self.change_passphrase)
        self.passphrase_button.hide()
        for button in (
            self.lock_button,
            self.unlock_button,
            self.rotate_button,
            self.rekey_button,
            self.passphrase_button,
            self.accept_missing_button,
        ):
            row.addWidget(button)
        row.addStretch(1)
        box.addLayout(row)
        box.addWidget(
            _hint(
                "Locking closes the vault: no key or memory stays in this process until you "
                "unlock it. Rotating makes a new key-encryption key and destroys the old one; "
                "re-encrypting also puts every stored memory under new data keys, so a data "
                "key or an old keystore stolen before it opens nothing."
            )
        )
        return group

    def _backup_group(self) -> QGroupBox:
        group, box = _group("Backup")
        row = QHBoxLayout()
        self.export_button = QPushButton(icon("export"), "Export backup…")
        self.export_button.clicked.connect(self.export_backup)
        self.import_button = QPushButton(icon("import"), "Import backup…")
        self.import_button.clicked.connect(self.import_backup)
        row.addWidget(self.export_button)
        row.addWidget(self.import_button)
        row.addStretch(1)
        box.addLayout(row)
        box.addWidget(
            _hint(
                "A backup is one file encrypted with a passphrase of your choice (Argon2id + "
                "AES-GCM). Keep the passphrase: without it the backup cannot be read."
            )
        )
        return group

    def _audit_group(self) -> QGroupBox:
        group, box = _group("Audit log")
        self.audit_table = QTableWidget(0, len(AUDIT_COLUMNS), objectName="auditTable")
        self.audit_table.setHorizontalHeaderLabels(AUDIT_COLUMNS)
        self.audit_table.verticalHeader().hide()
        self.audit_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.audit_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.audit_table.setAlternatingRowColors(True)
        self.audit_table.setShowGrid(False)
        self.audit_table.verticalHeader().setDefaultSectionSize(24)
        header = self.audit_table.horizontalHeader()
        for column in range(len(AUDIT_COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(AUDIT_COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.audit_table.setMinimumHeight(150)
        box.addWidget(self.audit_table, 1)
        row = QHBoxLayout()
        self.verify_button = QPushButton(icon("shield"), "Verify chain")
        self.verify_button.clicked.connect(self.verify)
        self.verify_label = QLabel(objectName="verifyResult")
        self.verify_label.setWordWrap(True)
        row.addWidget(self.verify_button)
        row.addWidget(self.verify_label, 1)
        box.addLayout(row)
        box.addWidget(
            _hint(
                "Every unlock, change and forget is logged, encrypted and hash-chained, with ids "
                "and counts only, never a memory's text."
            )
        )
        return group

    # --- state ---
    @Slot()
    def refresh(self, *_: object) -> None:
        unlocked = self.session.memory.is_open
        self.lock_button.setEnabled(unlocked)
        self.unlock_button.setEnabled(not unlocked and not self.session.memory_opening)
        for button in (
            self.rotate_button,
            self.rekey_button,
            self.passphrase_button,
            self.export_button,
            self.import_button,
            self.verify_button,
        ):
            button.setEnabled(unlocked)
        if not unlocked:
            self.state = None
            self.audit_table.setRowCount(0)
            problem = self.session.memory_problem or "Memory is not open yet."
            self.status_label.setText(
                "<b>Unlocking memory…</b>"
                if self.session.memory_opening
                else f"<b>Locked.</b> {problem}"
            )
            return
        self._run(read_security, self._show_state)

    @Slot(object)
    def _show_state(self, state: SecurityState) -> None:
        self.state = state
        status = state.status
        self.passphrase_button.setVisible(status.mode == "passphrase")
        self.accept_missing_button.setVisible(bool(status.extra.get("row_set")))
        self.status_label.setText(status_html(status))
        self.audit_table.setRowCount(len(state.entries))
        for row, entry in enumerate(reversed(state.entries)):  # newest first
            ids = ", ".join(entry.ids[:3]) + (
                f" +{len(entry.ids) - 3}" if len(entry.ids) > 3 else ""
            )
            # After a break in the chain an entry is shown, but its place is not proven.
            action = entry.action if entry.verified else f"{entry.action} (unverified)"
            values = (
                str(entry.seq),
                entry.at.astimezone().strftime("%d %b %H:%M:%S"),
                action,
                str(entry.count),
                str(entry.epoch),
                ids,
            )
            for column, value in enumerate(values):
                cell = QTableWidgetItem(value)
                if not entry.verified:
                    cell.setToolTip(
                        "Written by this app, but entries before it were removed or altered, "
                        "so its place in the chain is not proven."
                    )
                self.audit_table.setItem(row, column, cell)

    def _run(self, work: Any, done: Any, name: str = "security") -> None:
        self.busy += 1

        def finished(result: Any) -> None:
            self.busy -= 1
            done(result)

        def failed(error: BaseException) -> None:
            self.busy -= 1
            message = str(error) if isinstance(error, UserError) else repr(error)
            self.message_label.setText(f"<span style='color:#b42318'>{message}</span>")

        self.session.run_memory(work, on_done=finished, on_error=failed, name=name, owner=self)

    def say(self, text: str) -> None:
        self.message_label.setText(text)

    # --- actions ---
    @Slot()
    def lock(self) -> None:
        self.session.lock_memory()
        self.say("Memory locked. Chats go on without memory until you unlock it.")

    @Slot()
    def unlock(self) -> None:
        self.session.open_memory()
        self.refresh()
        self.say("Unlocking memory…")

    @Slot()
    def rotate(self) -> None:
        self._run(lambda m: m.rotate_keys(), lambda e: self._after(f"Keys rotated: epoch {e}"))

    @Slot()
    def accept_missing(self) -> None:
        answer = QMessageBox.question(
            self,
            "Forget the missing memories",
            "Some memories are missing from the store (deleted or rolled back outside the app). "
            "Restoring the data folder from a backup brings them back. Forget them for good "
            "instead? Their keys are then destroyed.",
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._run(
            lambda m: m.accept_missing(),
            lambda n: self._after(f"Forgot {n} missing memories; their keys are destroyed."),
        )

    @Slot()
    def rekey(self) -> None:
        answer = QMessageBox.question(
            self,
            "Re-encrypt all memories",
            "Re-encrypt every stored memory under new data keys and destroy the old keys? "
            "Chats wait while it runs; on a large memory it takes a while. If it is "
            "interrupted, running it again finishes it.",
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.say("Re-encrypting…")
        report = self.rekey_did_progress.emit  # from the lane's thread, shown on this one
        self._run(lambda m: m.rekey(report), self._rekeyed, name="rekey")

    @Slot(int, int)
    def _rekey_progressed(self, done: int, total: int) -> None:
        share = 100 if total == 0 else done * 100 // total
        self.say(f"Re-encrypting: {done} of {total} memories ({share}%)…")

    def _rekeyed(self, receipt: Any) -> None:
        self._after(
            f"Re-encrypted {receipt.rows} rows under new data keys; {receipt.keys_destroyed} "
            f"old keys destroyed; key epoch {receipt.previous_epoch} → {receipt.epoch}."
        )

    @Slot()
    def change_passphrase(self) -> None:
        old = passphrase_dialog.ask_passphrase(
            self, "Change passphrase", "Type the current passphrase.", confirm=False
        )
        if old is None:
            return
        new = passphrase_dialog.ask_passphrase(
            self,
            "Change passphrase",
            "Choose the new passphrase. Copies of the data folder made before this still open "
            "with the old one.",
            confirm=True,
        )
        if new is None:
            return
        app = self.session.app
        self._run(
            lambda _m: app.change_passphrase(old, new),
            lambda e: self._after(f"Passphrase changed: a new key-encryption key, epoch {e}"),
        )

    @Slot()
    def verify(self) -> None:
        self.verify_label.setText("Verifying…")
        self._run(lambda m: m.verify_audit(), self._verified)

    @Slot(object)
    def _verified(self, report: Any) -> None:
        if report.ok:
            self.verify_label.setText(
                f"<span style='color:#1a7f37'>✔ Chain intact: {report.entries} entries, "
                "none altered, removed or reordered.</span>"
            )
        else:
            problems = "; ".join(report.problems[:3])
            self.verify_label.setText(
                f"<span style='color:#b42318'>✘ The chain is broken: {problems}</span>"
            )

    @Slot()
    def export_backup(self) -> None:
        path = choose_export_path(self)
        if not path:
            return
        passphrase = passphrase_dialog.ask_passphrase(
            self,
            "Backup passphrase",
            "Choose a passphrase for this backup. You need it to import the backup.",
            confirm=True,
        )
        if passphrase is None:
            return
        self.say("Exporting…")
        self._run(
            lambda m: m.export_backup(path, passphrase),
            lambda s: self._after(
                f"Exported {s.memories} memories ({s.versions} versions) to {s.file}"
            ),
            name="export",
        )

    @Slot()
    def import_backup(self) -> None:
        path = choose_import_path(self)
        if not path:
            return
        passphrase = passphrase_dialog.ask_passphrase(
            self, "Backup passphrase", "The passphrase this backup was made with.", confirm=False
        )
        if passphrase is None:
            return
        self.say("Importing…")
        self._run(
            lambda m: m.import_backup(path, passphrase),
            lambda s: self._after(
                f"Imported {len(s.imported)} memories; {len(s.skipped)} were already here"
            ),
            name="import",
        )

    def _after(self, message: str) -> None:
        self.say(message)
        self.refresh()
