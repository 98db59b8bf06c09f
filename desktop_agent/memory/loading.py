"""Filling RAM at unlock, and the unlock snapshot written at close (``Loader``, a part of
``Vault``).

Unlock decrypts every row of the table, or, when the snapshot (memory/snapshot.py) was written
at this very table version, reads that one file instead. Either way the rows are then compared
with the row log (``RowChecks``) before anything is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop_agent.memory import snapshot
from desktop_agent.memory.index import VaultIndex
from desktop_agent.memory.rows import Loaded, load

if TYPE_CHECKING:
    from desktop_agent.memory.row_set import RowChecks
    from desktop_agent.memory.state import VaultState


class Loader:
    """load at unlock and save_snapshot at close: a part of Vault."""

    def __init__(self, state: VaultState, rows: RowChecks) -> None:
        self._state = state
        self._rows = rows

    def load(self) -> None:
        """The rows, their keys, the damage found and the index, into the state."""
        state = self._state
        version = state.store.dataset().version
        loaded = snapshot.load(state.directory, state.keys, version, state.dim)
        state.snapshot_version = version if loaded is not None else None
        if loaded is None:
            snapshot.discard(state.directory)
            loaded = load(state.store.read(), state.keys, state.dim)
        state.current = {
            memory_id: (version, key_id, record)
            for memory_id, version, key_id, record in zip(
                loaded.ids, loaded.versions, loaded.key_ids, loaded.records, strict=True
            )
        }
        state.older = loaded.older
        state.used_keys = loaded.used_keys
        state.damage = [*state.keys.damage, *state.store.damage, *loaded.damage]
        state.damage += self._rows.check(loaded)  # rows missing or rolled back (row_set.py)
        state.index = VaultIndex(state.dim, state.text_of)
        state.index.load(loaded.ids, loaded.vectors, [record[0] for record in loaded.records])

    def save_snapshot(self) -> None:
        """Write the snapshot if the table changed since the last one (and it is worth it)."""
        state = self._state
        version = state.store.dataset().version
        if (
            version == state.snapshot_version
            or len(state.current) < snapshot.MIN_ROWS
            or state.damage
        ):
            return
        ids = list(state.index.ids)
        loaded = Loaded(
            ids=ids,  # type: ignore[arg-type]
            versions=[state.current[i][0] for i in ids],  # type: ignore[index]
            key_ids=[state.current[i][1] for i in ids],  # type: ignore[index]
            records=[state.current[i][2] for i in ids],  # type: ignore[index]
            older=state.older,
            rows_digest=self._rows.digest(),  # the row log this state was checked against
        )
        snapshot.write(state.directory, state.keys, version, loaded, state.index.vectors.matrix)
        state.snapshot_version = version
