"""Help -> Diagnostics shows the install and the end of the log (issue 11, item 5)."""

from __future__ import annotations

import logging
from typing import Any

from desktop_agent import __version__
from desktop_agent.gui.diagnostics_dialog import DiagnosticsDialog
from desktop_agent.logs import start_logging, stop_logging
from desktop_agent.paths import app_paths


def test_diagnostics_shows_the_version_paths_and_the_log_tail(qtbot: Any) -> None:
    paths = app_paths()
    start_logging(paths)
    try:
        logging.getLogger("desktop_agent.gui.test").warning("consolidation failed (a test)")
        dialog = DiagnosticsDialog(
            paths, "SmolLM2 (2048 tokens of context)", "unlocked, 3 memories"
        )
        qtbot.addWidget(dialog)
        dialog.show()
        assert "consolidation failed (a test)" in dialog.log_view.toPlainText()
        report = dialog.report()
        assert f"desktop-agent {__version__}" in report
        assert str(paths.data_dir) in report and "unlocked, 3 memories" in report
        dialog.copy_all()
        assert dialog.copy_button.text() == "Copied"
    finally:
        stop_logging()


def test_diagnostics_with_no_log_yet_says_so(qtbot: Any) -> None:
    dialog = DiagnosticsDialog(app_paths(), "not loaded", "locked")
    qtbot.addWidget(dialog)
    assert dialog.log_view.toPlainText() == "The log is empty."


def test_help_diagnostics_shows_what_doctor_reports(qtbot: Any, make_window: Any) -> None:
    window = make_window(load_model=False, memory=False)
    window._diagnostics()
    dialog = window.diagnostics_dialog
    qtbot.waitUntil(lambda: "[ok] data dir" in dialog.checks_label.text(), timeout=20_000)
    text = dialog.checks_label.text()
    for part in ("llama.cpp", "embedder", "keyring", "window libraries"):
        assert f"] {part}:" in text
    assert "] model:" not in text  # the window reports its own model; no second load
    assert "[ok] data dir" in dialog.report()
    dialog.close()
