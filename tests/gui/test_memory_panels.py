"""The episodes timeline and "What I know about you", over a real vault and the real model."""

from __future__ import annotations

from typing import Any

from desktop_agent.core.procedures import record_outcome
from desktop_agent.gui import forget_dialogs
from tests.gui.conftest import (
    fast_settings,
    remember,
    send,
    settle_memory,
    show_panel,
    wait_for_reply,
)


def test_timeline_forget_cascades_to_what_was_learned(
    qtbot: Any, make_window: Any, monkeypatch: Any
) -> None:
    # Given a conversation that taught two facts, and another one
    window = make_window(settings=fast_settings(max_tokens=8))
    send(qtbot, window, "I'm allergic to peanuts.")
    wait_for_reply(qtbot, window)
    send(qtbot, window, "I work as a nurse.")
    wait_for_reply(qtbot, window)
    doomed = window.controller.conversation.id
    window.new_chat()
    send(qtbot, window, "I love hiking.")
    wait_for_reply(qtbot, window)
    window.timeline_dock.show()
    settle_memory(qtbot, window)
    memory = window.session.memory
    learned = [i.id for i in memory.items("semantic")]
    assert len(learned) == 3
    episodes = [e.id for e in memory.episodes(doomed)]
    from_doomed = [i.id for i in memory.learned_from(episodes)]
    assert len(from_doomed) == 2
    timeline = window.timeline
    item = timeline.item_for(doomed)
    assert item is not None and item.childCount() == 2 and item.text(2) == "2"

    # When the user forgets that conversation from the timeline
    monkeypatch.setattr(forget_dialogs, "confirm", lambda *_a: True)
    timeline.tree.setCurrentItem(item)
    timeline.forget_button.click()
    settle_memory(qtbot, window)

    # Then its episodes and what was learned only from it are gone from the vault
    assert memory.episodes(doomed) == []
    remaining = [i.text for i in memory.items("semantic")]
    assert remaining == ["User loves hiking"]
    assert timeline.item_for(doomed) is None
    assert {*episodes, *from_doomed} <= set(timeline.last_receipt.ids)
    assert window.conversations.model.row_of(doomed) == -1


def test_timeline_opens_an_exchange_in_the_chat(qtbot: Any, make_window: Any) -> None:
    window = make_window(settings=fast_settings(max_tokens=8))
    send(qtbot, window, "Plan a trip to Japan")
    wait_for_reply(qtbot, window)
    conversation_id = window.controller.conversation.id
    window.new_chat()
    show_panel(window, "timeline")
    settle_memory(qtbot, window)

    episode = window.timeline.item_for(conversation_id).child(0)
    window.timeline._open_item(episode, 0)  # a double-click

    assert window.controller.conversation.id == conversation_id
    assert [b.text for b in window.chat.bubbles if b.property("highlighted")] == [
        "Plan a trip to Japan"
    ]


def test_what_i_know_groups_by_type_and_shows_strategies(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    show_panel(window, "profile")
    remember(window, "User prefers short answers", type="preference")
    remember(window, "User lives in Porto", type="fact")
    remember(window, "User is allergic to peanuts", type="risk")
    record_outcome(window.session.memory, "question", "concise", True)
    record_outcome(window.session.memory, "question", "concise", True)
    settle_memory(qtbot, window)
    profile = window.profile

    groups = [profile.known_tree.topLevelItem(i).text(0) for i in range(3)]
    assert groups == ["Facts (1)", "Preferences (1)", "Things to watch out for (1)"]
    strategy = profile.strategy_tree.topLevelItem(0)
    assert [strategy.text(c) for c in range(4)] == ["question", "short answers", "75%", "2 of 2"]
    assert "3 things" in profile.summary_label.text()


def test_a_panel_opened_comes_to_the_front_of_the_shared_dock(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    window.resize(1180, 760)
    window.inspector_dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: not window.inspector_dock.visibleRegion().isEmpty(), timeout=5_000)

    window.timeline_dock.toggleViewAction().trigger()

    qtbot.waitUntil(lambda: not window.timeline_dock.visibleRegion().isEmpty(), timeout=5_000)
    assert window.inspector_dock.visibleRegion().isEmpty()  # behind it, as a tab
