"""The layering rules of DESIGN.md, checked on every module's imports (like import-linter)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import desktop_agent

PACKAGE = Path(desktop_agent.__file__).parent

# third-party top-level module -> the only subpackage allowed to import it
OWNERS = {
    "PySide6": "gui",
    "shiboken6": "gui",
    "llama_cpp": "llm",
    "lancedb": "memory",
    "lance": "memory",
    "keyring": "secrets",
    "secretstorage": "secrets",
    "jeepney": "secrets",
    "sentence_transformers": "embed",
    "torch": "embed",
    "onnxruntime": "embed",
    "tokenizers": "embed",
    "spacy": "nlp",
    "thinc": "nlp",
}
# packages that must stay free of other app layers
CORE_MAY_NOT_IMPORT = ("desktop_agent.gui", "desktop_agent.cli")


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def layer_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else ""


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = layer_of(path)
        for name in imports_of(path):
            top = name.split(".")[0]
            owner = OWNERS.get(top)
            if owner is not None and owner != layer:
                found.append(f"{path.relative_to(PACKAGE)} imports {name} (only {owner}/ may)")
            if layer in (
                "core",
                "memory",
                "llm",
                "embed",
                "secrets",
                "search",
                "nlp",
            ) and name.startswith(CORE_MAY_NOT_IMPORT):
                found.append(f"{path.relative_to(PACKAGE)} imports {name} (a lower layer)")
    return found


def test_every_layer_imports_only_what_it_owns() -> None:
    assert violations() == []


def test_the_checker_catches_a_violation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_package = tmp_path / "desktop_agent"
    (fake_package / "core").mkdir(parents=True)
    (fake_package / "core" / "bad.py").write_text(
        "from PySide6.QtCore import QObject\nimport lancedb\n"
    )
    monkeypatch.setitem(globals(), "PACKAGE", fake_package)

    found = violations()

    assert any("core/bad.py imports PySide6.QtCore" in v for v in found)
    assert any("core/bad.py imports lancedb" in v for v in found)


def test_importing_the_core_loads_no_qt_or_native_engines() -> None:
    import subprocess
    import sys

    code = (
        "import sys, desktop_agent.core.assistant, desktop_agent.app, desktop_agent.cli;"
        "bad = [m for m in ('PySide6', 'llama_cpp', 'lancedb', 'keyring', 'torch', 'spacy') if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
