"""Crash injection for the stateful vault test: where a crash can hit, and how it is armed.

A crash is ``Crash`` (a BaseException, so no ``except Exception`` in the vault catches it)
raised before or after the n-th call of one internal step, or in the middle of an append (half
its bytes written). See tests/memory/test_stateful_crashes.py.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import lance
import pytest
from hypothesis import strategies as st

from desktop_agent.memory import audit as audit_module
from desktop_agent.memory import forget_journal, rekey_journal
from desktop_agent.memory import keystore as keystore_module
from desktop_agent.memory import row_log as row_log_module
from desktop_agent.memory.audit import AuditLog
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.row_log import RowLog
from desktop_agent.memory.state import VaultState
from desktop_agent.memory.store import Store
from desktop_agent.secrets import KeyringKeySource


class Crash(BaseException):
    """The process dies here (BaseException: no ``except Exception`` in the vault catches it)."""


# Each crash point: (name, where the step lives, its attribute, crash before or after it, or
# "torn": half the bytes of an append written, then the crash).
# ``"source"`` stands for the vault's key source (its KEK calls).
POINTS: list[tuple[str, Any, str, str]] = [
    ("before a Lance commit", Store, "_commit", "before"),
    ("after a Lance commit", Store, "_commit", "after"),
    ("after a key-journal append", KeyStore, "new_keys", "after"),
    ("before a keystore file", KeyStore, "_write_snapshot", "before"),
    ("after a keystore file", KeyStore, "_write_snapshot", "after"),
    ("after the new KEK is stored", "source", "create_kek", "after"),
    ("before the old KEK is discarded", "source", "discard_kek", "before"),
    ("after stale key files go", KeyStore, "remove_stale_files", "after"),
    ("mid atomic write (before the rename)", os, "replace", "before"),
    ("after an atomic rename", os, "replace", "after"),
    ("before a key-journal append", keystore_module, "append_durable", "before"),
    ("mid key-journal append (torn)", keystore_module, "append_durable", "torn"),
    ("mid audit-line append (torn)", audit_module, "append_durable", "torn"),
    ("after the forget journal", forget_journal, "write", "after"),
    ("after the re-encryption journal", rekey_journal, "write", "after"),
    ("after the snapshot is dropped", VaultState, "drop_snapshot", "after"),
    ("before old Lance versions are cleaned", lance.LanceDataset, "cleanup_old_versions", "before"),
    ("after compaction", Store, "compact_and_purge", "after"),
    ("before an audit entry", AuditLog, "append", "before"),
    ("after an audit entry", AuditLog, "append", "after"),
    # The row log (memory/row_log.py): its intent before a Lance commit, "done" after it.
    ("after a row-log intent", RowLog, "intent", "after"),
    ("mid row-log intent (torn)", row_log_module, "append_durable", "torn"),
    ("before a row-log done", RowLog, "done", "before"),
    ("before a row-log checkpoint", RowLog, "checkpoint", "before"),
]
POINT_NAMES = [p[0] for p in POINTS]
_WRITE_POINTS = [
    "before a Lance commit",
    "after a Lance commit",
    "after a key-journal append",
    "mid atomic write (before the rename)",
    "after an atomic rename",
    "before a key-journal append",
    "mid key-journal append (torn)",
    "mid audit-line append (torn)",
    "before an audit entry",
    "after an audit entry",
    "after a row-log intent",
    "mid row-log intent (torn)",
    "before a row-log done",
    "before a row-log checkpoint",
]
_RATCHET_POINTS = [
    "before a keystore file",
    "after a keystore file",
    "after the new KEK is stored",
    "before the old KEK is discarded",
    "after stale key files go",
    "mid atomic write (before the rename)",
    "after an atomic rename",
    "before a key-journal append",
    "mid key-journal append (torn)",
    "mid audit-line append (torn)",
    "before an audit entry",
    "after an audit entry",
]


def crashes(names: list[str]) -> st.SearchStrategy[str | None]:
    """No crash about a third of the time, else one of the steps this operation reaches."""
    return st.none() | st.sampled_from(names) | st.sampled_from(names)


write_crashes = crashes(_WRITE_POINTS)
forget_crashes = crashes(POINT_NAMES)
ratchet_crashes = crashes(_RATCHET_POINTS)
# Most reopens after a crash are clean; some crash again inside the open (its recovery, its
# repairs and its "unlock" audit entry), and the open after that must finish the job.
# The n-th call of the step: mostly the first, sometimes a later one (a second Lance commit).
nths = st.sampled_from([0, 0, 0, 1, 2])
reopen_crashes = st.none() | st.none() | st.sampled_from(POINT_NAMES)


@dataclass
class Armed:
    """A crash waiting at the ``nth`` call of one step; ``fired`` once it hit."""

    name: str
    nth: int
    fired: bool = False
    calls: int = 0
    journal_written: bool = False
    log: list[str] = field(default_factory=list)


def arm(patch: pytest.MonkeyPatch, armed: Armed, source: KeyringKeySource) -> None:
    """Install the crash and a recorder of whether a forget journal was written."""
    real_write = forget_journal.write

    def recording(*args: Any, **kwargs: Any) -> Any:
        result = real_write(*args, **kwargs)
        armed.journal_written = True
        return result

    patch.setattr(forget_journal, "write", recording)
    (_name, owner, attribute, when) = next(p for p in POINTS if p[0] == armed.name)
    owner = source if owner == "source" else owner
    real = getattr(owner, attribute)

    def crashing(*args: Any, **kwargs: Any) -> Any:
        hit = not armed.fired and armed.calls == armed.nth
        armed.calls += 1
        if hit and when == "before":
            armed.fired = True
            raise Crash(armed.name)
        if hit and when == "torn":  # half the bytes reach the file, then the process dies
            armed.fired = True
            path, data = args
            real(path, data[: len(data) // 2])
            raise Crash(armed.name)
        result = real(*args, **kwargs)
        if hit:
            armed.fired = True
            raise Crash(armed.name)
        return result

    patch.setattr(owner, attribute, crashing)
