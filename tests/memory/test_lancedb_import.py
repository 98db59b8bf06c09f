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


RETRY_SCRIPT = """
import importlib.abc, json, sys

class FailsOnce(importlib.abc.MetaPathFinder):
    # An import that fails once after lancedb's native module has loaded: what a REST client
    # that lancedb needs, or a thread importing the same modules at that moment, does.
    failed = False
    def find_spec(self, name, path=None, target=None):
        if name == "lancedb.table" and not FailsOnce.failed:
            FailsOnce.failed = True
            raise ImportError("cannot import name 'X' (made to fail once)")
        return None

sys.meta_path.insert(0, FailsOnce())
from desktop_agent.memory.lancedb_import import import_lancedb
lancedb = import_lancedb()
print(json.dumps({"failed_once": FailsOnce.failed, "connect": callable(lancedb.connect)}))
"""


def test_a_failed_first_import_is_retried_without_loading_the_native_module_twice() -> None:
    # The retry used to drop lancedb._lancedb too; importing it again runs its module init a
    # second time, whose env_logger::init_from_env panics (seen in CI as "the model or memory did
    # not load" in the bundled window).
    done = subprocess.run(
        [sys.executable, "-c", RETRY_SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert "init_from_env" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {"failed_once": True, "connect": True}
