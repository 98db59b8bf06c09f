"""Light and dark themes that follow the system, and the app's icons tinted to match.

Qt's own palette follows the desktop only on some platforms, so the app reads
``QStyleHints.colorScheme()`` and builds a Fusion palette plus one stylesheet from a small set of
colours; it rebuilds both when the system scheme changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, Qt, Signal, Slot
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

# Icons ship inside the package (package data), so an installed wheel has them too.
ICON_DIR = Path(str(resources.files("desktop_agent").joinpath("resources", "icons")))
ICON_SIZES = (16, 20, 24, 32, 48, 64)


@dataclass(frozen=True, slots=True)
class Theme:
    dark: bool
    window: str
    base: str
    panel: str
    text: str
    muted: str
    border: str
    accent: str
    accent_text: str
    user_bubble: str
    assistant_bubble: str
    code_bg: str
    incognito: str
    incognito_text: str
    error: str
    highlight: str
    chip: str


LIGHT = Theme(
    dark=False,
    window="#f4f5f8",
    base="#ffffff",
    panel="#eceef3",
    text="#1c2230",
    muted="#687083",
    border="#dcdfe6",
    accent="#5046e5",
    accent_text="#ffffff",
    user_bubble="#e9e8ff",
    assistant_bubble="#ffffff",
    code_bg="#f1f2f5",
    incognito="#3d1f66",
    incognito_text="#f4ecff",
    error="#b42318",
    highlight="#ffe9a8",
    chip="#e3e1fb",
)

DARK = Theme(
    dark=True,
    window="#1b1c21",
    base="#23242a",
    panel="#202127",
    text="#e7e8ec",
    muted="#9a9fad",
    border="#363842",
    accent="#8c86ff",
    accent_text="#14131f",
    user_bubble="#33335a",
    assistant_bubble="#26272e",
    code_bg="#16171b",
    incognito="#6b2fd6",
    incognito_text="#ffffff",
    error="#ff8a80",
    highlight="#6b5412",
    chip="#3a3868",
)


def system_is_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def current_theme() -> Theme:
    return _state.theme


class _ThemeState(QObject):
    theme_did_change = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.theme = LIGHT
        self.forced: bool | None = None
        self.following = False

    @Slot()
    def refresh(self) -> None:
        dark = system_is_dark() if self.forced is None else self.forced
        apply_theme(DARK if dark else LIGHT)


_state = _ThemeState()


def theme_signals() -> _ThemeState:
    """The object whose ``theme_did_change(theme)`` fires after the theme changed."""
    return _state


def install_theme(app: QApplication, *, dark: bool | None = None) -> Theme:
    """Use Fusion, pick light or dark (``dark=None`` follows the system) and keep following."""
    app.setStyle("Fusion")
    _state.forced = dark
    if not _state.following:
        app.styleHints().colorSchemeChanged.connect(_state.refresh)
        _state.following = True
    _state.refresh()
    return _state.theme


def apply_theme(theme: Theme) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    _state.theme = theme
    tinted_icon.cache_clear()
    app.setPalette(_palette(theme))
    app.setStyleSheet(stylesheet(theme))
    _state.theme_did_change.emit(theme)


def _palette(t: Theme) -> QPalette:
    p = QPalette()
    role = QPalette.ColorRole
    for r, colour in (
        (role.Window, t.window),
        (role.WindowText, t.text),
        (role.Base, t.base),
        (role.AlternateBase, t.panel),
        (role.Text, t.text),
        (role.Button, t.base),
        (role.ButtonText, t.text),
        (role.Highlight, t.accent),
        (role.HighlightedText, t.accent_text),
        (role.ToolTipBase, t.base),
        (role.ToolTipText, t.text),
        (role.PlaceholderText, t.muted),
        (role.Link, t.accent),
        (role.Mid, t.border),
        (role.Dark, t.border),
    ):
        p.setColor(r, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for r in (role.Text, role.ButtonText, role.WindowText):
        p.setColor(disabled, r, QColor(t.muted))
    return p


def stylesheet(t: Theme) -> str:
    return f"""
QMainWindow, QDialog {{ background: {t.window}; }}
QToolBar {{ background: {t.window}; border: none; border-bottom: 1px solid {t.border};
    spacing: 4px; padding: 4px 8px; }}
QToolBar QToolButton {{ padding: 5px 8px; border-radius: 6px; }}
QToolButton:hover {{ background: {t.panel}; }}
QToolButton:checked {{ background: {t.user_bubble}; }}
QToolButton#incognitoToggle:checked {{ background: {t.incognito}; color: {t.incognito_text}; }}
QDockWidget::title {{ padding: 6px 10px; background: {t.panel}; color: {t.muted}; }}
QWidget#conversationPanel {{ background: {t.panel}; }}
QListView#conversationList {{ background: {t.panel}; border: none; outline: none; }}
QListView#conversationList::item {{ padding: 8px 10px; border-radius: 8px; margin: 1px 6px; }}
QListView#conversationList::item:selected {{ background: {t.user_bubble}; color: {t.text}; }}
QListView#conversationList::item:hover:!selected {{ background: {t.border}; }}
QLineEdit, QPlainTextEdit {{
    background: {t.base}; border: 1px solid {t.border}; border-radius: 8px; padding: 5px 8px; }}
