"""The memory inspector over a real vault: model checks, search and filters, detail and
provenance, edit with history, forget with receipts, forget everything, and the inbox."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from desktop_agent.gui import forget_dialogs
from desktop_agent.gui.forget_dialogs import TypedConfirmDialog
from desktop_agent.gui.memory_table_model import MemoryFilter, MemoryTableModel, read_table
from tests.gui.conftest import remember, settle_memory, show_panel


def _inspector_with(qtbot: Any, make_window: Any, texts: list[str]) -> Any:
    window = make_window(load_model=False)
    items = [remember(window, text) for text in texts]
    window.inspector_dock.show()
    settle_memory(qtbot, window)
    return window, items


def test_table_and_filter_models_pass_qtmodeltester(
    qtbot: Any, qtmodeltester: Any, make_window: Any
) -> None:
    # Given memories in a real vault
    window, _ = _inspector_with(qtbot, make_window, ["User lives in Porto", "User likes tea"])
    model = MemoryTableModel()
    model.set_table(read_table(window.session.memory))
    # Then the model and the search proxy behave as Qt models must
    qtmodeltester.check(model, force_py=True)
    proxy = MemoryFilter()
    proxy.setSourceModel(model)
    proxy.set_filters(text="porto")
    qtmodeltester.check(proxy, force_py=True)
    assert proxy.rowCount() == 1


def test_sorting_by_a_column_orders_the_rows_and_keeps_the_selection(
    qtbot: Any, qtmodeltester: Any, make_window: Any
) -> None:
    # Given three memories, one selected
    window, items = _inspector_with(
        qtbot, make_window, ["User likes tea", "User adores apples", "User lives in Porto"]
    )
    inspector = window.inspector
    inspector.select_memory(items[2].id)

    # When the text column is sorted (the proxy hands the sort to the source model)
    inspector.table.sortByColumn(1, Qt.SortOrder.AscendingOrder)

    # Then the rows are in order, the models stay valid, and the selection followed its row
    texts = [inspector.proxy.index(row, 1).data() for row in range(inspector.proxy.rowCount())]
    assert texts == sorted(texts, key=str.casefold)
    qtmodeltester.check(inspector.proxy, force_py=True)
    assert inspector.selected_ids() == [items[2].id]


def test_search_as_you_type_and_kind_filter(qtbot: Any, make_window: Any) -> None:
    window, _ = _inspector_with(qtbot, make_window, ["User lives in Porto", "User likes tea"])
    inspector = window.inspector
    assert inspector.proxy.rowCount() == 2

    qtbot.keyClicks(inspector.search_edit, "tea")
    assert inspector.proxy.rowCount() == 1
    assert "likes tea" in inspector.proxy.index(0, 1).data()

    inspector.search_edit.clear()
    inspector.kind_combo.setCurrentIndex(inspector.kind_combo.findData("episodic"))
    assert inspector.proxy.rowCount() == 0
    assert inspector.count_label.text() == "0 of 2 memories"


def test_search_finds_other_forms_of_a_word(qtbot: Any, make_window: Any) -> None:
    window, _ = _inspector_with(
        qtbot, make_window, ["User is allergic to peanuts", "User is vegetarian"]
    )
    inspector = window.inspector

    qtbot.keyClicks(inspector.search_edit, "allergy")

    assert inspector.proxy.rowCount() == 1
    assert "allergic" in inspector.proxy.index(0, 1).data()


def test_semantic_search_ranks_by_meaning(qtbot: Any, make_window: Any) -> None:
    window, _ = _inspector_with(qtbot, make_window, ["User lives in Porto", "User likes tea"])
    inspector = window.inspector

    inspector.semantic_check.setChecked(True)
    inspector.search_edit.setText("where does the user live")
    qtbot.waitUntil(lambda: inspector.proxy.ranked is not None, timeout=10_000)
    settle_memory(qtbot, window, rounds=1)

    assert inspector.proxy.index(0, 1).data() == "User lives in Porto"


def test_forget_selected_removes_the_row_and_the_memory(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    # Given two memories in the inspector, one selected
    window, (porto, tea) = _inspector_with(
        qtbot, make_window, ["User lives in Porto", "User likes tea"]
    )
    inspector = window.inspector
    inspector.select_memory(porto.id)
    asked: list[str] = []
    monkeypatch.setattr(
        forget_dialogs, "confirm", lambda _p, _t, text, *a: asked.append(text) or True
    )

    # When the user clicks "Forget selected…" and confirms
    with qtbot.waitSignal(inspector.model.rowsRemoved, timeout=30_000):
        qtbot.mouseClick(inspector.forget_button, Qt.MouseButton.LeftButton)
    settle_memory(qtbot, window)

    # Then the row is gone, the vault no longer holds it, and the receipt shows no text
    memory = window.session.memory
    assert "User lives in Porto" in asked[0]
    assert inspector.model.row_of(porto.id) == -1
    assert porto.id not in memory.vault
    assert tea.id in memory.vault
    receipt = inspector.last_receipt
    assert receipt.ids == (porto.id,)
    assert receipt.epoch == memory.key_status().epoch
    shown = inspector.receipt_dialog.text()
    assert porto.id in shown and "Porto" not in shown


def test_edit_saves_a_new_version_and_history_grows(qtbot: Any, make_window: Any) -> None:
    window, (porto,) = _inspector_with(qtbot, make_window, ["User lives in Porto"])
    inspector = window.inspector
    inspector.select_memory(porto.id)
    qtbot.waitUntil(lambda: inspector.detail.detail is not None, timeout=10_000)
    memory = window.session.memory
    assert len(memory.history(porto.id)) == 1

    inspector.detail.text_edit.setPlainText("User lives in Braga")
    inspector.detail.importance_spin.setValue(0.9)
    inspector.detail.pin_check.setChecked(True)
    qtbot.mouseClick(inspector.detail.save_button, Qt.MouseButton.LeftButton)
    settle_memory(qtbot, window)

    item = memory.item(porto.id)
    assert (item.text, item.importance, item.pinned) == ("User lives in Braga", 0.9, True)
    history = memory.history(porto.id)
    assert [v.text for v in history] == ["User lives in Porto", "User lives in Braga"]
    assert "text changed" in inspector.detail.history_label.text()
    assert inspector.model.data(inspector.model.index(inspector.model.row_of(porto.id), 1)) == (
        "User lives in Braga"
    )


def test_correction_links_supersedes_both_ways(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    old = remember(window, "User lives in Lisbon", subject_key="user.home")
    new = remember(window, "User lives in Porto", subject_key="user.home")
    window.inspector_dock.show()
    settle_memory(qtbot, window)
    inspector = window.inspector

    inspector.select_memory(new.id)
    qtbot.waitUntil(lambda: inspector.detail.detail is not None, timeout=10_000)
    assert "Supersedes" in inspector.detail.links_label.text()

    inspector.detail._link(f"memory:{old.id}")  # the user clicks the link
    qtbot.waitUntil(
        lambda: inspector.detail.detail is not None and inspector.detail.detail.item.id == old.id,
        timeout=10_000,
    )
    assert "Superseded by" in inspector.detail.links_label.text()
    assert "superseded" in inspector.current_index().siblingAtColumn(1).data()


def test_forget_everything_needs_the_typed_word(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    window, _ = _inspector_with(qtbot, make_window, ["User lives in Porto", "User likes tea"])
    dialog = TypedConfirmDialog(2)
    qtbot.addWidget(dialog)
    assert not dialog.forget_button.isEnabled()
    qtbot.keyClicks(dialog.word_edit, "forget")
    assert not dialog.forget_button.isEnabled()
    dialog.word_edit.setText("FORGET")
    assert dialog.forget_button.isEnabled()

    monkeypatch.setattr(forget_dialogs, "confirm_typed", lambda _p, _n: True)
    window.inspector.forget_all_button.click()
    settle_memory(qtbot, window)

    assert window.session.memory.items() == []
    assert window.inspector.model.rowCount() == 0
    assert len(window.inspector.last_receipt.ids) >= 2


def test_inbox_accept_edit_and_reject(qtbot: Any, make_window: Any) -> None:
    # Given two newly learned, unreviewed memories
    window = make_window(load_model=False)
    show_panel(window, "inspector")
    keep = remember(window, "User is vegetarian", reviewed=False)
    drop = remember(window, "User hates music", reviewed=False)
    settle_memory(qtbot, window)
    inbox = window.inspector.inbox
    assert {r.item.id for r in inbox.rows} == {keep.id, drop.id}
    assert window.inspector.tabs.tabText(1) == "Inbox (2)"

    # When the user accepts one and rejects the other (and lets the Undo time pass)
    inbox.row_for(keep.id).accept_button.click()
    inbox.row_for(drop.id).reject_button.click()
    assert inbox.undo_bar.isVisibleTo(inbox)
    inbox.commit_rejects()
    settle_memory(qtbot, window)

    # Then one is reviewed, the other forgotten, and the inbox is empty
    memory = window.session.memory
    assert memory.item(keep.id).reviewed
    assert drop.id not in memory.vault
    assert inbox.rows == []
    assert window.inspector.tabs.tabText(1) == "Inbox"


def test_inbox_reject_can_be_undone_before_anything_is_destroyed(
    qtbot: Any, make_window: Any
) -> None:
    window = make_window(load_model=False)
    show_panel(window, "inspector")
    item = remember(window, "User hates music", reviewed=False)
    settle_memory(qtbot, window)
    inbox = window.inspector.inbox

    inbox.row_for(item.id).reject_button.click()
    settle_memory(qtbot, window)

    # Hidden at once, but still in the vault while Undo is offered
    assert not inbox.row_for(item.id).isVisibleTo(inbox)
    assert item.id in window.session.memory.vault
    inbox.undo_button.click()
    assert inbox.row_for(item.id).isVisibleTo(inbox)
    assert not inbox.undo_bar.isVisibleTo(inbox)
    qtbot.wait(50)
    assert item.id in window.session.memory.vault
    assert not inbox.pending


def test_inbox_edit_opens_the_editor(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    show_panel(window, "inspector")
    item = remember(window, "User is vegetarian", reviewed=False)
    settle_memory(qtbot, window)

    window.inspector.inbox.row_for(item.id).edit_button.click()
    qtbot.waitUntil(lambda: window.inspector.detail.detail is not None, timeout=10_000)

    assert window.inspector.tabs.currentIndex() == 0
    assert window.inspector.selected_ids() == [item.id]


def test_topic_and_date_filters(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    show_panel(window, "inspector")
    remember(window, "User is allergic to peanuts", topic="Health")
    remember(window, "User likes tea", topic="Food")
    settle_memory(qtbot, window)
    inspector = window.inspector

    inspector.topic_combo.setCurrentIndex(inspector.topic_combo.findData("Health"))
    assert inspector.proxy.rowCount() == 1
    assert inspector.proxy.index(0, 1).data() == "User is allergic to peanuts"

    inspector.topic_combo.setCurrentIndex(0)
    inspector.date_combo.setCurrentIndex(inspector.date_combo.findData(1))  # today
    assert inspector.proxy.rowCount() == 2


def test_delete_key_forgets_the_selection(qtbot: Any, make_window: Any, monkeypatch: Any) -> None:
    window, (porto, tea) = _inspector_with(
        qtbot, make_window, ["User lives in Porto", "User likes tea"]
    )
    inspector = window.inspector
    inspector.select_memory(tea.id)
    monkeypatch.setattr(forget_dialogs, "confirm", lambda *_a: True)

    inspector.table.setFocus()
    qtbot.keyClick(inspector.table, Qt.Key.Key_Delete)
    settle_memory(qtbot, window)

    assert tea.id not in window.session.memory.vault
    assert porto.id in window.session.memory.vault


def test_forgetting_a_learned_fact_says_it_erases_the_message_it_came_from(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    # Given a fact learned from a message, and another fact from the same message
    from desktop_agent.core.memory_model import Provenance

    window = make_window(load_model=False)
    memory = window.session.memory
    said = "I work as a vet nurse and I live in Porto."
    episode = memory.record_episode("c1", said, "Nice!")
    job = memory.remember(
        "User works as a vet nurse",
        subject_key="job",
        provenance=[Provenance(episode.id, "c1", 0, said.index(" and"))],
    )
    memory.remember(
        "User lives in Porto",
        subject_key="home_city",
        provenance=[Provenance(episode.id, "c1", said.index("I live"), len(said) - 1)],
    )
    window.inspector_dock.show()
    settle_memory(qtbot, window)
    inspector = window.inspector
    inspector.select_memory(job.id)
    asked: list[str] = []
    monkeypatch.setattr(
        forget_dialogs, "confirm", lambda _p, _t, text, *a: asked.append(text) or True
    )

    # When the user forgets the job
    with qtbot.waitSignal(inspector.model.rowsRemoved, timeout=30_000):
        qtbot.mouseClick(inspector.forget_button, Qt.MouseButton.LeftButton)
    settle_memory(qtbot, window)

    # Then the question said what else goes, the receipt says it went, and the words are gone
    assert "This also erases 1 message it came from" in asked[0]
    assert "1 message redacted" in inspector.receipt_dialog.text()
    text = memory.item(episode.id).text
    assert "nurse" not in text and "I live in Porto" in text


def test_the_receipt_counts_what_was_asked_apart_from_what_went_with_it(qapp: Any) -> None:
    # Asked: one fact. With it went a topic summary quoting it and the message it came from.
    from datetime import UTC, datetime

    from desktop_agent.memory.model import ForgetReceipt

    receipt = ForgetReceipt(
        ("m_fact", "m_topic"), ("semantic", "topic"), datetime.now(UTC), 3, 0, ("m_episode",)
    )

    summary = forget_dialogs.forgotten_summary(receipt)
    dialog = forget_dialogs.ReceiptDialog(receipt)

    assert summary == ("Forgotten: 1 memory and 1 message it came from and 1 topic summary")
    label = dialog.findChild(QLabel, "receiptSummary")
    assert label is not None and summary in label.text()


def test_a_receipt_says_when_damaged_files_kept_encrypted_rows(qapp: Any) -> None:
    from datetime import UTC, datetime

    from desktop_agent.memory.model import ForgetReceipt

    at = datetime.now(UTC)
    clean = forget_dialogs.ReceiptDialog(ForgetReceipt(("m_fact",), ("semantic",), at, 2))
    damaged = forget_dialogs.ReceiptDialog(
        ForgetReceipt(("m_fact",), ("semantic",), at, 2, damaged=("fragment 3 (data file x)",))
    )

    clean_text = clean.findChild(QLabel, "receiptSummary").text()
    damaged_text = damaged.findChild(QLabel, "receiptSummary").text()
    assert "cannot be read from any file" in clean_text and "Not everywhere" not in clean_text
    assert "Not everywhere" in damaged_text and "fragment 3 (data file x)" in damaged_text
    assert "cannot be read from any file" not in damaged_text


def test_forget_everything_clears_the_sidebar_and_the_open_chat(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    # Given two remembered conversations, one of them open
    window = make_window(load_model=False)
    memory = window.session.memory
    for title in ("Trip to Lisbon", "Cat names"):
        window.new_chat()
        conversation = window.controller.conversation
        conversation.add("user", f"About the {title}")
        conversation.add("assistant", "Sure.")
        memory.record_episode(conversation.id, f"About the {title}", "Sure.", title=title)
    window.conversations.refresh(select_id=window.controller.conversation.id)
    assert window.conversations.proxy.rowCount() == 2

    # When everything is forgotten from the inspector
    monkeypatch.setattr(forget_dialogs, "confirm_typed", lambda _p, _n: True)
    window.inspector_dock.show()
    settle_memory(qtbot, window)
    window.inspector.forget_all_button.click()
    settle_memory(qtbot, window)

    # Then no old title is left in the sidebar and the chat on screen is a new, empty one
    def titles() -> list[str]:
        proxy = window.conversations.proxy
        return [proxy.index(row, 0).data() for row in range(proxy.rowCount())]

    qtbot.waitUntil(lambda: not any("Lisbon" in t or "Cat" in t for t in titles()), timeout=10_000)
    assert len(titles()) <= 1  # at most the new, empty chat
    assert window.controller.conversation.messages == []
    assert not [b for b in window.chat.bubbles if b.role == "user"]


def test_the_memory_column_keeps_its_room_at_every_window_size(
    qtbot: Any, make_window: Any
) -> None:
    from desktop_agent.gui.memory_table_model import SOURCE, TEXT

    window, _ = _inspector_with(qtbot, make_window, ["User is allergic to peanuts and penicillin"])
    table = window.inspector.table
    window.show()
    for size in ((800, 600), (1180, 760), (1920, 1080)):
        window.resize(*size)
        qtbot.waitUntil(lambda s=size: window.width() == s[0], timeout=5_000)
        qtbot.wait(50)
        room = table.viewport().width()
        assert table.columnWidth(TEXT) >= min(180, room), (size, table.columnWidth(TEXT), room)
        shown = [c for c in range(table.model().columnCount()) if not table.isColumnHidden(c)]
        assert all(table.columnWidth(c) >= 48 for c in shown), size
    # wide, every column is back
    assert not table.isColumnHidden(SOURCE) or table.viewport().width() < 700


def test_usable_at_800x600_with_a_panel_open_and_the_list_grows_back(
    qtbot: Any, make_window: Any
) -> None:
    from PySide6.QtWidgets import QPushButton

    window, _ = _inspector_with(qtbot, make_window, ["User lives in Porto"])
    window.show()
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() <= 800, timeout=5_000)
    qtbot.wait(100)

    # The chat keeps a composer one can type in, the list is still there, nothing is clipped
    assert window.width() == 800  # the docks' minimums fit the screen
    assert window.chat.composer.width() >= 240
    assert window.conversations_dock.width() >= 100
    buttons = [b for b in window.inspector.findChildren(QPushButton) if b.isVisible()]
    clipped = [b.text() for b in buttons if b.width() < b.minimumSizeHint().width()]
    assert buttons and not clipped

    # Growing the window gives the conversation list its width back
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.conversations_dock.width() >= 200, timeout=5_000)
