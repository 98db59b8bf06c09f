"""The App as the GUI sees it: the core service, plus the slow parts loading in the background.

The window appears at once; the model, the embedder and the memory vault open on background
threads and this object says what is still loading. Memory that cannot open (no keyring, a
busy data dir) leaves the app usable without it, and ``memory_problem`` says why; until it
opens, and after a Lock, ``memory`` is a ``NullMemoryService`` (``is_open`` False), never None.

Every memory read or write goes through ``run_memory``: one ordered lane off the GUI thread.
Changes, from whichever thread wrote them, come back as one GUI-thread signal,
``memory_did_change(change)``, from which every panel refreshes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

from desktop_agent.app import App
from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryChange, MemoryService
from desktop_agent.core.null_memory import NullMemoryService
from desktop_agent.gui.workers import Task, run_in_background
from desktop_agent.llm.types import EngineInfo
from desktop_agent.settings import Settings

ENGINE_FIELDS = ("path", "n_ctx", "n_threads", "chat_template")
MEMORY_LANE = "memory"


class MemoryUnavailable(RuntimeError):
    """Raised into a memory task's error callback when memory is locked or failed to open."""


class PassphraseNeeded(RuntimeError):
    """The vault keeps its key under a passphrase, and the GUI has to ask for it."""

    def __init__(self, creating: bool) -> None:
        super().__init__("the memory vault needs its passphrase")
        self.creating = creating


