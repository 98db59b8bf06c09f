"""The status bar: what is loading, the model, the last reply's speed, and memory on or off."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QWidget

from desktop_agent.gui.theme import current_theme, icon


class StatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizeGripEnabled(False)
        self.progress = QProgressBar(maximumWidth=110, maximumHeight=12, textVisible=False)
        self.progress.setRange(0, 0)  # busy indicator: loading has no measurable steps
        self.loading_label = QLabel("")
        self.addWidget(self.progress)
        self.addWidget(self.loading_label)
        self.model_icon = QLabel()
        self.model_label = QLabel("No model yet")
        self.speed_label = QLabel("")
        self.memory_label = QLabel("")
        self.addPermanentWidget(self.memory_label)
        self.addPermanentWidget(self.speed_label)
        self.addPermanentWidget(self.model_icon)
        self.addPermanentWidget(self.model_label)
        self.retint()
        self.set_loading("")

    def retint(self) -> None:
        self.model_icon.setPixmap(icon("model", current_theme().muted).pixmap(14, 14))

    def set_loading(self, text: str) -> None:
        self.loading_label.setText(text)
        self.loading_label.setVisible(bool(text))
        self.progress.setVisible(bool(text))

    def set_model(self, name: str, detail: str = "") -> None:
        self.model_label.setText(name)
        self.model_label.setToolTip(detail)

    def set_speed(self, tokens_per_second: float | None, note: str = "") -> None:
        text = f"{tokens_per_second:.1f} tok/s" if tokens_per_second else ""
        self.speed_label.setText(" · ".join(part for part in (note, text) if part))

    def set_memory(
        self, enabled: bool, incognito: bool, problem: str | None = None, opening: bool = False
    ) -> None:
        self.memory_label.setToolTip(problem or "")
        if incognito:
            self.memory_label.setText("Incognito: not remembered")
        elif not enabled:
            self.memory_label.setText("Memory paused")
        elif opening:
            self.memory_label.setText("Memory unlocking")
        elif problem:
            self.memory_label.setText(
                "Memory unavailable" if "locked" not in problem.lower() else "Memory locked"
            )
        else:
            self.memory_label.setText("Memory on")
