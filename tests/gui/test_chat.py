"""The chat against the real bundled model: send, stream, stop, regenerate, edit, errors."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.gui.conftest import fast_settings, send, wait_for_reply


def test_send_streams_the_reply_into_the_chat(qtbot: Any, make_window: Any) -> None:
    # Given a window with the model loaded
    window = make_window(settings=fast_settings(max_tokens=60))
    seen_while_streaming: list[str] = []

    def record() -> bool:
        bubble = window.chat.streaming
        if bubble is not None and bubble.text:
            seen_while_streaming.append(bubble.text)
        return len(seen_while_streaming) >= 2

    # When the user types a message and presses Enter
    send(qtbot, window, "Name three colours of the rainbow.")
    qtbot.waitUntil(lambda: record() or not window.controller.busy, timeout=120_000)
    wait_for_reply(qtbot, window)

    # Then the reply appeared piece by piece, and the conversation holds both messages
    conversation = window.controller.conversation
    assert [m.role for m in conversation.messages] == ["user", "assistant"]
    assert conversation.messages[0].content == "Name three colours of the rainbow."
    assert seen_while_streaming, "no text was shown before the reply finished"
    bubble = window.chat.last_reply_view()
    assert bubble.text == conversation.messages[1].content
    assert bubble.lens_button.isVisible()
    assert bubble.lens_button.text() == "used 0 memories"
    assert "tok/s" in window.status.speed_label.text()
    assert window.chat.composer.text == ""
    # and the conversation list shows its new title
    assert window.conversations.model.data(window.conversations.model.index(0)).startswith(
        "Name three colours"
    )


def test_memory_lens_opens_and_emits(qtbot: Any, make_window: Any) -> None:
    window = make_window()
    send(qtbot, window, "Say hello.")
    wait_for_reply(qtbot, window)
    bubble = window.chat.last_reply_view()

    with qtbot.waitSignal(window.memory_lens_did_open) as blocker:
        qtbot.mouseClick(bubble.lens_button, Qt.MouseButton.LeftButton)

    assert blocker.args == [()]
    assert bubble.lens_open


def test_shift_enter_adds_a_line_instead_of_sending(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    edit = window.chat.composer.edit
    qtbot.keyClicks(edit, "first line")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(edit, "second line")

    assert edit.toPlainText() == "first line\nsecond line"
    assert not window.controller.busy


def test_lines_typed_with_shift_enter_are_sent_and_shown_as_lines(
    qtbot: Any, make_window: Any
) -> None:
    window = make_window(settings=fast_settings(max_tokens=8))
    edit = window.chat.composer.edit
    qtbot.keyClicks(edit, "first line")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(edit, "second line")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    wait_for_reply(qtbot, window)

    assert window.controller.conversation.messages[0].content == "first line\nsecond line"
    bubble = next(b for b in window.chat.bubbles if b.role == "user")
    assert bubble.text == "first line\nsecond line"
    shown = bubble.text_view.document().toPlainText()
    assert shown.splitlines() == ["first line", "second line"]


def test_stop_mid_stream_keeps_the_partial_reply(qtbot: Any, make_window: Any) -> None:
    window = make_window(settings=fast_settings(max_tokens=400))
    send(qtbot, window, "Write a long story about a lighthouse keeper.")
    qtbot.waitUntil(lambda: window.controller.pieces >= 5, timeout=120_000)

    with qtbot.waitSignal(window.controller.generation_did_end, timeout=30_000) as blocker:
        qtbot.mouseClick(window.chat.composer.stop_button, Qt.MouseButton.LeftButton)

    reply = blocker.args[0]
    assert reply.result.cancelled
    assert reply.result.completion_tokens < 400
    conversation = window.controller.conversation
    assert conversation.messages[-1].content == reply.text
    assert "stopped" in window.chat.last_reply_view().stats_label.text()
    assert window.chat.composer.send_button.isVisible()


def test_escape_stops_during_prompt_processing(qtbot: Any, make_window: Any) -> None:
    # Given a long message, so prompt processing takes a while
    window = make_window(settings=fast_settings(max_tokens=200, n_ctx=4096))
    long_text = "Summarise this. " + " ".join(f"word{i}" for i in range(500))
    send(qtbot, window, long_text)

    # When Esc is pressed before the first token
    with qtbot.waitSignal(window.controller.generation_did_end, timeout=30_000) as blocker:
        qtbot.keyClick(window, Qt.Key.Key_Escape)
        assert window.controller.pieces == 0

    # Then the turn ends at once with no reply text; the card stays and says it was stopped
    reply = blocker.args[0]
    assert reply.result.cancelled
    assert reply.result.completion_tokens == 0
    card = window.chat.last_reply_view()
    assert card is not None and card.text == ""
    assert "Stopped before the first word" in card.stats_label.text()
    assert window.controller.conversation.messages[-1].role == "user"


def test_regenerate_replaces_the_last_reply(qtbot: Any, make_window: Any) -> None:
    window = make_window(settings=fast_settings(seed=-1, temperature=1.0))
    send(qtbot, window, "Give me a name for a cat.")
    wait_for_reply(qtbot, window)
    first = window.chat.last_reply_view().reply

    with qtbot.waitSignal(window.controller.generation_did_end, timeout=120_000) as blocker:
        qtbot.mouseClick(window.chat.last_reply_view().regenerate_button, Qt.MouseButton.LeftButton)

    second = blocker.args[0]
    assert second is not first
    conversation = window.controller.conversation
    assert [m.role for m in conversation.messages] == ["user", "assistant"]
    assert conversation.messages[1].content == second.text
    assert len(window.chat.bubbles) == 2


def test_a_commands_answer_offers_no_regenerate(qtbot: Any, make_window: Any) -> None:
    window = make_window()
    send(qtbot, window, "/remember my locker code is 9930")
    wait_for_reply(qtbot, window)
    card = window.chat.last_reply_view()
    assert card.reply is not None and card.reply.versions is None
    assert card.regenerate_button.isHidden()
    window.controller.regenerate()  # Ctrl+Shift+R: refused, and the answer stays on screen
    assert "answered a command" in window.chat.composer.error_label.text()
    assert window.chat.last_reply_view() is card


def test_edit_and_resend_replaces_the_exchange(qtbot: Any, make_window: Any) -> None:
    window = make_window()
    send(qtbot, window, "What is 2 + 2?")
    wait_for_reply(qtbot, window)
    user_bubble = window.chat.bubbles[0]

    qtbot.mouseClick(user_bubble.edit_button, Qt.MouseButton.LeftButton)
    assert window.chat.composer.editing
    assert window.chat.composer.text == "What is 2 + 2?"
    window.chat.composer.edit.setPlainText("What is 3 + 3?")
    qtbot.keyClick(window.chat.composer.edit, Qt.Key.Key_Return)
    wait_for_reply(qtbot, window)

    conversation = window.controller.conversation
    assert [m.content for m in conversation.messages][0] == "What is 3 + 3?"
    assert len(conversation.messages) == 2
    assert [b.role for b in window.chat.bubbles] == ["user", "assistant"]
    assert window.chat.bubbles[0].text == "What is 3 + 3?"


def test_copy_puts_the_reply_on_the_clipboard(qtbot: Any, make_window: Any) -> None:
    window = make_window()
    send(qtbot, window, "Say hi.")
    wait_for_reply(qtbot, window)

    window.copy_action.trigger()

    assert QGuiApplication.clipboard().text() == window.controller.conversation.messages[1].content


def test_empty_message_shows_the_error_and_the_app_stays_usable(
    qtbot: Any, make_window: Any
) -> None:
    window = make_window()

    # When Enter is pressed on an empty box
    send(qtbot, window, "   ")
    qtbot.waitUntil(lambda: window.chat.composer.error_label.isVisible(), timeout=10_000)

    # Then the core's message is shown, nothing was added, and sending still works
    assert "empty" in window.chat.composer.error_label.text()
    assert window.controller.conversation.messages == []
    assert not window.controller.busy
    send(qtbot, window, "Hello!")
    assert not window.chat.composer.error_label.isVisible()
    wait_for_reply(qtbot, window)
    assert len(window.controller.conversation.messages) == 2


def test_message_sent_before_the_model_loaded_waits_for_it(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False)
    window.session.load_model()
    send(qtbot, window, "Hi there")
    assert window.controller.busy
    wait_for_reply(qtbot, window)
    assert len(window.controller.conversation.messages) == 2


def test_incognito_toggle_starts_an_incognito_chat_with_a_banner(
    qtbot: Any, make_window: Any
) -> None:
    window = make_window(load_model=False)

    qtbot.mouseClick(window.incognito_button, Qt.MouseButton.LeftButton)

    conversation = window.controller.conversation
    assert conversation.incognito
    assert window.session.assistant.conversation(conversation.id).incognito
    assert window.chat.banner.isVisible()
    assert "Incognito" in window.status.memory_label.text()

    qtbot.mouseClick(window.incognito_button, Qt.MouseButton.LeftButton)

    assert not window.controller.conversation.incognito
    assert not window.chat.banner.isVisible()


def test_ctrl_enter_sends_too(qtbot: Any, make_window: Any) -> None:
    window = make_window()
    window.chat.composer.edit.setPlainText("Hello")
    qtbot.keyClick(
        window.chat.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier
    )
    assert window.controller.busy
    wait_for_reply(qtbot, window)
    assert len(window.controller.conversation.messages) == 2


def test_switching_conversation_mid_stream_stops_it(qtbot: Any, make_window: Any) -> None:
    # Given a reply streaming in one conversation
    window = make_window(settings=fast_settings(max_tokens=400))
    first = window.controller.conversation
    send(qtbot, window, "Tell me a long story about the sea.")
    qtbot.waitUntil(lambda: window.controller.pieces >= 3, timeout=120_000)

    # When the user starts a new chat
    window.new_chat()
    wait_for_reply(qtbot, window)

    # Then the first turn stopped and kept its partial reply; the new chat is empty
    assert [m.role for m in first.messages] == ["user", "assistant"]
    assert window.controller.conversation is not first
    assert window.chat.bubbles == []
    assert window.chat.composer.send_button.isVisible()


def test_a_reasoning_models_thinking_is_folded_above_the_answer(qtbot: Any) -> None:
    from desktop_agent.core.assistant import Reply
    from desktop_agent.gui.message_view import MessageView
    from desktop_agent.llm import GenerationResult

    bubble = MessageView("assistant", "Paris.")
    qtbot.addWidget(bubble)
    bubble.show()
    result = GenerationResult("Paris.", 10, 12, 0, False, "stop", 0.1, 50.0)
    bubble.set_reply(Reply("c", "Paris.", result, thinking="The capital of France is Paris."))
    qtbot.waitUntil(bubble.thinking_button.isVisible, timeout=2000)
    assert not bubble.thinking_view.isVisible()
    assert bubble.text == "Paris."
    bubble.thinking_button.click()
    assert bubble.thinking_view.isVisible()
    assert bubble.thinking_view.text() == "The capital of France is Paris."


def test_export_writes_the_open_conversation_as_markdown_or_json(
    qtbot: Any, make_window: Any, tmp_path: Any
) -> None:
    import json

    window = make_window()
    assert window.export_conversation(tmp_path / "none.md") is None  # nothing said yet
    assert "Nothing to export" in window.status.currentMessage()
    send(qtbot, window, "Say hi.")
    wait_for_reply(qtbot, window)
    reply = window.controller.conversation.messages[1].content

    markdown = window.export_conversation(tmp_path / "chat.md")
    assert markdown is not None
    text = markdown.read_text(encoding="utf-8")
    assert text.startswith("# Say hi.") and "## You\n\nSay hi." in text
    assert reply.strip() in text

    data = json.loads(window.export_conversation(tmp_path / "chat.json").read_text())
    assert [m["role"] for m in data["messages"]] == ["user", "assistant"]
    assert data["messages"][1]["content"] == reply

    assert window.export_conversation(tmp_path / "no-such-folder" / "x.md") is None
    assert window.export_problem.isVisible()  # a failed write is a message, not a crash
    assert "Could not write" in window.export_problem.text()
    window.export_problem.close()


def test_thumbs_up_on_a_reply_is_remembered_as_feedback(qtbot: Any, make_window: Any) -> None:
    from tests.gui.conftest import drain_memory_lane

    window = make_window()
    send(qtbot, window, "How do I boil an egg?")
    wait_for_reply(qtbot, window)
    bubble = window.chat.bubbles[-1]
    assert bubble.thumbs_up.isVisible() and bubble.thumbs_down.isVisible()

    bubble.thumbs_up.click()
    drain_memory_lane()
    qtbot.waitUntil(lambda: "Thanks" in window.status.currentMessage(), timeout=5000)

    assert bubble.thumbs_up.isChecked() and not bubble.thumbs_down.isVisible()
    memory = window.session.memory
    assert memory.item(bubble.reply.episode_id).meta["outcome"] == "positive"
    assert [(s.successes, s.total) for s in memory.strategies()] == [(1, 1)]


def test_a_turn_that_learns_says_memory_updated_with_a_link(qtbot: Any, make_window: Any) -> None:
    window = make_window()
    send(qtbot, window, "I live in Oslo.")
    wait_for_reply(qtbot, window)
    bubble = window.chat.bubbles[-1]
    (learned,) = [m for m in bubble.reply.learned if "Oslo" in m.text]
    assert bubble.learned_label.isVisible()
    assert "Memory updated:" in bubble.learned_label.text()
    assert "User lives in Oslo" in bubble.learned_label.text()

    with qtbot.waitSignal(window.chat.memory_did_request_inspect) as asked:
        bubble.learned_label.linkActivated.emit(f"memory:{learned.id}")
    assert asked.args == [learned.id]

    send(qtbot, window, "How are you?")
    wait_for_reply(qtbot, window)
    assert not hasattr(window.chat.bubbles[-1], "learned_label")  # nothing learned, no note


def test_a_reply_the_model_did_not_write_shows_no_model_timing(
    qtbot: Any, make_window: Any
) -> None:
    window = make_window()
    send(qtbot, window, "/remember I like green tea")
    wait_for_reply(qtbot, window)
    assert "remember" in window.chat.last_reply_view().text
    assert "First token" not in window.status.speed_label.text()


def test_a_chat_forget_erases_the_words_on_screen_and_in_the_title(
    qtbot: Any, make_window: Any
) -> None:
    from tests.gui.conftest import settle_memory

    # Given a chat that told a name, learned it, and was asked to forget it
    window = make_window(settings=fast_settings(max_tokens=8))
    send(qtbot, window, "My boyfriend is called Luca. I work in Leeds.")
    wait_for_reply(qtbot, window)
    assert "Luca" in window.chat.bubbles[1].learned_label.text()
    send(qtbot, window, "please forget everything about Luca")
    wait_for_reply(qtbot, window)
    assert "Luca" in window.chat.last_reply_view().text

    # When the user says yes
    send(qtbot, window, "yes")
    wait_for_reply(qtbot, window)
    settle_memory(qtbot, window)

    # Then no bubble, no "memory updated" line and no title in the list says the name
    shown = [bubble.text for bubble in window.chat.bubbles]
    assert "Forgotten:" in shown[-1]
    assert not any("luca" in text.casefold() for text in shown), shown
    assert not any(
        "Luca" in b.learned_label.text() for b in window.chat.bubbles if hasattr(b, "learned_label")
    )
    conversation = window.controller.conversation
    assert (
        window.conversations.model.data(
            window.conversations.model.index(window.conversations.model.row_of(conversation.id))
        )
        .casefold()
        .count("luca")
        == 0
    )


def test_a_forget_outside_the_chat_redraws_the_open_conversation(
    qtbot: Any, make_window: Any
) -> None:
    from tests.gui.conftest import settle_memory

    window = make_window(settings=fast_settings(max_tokens=8))
    send(qtbot, window, "I work as a veterinary nurse. My cat is called Miso.")
    wait_for_reply(qtbot, window)
    settle_memory(qtbot, window)
    bubble = window.chat.bubbles[1]
    job = next(m for m in bubble.reply.learned if m.subject_key == "job")

    window.session.memory.forget([job.id])  # as the inspector's Forget does, on the memory side

    qtbot.waitUntil(lambda: "nurse" not in window.chat.bubbles[0].text, timeout=10000)
    assert "Miso" in window.chat.bubbles[0].text
    assert "nurse" not in window.chat.bubbles[1].learned_label.text()
    assert "Miso" in window.chat.bubbles[1].learned_label.text()


def test_a_commands_answer_shows_no_token_count_nor_memory_lens(
    qtbot: Any, make_window: Any
) -> None:
    window = make_window(settings=fast_settings(max_tokens=8))
    send(qtbot, window, "/remember I like green tea")
    wait_for_reply(qtbot, window)
    bubble = window.chat.last_reply_view()
    assert "remember" in bubble.text
    assert bubble.stats_label.text() == ""
    assert not bubble.lens_button.isVisible()
