"""Desktop integration files and package data (issue 12, part 4)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parents[1]
LINUX = ROOT / "resources" / "linux"
APP_ID = "io.github.desktopagent.DesktopAgent"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if in_ci():
            pytest.fail(f"{name} is missing: .ci/run installs it")
        pytest.skip(f"{name} is not installed (Debian: desktop-file-utils / appstream)")
    return path


def test_the_desktop_entry_validates_and_runs_an_existing_command() -> None:
    entry = LINUX / f"{APP_ID}.desktop"
    result = subprocess.run(
        [_tool("desktop-file-validate"), str(entry)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout.lower()
    lines = dict(line.split("=", 1) for line in entry.read_text().splitlines() if "=" in line)
    assert lines["Exec"] == "desktop-agent gui" and lines["Icon"] == APP_ID
    from desktop_agent.cli import build_parser

    assert build_parser().parse_args(["gui"]).handler is not None


def test_the_appstream_metainfo_validates() -> None:
    result = subprocess.run(
        [_tool("appstreamcli"), "validate", "--no-net", str(LINUX / f"{APP_ID}.metainfo.xml")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_wheel_carries_the_icons_and_the_app_finds_them(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         str(ROOT), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("desktop_agent-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    icons = {n for n in names if n.startswith("desktop_agent/resources/icons/")}
    assert "desktop_agent/resources/icons/app.svg" in icons
    assert len(icons) == len(list((ROOT / "desktop_agent" / "resources" / "icons").glob("*.svg")))
    from desktop_agent.gui.theme import ICON_DIR

    assert (ICON_DIR / "app.svg").is_file()
