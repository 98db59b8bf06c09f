"""The composition root: paths -> settings -> keys -> vault -> embedder -> engine -> assistant.

Nothing else in the app builds these parts; the CLI and the GUI each get one ``App`` and drive
the same core service through it. Parts are built lazily, once, so that `desktop-agent --help`
or `doctor` do not pay for loading a model. A change of settings, a Lock or an unlock gives the
assistant a new ``AssistantSetup`` as a whole; nothing reaches into a built part to change it.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_agent.errors import InputError, UserError
from desktop_agent.paths import AppPaths, app_paths
from desktop_agent.settings import Settings, load_settings

if TYPE_CHECKING:
    from desktop_agent.core.assistant import Assistant, AssistantSetup
    from desktop_agent.core.learning import Extractor
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.core.null_memory import NullMemoryService
    from desktop_agent.embed import Embedder
    from desktop_agent.llm import ChatEngine, GenerationSettings
    from desktop_agent.memory import KeySource, Vault

logger = logging.getLogger(__name__)


class App:
    """Owns the long-lived parts of one desktop-agent process."""

    def __init__(
        self,
        paths: AppPaths | None = None,
        settings: Settings | None = None,
        *,
        model_override: Path | None = None,
        server_override: str | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        """``embedder``: use this one instead of building the real one (tests and benches
        use the hashing embedder)."""
        self.paths = (paths or app_paths()).ensure()
        self.settings = settings or load_settings(self.paths.settings_file)
        self.model_override = model_override
        self.server_override = server_override
        # --gpu-layers for this process (None: the setting)
        self.gpu_layers: int | None = None
        # Why memory is unavailable in this process, if it is (shown by the CLI and the GUI).
        self.memory_problem: str | None = None
        # False: `assistant` starts without memory and `unlock_memory()` opens it later (the
        # GUI unlocks on a background thread; the CLI unlocks at once).
        self.memory_at_start = True
        # One torch thread beside the chat engine (see SentenceEmbedder); 0 = all cores, for
        # commands that embed in bulk and never generate (history import).
        self.embedder_threads = 1
        # Threads that must finish before the process exits (see ``close``).
        self._background: list[threading.Thread] = []
        # Passphrase mode: the passphrase given to unlock_memory() (None asks on the terminal).
        self._passphrase: str | None = None
        # Why the chosen model was not used (it could not load), for the window and the CLI.
        self.model_fallback = ""
        # The parts, each built on first use (see the properties below).
        self._engine: ChatEngine | None = None
        self._embedder = embedder
        self._vault: Vault | None = None
        self._vault_source: KeySource | None = None
        self._memory: MemoryService | None = None
        self._assistant: Assistant | None = None

    def model_path(self) -> Path:
        """The chat model: --model, else the setting, else the bundled SmolLM2. A chosen model
        that cannot load (moved, deleted, not a GGUF) must not keep the app from chatting:
        the bundled one runs instead and ``model_fallback`` says why."""
        from desktop_agent.errors import ModelError
        from desktop_agent.llm.model_file import bundled_model_path, check_model_file

        if self.model_override is not None:
            return Path(self.model_override).expanduser()
        bundled = bundled_model_path()
        if self.settings.model.path:
            try:
                return check_model_file(Path(self.settings.model.path))
            except ModelError as error:
                if bundled is None:
                    raise
                self.model_fallback = f"{error}; using the bundled model instead"
        if bundled is None:
            raise ModelError(
                "the bundled model is not installed: run `make install`, or pass --model PATH"
            )
        return bundled

    def server(self) -> str:
        """The remote chat server in use ("" for the local model)."""
        if self.model_override is not None:
            return ""
        return (self.server_override or self.settings.model.server).strip()

    @property
    def engine(self) -> ChatEngine:
        """The chat engine, built on first use (not started: ``engine.start()`` loads it)."""
        if self._engine is None:
            self._engine = self._build_engine()
        return self._engine

    def take_engine(self) -> ChatEngine | None:
        """Hand over the engine without closing it (the GUI closes it off its thread); the
        next use builds a new one."""
        engine, self._engine = self._engine, None
        return engine

    def _build_engine(self) -> ChatEngine:
        from desktop_agent.llm.engine import LlamaEngine

        model = self.settings.model
        if self.server():
            from desktop_agent.llm.remote import RemoteEngine

            return RemoteEngine(self.server(), model=model.server_model, n_ctx=model.n_ctx)
        return LlamaEngine(
            self.model_path(),
            n_ctx=model.n_ctx,
            n_threads=model.n_threads,
            chat_template=model.chat_template,
            n_gpu_layers=model.n_gpu_layers if self.gpu_layers is None else self.gpu_layers,
        )

    def generation_settings(self) -> GenerationSettings:
        from desktop_agent.llm import GenerationSettings

        model = self.settings.model
        return GenerationSettings(
            temperature=model.temperature,
            top_p=model.top_p,
            max_tokens=model.max_tokens,
            repeat_penalty=model.repeat_penalty,
            seed=model.seed,
        )

    def apply_settings(self, settings: Settings) -> None:
        """Save ``settings`` and rebuild what they change: a new model, context size, thread
        count or template means a new engine; the rest applies to the next turn."""
        from desktop_agent.settings import save_settings

        old = self.settings.model
        save_settings(settings, self.paths.settings_file)
        self.settings = settings
        new = settings.model
        if (old.path, old.n_ctx, old.n_threads, old.chat_template, old.server) != (
            new.path,
            new.n_ctx,
            new.n_threads,
            new.chat_template,
            new.server,
        ) or (old.server_model, old.n_gpu_layers) != (new.server_model, new.n_gpu_layers):
            if old.path != new.path:
                self.model_override = None
            engine = self.take_engine()
            if engine is not None:
                engine.close()
        if self._assistant is not None:
            self._assistant.use(self._setup(self._assistant.memory))

    @property
    def assistant(self) -> Assistant:
        """The core service, built on first use. Without a usable vault it still chats,
        remembering nothing (a ``NullMemoryService``), and ``memory_problem`` says why."""
        if self._assistant is None:
            from desktop_agent.core.assistant import Assistant
            from desktop_agent.core.null_memory import NullMemoryService

            memory: MemoryService | NullMemoryService = NullMemoryService()
            if self.settings.memory.enabled and self.memory_at_start:
                try:
                    memory = self.memory
                except UserError as error:
                    self.memory_problem = str(error)
            self._assistant = Assistant.from_setup(self._setup(memory))
            if self._memory is not None:
                self._share_embedder()
        return self._assistant

    def built_assistant(self) -> Assistant | None:
        """The assistant if it has been built, without building it."""
        return self._assistant

    def _setup(self, memory: MemoryService | NullMemoryService) -> AssistantSetup:
        """What the assistant is built from, by the current settings."""
        from desktop_agent.core.assistant import AssistantSetup

        return AssistantSetup(
            self.engine,
            self.generation_settings(),
            memory,
            memory_enabled=self.settings.memory.enabled,
            recall_limit=self.settings.memory.recall_limit,
            n_ctx=self.settings.model.n_ctx,
            instructions=self.settings.model.instructions,
            extractor=self.extractor(),
            answer_mode=self.answer_mode(),
        )

    def answer_mode(self) -> str:
        """ "composed" or "model": who answers questions about the user (setting, else size)."""
        chosen = self.settings.memory.answers
        if chosen in ("composed", "model"):
            return chosen
        if self.server():
            return "model"  # a server's model answers; the core still checks what it says
        try:
            size = self.model_path().stat().st_size
        except (OSError, UserError):
            return "composed"
        return "model" if size >= CAPABLE_MODEL_BYTES else "composed"

    def extractor(self) -> Extractor | None:
        """Model-assisted extraction when the setting asks for it (for capable models)."""
        if not self.settings.memory.model_assisted_extraction:
            return None
        from desktop_agent.core.extraction_model import ModelAssistedExtractor

        return ModelAssistedExtractor(self.engine)

    @property
    def memory(self) -> MemoryService:
        """What the assistant remembers: the unlocked vault seen through the memory model,
        opened on first use (a UserError when it cannot open)."""
        if self._memory is None:
            self._memory = self._open_memory()
        return self._memory

    def opened_memory(self) -> MemoryService | None:
        """The memory service if it is open now, without opening it."""
        return self._memory

    def _open_memory(self) -> MemoryService:
        from desktop_agent.core.memory_service import MemoryService

        memory = MemoryService(self.vault(), self.embedder)
        warming = threading.Thread(target=_warm, args=(memory,), name="memory-warm", daemon=True)
        warming.start()
        self._background.append(warming)
        return memory

    def _share_embedder(self) -> None:
        """The statement classifier of extraction reads the same embedder. Only the assistant
        extracts (learning from a turn), so only a process with an assistant and a memory
        imports extraction: `memory search` and the other memory commands do not."""
        from desktop_agent.core.extraction_fallback import use_embedder

        use_embedder(self.embedder)

    def load_embedder_soon(self) -> None:
        """Start loading the embedder on a background thread, for a command that will embed
        once the vault is open: ONNX Runtime builds its session with the GIL released, so the
        load and the unlock overlap. ``close`` waits for it; a failed load is left for the
        first ``embed`` to raise."""
        load = getattr(self.embedder, "load", None)
        if load is None or getattr(self.embedder, "loaded", False):
            return
        thread = threading.Thread(
            target=_load_quietly, args=(load,), name="embedder-load", daemon=True
        )
        thread.start()
        self._background.append(thread)

    @property
    def embedder(self) -> Embedder:
        """all-MiniLM-L6-v2 through ONNX Runtime when install exported it (no torch: about
        0.6 s to the first vector instead of 8), else through sentence-transformers."""
        if self._embedder is None:
            from desktop_agent.embed import OnnxEmbedder, SentenceEmbedder

            if OnnxEmbedder.available():
                self._embedder = OnnxEmbedder(threads=self.embedder_threads)
            else:
                self._embedder = SentenceEmbedder(threads=self.embedder_threads)
        return self._embedder

    # --- vault (issue 3): key_source() and vault() are built here ---

    def key_source(self) -> KeySource:
        """Where the vault's KEK lives: the existing vault's choice, else the setting."""
        from desktop_agent.memory import vault_key_mode
        from desktop_agent.secrets import KeyringKeySource, PassphraseKeySource

        mode = vault_key_mode(self.paths.vault_dir) or self.settings.security.key_mode
        if mode == "passphrase":
            from desktop_agent.secrets.outside_secret import outside_secret

            security = self.settings.security
            outside = outside_secret(security.passphrase_secret, security.passphrase_secret_file)
            return PassphraseKeySource(self._passphrase, outside=outside)
        if mode != "keyring":
            from desktop_agent.errors import UserError

            raise UserError(f'security.key_mode must be "keyring" or "passphrase", not {mode!r}')
        return KeyringKeySource()

    def vault(self) -> Vault:
        """The unlocked vault of this data dir, opened on first use (one per process)."""
        if self._vault is None:
            from desktop_agent.memory import Vault

            source = self.key_source()
            vault = Vault.open(self.paths.vault_dir, source)
            self._vault, self._vault_source = vault, source
            logger.info("memory unlocked: %d memories, %d damaged", len(vault), len(vault.damaged))
        return self._vault

    def change_passphrase(self, old: str, new: str) -> int:
        """Passphrase mode: a new key-encryption key wrapped under ``new`` (a key rotation,
        in the memory's write lane); returns the new epoch. Copies of the data folder made
        before still open with ``old`` (docs/SECURITY.md)."""
        from desktop_agent.secrets import PassphraseKeySource

        source = self._vault_source  # set and cleared with the vault
        if not isinstance(source, PassphraseKeySource):
            raise InputError("this memory keeps its key in the OS keyring: it has no passphrase")
        undo = source.change_passphrase(old, new)
        try:
            return self.memory.rotate_keys()
        except BaseException:
            undo()  # the header still wraps the old key: the old passphrase still opens it
            raise

    def lock_memory(self) -> None:
        """Lock now: close the vault, so no key or memory stays in this process; the
        assistant goes on without memory until ``unlock_memory``."""
        from desktop_agent.core.null_memory import NullMemoryService

        memory, self._memory = self._memory, None
        if memory is not None:
            # Use counts are kept in RAM between writes; losing them is not worth a failed Lock.
            try:
                memory.flush()
            except Exception:
                logger.exception("use counts not written at Lock")
        del memory
        if self._assistant is not None:
            self._use_memory(self._assistant, NullMemoryService())
        vault, self._vault = self._vault, None
        self._vault_source = None  # it holds the passphrase's derived key
        if vault is not None:
            vault.close()
        del vault
        # The GUI freezes the collector after an unlock (session.keep_collections_short); what
        # was frozen is never collected, so Lock thaws it and collects the closed vault now.
        gc.unfreeze()
        gc.collect()

    def load_language(self) -> None:
        """Load the language parser extraction reads (1-3 s). Importing it holds the GIL for up
        to ~170 ms at a time, so the window does it at start-up with the embedder (whose torch
        import stalls as long), never during a reply."""
        from desktop_agent import nlp

        nlp.warm()

    def settle_background(self, timeout: float | None = None) -> bool:
        """Wait for start-up work (the keyword index); True when all of it is done."""
        for thread in list(self._background):
            thread.join(timeout)
        self._background = [t for t in self._background if t.is_alive()]
        return not self._background

    def unlock_memory(self, passphrase: str | None = None) -> MemoryService:
        """Open the vault (again) and give it to the assistant. In passphrase mode,
        ``passphrase`` is used if given, else it is asked for on the terminal."""
        self._passphrase = passphrase
        try:
            memory = self.memory
        finally:
            self._passphrase = None
        self.memory_problem = None
        if self._assistant is not None:
            self._use_memory(self._assistant, memory)
            self._share_embedder()
        return memory

    @staticmethod
    def _use_memory(assistant: Assistant, memory: MemoryService | NullMemoryService) -> None:
        """The assistant's setup as it is, with ``memory`` (no other part is rebuilt: an engine
        closed by ``close`` must not be built again here)."""
        assistant.use(dataclasses.replace(assistant.setup, memory=memory))

    def close(self) -> None:
        """Let background work finish, stop the engine's thread and release the vault's writer
        lock. A consolidation still writing, or the parser still loading, when the process
        exits crashed it at interpreter shutdown (SIGABRT, 1 run in 4 after learning)."""
        if self._assistant is not None:
            self._assistant.settle(timeout=BACKGROUND_GRACE_S)
        self.settle_background(BACKGROUND_GRACE_S)
        engine = self.take_engine()
        if engine is not None:
            engine.close()
        self.lock_memory()


# A GGUF this large (about a 3B model at 4 bits) answers questions about the user from the
# injected facts reliably enough to let it speak, with the core checking the answer.
CAPABLE_MODEL_BYTES = 1_500_000_000


# How long closing waits for background work (a consolidation run, the parser loading).
BACKGROUND_GRACE_S = 60.0


def _warm(memory: MemoryService) -> None:
    # Only an optimisation: if the vault is locked or closed meanwhile, the first recall after
    # the next unlock builds what is missing.
    try:
        memory.warm()
    except Exception:
        logger.info("memory warm-up stopped", exc_info=True)


def _load_quietly(load: Callable[[], object]) -> None:
    # The command's first embed loads again and raises what stopped this load.
    try:
        load()
    except Exception:
        logger.info("loading the embedder ahead failed", exc_info=True)
