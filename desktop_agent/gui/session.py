"""The App as the GUI sees it: the core service, plus the slow parts loading in the background.

The window appears at once; the model and the embedder load on background threads and this
object says what is still loading. Saving new settings rebuilds the engine when the model,
context size or threads changed.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QObject, Signal, Slot

from desktop_agent.app import App
from desktop_agent.core.assistant import Assistant
from desktop_agent.gui.workers import Task, run_in_background
from desktop_agent.llm.types import EngineInfo
from desktop_agent.settings import Settings, save_settings

ENGINE_FIELDS = ("path", "n_ctx", "n_threads", "chat_template")


class Session(QObject):
    """Owns the App for the window; panels get ``session.assistant``, never the window."""

    model_did_load = Signal(object)  # EngineInfo
    model_did_fail = Signal(str)
    embedder_did_load = Signal()
    embedder_did_fail = Signal(str)
    loading_did_change = Signal(str)  # what is still loading, "" when nothing is
    settings_did_change = Signal(object)  # Settings

    def __init__(self, app: App, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.model_info: EngineInfo | None = None
        self.embedder_ready = False
        self._loading: dict[str, str] = {}
        self.tasks: list[Task] = []

    @property
    def assistant(self) -> Assistant:
        return self.app.assistant

    @property
    def settings(self) -> Settings:
        return self.app.settings

    @property
    def loading_text(self) -> str:
        return " · ".join(self._loading.values())

    # --- background loads ---
    def load_model(self) -> Task:
        engine = self.app.engine
        self._set_loading("model", "Loading model…")

        def load() -> EngineInfo:
            engine.start()
            return engine.info

        task = run_in_background(
            load, on_done=self._model_loaded, on_error=self._model_failed, name="load-model"
        )
        self.tasks.append(task)
        return task

    def load_embedder(self) -> Task:
        self._set_loading("embedder", "Loading embedder…")
        embedder = self.app.embedder
        task = run_in_background(
            lambda: embedder.load(),  # type: ignore[attr-defined]
            on_done=self._embedder_loaded,
            on_error=self._embedder_failed,
            name="load-embedder",
        )
        self.tasks.append(task)
        return task

    @Slot(object)
    def _model_loaded(self, info: EngineInfo) -> None:
        self.model_info = info
        self._set_loading("model", "")
        self.model_did_load.emit(info)

    @Slot(object)
    def _model_failed(self, error: BaseException) -> None:
        self._set_loading("model", "")
        self.model_did_fail.emit(str(error))

    @Slot(object)
    def _embedder_loaded(self, _result: object) -> None:
        self.embedder_ready = True
        self._set_loading("embedder", "")
        self.embedder_did_load.emit()

    @Slot(object)
    def _embedder_failed(self, error: BaseException) -> None:
        self._set_loading("embedder", "")
        self.embedder_did_fail.emit(str(error))

    def _set_loading(self, part: str, text: str) -> None:
        if text:
            self._loading[part] = text
        else:
            self._loading.pop(part, None)
        self.loading_did_change.emit(self.loading_text)

    # --- settings ---
    def apply_settings(self, settings: Settings) -> bool:
        """Save ``settings`` and use them; returns whether the model is reloading.

        Call it only while no turn is streaming (the window stops the turn first)."""
        old = self.app.settings
        save_settings(settings, self.app.paths.settings_file)
        self.app.settings = settings
        assistant = self.app.assistant
        assistant.generation_settings = self.app.generation_settings()
        reload = any(
            getattr(old.model, name) != getattr(settings.model, name) for name in ENGINE_FIELDS
        )
        if reload:
            if old.model.path != settings.model.path:
                self.app.model_override = None  # the user picked a model: --model no longer wins
            # App.engine is a cached property: drop it so the next access builds a new engine.
            old_engine = self.app.__dict__.pop("engine", None)
            self.model_info = None
            assistant.engine = self.app.engine
            if old_engine is not None:
                run_in_background(old_engine.close, name="close-model")
            self.load_model()
        self.settings_did_change.emit(settings)
        return reload


def changed_fields(old: Settings, new: Settings) -> list[str]:
    """ "section.key" for every setting that differs (for the status bar)."""
    changes = []
    for section in ("model", "memory", "security"):
        before, after = getattr(old, section), getattr(new, section)
        for field in dataclasses.fields(before):
            if getattr(before, field.name) != getattr(after, field.name):
                changes.append(f"{section}.{field.name}")
    return changes
