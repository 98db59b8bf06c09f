"""Getting a model in the window, as a user would: pick a catalog model, watch it download
(from a loopback server serving the bundled GGUF), switch to it without restarting; a cut
download resumes and a wrong file is refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from desktop_agent.gui import models_panel
from desktop_agent.gui.settings_dialog import SettingsDialog
from desktop_agent.llm.model_file import bundled_model_path
from desktop_agent.models.catalog import catalog
from desktop_agent.models.download import file_sha256
from tests.gui.conftest import MODEL_TIMEOUT_MS
from tests.models.test_download import Served, model_bytes, server  # noqa: F401 (fixtures)


@pytest.fixture
def loopback_catalog(
    server: tuple[str, Served],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> Served:
    url, served = server
    bundled = bundled_model_path()
    assert bundled is not None
    entry = replace(
        catalog()[0],
        name="loopback-model",
        title="Loopback model",
        file="loopback-model.gguf",
        url=url,
        size_bytes=bundled.stat().st_size,
        sha256=file_sha256(bundled),
        ram_gb=0.5,
    )
    monkeypatch.setattr(models_panel, "catalog", lambda: (entry,))
    return served


def _open_panel(qtbot: Any, window: Any) -> SettingsDialog:
    dialog = SettingsDialog(window.session.settings, window, session=window.session)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.tabs.setCurrentWidget(dialog.models_panel)
    dialog.models_panel.table.selectRow(0)
    return dialog


def test_download_verify_and_switch_without_restarting(
    qtbot: Any, make_window: Any, loopback_catalog: Served
) -> None:
    window = make_window()
    dialog = _open_panel(qtbot, window)
    panel = dialog.models_panel
    assert panel.table.item(0, 4).text() in ("Recommended", "")

    panel.download_button.click()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=60_000)
    assert panel.table.item(0, 4).text() == "Installed"
    assert "installed and verified" in panel.status.text()

    panel.use_button.click()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    window.session.apply_settings(dialog.result_settings())
    qtbot.waitUntil(lambda: window.session.model_info is not None, timeout=MODEL_TIMEOUT_MS)
    assert Path(window.session.model_info.model_path).name == "loopback-model.gguf"


def test_a_cut_download_resumes_and_a_wrong_file_is_refused(
    qtbot: Any,
    make_window: Any,
    loopback_catalog: Served,
) -> None:
    window = make_window(load_model=False, memory=False)
    dialog = _open_panel(qtbot, window)
    panel = dialog.models_panel
    whole = loopback_catalog.body

    loopback_catalog.cut_at = len(whole) // 3
    panel.download_button.click()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=60_000)
    assert "resume" in panel.status.text()
    assert panel.table.item(0, 4).text() == "Paused: download to resume"

    panel.download_button.click()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=60_000)
    assert panel.table.item(0, 4).text() == "Installed"
    assert loopback_catalog.ranges[-1] == f"bytes={len(whole) // 3}-"

    panel.remove_button.click()
    loopback_catalog.body = whole[:-1] + b"\0"
    panel.download_button.click()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=60_000)
    assert "checksum mismatch" in panel.status.text()
    assert panel.table.item(0, 4).text() != "Installed"


def test_nothing_is_downloaded_without_a_click(
    qtbot: Any, make_window: Any, loopback_catalog: Served
) -> None:
    window = make_window(load_model=False, memory=False)

    def close() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        dialog.tabs.setCurrentWidget(dialog.models_panel)
        dialog.reject()

    QTimer.singleShot(0, close)
    window.settings_action.trigger()
    assert loopback_catalog.ranges == []
