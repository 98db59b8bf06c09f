"""The first-run welcome (issue 12, part 5)."""

from __future__ import annotations

from typing import Any

from desktop_agent.gui.welcome_dialog import WelcomeDialog
from desktop_agent.health import Check
from desktop_agent.paths import app_paths
from tests.gui.conftest import make_app


def test_the_first_run_shows_the_welcome_once(qtbot: Any, make_window: Any) -> None:
    app = make_app()
    window = make_window(load_model=False, memory=False, app=app, welcome_seen=False)
    qtbot.waitUntil(
        lambda: (
            getattr(window, "welcome_dialog", None) is not None
            and window.welcome_dialog.isVisible()
        ),
        timeout=5000,
    )
    dialog = window.welcome_dialog
    texts = " ".join(label.text() for label in dialog.findChildren(type(dialog.keyring_label)))
    assert str(app.paths.data_dir) in texts
    assert "nothing you type leaves it" in texts
    assert "memory inspector" in texts
    qtbot.waitUntil(lambda: "Checking" not in dialog.keyring_label.text(), timeout=10_000)
    assert dialog.keyring_ok  # the test keyring counts as a secure one

    with qtbot.waitSignal(dialog.welcome_did_request_inspector):
        dialog.findChildren(type(dialog.keyring_label))[-1].linkActivated.emit("inspector")
    qtbot.waitUntil(window.inspector_dock.isVisible, timeout=5000)
    window.close()

    again = make_window(load_model=False, memory=False, app=make_app(), welcome_seen=True)
    qtbot.wait(50)
    assert getattr(again, "welcome_dialog", None) is None


def test_without_a_secure_keyring_it_explains_passphrase_mode(qtbot: Any) -> None:
    dialog = WelcomeDialog(app_paths(), "SmolLM2-135M-Instruct")
    qtbot.addWidget(dialog)
    dialog.set_keyring(Check("keyring", False, "no secure OS keyring"))
    assert "passphrase mode" in dialog.keyring_label.text()
    assert not dialog.keyring_ok
    dialog.set_keyring(Check("keyring", True, "passphrase mode: the vault key is wrapped"))
    assert "protected by your passphrase" in dialog.keyring_label.text()


def test_choose_a_model_opens_the_models_page(qtbot: Any) -> None:
    dialog = WelcomeDialog(app_paths(), "SmolLM2-135M-Instruct")
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.welcome_did_request_models):
        dialog.models_button.click()
    assert not dialog.isVisible()
