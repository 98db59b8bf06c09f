"""Importing lancedb without the work it does at import that this app never needs.

``import lancedb`` took 1.6 s (2-3 s on a loaded machine), more than the rest of a `memory search`
process together. Two parts of it are skipped:

- **The REST client.** lancedb imports ``lance_namespace``, which imports the package
  ``lance_namespace_urllib3_client``, whose ``__init__`` loads every generated REST API class and
  builds 366 pydantic validators for them. This app only opens local tables, never a REST
  namespace. So the package is entered into ``sys.modules`` without running its ``__init__``; its
  submodules (the models lance_namespace needs) still import from the same folder as usual
  (about 0.7 s).
- **The ``overrides`` checks.** Before Python 3.12, lancedb marks its ~100 overriding methods
  with ``overrides.override``, which checks each one's signature against its base class when
  the module is imported (disassembling the class body's frame to find the bases): about 0.1 s
  of every import, spent re-checking lancedb's own code. From 3.12 on lancedb uses
  ``typing.override`` instead, a marker that checks nothing; during the import that marker
  stands in, so lancedb's ``EnforceOverrides`` still finds it on every overriding method, and
  ``overrides.override`` is put back right after.

If a lancedb release needs the REST client's own names at import, the shell is taken out again
and the import done as before.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import logging
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

logger = logging.getLogger(__name__)
_CLIENT = "lance_namespace_urllib3_client"
_lock = threading.Lock()  # one import at a time: the marker swap below is process-wide
_F = TypeVar("_F")


def import_lancedb() -> Any:
    with _lock:
        if "lancedb" in sys.modules:
            return sys.modules["lancedb"]
        with _override_marker():
            return _import()


def _import() -> Any:
    shell = _client_shell()
    try:
        import lancedb
    except ImportError as exc:
        if shell is None:
            raise
        logger.info(
            "lancedb did not import with the REST client's shell (%s): importing it whole", exc
        )
        packages = (_CLIENT, "lance_namespace", "lancedb")
        for name in [n for n in sys.modules if n.split(".")[0] in packages]:
            if not _native(sys.modules[name]):
                del sys.modules[name]
        import lancedb
    return lancedb


def _native(module: types.ModuleType | None) -> bool:
    """Whether a module is compiled code, which stays loaded for the retry.

    Its init runs once per process: lancedb._lancedb's sets up a Rust logger and panics when run a
    second time (env_logger::init_from_env), so importing it anew is no retry at all.
    """
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


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


@contextmanager
def _override_marker() -> Iterator[None]:
    """``overrides.override`` is the plain ``@override`` marker of Python 3.12 while inside."""
    if sys.version_info >= (3, 12) or importlib.util.find_spec("overrides") is None:
        yield
        return
    import overrides

    checking = overrides.override
    overrides.override = _marked  # type: ignore[assignment]  # the decorator without its checks
    try:
        yield
    finally:
        overrides.override = checking


def _marked(method: _F) -> _F:
    """What ``typing.override`` is from Python 3.12 on: the mark, no check."""
    try:
        method.__override__ = True  # type: ignore[attr-defined]
    except (AttributeError, TypeError):  # typing's marker also leaves such objects unmarked
        logger.debug("%r takes no attributes: left unmarked", method)
    return method
