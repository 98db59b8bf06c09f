"""The reviewed model catalog (``catalog.json`` in this package) and what fits this machine."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from desktop_agent.errors import InputError

# Below this much RAM left over, a model is marked as not fitting.
RAM_SPARE_GB: Final = 1.0


@dataclass(frozen=True, slots=True)
class CatalogModel:
    name: str  # what the user types: "llama-3.2-1b"
    title: str
    file: str
    url: str
    size_bytes: int
    sha256: str
    parameters: str
    quantization: str
    ram_gb: float  # to run it: the weights, the context and the app
    license: str
    summary: str

    def fits(self, ram_bytes: int | None) -> bool:
        return ram_bytes is None or self.ram_gb + RAM_SPARE_GB <= ram_bytes / 2**30


@cache
def catalog() -> tuple[CatalogModel, ...]:
    text = resources.files("desktop_agent.models").joinpath("catalog.json").read_text("utf-8")
    return tuple(CatalogModel(**entry) for entry in json.loads(text)["models"])


def find(name: str) -> CatalogModel:
    for model in catalog():
        if model.name == name.strip().casefold():
            return model
    names = ", ".join(m.name for m in catalog())
    raise InputError(f"no model {name!r} in the catalog: choose one of {names}")


# On a CPU with fewer cores than this, only models up to CPU_ONLY_GB answer at reading speed.
FAST_CPU_CORES: Final = 8
CPU_ONLY_GB: Final = 2.5


def recommended(ram_bytes: int | None, cores: int, gpu: bool = False) -> CatalogModel | None:
    """The largest catalog model that fits this machine's RAM and, without a GPU on a small
    CPU, still answers quickly (a 9B model gives about 2 tokens/s on two cores)."""
    fitting = [m for m in catalog() if m.fits(ram_bytes)]
    if not gpu and cores < FAST_CPU_CORES:
        fitting = [m for m in fitting if m.size_bytes <= CPU_ONLY_GB * 2**30]
    return max(fitting, key=lambda m: m.ram_gb, default=None)
