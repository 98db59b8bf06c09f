"""The layering rules of DESIGN.md: import-linter's contracts in pyproject.toml (also run by
`make test`'s lint step), and a check that importing the core loads no native engine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import desktop_agent

PACKAGE = Path(desktop_agent.__file__).parent
PROJECT = PACKAGE.parent


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter with the contracts in ``root``/pyproject.toml."""
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )


def test_every_layer_imports_only_what_it_owns() -> None:
    result = lint_imports(PROJECT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert " 0 broken" in result.stdout


def test_the_contracts_catch_a_violation(tmp_path: Path) -> None:
    shutil.copytree(PACKAGE, tmp_path / "desktop_agent", ignore=shutil.ignore_patterns("*.npz"))
    shutil.copy(PROJECT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "desktop_agent" / "core" / "bad.py").write_text(
        "from PySide6.QtCore import QObject\nimport lancedb\n"
    )
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    assert "desktop_agent.core is not allowed to import PySide6" in result.stdout
    assert "desktop_agent.core is not allowed to import lancedb" in result.stdout


def test_importing_the_core_loads_no_qt_or_native_engines() -> None:
    code = (
        "import sys, desktop_agent.core.assistant, desktop_agent.app, desktop_agent.cli;"
        "bad = [m for m in ('PySide6', 'llama_cpp', 'lancedb', 'keyring', 'torch', 'spacy') if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