class Session(QObject):
    """Owns the App for the window; panels get the session (the service), never the window."""

    model_did_load = Signal(object)  # EngineInfo
    model_did_fail = Signal(str)
    embedder_did_load = Signal()
    embedder_did_fail = Signal(str)
    loading_did_change = Signal(str)  # what is still loading, "" when nothing is
    settings_did_change = Signal(object)  # Settings
    memory_did_open = Signal(object)  # MemoryService
    memory_did_fail = Signal(str)  # why memory is unavailable
    memory_did_need_passphrase = Signal(bool)  # True when a new vault is being created
    memory_did_lock = Signal()
    memory_did_change = Signal(object)  # MemoryChange, always on the GUI thread
    _change_did_arrive = Signal(object)  # MemoryChange, from any thread

    def __init__(self, app: App, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.model_info: EngineInfo | None = None
        self.embedder_ready = False
        self.memory: MemoryService | NullMemoryService = NullMemoryService()
        self.memory_problem: str | None = app.memory_problem
        self.memory_opening = False
        self._loading: dict[str, str] = {}
        self.tasks: list[Task] = []
        self._change_did_arrive.connect(self._relay_change, Qt.ConnectionType.QueuedConnection)
        self._build_assistant_without_memory()

    @property
    def assistant(self) -> Assistant:
        return self.app.assistant

    @property
    def settings(self) -> Settings:
        return self.app.settings

    @property
    def loading_text(self) -> str:
        return " · ".join(self._loading.values())

    def _build_assistant_without_memory(self) -> None:
        # App.assistant opens the vault on first use, which can take seconds (and ask the
        # keyring): build it without memory here, and open memory with open_memory().
        opened = self.app.opened_memory()  # already opened by the caller
        if opened is not None:
            self._adopt(opened)
        elif self.app.built_assistant() is None:
            self.app.memory_at_start = False
        _ = self.app.assistant

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
        load_embedder = getattr(embedder, "load", None) or (lambda: None)  # hashing: nothing

        def load() -> None:
            load_embedder()
            self.app.load_language()

        task = run_in_background(
            load,
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

    # --- memory: open, lock, run ---
    def open_memory(self, passphrase: str | None = None) -> Task | None:
        """Unlock the vault in the background (a large store takes a while). In passphrase
        mode without ``passphrase``, ``memory_did_need_passphrase`` asks the window for it."""
        if self.memory.is_open or self.memory_opening:
            return None
        self.memory_opening = True
        self._set_loading("memory", "Unlocking memory…")
        keep_collections_short()
        app = self.app

        def unlock() -> MemoryService:
            _check_passphrase(app, passphrase)
            memory = app.unlock_memory(passphrase)
            memory.vault.warm()  # the keyword index, built here rather than on first search
            return memory

        task = run_in_background(
            unlock,
            on_done=self._memory_opened,
            on_error=self._memory_failed,
            name="unlock-memory",
            lane=MEMORY_LANE,
        )
        self.tasks.append(task)
        return task

    def lock_memory(self) -> Task:
        """Lock now: the vault closes, no key or memory stays in this process."""
        self.memory = NullMemoryService()
        self.memory_problem = "Memory is locked: unlock it in Settings › Memory & security."
        self.memory_did_lock.emit()
        return run_in_background(self.app.lock_memory, name="lock-memory", lane=MEMORY_LANE)

    def _adopt(self, memory: MemoryService) -> None:
        self.memory = memory
        self.memory_problem = None
        memory.subscribe(self._change_did_arrive.emit)

    @Slot(object)
    def _memory_opened(self, memory: MemoryService) -> None:
        self.memory_opening = False
        self._set_loading("memory", "")
        keep_collections_short()
        self._adopt(memory)
        self.memory_did_open.emit(memory)

    @Slot(object)
    def _memory_failed(self, error: BaseException) -> None:
        self.memory_opening = False
        self._set_loading("memory", "")
        if isinstance(error, PassphraseNeeded):
            self.memory_problem = "Memory is locked: it needs its passphrase."
            self.memory_did_need_passphrase.emit(error.creating)
            return
        self.memory_problem = str(error) or type(error).__name__
        self.app.memory_problem = self.memory_problem
        self.memory_did_fail.emit(self.memory_problem)

    @Slot(object)
    def _relay_change(self, change: MemoryChange) -> None:
        self.memory_did_change.emit(change)

    def run_memory(
        self,
        work: Callable[[MemoryService], Any],
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        name: str = "memory",
        owner: QObject | None = None,
    ) -> Task:
        """Run ``work(memory)`` on the memory lane; callbacks come back on the GUI thread."""
        memory = self.memory
        problem = self.memory_problem or "Memory is still unlocking."

        def run() -> Any:
            if not isinstance(memory, MemoryService):  # locked, off or failed to open
                raise MemoryUnavailable(problem)
            return work(memory)

        return run_in_background(
            run, on_done=on_done, on_error=on_error, name=name, lane=MEMORY_LANE, owner=owner
        )

    # --- settings ---
    def apply_settings(self, settings: Settings) -> bool:
        """Save ``settings`` and use them; returns whether the model is reloading.

        Call it only while no turn is streaming (the window stops the turn first)."""
        old = self.app.settings.model
        reload = any(getattr(old, name) != getattr(settings.model, name) for name in ENGINE_FIELDS)
        if reload:
            # App.apply_settings would close the old engine here, joining its thread: close it
            # in the background instead (App then finds none to close and builds the new one).
            old_engine = self.app.take_engine()
            if old_engine is not None:
                run_in_background(old_engine.close, name="close-model")
        self.app.apply_settings(settings)
        if reload:
            self.model_info = None
            self.load_model()
        if settings.memory.enabled and not self.memory.is_open and not self.memory_opening:
            self.open_memory()
        self.settings_did_change.emit(settings)
        return reload


def keep_collections_short() -> None:
    """Move every object alive now out of the cyclic collector's reach.

    A full collection holds the GIL while it walks every tracked object: with the app, Qt's
    wrappers and a decoded store that took ~40 ms on a worker thread, and the GUI thread
    stalled with it. What exists after startup and after an unlock lives as long as the app
    (or is freed by reference counting), so the collector need not walk it again."""
    gc.collect(0)
    gc.freeze()


def _check_passphrase(app: App, passphrase: str | None) -> None:
    """Passphrase mode needs the passphrase from the window (App would read it from a
    terminal). Runs on the memory lane: finding the mode reads the vault's header."""
    from desktop_agent.memory import vault_key_mode

    existing = vault_key_mode(app.paths.vault_dir)
    mode = existing or app.settings.security.key_mode
    if mode == "passphrase" and passphrase is None:
        raise PassphraseNeeded(creating=existing is None)
