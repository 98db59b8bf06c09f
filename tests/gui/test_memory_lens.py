"""The memory lens under a reply, against the real model and vault: it lists what was injected
with readable scores, opens one in the inspector, and excludes one from the next prompt; and a
memory's source opens its conversation with the message highlighted."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from tests.gui.conftest import fast_settings, remember, send, settle_memory, wait_for_reply


def _ask_where_i_live(qtbot: Any, make_window: Any) -> Any:
    window = make_window(settings=fast_settings(max_tokens=8))
    fact = remember(window, "User lives in Porto", type="fact")
    send(qtbot, window, "Where do I live? Porto?")
    wait_for_reply(qtbot, window)
    bubble = window.chat.last_reply_view()
    bubble.open_lens()
    return window, fact, bubble


def test_lens_lists_the_injected_memories_with_their_scores(qtbot: Any, make_window: Any) -> None:
    # Given a remembered fact, when a question recalls it
    window, fact, bubble = _ask_where_i_live(qtbot, make_window)

    # Then the lens lists it with a readable score breakdown
    assert bubble.lens_button.text().startswith("used ")
    row = bubble.lens.row_for(fact.id)
    assert row is not None
    breakdown = row.breakdown_label.text()
    assert "keyword match" in breakdown and "(rank 1)" in breakdown
    assert "meaning" in breakdown and "recency" in breakdown and "importance" in breakdown
    assert fact.id in [r.item.id for r in bubble.reply.memories_used]


def test_inspect_from_the_lens_opens_the_inspector_on_it(qtbot: Any, make_window: Any) -> None:
    window, fact, bubble = _ask_where_i_live(qtbot, make_window)

    qtbot.mouseClick(bubble.lens.row_for(fact.id).inspect_button, Qt.MouseButton.LeftButton)
    settle_memory(qtbot, window)

    assert window.inspector_dock.isVisible()
    assert window.inspector.selected_ids() == [fact.id]
    assert window.inspector.detail.detail.item.id == fact.id


def test_exclude_from_the_lens_keeps_it_out_of_the_next_prompt(
    qtbot: Any, make_window: Any
) -> None:
    # Given a reply that used the fact
    window, fact, bubble = _ask_where_i_live(qtbot, make_window)

    # When the user excludes it from this conversation and asks again
    qtbot.mouseClick(bubble.lens.row_for(fact.id).exclude_button, Qt.MouseButton.LeftButton)
    assert not bubble.lens.row_for(fact.id).exclude_button.isEnabled()
    send(qtbot, window, "Where do I live? Porto?")
    wait_for_reply(qtbot, window)

    # Then the next prompt was built without it, and it is still remembered
    again = window.chat.last_reply_view().reply
    assert fact.id not in [r.item.id for r in again.memories_used]
    assert fact.id in window.session.memory.vault


def test_a_memorys_source_opens_the_conversation_and_highlights_the_message(
    qtbot: Any, make_window: Any
) -> None:
    # Given a fact learned from a message in one conversation, and another chat open
    window = make_window(settings=fast_settings(max_tokens=8))
    send(qtbot, window, "Hi, my name is Ana and I live in Lisbon.")
    wait_for_reply(qtbot, window)
    told_in = window.controller.conversation.id
    window.new_chat()
    settle_memory(qtbot, window)
    memory = window.session.memory
    lisbon = next(i for i in memory.items("semantic") if "Lisbon" in i.text)
    window.inspector_dock.show()
    window.inspector.select_memory(lisbon.id)
    qtbot.waitUntil(lambda: window.inspector.detail.detail is not None, timeout=10_000)
    assert "you said it in" in window.inspector.detail.sources_label.text()

    # When the user clicks its source
    source = window.inspector.detail.detail.sources[0]
    window.inspector.detail._link(f"source:{source.episode_id}")

    # Then that conversation is open, and the message the fact came from is highlighted
    assert window.controller.conversation.id == told_in
    highlighted = [b for b in window.chat.bubbles if b.property("highlighted")]
    assert [b.text for b in highlighted] == ["Hi, my name is Ana and I live in Lisbon."]
    marks = highlighted[0].text_view.extraSelections()
    assert marks and "Lisbon" in marks[0].cursor.selectedText()


def test_lens_button_shows_while_the_reply_streams(qtbot: Any, make_window: Any) -> None:
    # Given a remembered fact
    window = make_window(settings=fast_settings(max_tokens=60))
    remember(window, "User lives in Porto", type="fact")
    seen: list[str] = []

    def streaming_button() -> bool:
        bubble = window.chat.streaming
        if bubble is not None and bubble.lens_button.isVisible():
            seen.append(bubble.lens_button.text())
        return bool(seen) or not window.controller.busy

    # When a question that recalls it is sent
    send(qtbot, window, "Where do I live? Porto?")
    qtbot.waitUntil(streaming_button, timeout=120_000)
    wait_for_reply(qtbot, window)

    # Then the lens was there before the reply finished, and says "used" after
    assert seen and seen[0].startswith("using ")
    assert window.chat.last_reply_view().lens_button.text().startswith("used ")
