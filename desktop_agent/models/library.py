"""The chat models installed in the data folder (``models/``): import, list, remove, and the
chat template each carries in its GGUF header."""

from __future__ import annotations

import os
import shutil
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from desktop_agent.errors import InputError
from desktop_agent.llm.model_file import GGUF_MAGIC

# Value types of GGUF metadata and their fixed sizes (8: string and 9: array are read apart).
_FIXED: Final = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_MOST_KEYS: Final = 100_000


@dataclass(frozen=True, slots=True)
class InstalledModel:
    path: Path
    size_bytes: int

    @property
    def name(self) -> str:
        return self.path.name


def installed(models_dir: Path) -> list[InstalledModel]:
    if not models_dir.is_dir():
        return []
    return [
        InstalledModel(p, p.stat().st_size)
        for p in sorted(models_dir.glob("*.gguf"))
        if p.is_file()
    ]


def import_model(source: Path, models_dir: Path, *, link: bool = False) -> InstalledModel:
    """Copy (or link) a GGUF the user has into the models folder, after checking its header."""
    source = source.expanduser()
    if not source.is_file():
        raise InputError(f"no such model file: {source}")
    chat_template(source)  # raises on a file that is not a GGUF
    models_dir.mkdir(parents=True, exist_ok=True)
    target = models_dir / source.name
    if target.exists():
        raise InputError(f"{source.name} is already installed")
    if link:
        os.symlink(source.resolve(), target)
    else:
        partial = target.with_name(target.name + ".part")
        shutil.copyfile(source, partial)
        partial.replace(target)
    return InstalledModel(target, source.stat().st_size)


def remove(name: str, models_dir: Path) -> Path:
    target = models_dir / Path(name).name
    if not target.is_file() or target.suffix != ".gguf":
        known = ", ".join(m.name for m in installed(models_dir)) or "none"
        raise InputError(f"no installed model {name!r} (installed: {known})")
    target.unlink()
    return target


def chat_template(path: Path) -> str:
    """The ``tokenizer.chat_template`` in a GGUF's metadata ("" when it has none); raises
    InputError when the file is not a GGUF."""
    try:
        with open(path, "rb") as handle:
            if handle.read(4) != GGUF_MAGIC:
                raise InputError(f"not a GGUF model file: {path.name}")
            version = _u32(handle)
            if version not in (2, 3):
                raise InputError(f"unsupported GGUF version {version} in {path.name}")
            handle.read(8)  # tensor count
            keys = _u64(handle)
            for _ in range(min(keys, _MOST_KEYS)):
                key = _string(handle)
                kind = _u32(handle)
                if key == "tokenizer.chat_template" and kind == 8:
                    return _string(handle)
                _skip(handle, kind)
    except (OSError, struct.error, UnicodeDecodeError, ValueError) as error:
        raise InputError(f"cannot read the GGUF header of {path.name}: {error}") from None
    return ""


def _u32(handle: BinaryIO) -> int:
    return int(struct.unpack("<I", handle.read(4))[0])


def _u64(handle: BinaryIO) -> int:
    return int(struct.unpack("<Q", handle.read(8))[0])


def _string(handle: BinaryIO) -> str:
    length = _u64(handle)
    if length > 1 << 26:
        raise ValueError("implausible string length")
    return handle.read(length).decode("utf-8")


def _skip(handle: BinaryIO, kind: int) -> None:
    if kind in _FIXED:
        handle.seek(_FIXED[kind], os.SEEK_CUR)
    elif kind == 8:
        handle.seek(_u64(handle), os.SEEK_CUR)
    elif kind == 9:
        item, count = _u32(handle), _u64(handle)
        if item in _FIXED:
            handle.seek(_FIXED[item] * count, os.SEEK_CUR)
        else:
            for _ in range(count):
                _skip(handle, item)
    else:
        raise ValueError(f"unknown GGUF value type {kind}")
