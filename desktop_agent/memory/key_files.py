"""Key files in two copies, so that one bad byte costs at most the records it touched.

Each key file (``keystore-<epoch>.bin``, ``journal-<epoch>.bin``) has a twin named ``<name>.copy``
with the same sealed bytes, written (and fsynced) after it. A flipped byte, a torn write or a
lost file in one copy is read from the other and the bad copy rewritten from the good one.
Journal records are sealed one by one (their number is in the associated data), so a record
damaged in both copies is skipped and reported, and only the keys in it are lost.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

logger = logging.getLogger(__name__)

LENGTH: Final = struct.Struct("<I")
COPY_SUFFIX: Final = ".copy"


def copy_of(path: Path) -> Path:
    return path.with_name(path.name + COPY_SUFFIX)


def copies(path: Path) -> tuple[Path, Path]:
    return path, copy_of(path)


def read_copies(path: Path) -> list[bytes | None]:
    """The bytes of the file and of its copy (None where one is missing or unreadable)."""
    out: list[bytes | None] = []
    for each in copies(path):
        try:
            out.append(each.read_bytes())
        except FileNotFoundError:
            out.append(None)
        except OSError as exc:
            logger.warning("cannot read a key file: %s", exc.__class__.__name__)
            out.append(None)
    return out


def where(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@dataclass(slots=True)
class Journal:
    """What the two copies of a key journal agree on, record by record."""

    records: list[bytes] = field(default_factory=list)  # the plaintext of each good record
    good: bytes = b""  # the framed records both copies should hold (lost ones kept in place)
    lost: list[int] = field(default_factory=list)  # records damaged in every copy
    notes: list[str] = field(default_factory=list)  # what was wrong and was repaired


def _frames(data: bytes) -> list[bytes]:
    """The framed records of one copy, up to a torn tail (or a damaged length)."""
    frames, at = [], 0
    while at + LENGTH.size <= len(data):
        (length,) = LENGTH.unpack_from(data, at)
        end = at + LENGTH.size + length
        if end > len(data):
            break
        frames.append(data[at:end])
        at = end
    return frames


def merge_journal(
    path: Path, datas: list[bytes | None], unseal: Callable[[int, bytes], bytes | None]
) -> Journal:
    """Read record ``i`` from whichever copy opens it (``unseal(i, blob)``, None if it fails).

    A record present in only one copy that does not open is a torn append (the copy is written
    second, so it was never acknowledged) and is dropped. One that is in both copies, or in
    the only copy there is, and opens in neither is lost: skipped, its number reported.
    """
    framed = [_frames(data) if data is not None else [] for data in datas]
    present = [data is not None for data in datas]
    out = Journal()
    count = max(len(frames) for frames in framed)
    for number in range(count):
        chosen = None
        for frames in framed:
            if number < len(frames):
                plain = unseal(number, frames[number][LENGTH.size :])
                if plain is not None:
                    chosen = (frames[number], plain)
                    break
        if chosen is None:
            holders = [frames for frames in framed if number < len(frames)]
            if len(holders) < sum(present):
                break  # a torn append never acknowledged (or a copy framed wrongly from here)
            out.lost.append(number)
            out.good += holders[0][number]
            continue
        out.good += chosen[0]
        out.records.append(chosen[1])
    for each, data in zip(copies(path), datas, strict=True):
        if data is not None and data != out.good:
            out.notes.append(f"{where(each)} was damaged or incomplete and is rewritten")
    return out
