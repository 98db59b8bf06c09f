"""Typed settings, stored as TOML in the config dir.

Unknown keys are ignored (a newer version's file still loads); a value of the wrong type is a
one-line error naming the key, never a traceback.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import tomli_w

from desktop_agent.errors import UserError


class SettingsError(UserError):
    """The settings file cannot be read or holds a bad value."""


@dataclass(frozen=True, slots=True)
class ModelSettings:
    # Empty means the bundled SmolLM2-135M-Instruct.
    path: str = ""
    # Empty means the template stored in the GGUF metadata.
    chat_template: str = ""
    n_ctx: int = 4096
    # 0 means one thread per physical core.
    n_threads: int = 0
    # Layers offloaded to the GPU: -1 automatic (all when llama.cpp was built with a GPU
    # backend, else none), 0 none, N that many.
    n_gpu_layers: int = -1
    temperature: float = 0.7
    top_p: float = 0.9
    max_tokens: int = 512
    repeat_penalty: float = 1.1
    seed: int = -1
    # The user's own instructions for every chat (a persona, how to answer); a chat may
    # override them.
    instructions: str = ""
    # An OpenAI-compatible chat server (e.g. http://127.0.0.1:8080) instead of the local model:
    # only each turn's prompt goes there; memory stays here. Empty means the local model.
    server: str = ""
    server_model: str = ""  # empty: the first model the server lists


@dataclass(frozen=True, slots=True)
class MemorySettings:
    enabled: bool = True
    # Off for the bundled model: its JSON is unreliable even with a grammar.
    model_assisted_extraction: bool = False
    recall_limit: int = 8
    # Who answers questions about the user: "composed" (the core states the remembered facts),
    # "model" (the model answers, checked against the facts), or "auto" (decided by the model's
    # size: the bundled 135M model composes).
    answers: str = "auto"


@dataclass(frozen=True, slots=True)
class SecuritySettings:
    # "keyring" (the OS keyring holds the KEK) or "passphrase" (Argon2id wraps it).
    key_mode: str = "keyring"
    # Passphrase mode only, for a new vault: "" (none), "keyring" or "file" keeps a secret
    # outside the data folder that every forget ratchets, so forgetting reaches copies.
    passphrase_secret: str = ""
    passphrase_secret_file: str = ""  # for "file": a path outside the data folder


@dataclass(frozen=True, slots=True)
class Settings:
    model: ModelSettings = field(default_factory=ModelSettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    security: SecuritySettings = field(default_factory=SecuritySettings)

    def replace(self, section: str, **changes: Any) -> Settings:
        """A copy with ``changes`` applied to one section, type-checked."""
        current = getattr(self, section)
        checked = {key: _checked(section, key, current, value) for key, value in changes.items()}
        return dataclasses.replace(self, **{section: dataclasses.replace(current, **checked)})


def _checked(section: str, key: str, current: Any, value: Any) -> Any:
    names = {f.name: f for f in fields(current)}
    if key not in names:
        raise SettingsError(f"unknown setting {section}.{key}")
    expected = type(getattr(type(current)(), key))
    if expected is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise SettingsError(
            f"setting {section}.{key} must be {expected.__name__}, got {type(value).__name__}"
        )
    choices = CHOICES.get((section, key))
    if choices is not None and value not in choices:
        raise SettingsError(f"setting {section}.{key} must be one of {', '.join(choices)}")
    return value


# Settings that take one of a few words.
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("memory", "answers"): ("auto", "composed", "model"),
    ("security", "passphrase_secret"): ("", "keyring", "file"),
}


def load_settings(path: Path) -> Settings:
    """Read settings from ``path``; defaults when the file does not exist."""
    if not path.exists():
        return Settings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"cannot read settings file {path}: {exc}") from None
    settings = Settings()
    for section in ("model", "memory", "security"):
        values = raw.get(section, {})
        if not isinstance(values, dict):
            raise SettingsError(f"[{section}] in {path} must be a table")
        known = {f.name for f in fields(getattr(settings, section))}
        settings = settings.replace(section, **{k: v for k, v in values.items() if k in known})
    return settings


def save_settings(settings: Settings, path: Path) -> None:
    """Write settings atomically (a crash never leaves a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        name: dataclasses.asdict(getattr(settings, name))
        for name in ("model", "memory", "security")
    }
    tmp = path.with_suffix(".toml.tmp")
    with open(tmp, "wb") as handle:
        tomli_w.dump(data, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
