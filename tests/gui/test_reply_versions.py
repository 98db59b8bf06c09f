"""Reply versions after Regenerate (issue 12, part 3): ‹ n/m › on the reply card switches
between the versions, and the one shown is what memory keeps."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop_agent.core.reply_versions import with_new_version
from tests.gui.conftest import (
    REPLY_TIMEOUT_MS,
    drain_memory_lane,
    fast_settings,
    send,
    wait_for_reply,
)

LEFT = Qt.MouseButton.LeftButton


def stored_reply(window: Any) -> str:
    """The reply of the conversation's one exchange, as the vault holds it now."""
    drain_memory_lane()
    (episode,) = window.session.memory.episodes(window.controller.conversation.id)
    return str(episode.reply_text)


def choose(qtbot: Any, window: Any, button: Any) -> Any:
    with qtbot.waitSignal(window.controller.reply_version_did_change, timeout=30_000) as kept:
        qtbot.mouseClick(button, LEFT)
    return kept.args[0]


def test_regenerate_then_switch_between_the_versions(qtbot: Any, make_window: Any) -> None:
    # Given a reply from the model
    window = make_window(settings=fast_settings(seed=-1, temperature=1.0))
    send(qtbot, window, "Give me a name for a cat.")
    wait_for_reply(qtbot, window)
    first = window.chat.last_reply_view().text
    assert not window.chat.last_reply_view().version_switcher.isVisible()  # one version

    # When it is regenerated
    with qtbot.waitSignal(window.controller.generation_did_end, timeout=REPLY_TIMEOUT_MS) as done:
        qtbot.mouseClick(window.chat.last_reply_view().regenerate_button, LEFT)

    # Then the new card shows the new version as 2/2, and memory keeps it
    second = done.args[0].text
    card = window.chat.last_reply_view()
    switcher = card.version_switcher
    assert switcher.isVisible() and switcher.counter.text() == "2/2"
    assert card.text == second
    assert switcher.previous_button.isEnabled() and not switcher.next_button.isEnabled()
    assert stored_reply(window) == second

    # When ‹ is clicked: version 1 is shown and kept
    kept = choose(qtbot, window, switcher.previous_button)
    assert kept.chosen == 0 and switcher.counter.text() == "1/2"
    assert card.text == first
    assert "tokens" in card.stats_label.text()  # version 1's own figures, from its first card
    assert window.controller.conversation.messages[1].content == first
    assert stored_reply(window) == first
    assert not switcher.previous_button.isEnabled() and switcher.next_button.isEnabled()

    # When › is clicked: version 2 again
    kept = choose(qtbot, window, switcher.next_button)
    assert kept.chosen == 1 and switcher.counter.text() == "2/2"
    assert card.text == second
    assert stored_reply(window) == second


def test_versions_kept_from_an_earlier_session_can_be_switched(
    qtbot: Any, make_window: Any
) -> None:
    # Given an exchange stored with two versions of its reply, the second chosen
    window = make_window(load_model=False)
    memory = window.session.memory
    episode = memory.record_episode(
        "c_0123456789abcdef", "Give me a name for a cat.", "How about **Miso**?"
    )
    memory.update_reply(episode.id, with_new_version("Try **Pepper**: short and sweet.", {}))

    # When the conversation is opened
    window.controller.open("c_0123456789abcdef")

    # Then the card shows 2/2 with buttons named for assistive technology
    card = window.chat.last_reply_view()
    switcher = card.version_switcher
    qtbot.waitUntil(card.isVisible)  # a card added to a shown window appears on the next pass
    assert switcher.isVisible() and switcher.counter.text() == "2/2"
    assert card.text == "Try **Pepper**: short and sweet."
    assert switcher.previous_button.accessibleName() == "Previous version"
    assert switcher.next_button.accessibleName() == "Next version"
    assert "Previous version" in switcher.previous_button.toolTip()
    assert switcher.counter.accessibleName() == "Version 2 of 2"

    # When ‹ is clicked
    choose(qtbot, window, switcher.previous_button)

    # Then version 1 is shown and is what the vault keeps
    assert switcher.counter.text() == "1/2" and card.text == "How about **Miso**?"
    assert stored_reply(window) == "How about **Miso**?"
