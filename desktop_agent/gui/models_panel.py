"""The Models tab of Settings: the reviewed catalog with what fits this machine, downloads the
user starts (progress, speed, time left, cancel; resumed after a cut; verified before use),
and choosing a model. Nothing is downloaded unless the user clicks Download."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.errors import UserError
from desktop_agent.gui.theme import icon
from desktop_agent.llm.model_file import physical_cores, total_memory_bytes
from desktop_agent.models.catalog import CatalogModel, catalog, recommended
from desktop_agent.models.download import Progress, download

COLUMNS = ("Model", "Size", "Needs RAM", "License", "Status")

logger = logging.getLogger(__name__)


class _Relay(QObject):
    """Carries a download thread's news to the GUI thread."""

    progressed = Signal(object)
    finished = Signal(object, str)  # path or None, error message


class ModelsPanel(QWidget):
    """``use_model(path)`` is called when the user picks an installed model."""

    def __init__(
        self,
        models_dir: Path,
        use_model: Callable[[Path], None],
        models: Sequence[CatalogModel] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, objectName="modelsPanel")
        self.models_dir = models_dir
        self.models = tuple(models if models is not None else catalog())
        self._use_model = use_model
        self._cancel: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._relay = _Relay()
        self._relay.progressed.connect(self._show_progress)
        self._relay.finished.connect(self._done)
        ram = total_memory_bytes()
        self._ram = ram
        self._best = recommended(ram, physical_cores())
        self._build()
        self.refresh()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        ram = f"{self._ram / 2**30:.0f} GB of RAM" if self._ram else "unknown RAM"
        intro = QLabel(
            f"Reviewed models for llama.cpp. This computer has {ram} and "
            f"{physical_cores()} cores. Downloads are checked against their published sha256 "
            "before they can be used; a cut download resumes where it stopped.",
            objectName="hintLabel",
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(0, len(COLUMNS), objectName="modelsTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.table, 1)
        self.progress = QProgressBar(objectName="modelProgress")
        self.progress.setRange(0, 1000)
        self.progress.hide()
        self.status = QLabel(objectName="modelStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        row = QHBoxLayout()
        self.download_button = QPushButton(icon("import"), "Download")
        self.cancel_button = QPushButton(icon("stop"), "Cancel download")
        self.use_button = QPushButton(icon("check"), "Use this model")
        self.remove_button = QPushButton(icon("delete"), "Remove")
        self.download_button.clicked.connect(self.start_download)
        self.cancel_button.clicked.connect(self.cancel_download)
        self.use_button.clicked.connect(self._use)
        self.remove_button.clicked.connect(self._remove)
        for button in (self.download_button, self.cancel_button, self.use_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.remove_button)
        layout.addLayout(row)

    # --- state ---
    def path_of(self, model: CatalogModel) -> Path:
        return self.models_dir / model.file

    def selected(self) -> CatalogModel | None:
        rows = self.table.selectionModel().selectedRows()
        return self.models[rows[0].row()] if rows else None

    def refresh(self) -> None:
        chosen = self.selected()
        self.table.setRowCount(len(self.models))
        for index, model in enumerate(self.models):
            cells = (
                f"{model.title}  ({model.parameters}, {model.quantization})",
                f"{model.size_bytes / 2**30:.1f} GB",
                f"{model.ram_gb:.0f} GB",
                model.license,
                self._status(model),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(model.summary if column == 0 else text)
                self.table.setItem(index, column, item)
        if chosen is not None:
            self.table.selectRow(self.models.index(chosen))
        self._update_buttons()

    def _status(self, model: CatalogModel) -> str:
        if self.path_of(model).exists():
            return "Installed"
        if self._thread is not None and self._downloading == model:
            return "Downloading…"
        if not model.fits(self._ram):
            return "Too big for this computer"
        if self._best is not None and model.name == self._best.name:
            return "Recommended"
        part = self.path_of(model).with_name(model.file + ".part")
        return "Paused: download to resume" if part.exists() else ""

    _downloading: CatalogModel | None = None

    @Slot()
    def _update_buttons(self) -> None:
        model = self.selected()
        busy = self._thread is not None
        installed = model is not None and self.path_of(model).exists()
        self.download_button.setEnabled(model is not None and not installed and not busy)
        self.cancel_button.setVisible(busy)
        self.use_button.setEnabled(installed)
        self.remove_button.setEnabled(installed and not busy)

    # --- actions ---
    @Slot()
    def start_download(self) -> None:
        model = self.selected()
        if model is None or self._thread is not None:
            return
        self._downloading = model
        self._cancel = threading.Event()
        cancel, relay, target = self._cancel, self._relay, self.path_of(model)

        def run() -> None:
            try:
                path = download(
                    model.url, target, model.sha256, progress=relay.progressed.emit, cancel=cancel
                )
            except UserError as error:
                relay.finished.emit(None, str(error))
                return
            except Exception as error:  # never let a download take the window down
                logger.exception("model download failed")
                relay.finished.emit(None, f"download failed: {error}")
                return
            relay.finished.emit(path, "")

        self.progress.setValue(0)
        self.progress.show()
        self.status.setText(f"Downloading {model.title}…")
        self._thread = threading.Thread(target=run, name="model-download", daemon=True)
        self._thread.start()
        self.refresh()

    @Slot()
    def cancel_download(self) -> None:
        if self._cancel is not None:
            self._cancel.set()

    @Slot(object)
    def _show_progress(self, progress: Progress) -> None:
        if progress.fraction is not None:
            self.progress.setValue(int(progress.fraction * 1000))
        left = progress.seconds_left
        eta = f", about {_duration(left)} left" if left is not None else ""
        total = f" of {progress.total / 2**20:.0f}" if progress.total else ""
        self.status.setText(
            f"{progress.done / 2**20:.0f}{total} MB at "
            f"{progress.bytes_per_second / 2**20:.1f} MB/s{eta}"
        )

    @Slot(object, str)
    def _done(self, path: Path | None, error: str) -> None:
        model = self._downloading
        self._thread, self._cancel, self._downloading = None, None, None
        self.progress.hide()
        if path is None:
            self.status.setText(error)
        else:
            title = model.title if model else path.name
            self.status.setText(f"{title} is installed and verified: choose “Use this model”.")
        self.refresh()

    @Slot()
    def _use(self) -> None:
        model = self.selected()
        if model is not None and self.path_of(model).exists():
            self._use_model(self.path_of(model))
            self.status.setText(f"{model.title} is chosen: Save to switch to it.")

    @Slot()
    def _remove(self) -> None:
        model = self.selected()
        if model is not None and self.path_of(model).exists():
            self.path_of(model).unlink()
            self.status.setText(f"Removed {model.title}.")
            self.refresh()

    def busy(self) -> bool:
        return self._thread is not None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"
