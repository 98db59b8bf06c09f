"""The conversation list: model checks, rename, delete, search; asserted on the core's store."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QMessageBox, QStyleOptionViewItem

from desktop_agent.app import App
from desktop_agent.gui.conversation_list import ConversationFilter, ConversationListModel
from tests.gui.conftest import drain_memory_lane, fast_settings


def _assistant_with_conversations() -> Any:
    assistant = App(settings=fast_settings()).assistant
    for title, text in [("Trip", "Plan a trip to Lisbon"), ("Cats", "Name my cat")]:
        conversation = assistant.start_conversation()
        conversation.add("user", text)
        conversation.title = title
    assistant.start_conversation(incognito=True)
    return assistant


def test_list_and_filter_models_pass_qtmodeltester(qtmodeltester: Any, qapp: Any) -> None:
    assistant = _assistant_with_conversations()
    model = ConversationListModel(assistant)
    qtmodeltester.check(model, force_py=True)
    proxy = ConversationFilter()
    proxy.setSourceModel(model)
    proxy.setFilterFixedString("lisbon")
    qtmodeltester.check(proxy, force_py=True)
    assert proxy.rowCount() == 1


def test_rename_through_the_list_editor(qtbot: Any, make_window: Any) -> None:
    # Given a window with a conversation that has a message
    window = make_window(load_model=False)
    conversation = window.controller.conversation
    conversation.add("user", "hello")
    window.conversations.refresh(select_id=conversation.id)

    # When the user presses F2 and types a new title
    qtbot.keyClick(window, Qt.Key.Key_F2)
    editor = window.conversations.view.findChild(QLineEdit)
    assert editor is not None
    editor.setText("Greetings")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits on a queued call

    # Then the core has the new title and the list shows it
    qtbot.waitUntil(lambda: conversation.title == "Greetings", timeout=2000)
    assert window.session.assistant.conversation(conversation.id).title == "Greetings"
    assert window.conversations.model.data(window.conversations.model.index(0)) == "Greetings"


def test_empty_title_is_refused(make_window: Any) -> None:
    window = make_window(load_model=False)
    conversation = window.controller.conversation
    conversation.title = "Kept"
    messages: list[str] = []
    window.conversations.panel_did_fail.connect(messages.append)

    assert not window.conversations.rename(conversation.id, "   ")

    assert window.session.assistant.conversation(conversation.id).title == "Kept"
    assert messages and "empty" in messages[0]


def test_delete_after_confirming(qtbot: Any, make_window: Any, monkeypatch: Any) -> None:
    window = make_window(load_model=False)
    first = window.controller.conversation
    first.add("user", "keep me")
    window.new_chat()
    doomed = window.controller.conversation
    doomed.add("user", "delete me")
    window.conversations.refresh(select_id=doomed.id)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)

    window.delete_action.trigger()
    drain_memory_lane()  # the core forgets it on the memory lane

    ids = [c.id for c in window.session.assistant.conversations()]
    assert doomed.id not in ids
    assert first.id in ids
    assert window.conversations.model.rowCount() == 1
    assert window.controller.conversation is first
    assert window.chat.bubbles[0].text == "keep me"


def test_delete_cancelled_keeps_it(make_window: Any, monkeypatch: Any) -> None:
    window = make_window(load_model=False)
    conversation = window.controller.conversation
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)

    window.delete_action.trigger()

    assert window.session.assistant.conversation(conversation.id) is conversation


def test_search_filters_by_title_and_text(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    panel = window.conversations
    for title, text in [("Trip", "Plan a trip to Lisbon"), ("Cats", "Name my cat")]:
        window.new_chat()
        window.controller.conversation.add("user", text)
        window.controller.conversation.title = title
    panel.refresh()

    qtbot.keyClicks(panel.search, "lisbon")

    assert panel.proxy.rowCount() == 1
    assert panel.proxy.index(0, 0).data() == "Trip"
    panel.search.clear()
    assert panel.proxy.rowCount() == 2


def test_search_only_filters_and_says_when_nothing_matches(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    panel = window.conversations
    for title, text in [("Trip", "Plan a trip to Lisbon"), ("Cats", "Name my cat")]:
        window.new_chat()
        window.controller.conversation.add("user", text)
        window.controller.conversation.title = title
    panel.refresh(select_id=window.controller.conversation.id)
    open_chat = window.controller.conversation.id  # "Cats", the newest

    qtbot.keyClicks(panel.search, "lisbon")  # hides the open chat's row
    assert window.controller.conversation.id == open_chat
    assert not panel.no_matches.isVisible()

    panel.search.clear()
    qtbot.keyClicks(panel.search, "zanzibar")
    assert panel.proxy.rowCount() == 0
    assert panel.no_matches.isVisibleTo(panel) and panel.no_matches.text() == "No matches"
    assert window.controller.conversation.id == open_chat
    panel.search.clear()
    assert not panel.no_matches.isVisibleTo(panel)


def test_new_chat_shortcut_reuses_an_empty_chat(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert len(window.session.assistant.conversations()) == 1

    window.controller.conversation.add("user", "something")
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert len(window.session.assistant.conversations()) == 2


def test_conversations_are_grouped_by_date_with_pinned_ones_first(
    qtbot: Any, make_window: Any
) -> None:
    from datetime import UTC, datetime, timedelta

    from desktop_agent.gui.conversation_list import RowDelegate, date_group

    window = make_window(load_model=False, memory=False)
    assistant = window.session.assistant
    now = datetime.now(UTC)
    made = {}
    for name, days in (("today", 0), ("yesterday", 1), ("last week", 5), ("long ago", 400)):
        conversation = assistant.start_conversation()
        conversation.title = name
        conversation.started_at = now - timedelta(days=days)
        made[name] = conversation
    panel = window.conversations
    panel.refresh()
    panel.model.set_pinned(made["long ago"].id, True)

    proxy = panel.proxy
    titles = [proxy.index(r, 0).data() for r in range(proxy.rowCount())]
    assert titles[0] == "long ago"  # pinned first
    headings = [RowDelegate.heading(proxy.index(r, 0)) for r in range(proxy.rowCount())]
    assert headings[0] == "Pinned"
    assert "Today" in headings and "Yesterday" in headings and "Previous 7 days" in headings
    assert date_group(made["today"]) == "Today"
    first_today = titles.index("today")
    delegate = panel.view.itemDelegate()
    option = QStyleOptionViewItem()
    tall = delegate.sizeHint(option, proxy.index(first_today, 0)).height()
    assert tall == RowDelegate.ROW_HEIGHT + RowDelegate.HEADING_HEIGHT

    panel.model.set_pinned(made["long ago"].id, False)
    titles = [proxy.index(r, 0).data() for r in range(proxy.rowCount())]
    assert titles[-1] == "long ago"