QLineEdit:focus, QPlainTextEdit:focus {{ border: 1px solid {t.accent}; }}
QScrollArea#transcript, QWidget#transcriptBody {{ background: {t.window}; border: none; }}
QFrame#bubbleUser {{ background: {t.user_bubble}; border-radius: 14px; }}
QFrame#bubbleAssistant {{ background: {t.assistant_bubble}; border: 1px solid {t.border};
    border-radius: 14px; }}
QFrame#bubbleError {{ background: transparent; border: 1px solid {t.error};
    border-radius: 10px; }}
QLabel#bubbleRole {{ color: {t.muted}; font-weight: 600; }}
QLabel#bubbleStats, QLabel#mutedLabel {{ color: {t.muted}; }}
QLabel#errorLabel {{ color: {t.error}; }}
QTextBrowser#bubbleText {{ background: transparent; border: none; }}
QToolButton#bubbleAction {{ padding: 2px 6px; border-radius: 6px; color: {t.muted}; }}
QToolButton#memoryLensButton {{ padding: 2px 8px; border-radius: 10px; color: {t.accent};
    border: 1px solid {t.border}; }}
QToolButton#memoryLensButton:checked {{ background: {t.user_bubble}; }}
QFrame#memoryLens {{ background: {t.panel}; border-radius: 10px; }}
QFrame#composerFrame {{ background: {t.base}; border: 1px solid {t.border}; border-radius: 14px; }}
QPlainTextEdit#composer {{ border: none; background: transparent; padding: 4px; }}
QPushButton#sendButton, QPushButton#stopButton {{ border-radius: 16px; min-width: 32px;
    max-width: 32px; min-height: 32px; max-height: 32px; padding: 0; border: none; }}
QPushButton#sendButton {{ background: {t.accent}; }}
QPushButton#sendButton:disabled {{ background: {t.border}; }}
QPushButton#stopButton {{ background: {t.text}; }}
QFrame#incognitoBanner {{ background: {t.incognito}; }}
QFrame#incognitoBanner QLabel {{ color: {t.incognito_text}; }}
QFrame#editBar {{ background: {t.panel}; border-radius: 8px; }}
QLabel#emptyTitle {{ font-size: 20pt; font-weight: 600; }}
QLabel#emptyHint {{ color: {t.muted}; }}
QStatusBar {{ background: {t.panel}; color: {t.muted}; border-top: 1px solid {t.border}; }}
QStatusBar QLabel {{ color: {t.muted}; padding: 0 6px; }}
QGroupBox {{ border: 1px solid {t.border}; border-radius: 10px; margin-top: 14px;
    padding: 12px 10px 8px 10px; font-weight: 600; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 12px; padding: 0 4px; }}
QLabel#hintLabel {{ color: {t.muted}; font-weight: normal; }}
QFrame#bubbleUser[highlighted="true"], QFrame#bubbleAssistant[highlighted="true"] {{
    border: 2px solid {t.accent}; }}
QFrame#lensRow {{ background: {t.base}; border: 1px solid {t.border}; border-radius: 8px; }}
QLabel#lensScore {{ background: {t.accent}; color: {t.accent_text}; border-radius: 6px;
    font-weight: 600; min-width: 38px; padding: 3px 4px; }}
QLabel#kindChip {{ background: {t.chip}; color: {t.accent}; border-radius: 4px;
    font-size: 8pt; font-weight: 700; padding: 1px 5px; }}
QFrame#inboxRow {{ background: {t.base}; border: 1px solid {t.border}; border-radius: 8px; }}
QWidget#inboxBody, QScrollArea#inboxScroll {{ background: transparent; border: none; }}
QLabel#sectionTitle {{ font-weight: 600; color: {t.text}; padding-top: 6px; }}
QLabel#detailStatus {{ color: {t.muted}; }}
QScrollArea#memoryDetail, QWidget#memoryDetailBody {{ background: {t.base}; border: none; }}
QTableView, QTreeView {{ background: {t.base}; alternate-background-color: {t.window};
    border: 1px solid {t.border}; border-radius: 6px; selection-background-color: {t.user_bubble};
    selection-color: {t.text}; }}
QHeaderView::section {{ background: {t.panel}; color: {t.muted}; border: none;
    border-bottom: 1px solid {t.border}; padding: 4px 6px; }}
QPushButton#dangerButton {{ color: {t.error}; }}
QTreeView#timelineTree::item, QTreeView#knownTree::item, QTreeView#strategyTree::item {{
    padding: 3px 2px; }}
QLabel#panelProblem {{ color: {t.muted}; }}
QTabWidget#inspectorTabs::pane {{ border: none; }}
QScrollArea#settingsScroll, QWidget#settingsMemoryPage {{ background: transparent; }}
"""


@cache
def tinted_icon(name: str, colour: str) -> QIcon:
    """``desktop_agent/resources/icons/<name>.svg`` with ``currentColor`` replaced, at every common size
    (so it stays sharp on high-DPI screens); an empty icon if the file is missing."""
    path = ICON_DIR / f"{name}.svg"
    if not path.exists() or QGuiApplication.instance() is None:  # pixmaps need the app
        return QIcon()
    svg = path.read_text(encoding="utf-8").replace("currentColor", colour)
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    icon = QIcon()
    for size in ICON_SIZES:
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        renderer.render(painter)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def icon(name: str, colour: str | None = None) -> QIcon:
    """An app icon in the theme's text colour (or ``colour``)."""
    return tinted_icon(name, colour or current_theme().text)


def app_icon() -> QIcon:
    path = ICON_DIR / "app.svg"
    return QIcon(str(path)) if path.exists() else QIcon()
