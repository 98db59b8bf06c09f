"""`desktop-agent gui`: build the Qt application and the main window, then run."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_agent.gui.theme import app_icon, install_theme


def qt_application(*, dark: bool | None = None) -> QApplication:
    """The one QApplication, themed (``dark=None`` follows the system)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        install_theme(existing, dark=dark)
        return existing
    # Fractional scale factors (125 %, 150 %) render crisply instead of rounding.
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    QCoreApplication.setApplicationName("desktop-agent")
    QCoreApplication.setOrganizationName("desktop-agent")
    QGuiApplication.setApplicationDisplayName("desktop-agent")
    QGuiApplication.setDesktopFileName("desktop-agent")
    app = QApplication(sys.argv[:1])
    app.setWindowIcon(app_icon())
    install_theme(app, dark=dark)
    return app


def launch(model: str | None, screenshot_dir: Path | None) -> int:
    """Open the window (or, with ``screenshot_dir``, render the views to PNG files)."""
    if screenshot_dir is not None:
        from desktop_agent.gui.screenshot import take_screenshots

        return take_screenshots(Path(screenshot_dir), model)

    from desktop_agent.app import App
    from desktop_agent.errors import UserError
    from desktop_agent.gui.main_window import MainWindow
    from desktop_agent.gui.session import Session

    qt_app = qt_application()
    try:
        app = App(model_override=Path(model) if model else None)
        session = Session(app)
        window = MainWindow(session)
    except UserError as error:
        QMessageBox.critical(None, "desktop-agent cannot start", str(error))
        return error.exit_code
    window.show()
    # The window is up; now the slow parts, in the background.
    session.load_model()
    session.load_embedder()
    if app.settings.memory.enabled:
        session.open_memory()
    code = qt_app.exec()
    window.controller.stop()
    app.engine.close()
    app.close()
    return code
