"""lancedb imported without what this app never uses (memory/lancedb_import.py), checked in a
fresh interpreter: the first import is the one that skips."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import importlib, json, sys
checks = importlib.import_module("overrides.overrides")  # the package's name is a function too
checking, checked_methods = checks._validate_method, []
def counted(method, *args):
    checked_methods.append(method.__name__)
    return checking(method, *args)
checks._validate_method = counted  # overrides.override's check of each method

from desktop_agent.memory.lancedb_import import import_lancedb
lancedb = import_lancedb()
import overrides
from lancedb.db import LanceDBConnection
checked_at_import = len(checked_methods)

class Base:
    def run(self, x: int) -> int:
        return x

try:  # the checks are back for everyone else: a changed signature is refused again
    class Wrong(Base):
        @overrides.override
        def run(self, x: int, y: int) -> int:
            return x
    checked = False
except TypeError:
    checked = True
print(json.dumps({
    "rest_api": "lance_namespace_urllib3_client.api" in sys.modules,
    "checked_at_import": checked_at_import,
    "marked": getattr(LanceDBConnection.open_table, "__override__", False),
    "checks_back": checked,
    "same_module": import_lancedb() is lancedb,
}))
"""


def test_lancedb_imports_without_its_rest_client_or_override_checks() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == {
        "rest_api": False,
        "checked_at_import": 0,  # lancedb's ~100 methods were not checked one by one
        "marked": True,  # lancedb's EnforceOverrides still finds the mark on its methods
        "checks_back": True,
        "same_module": True,
    }
