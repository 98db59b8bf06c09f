"""Importing lancedb without the REST client it never uses here.

``import lancedb`` took 1.6 s (2-3 s on a loaded machine), more than the rest of a `memory search`
process together: lancedb imports ``lance_namespace``, which imports the package
``lance_namespace_urllib3_client``, whose ``__init__`` loads every generated REST API class and
builds 366 pydantic validators for them. This app only opens local tables, never a REST
namespace. So the package is entered into ``sys.modules`` without running its ``__init__``; its
submodules (the models lance_namespace needs) still import from the same folder as usual. That
keeps about 0.7 s off every process that opens the vault. If a lancedb release needs the
package's own names at import, the shell is taken out again and the import done as before.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import types
from typing import Any

logger = logging.getLogger(__name__)
_CLIENT = "lance_namespace_urllib3_client"


def import_lancedb() -> Any:
    if "lancedb" in sys.modules:
        return sys.modules["lancedb"]
    shell = _client_shell()
    try:
        import lancedb
    except ImportError:
        if shell is None:
            raise
        logger.info("lancedb needs its REST client at import: importing it whole")
        for name in [n for n in sys.modules if n.split(".")[0] in (_CLIENT, "lance_namespace")]:
            del sys.modules[name]
        for name in [n for n in sys.modules if n.split(".")[0] == "lancedb"]:
            del sys.modules[name]
        import lancedb
    return lancedb


def _client_shell() -> types.ModuleType | None:
    """The REST client package as a bare package (its folder, none of its ``__init__``)."""
    if _CLIENT in sys.modules:
        return None
    spec = importlib.util.find_spec(_CLIENT)
    if spec is None or not spec.submodule_search_locations:
        return None
    shell = types.ModuleType(_CLIENT)
    shell.__path__ = list(spec.submodule_search_locations)
    shell.__spec__ = spec
    shell.__file__ = spec.origin
    sys.modules[_CLIENT] = shell
    return shell
