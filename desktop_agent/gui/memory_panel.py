"""What every memory panel shares: it reads through the session's memory lane, refreshes
(coalesced) from ``memory_did_change``, and says why when memory is locked or unavailable.
A hidden panel does not refresh: it remembers that it should, and does when it is shown (a
large store's table is built only when someone looks at it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QProgressBar, QStackedWidget, QVBoxLayout, QWidget

from desktop_agent.core.memory_service import MemoryService
from desktop_agent.errors import UserError
from desktop_agent.gui.session import MemoryUnavailable, Session

REFRESH_MS = 120  # one turn writes several times; redraw once


class MemoryPanel(QWidget):
    """A panel over memory. Subclasses build ``content`` and implement ``reload()``."""

    panel_did_report = Signal(str)  # a one-line message for the status bar

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.loading = 0  # reads in flight (tests wait for 0)
        self.stale = False  # a refresh was skipped while hidden
        self.stack = QStackedWidget(self)
        self.content = QWidget()
        self.problem_label = QLabel(objectName="panelProblem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        problem_page = QWidget()
        problem_layout = QVBoxLayout(problem_page)
        problem_layout.setContentsMargins(24, 24, 24, 24)
        problem_layout.addStretch(1)
        problem_layout.addWidget(self.problem_label)
        self.progress = QProgressBar(maximumWidth=220, textVisible=False)
        self.progress.setRange(0, 0)  # unlocking has no measurable steps
        problem_layout.addWidget(self.progress, 0, Qt.AlignmentFlag.AlignHCenter)
        problem_layout.addStretch(2)
        self.stack.addWidget(self.content)
        self.stack.addWidget(problem_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self._refresh_timer = QTimer(self, singleShot=True, interval=REFRESH_MS)
        self._refresh_timer.timeout.connect(self.refresh)
        session.memory_did_change.connect(self._changed)
        session.memory_did_open.connect(self._opened)
        session.memory_did_lock.connect(self._unavailable)
        session.memory_did_fail.connect(self._unavailable)
        session.loading_did_change.connect(self._loading_changed)

    @property
    def memory_ready(self) -> bool:
        return self.session.memory.is_open

    def start(self) -> None:
        """Show the current state: data if memory is open, else why not."""
        if self.memory_ready:
            self._opened(self.session.memory)
        else:
            self._unavailable()

    # --- reading and writing through the memory lane ---
    def read(self, work: Callable[[MemoryService], Any], done: Callable[[Any], None]) -> None:
        self.loading += 1

        def finished(result: Any) -> None:
            self.loading -= 1
            done(result)

        self.session.run_memory(
            work, on_done=finished, on_error=self._read_failed, name="read", owner=self
        )

    def write(
        self,
        work: Callable[[MemoryService], Any],
        done: Callable[[Any], None] | None = None,
        name: str = "write",
    ) -> None:
        self.loading += 1

        def finished(result: Any) -> None:
            self.loading -= 1
            if done is not None:
                done(result)

        self.session.run_memory(
            work, on_done=finished, on_error=self._write_failed, name=name, owner=self
        )

    @Slot(object)
    def _read_failed(self, error: BaseException) -> None:
        self.loading -= 1
        if not isinstance(error, MemoryUnavailable):
            self.panel_did_report.emit(f"Could not read memory: {_message(error)}")

    @Slot(object)
    def _write_failed(self, error: BaseException) -> None:
        self.loading -= 1
        self.panel_did_report.emit(f"Not saved: {_message(error)}")

    # --- state ---
    def refresh(self) -> None:
        if not self.memory_ready:
            return
        if not self.isVisible():
            self.stale = True
            return
        self.stale = False
        self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.stale:
            self._refresh_timer.start()

    def reload(self) -> None:
        raise NotImplementedError

    def clear(self) -> None:
        """Drop what is shown (memory was locked)."""

    @Slot(object)
    def _changed(self, _change: object) -> None:
        self._refresh_timer.start()

    @Slot(object)
    def _opened(self, _memory: object) -> None:
        self.stack.setCurrentIndex(0)
        self.refresh()

    @Slot()
    def _unavailable(self, *_: object) -> None:
        self.clear()
        self.stale = False
        self.progress.setVisible(self.session.memory_opening)
        if self.session.memory_opening:
            text = "Unlocking memory…"
        else:
            problem = self.session.memory_problem or "Memory is not open."
            text = f"<b>Memory is unavailable</b><br><br>{problem}"
        self.problem_label.setText(text)
        self.stack.setCurrentIndex(1)

    @Slot(str)
    def _loading_changed(self, _text: str) -> None:
        if not self.memory_ready and self.session.memory_opening:
            self._unavailable()


def _message(error: BaseException) -> str:
    return str(error) if isinstance(error, UserError | MemoryUnavailable) else repr(error)
