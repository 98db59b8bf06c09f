"""Is every part in place, and if not, what to do: the checks `doctor` prints and
Help > Diagnostics shows (no Qt here: the window runs them on a background thread)."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from desktop_agent.app import App
from desktop_agent.errors import UserError


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str
    required: bool = True


def run_checks(app: App, *, include_model: bool = True) -> list[Check]:
    """Every check; ``include_model=False`` leaves out loading the model (the window has it
    loaded already and says so itself)."""
    return [
        *([_check_model(app)] if include_model else []),
        _check_llama(),
        _check_gpu(),
        _check_embedder(),
        check_keyring(app),
        _check_data_dir(app),
        _check_window_libraries(),
    ]


def _check_window_libraries() -> Check:
    """The X11 libraries Qt's window needs (the terminal chat works without them)."""
    from desktop_agent.qt_platform import debian_package, missing_libraries, xcb_plugin

    if xcb_plugin() is None:
        return Check("window libraries", False, "PySide6 is not installed: run `make install`")
    missing = missing_libraries()
    if not missing:
        return Check("window libraries", True, "Qt's X11 platform plugin finds every library")
    packages = " ".join(dict.fromkeys(debian_package(name) for name in missing))
    return Check(
        "window libraries",
        False,
        f"the window cannot open: {', '.join(missing)} missing; install them with "
        f"`sudo apt install {packages}` (the terminal chat works meanwhile)",
        required=False,
    )


def _check_model(app: App) -> Check:
    try:
        engine = app.engine
        engine.start()
        info = engine.info
    except UserError as error:
        return Check("model", False, f"{error}")
    template = "from the GGUF metadata" if not app.settings.model.chat_template else "from settings"
    if app.model_fallback:  # the chosen model cannot load: the fix is in the settings
        return Check(
            "model", False, f"{app.model_fallback} (fix: choose another model in Settings)"
        )
    return Check(
        "model",
        True,
        f"{info.model_name} ({Path(info.model_path).name}), context {info.n_ctx} tokens, "
        f"{info.n_threads} threads, chat template {template}",
    )


def _check_llama() -> Check:
    try:
        from desktop_agent.llm.engine import llama_system_info

        return Check("llama.cpp", True, llama_system_info())
    except ImportError:
        return Check("llama.cpp", False, "llama-cpp-python is not installed: run `make install`")


def _check_gpu() -> Check:
    try:
        from desktop_agent.llm.engine import gpu_offload

        supported, backend = gpu_offload()
    except ImportError:
        return Check("gpu offload", False, "llama-cpp-python is not installed", required=False)
    if supported:
        return Check("gpu offload", True, f"supported ({backend or 'a GPU backend'})", False)
    return Check(
        "gpu offload",
        True,
        "not in this build (CPU only); for a GPU run "
        "`DESKTOP_AGENT_LLAMA_BACKEND=cuda|vulkan|metal make install`",
        required=False,
    )


def _check_embedder() -> Check:
    from desktop_agent.embed import bundled_embedder_dir

    folder = bundled_embedder_dir()
    if folder is None:
        return Check("embedder", False, "all-MiniLM-L6-v2 not found: run `make install`")
    from desktop_agent.embed import OnnxEmbedder, exported_model_path

    # The ONNX export needs no sentence-transformers (the bundle of `make package` has none).
    if OnnxEmbedder.available():
        return Check(
            "embedder", True, f"all-MiniLM-L6-v2 via ONNX Runtime ({exported_model_path()})"
        )
    import importlib.util

    if importlib.util.find_spec("sentence_transformers") is None:
        return Check(
            "embedder", False, "sentence-transformers is not installed: run `make install`"
        )
    return Check(
        "embedder",
        True,
        f"all-MiniLM-L6-v2 at {folder} via sentence-transformers (slower start: run "
        "`make install` to export it to ONNX)",
    )


def check_keyring(app: App) -> Check:
    """The vault needs a secure keyring, unless the user chose passphrase mode."""
    from desktop_agent.secrets import KeyringKeySource, PassphraseKeySource

    source = app.key_source()
    if isinstance(source, PassphraseKeySource):
        return Check("keyring", True, "passphrase mode: the vault key is wrapped with Argon2id")
    assert isinstance(source, KeyringKeySource)
    try:
        name = source.describe()
    except Exception as error:  # a broken D-Bus or backend raises many kinds of errors
        return Check("keyring", False, f"the OS keyring cannot be reached ({error})")
    if name.startswith("insecure"):
        return Check(
            "keyring",
            False,
            f"no secure OS keyring ({name}): start your desktop's keyring (e.g. gnome-keyring) "
            'or set [security] key_mode = "passphrase" in the settings',
        )
    return Check("keyring", True, name)


def _check_data_dir(app: App) -> Check:
    folder = app.paths.data_dir
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as handle:
            handle.write(b"ok")
            os.fsync(handle.fileno())
    except OSError as exc:
        return Check(
            "data dir", False, f"cannot write to {folder}: {exc.strerror}; check its permissions"
        )
    return Check("data dir", True, str(folder))
