"""`memory search` as a user runs it: its own process, the real keyring, vault and embedder.
What it loads is what it costs (docs/BENCHMARKS.md, issue 10): no window, no chat model, no
parser and no extraction, which only the assistant needs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.test_cli import run_cli

# Runs the command as the `desktop-agent` script does (main() without arguments), then writes
# what the process had loaded by the end.
SCRIPT = """
import gc, json, sys
from desktop_agent.cli import main
sys.argv = ["desktop-agent", "memory", "search", "coffee", "--json"]
code = main()
import overrides
heavy = ("PySide6", "llama_cpp", "spacy", "thinc", "torch", "sentence_transformers")
parts = ("desktop_agent.gui", "desktop_agent.core.extraction", "desktop_agent.nlp",
         "desktop_agent.llm.engine", "lance_namespace_urllib3_client.api")
report = {
    "code": code,
    "loaded": sorted(m for m in sys.modules if m.split(".")[0] in heavy or m.startswith(parts)),
    "embedder": "onnxruntime" in sys.modules,
    "overrides_checks_back": overrides.override.__module__ == "overrides.overrides",
    "frozen": gc.get_freeze_count() > 0,
}
open(REPORT_PATH, "w").write(json.dumps(report))
"""


def test_memory_search_loads_only_what_a_search_needs(tmp_path: Path) -> None:
    # Given a vault with two memories
    for text in ("I drink coffee every morning", "My sister lives in Berlin"):
        added = run_cli("memory", "add", text)
        assert added.returncode == 0, added.stderr

    # When one query is searched in a process of its own
    report = tmp_path / "report.json"
    script = SCRIPT.replace("REPORT_PATH", repr(str(report)))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )

    # Then it finds the memory, through the embedder, and loaded nothing else heavy
    assert done.returncode == 0, done.stderr[-3000:]
    hits = json.loads(done.stdout)["hits"]
    assert hits[0]["text"] == "I drink coffee every morning"
    loaded = json.loads(report.read_text())
    assert loaded == {
        "code": 0,
        "loaded": [],
        "embedder": True,
        "overrides_checks_back": True,
        "frozen": True,  # the process skips the collection at shutdown (cli/__init__.py)
    }
