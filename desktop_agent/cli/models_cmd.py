"""`desktop-agent models list|download|import|remove|use`: the chat models, as the local-chat
apps offer them. Nothing is downloaded except by `models download`."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import click

from desktop_agent.cli.base import Command, Group, json_option
from desktop_agent.errors import InputError
from desktop_agent.llm.model_file import check_model_file, physical_cores, total_memory_bytes
from desktop_agent.models import catalog as model_catalog
from desktop_agent.models import library
from desktop_agent.models.download import Progress, download
from desktop_agent.paths import app_paths
from desktop_agent.settings import load_settings, save_settings

ONE_OBJECT = "print one JSON object"


@click.group(
    cls=Group,
    short_help="list, download, import, remove and choose chat models",
    help="The reviewed catalog and the models installed in the data folder. "
    "Downloads happen only here, verified by sha256 before use, resumed after a cut.",
)
def models() -> None:
    pass


@models.command("list", cls=Command, short_help="the catalog and the installed models")
@json_option(ONE_OBJECT)
def models_list(as_json: bool) -> int:
    return run_list(as_json)


@models.command("download", cls=Command, short_help="download a catalog model, or any GGUF by URL")
@click.argument("name", required=False)
@click.option("--url", help="a GGUF's URL, with --sha256")
@click.option("--sha256", help="the expected sha256 of the file at --url")
@json_option(ONE_OBJECT)
def models_download(name: str | None, url: str | None, sha256: str | None, as_json: bool) -> int:
    return run_download(name, url=url, sha256=sha256, as_json=as_json)


@models.command("import", cls=Command, short_help="copy (or link) a GGUF you have")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--link", is_flag=True, help="link to the file instead of copying")
@json_option(ONE_OBJECT)
def models_import(path: Path, link: bool, as_json: bool) -> int:
    model = library.import_model(path, app_paths().models_dir, link=link)
    template = library.chat_template(model.path)
    summary = {
        "installed": str(model.path),
        "size_bytes": model.size_bytes,
        "chat_template": bool(template),
    }
    note = "" if template else " (no chat template inside: a generic one will be used)"
    _report(as_json, summary, f"installed {model.path}{note}")
    return 0


@models.command("remove", cls=Command, short_help="delete an installed model")
@click.argument("name")
@json_option(ONE_OBJECT)
def models_remove(name: str, as_json: bool) -> int:
    paths = app_paths()
    settings = load_settings(paths.settings_file)
    removed = library.remove(name, paths.models_dir)
    was_used = bool(settings.model.path) and Path(settings.model.path) == removed
    if was_used:  # never leave settings pointing at a missing file
        save_settings(settings.replace("model", path=""), paths.settings_file)
    note = " (chat goes back to the bundled model)" if was_used else ""
    _report(as_json, {"removed": str(removed), "was_in_use": was_used}, f"removed {removed}{note}")
    return 0


@models.command("use", cls=Command, short_help="chat with this model from now on")
@click.argument("name")
@json_option(ONE_OBJECT)
def models_use(name: str, as_json: bool) -> int:
    """NAME: an installed file name, a path, or 'bundled'."""
    paths = app_paths()
    settings = load_settings(paths.settings_file)
    if name == "bundled":
        chosen = ""
    else:
        candidate = paths.models_dir / name
        if not candidate.exists():
            entry = next((m for m in model_catalog.catalog() if m.name == name), None)
            candidate = paths.models_dir / entry.file if entry else Path(name)
        chosen = str(check_model_file(candidate).resolve())
    save_settings(settings.replace("model", path=chosen), paths.settings_file)
    shown = chosen or "the bundled SmolLM2-135M-Instruct"
    _report(as_json, {"model": chosen or "bundled"}, f"chat now uses {shown}")
    return 0


def run_list(as_json: bool) -> int:
    paths = app_paths()
    ram = total_memory_bytes()
    best = model_catalog.recommended(ram, physical_cores())
    have = {m.name: m for m in library.installed(paths.models_dir)}
    current = load_settings(paths.settings_file).model.path
    rows = [
        {
            "name": m.name,
            "title": m.title,
            "parameters": m.parameters,
            "quantization": m.quantization,
            "size_bytes": m.size_bytes,
            "ram_gb": m.ram_gb,
            "license": m.license,
            "fits": m.fits(ram),
            "recommended": best is not None and m.name == best.name,
            "installed": m.file in have,
            "in_use": bool(current) and Path(current).name == m.file,
        }
        for m in model_catalog.catalog()
    ]
    catalog_files = {m.file for m in model_catalog.catalog()}
    others = [
        {"file": m.name, "size_bytes": m.size_bytes, "in_use": Path(current).name == m.name}
        for m in have.values()
        if m.name not in catalog_files
    ]
    if as_json:
        print(json.dumps({"ram_bytes": ram, "catalog": rows, "other_installed": others}))
        return 0
    for row in rows:
        marks = [
            "recommended" if row["recommended"] else "",
            "installed" if row["installed"] else "",
            "in use" if row["in_use"] else "",
            "" if row["fits"] else "too big for this machine",
        ]
        print(
            f"{row['name']:<14} {row['title']:<26} {row['size_bytes'] / 2**30:5.1f} GB  "
            f"needs {row['ram_gb']:.0f} GB RAM  {row['license']:<28} "
            + ", ".join(m for m in marks if m)
        )
    for other in others:
        print(f"{other['file']} (imported){' in use' if other['in_use'] else ''}")
    if not current:
        print("in use: the bundled SmolLM2-135M-Instruct")
    return 0


def run_download(name: str | None, *, url: str | None, sha256: str | None, as_json: bool) -> int:
    paths = app_paths()
    if url or sha256:
        if name or not (url and sha256):
            raise InputError("give a catalog name, or --url URL --sha256 HEX (both)")
        sha, file = sha256, Path(url.split("?")[0]).name
        if not file.endswith(".gguf"):
            raise InputError(f"the URL does not name a .gguf file: {url}")
    elif name:
        entry = model_catalog.find(name)
        url, sha, file = entry.url, entry.sha256, entry.file
    else:
        raise InputError("give a catalog name (see `models list`) or --url URL --sha256 HEX")
    bar = _Bar(file) if not as_json else None
    cancel = threading.Event()
    try:
        path = download(
            url, paths.models_dir / file, sha, progress=bar.show if bar else None, cancel=cancel
        )
    except KeyboardInterrupt:
        cancel.set()
        raise
    finally:
        if bar:
            bar.close()
    _report(
        as_json, {"installed": str(path), "size_bytes": path.stat().st_size}, f"installed {path}"
    )
    return 0


def _report(as_json: bool, summary: dict[str, Any], line: str) -> None:
    print(json.dumps(summary) if as_json else line)


class _Bar:
    """Progress with speed and time left, on stderr when it is a terminal."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()

    def show(self, progress: Progress) -> None:
        if not self.enabled:
            return
        share = progress.fraction or 0.0
        left = progress.seconds_left
        eta = f"{left / 60:.0f} min left" if left is not None else ""
        sys.stderr.write(
            f"\r{self.label} [{'#' * int(share * 30):<30}] {share:4.0%} "
            f"{progress.bytes_per_second / 2**20:5.1f} MB/s {eta}   "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
