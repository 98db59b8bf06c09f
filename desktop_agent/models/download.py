"""Downloading a model file: only when the user asks, resumable, verified before it is usable.

The bytes go to ``NAME.part`` beside the destination; a cut connection or a cancel keeps it,
and the next attempt asks the server for the rest (HTTP Range). The file gets its real name
only after its sha256 matches the expected one and its header is a GGUF, so a partial or wrong
file is never loaded. Before starting, the free disk space must hold what is left to fetch.
"""

from __future__ import annotations

import hashlib
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlparse

from desktop_agent.errors import UserError
from desktop_agent.llm.model_file import GGUF_MAGIC

CHUNK: Final = 1 << 20
# Free space kept beyond the file itself, so a download never fills the disk to the last byte.
DISK_MARGIN: Final = 256 << 20


class DownloadError(UserError):
    """A download that could not finish; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Progress:
    done: int  # bytes on disk so far
    total: int | None  # the whole file, when the server says
    bytes_per_second: float

    @property
    def fraction(self) -> float | None:
        return self.done / self.total if self.total else None

    @property
    def seconds_left(self) -> float | None:
        if not self.total or self.bytes_per_second <= 0:
            return None
        return max(0.0, (self.total - self.done) / self.bytes_per_second)


def part_path(destination: Path) -> Path:
    return destination.with_name(destination.name + ".part")


def download(
    url: str,
    destination: Path,
    sha256: str,
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: threading.Event | None = None,
    timeout: float = 30.0,
) -> Path:
    """Fetch ``url`` to ``destination`` (resuming a ``.part`` left by an earlier attempt) and
    verify it; returns ``destination``. Raises DownloadError, keeping the partial file when a
    later attempt can resume it."""
    expected = sha256.strip().casefold()
    if len(expected) != 64 or any(c not in "0123456789abcdef" for c in expected):
        raise DownloadError(f"not a sha256 checksum: {sha256!r} (64 hexadecimal digits)")
    if destination.exists():
        raise DownloadError(f"{destination.name} is already installed")
    destination.parent.mkdir(parents=True, exist_ok=True)
    part = part_path(destination)
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "desktop-agent"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 (user's URL)
    except urllib.error.HTTPError as error:
        if error.code == 416 and have:  # the part is already whole
            return _finish(part, destination, expected)
        raise DownloadError(f"the server refused the download: HTTP {error.code}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DownloadError(f"cannot reach {_host(url)}: {reason}") from None
    with response:
        resumed = have and response.status == 206
        if not resumed:
            have = 0  # the server sent the whole file again
        length = response.headers.get("Content-Length")
        remaining = int(length) if length and length.isdigit() else None
        total = have + remaining if remaining is not None else None
        if remaining is not None:
            free = shutil.disk_usage(destination.parent).free
            if remaining + DISK_MARGIN > free:
                raise DownloadError(
                    f"not enough disk space: {remaining / 2**30:.2f} GiB to fetch and "
                    f"{free / 2**30:.2f} GiB free in {destination.parent}"
                )
        _fetch(response, part, have, total, progress, cancel)
    if cancel is not None and cancel.is_set():
        raise DownloadError("download cancelled: start it again to resume")
    return _finish(part, destination, expected)


def _fetch(
    response,  # noqa: ANN001
    part: Path,
    have: int,
    total: int | None,
    progress: Callable[[Progress], None] | None,
    cancel: threading.Event | None,
) -> None:
    started, done = time.monotonic(), have
    with open(part, "ab" if have else "wb") as out:
        while not (cancel is not None and cancel.is_set()):
            try:
                chunk = response.read(CHUNK)
            except OSError as error:
                raise DownloadError(
                    f"connection lost after {done / 2**20:.0f} MB ({error}): "
                    "start the download again to resume"
                ) from None
            if not chunk:
                break
            out.write(chunk)
            done += len(chunk)
            if progress is not None:
                elapsed = max(time.monotonic() - started, 1e-6)
                progress(Progress(done, total, (done - have) / elapsed))
    if total is not None and done < total and not (cancel is not None and cancel.is_set()):
        raise DownloadError(
            f"connection lost after {done / 2**20:.0f} of {total / 2**20:.0f} MB: "
            "start the download again to resume"
        )


def _finish(part: Path, destination: Path, expected: str) -> Path:
    with open(part, "rb") as handle:
        header = handle.read(4)
    if file_sha256(part) != expected:
        part.unlink()
        raise DownloadError(
            f"checksum mismatch for {destination.name}: the file was deleted "
            "(the server sent something else than the catalog expects)"
        )
    if header != GGUF_MAGIC:
        part.unlink()
        raise DownloadError(f"{destination.name} is not a GGUF model file: it was deleted")
    part.replace(destination)
    return destination


def _host(url: str) -> str:
    return urlparse(url).netloc or url


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()
