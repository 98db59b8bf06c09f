"""Settings › Memory & security over a real vault: key status, lock and unlock, rotate keys,
export and import a backup, the audit log and its verification; and memory that cannot open."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_agent.errors import VaultLockedError
from desktop_agent.gui import passphrase_dialog, security_settings
from desktop_agent.gui.passphrase_dialog import PassphraseDialog
from desktop_agent.gui.settings_dialog import SettingsDialog
from tests.gui.conftest import drain_memory_lane, remember, settle_memory, show_panel

PASSPHRASE = "correct horse battery staple"


def _security(qtbot: Any, window: Any) -> Any:
    dialog = SettingsDialog(window.session.settings, window, session=window.session)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.tabs.setCurrentIndex(dialog.tabs.count() - 1)  # Memory & security
    security = dialog.security
    qtbot.waitUntil(lambda: security.state is not None, timeout=10_000)
    return security


def _idle(qtbot: Any, security: Any) -> None:
    drain_memory_lane()
    qtbot.waitUntil(lambda: security.busy == 0, timeout=60_000)


def test_key_status_and_audit_log_with_verification(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    remember(window, "User lives in Porto")
    security = _security(qtbot, window)
    _idle(qtbot, security)

    assert "OS keyring" in security.status_label.text()
    assert "Key epoch <b>1</b>" in security.status_label.text()
    actions = {
        security.audit_table.item(r, 2).text() for r in range(security.audit_table.rowCount())
    }
    assert {"unlock", "add"} <= actions

    security.verify_button.click()
    _idle(qtbot, security)
    assert "Chain intact" in security.verify_label.text()


def test_rotate_keys_moves_to_a_new_epoch(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    security = _security(qtbot, window)

    security.rotate_button.click()
    _idle(qtbot, security)
    _idle(qtbot, security)

    assert window.session.memory.key_status().epoch == 2
    assert "epoch 2" in security.message_label.text()


def test_export_then_import_round_trip(
    qtbot: Any, make_window: Any, monkeypatch: Any, tmp_path: Any
) -> None:
    # Given two memories and an exported backup
    window = make_window(load_model=False)
    show_panel(window, "inspector")
    remember(window, "User lives in Porto")
    remember(window, "User likes tea")
    security = _security(qtbot, window)
    backup = tmp_path / "backup.dabk"
    monkeypatch.setattr(security_settings, "choose_export_path", lambda _p: str(backup))
    monkeypatch.setattr(security_settings, "choose_import_path", lambda _p: str(backup))
    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", lambda *_a, **_k: PASSPHRASE)
    security.export_button.click()
    _idle(qtbot, security)
    assert backup.exists() and "Exported 2 memories" in security.message_label.text()
    assert b"Porto" not in backup.read_bytes()

    # When everything is forgotten, then the backup imported
    memory = window.session.memory
    memory.forget_all()
    assert memory.items() == []
    security.import_button.click()
    _idle(qtbot, security)
    settle_memory(qtbot, window)

    # Then the memories are back, and the inspector shows them
    assert sorted(i.text for i in memory.items()) == ["User likes tea", "User lives in Porto"]
    assert window.inspector.model.rowCount() == 2
    assert "Imported 2 memories" in security.message_label.text()


def test_lock_and_unlock(qtbot: Any, make_window: Any) -> None:
    # Given an unlocked vault with a memory
    window = make_window(load_model=False)
    show_panel(window, "inspector")
    item = remember(window, "User lives in Porto")
    settle_memory(qtbot, window)
    security = _security(qtbot, window)

    # When the user locks memory
    security.lock_button.click()
    drain_memory_lane()

    # Then no memory is open, the panels and the status bar say so, and chats go on without it
    assert not window.session.memory.is_open  # the null memory service, as the assistant's
    assert window.session.memory.items() == []
    assert not window.session.assistant.memory.is_open
    assert window.status.memory_label.text() == "Memory locked"
    assert window.inspector.stack.currentIndex() == 1
    assert "locked" in window.inspector.problem_label.text()
    assert security.unlock_button.isEnabled() and not security.lock_button.isEnabled()

    # When the user unlocks it again
    security.unlock_button.click()
    qtbot.waitUntil(lambda: window.session.memory.is_open, timeout=30_000)
    settle_memory(qtbot, window)

    # Then the memory is back everywhere
    assert window.session.memory.item(item.id).text == "User lives in Porto"
    assert window.inspector.model.row_of(item.id) >= 0
    assert window.status.memory_label.text() == "Memory on"


def test_passphrase_must_be_typed_twice_the_same(qtbot: Any) -> None:
    dialog = PassphraseDialog("Backup passphrase", "Choose one.", confirm=True)
    qtbot.addWidget(dialog)
    dialog.first_edit.setText(PASSPHRASE)
    dialog.second_edit.setText(PASSPHRASE + "!")
    dialog.accept()
    assert dialog.result() != PassphraseDialog.DialogCode.Accepted
    assert "differ" in dialog.error_label.text()

    dialog.second_edit.setText(PASSPHRASE)
    dialog.accept()
    assert dialog.result() == PassphraseDialog.DialogCode.Accepted


def test_memory_that_cannot_open_leaves_the_app_usable(
    qtbot: Any, make_window: Any, memory_keyring: Any
) -> None:
    # Given a keyring that refuses every call
    memory_keyring.locked = True

    # When the window opens memory in the background
    window = make_window(load_model=False, memory=False)
    window.session.open_memory()
    qtbot.waitUntil(lambda: not window.session.memory_opening, timeout=30_000)

    # Then it says why, and the app still works without memory
    assert not window.session.memory.is_open
    problem = window.session.memory_problem
    assert problem
    assert window.status.memory_label.text() in ("Memory unavailable", "Memory locked")
    assert problem in window.inspector.problem_label.text()
    window.new_chat()
    assert window.controller.conversation is not None


def test_passphrase_mode_asks_in_the_window_and_unlocks(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    # Given a vault that keeps its key under a passphrase
    from desktop_agent.settings import Settings
    from tests.gui.conftest import fast_settings

    settings: Settings = fast_settings().replace("security", key_mode="passphrase")
    asked: list[bool] = []

    def ask(*_args: Any, confirm: bool) -> str:
        asked.append(confirm)
        return PASSPHRASE

    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", ask)

    # When memory opens: the window asks for a new passphrase (twice), and unlocks with it
    window = make_window(load_model=False, memory=False, settings=settings)
    window.session.open_memory()
    qtbot.waitUntil(lambda: window.session.memory.is_open, timeout=60_000)
    assert asked == [True]
    item = remember(window, "User lives in Porto")
    assert window.session.memory.key_status().mode == "passphrase"

    # And after locking, a wrong passphrase is refused and the right one unlocks again
    window.session.lock_memory()
    drain_memory_lane()
    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", lambda *_a, **_k: "wrong one!")
    window.session.open_memory()
    qtbot.waitUntil(
        lambda: "wrong passphrase" in (window.session.memory_problem or ""), timeout=60_000
    )
    assert not window.session.memory.is_open
    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", ask)
    window.session.open_memory()
    qtbot.waitUntil(lambda: window.session.memory.is_open, timeout=60_000)
    assert asked == [True, False]
    assert window.session.memory.item(item.id).text == "User lives in Porto"


def test_repaired_key_files_an_unfinished_rekey_and_unverified_entries_are_shown(
    qtbot: Any, make_window: Any
) -> None:
    from dataclasses import replace

    window = make_window(load_model=False)
    remember(window, "User lives in Porto")
    security = _security(qtbot, window)
    _idle(qtbot, security)
    state = security.state
    status = replace(
        state.status,
        extra={
            **state.status.extra,
            "key_files": ["keystore-1.bin: one copy was damaged <repaired> from the other"],
            "rekey_unfinished": True,
        },
    )
    entries = [*state.entries[:-1], replace(state.entries[-1], verified=False)]
    security._show_state(security_settings.SecurityState(status, entries))

    text = security.status_label.text()
    assert "keystore-1.bin: one copy was damaged &lt;repaired&gt; from the other" in text
    assert "Re-encryption interrupted" in text
    newest = security.audit_table.item(0, 2)
    assert newest.text().endswith("(unverified)") and "not proven" in newest.toolTip()
    assert not security.audit_table.item(1, 2).text().endswith("(unverified)")


def test_a_passphrase_is_changed_and_only_the_new_one_opens(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    from desktop_agent.memory import Vault
    from desktop_agent.secrets import PassphraseKeySource
    from desktop_agent.settings import Settings
    from tests.gui.conftest import fast_settings

    settings: Settings = fast_settings().replace("security", key_mode="passphrase")
    answers = iter(
        [PASSPHRASE, "not the passphrase", "never used", PASSPHRASE, "a brand new secret"]
    )
    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", lambda *_a, **_k: next(answers))
    window = make_window(load_model=False, memory=False, settings=settings)
    window.session.open_memory()
    qtbot.waitUntil(lambda: window.session.memory.is_open, timeout=60_000)
    item = remember(window, "User lives in Porto")
    security = _security(qtbot, window)
    _idle(qtbot, security)
    assert not security.passphrase_button.isHidden()  # passphrase mode only

    security.passphrase_button.click()  # a wrong current passphrase: refused, nothing changed
    _idle(qtbot, security)
    assert "current passphrase is wrong" in security.message_label.text()
    security.passphrase_button.click()
    _idle(qtbot, security)
    assert "Passphrase changed" in security.message_label.text()
    assert window.session.memory.key_status().epoch == 2

    directory = window.session.app.paths.vault_dir
    window.session.lock_memory()
    drain_memory_lane()
    with Vault.open(directory, PassphraseKeySource("a brand new secret")) as vault:
        assert vault.get(item.id).text == "User lives in Porto"
    with pytest.raises(VaultLockedError, match="wrong passphrase"):
        Vault.open(directory, PassphraseKeySource(PASSPHRASE))


def test_re_encrypt_all_reports_progress_and_new_keys(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    from PySide6.QtWidgets import QMessageBox

    window = make_window(load_model=False)
    item = remember(window, "User lives in Porto")
    epoch_before = window.session.memory.key_status().epoch
    security = _security(qtbot, window)
    _idle(qtbot, security)
    shown: list[tuple[int, int]] = []
    security.rekey_did_progress.connect(lambda done, total: shown.append((done, total)))
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)

    security.rekey_button.click()
    _idle(qtbot, security)
    _idle(qtbot, security)

    assert "Re-encrypted" in security.message_label.text()
    assert shown and shown[-1][0] == shown[-1][1]  # ended at all of them
    assert window.session.memory.key_status().epoch == epoch_before + 1
    assert window.session.memory.item(item.id).text == "User lives in Porto"


def test_memories_missing_from_the_store_are_shown_and_can_be_forgotten(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    import lance
    from PySide6.QtWidgets import QMessageBox

    window = make_window(load_model=False)
    gone = remember(window, "User lives in Porto")
    remember(window, "User likes tea")
    directory = window.session.app.paths.vault_dir
    window.session.lock_memory()
    drain_memory_lane()
    lance.dataset(directory / "db" / "memories.lance").delete(f"memory_id = '{gone.id}'")
    window.session.open_memory()
    qtbot.waitUntil(lambda: window.session.memory.is_open, timeout=60_000)
    security = _security(qtbot, window)
    _idle(qtbot, security)
    assert "1 memories missing" in security.status_label.text()
    assert not security.accept_missing_button.isHidden()

    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    security.accept_missing_button.click()
    _idle(qtbot, security)
    _idle(qtbot, security)
    assert "Forgot 1 missing memories" in security.message_label.text()
    assert "missing" not in security.status_label.text()
    assert security.accept_missing_button.isHidden()
