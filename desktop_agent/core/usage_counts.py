"""How often each memory shaped a reply: counted in RAM, written in batches to one record.

A memory's use would otherwise add a new version of it to its edit history each time it is
recalled; the counts live in one procedural record instead, kept with a single version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from desktop_agent.core.memory_model import PROCEDURAL

if TYPE_CHECKING:
    from desktop_agent.core.write_lane import WriteLane
    from desktop_agent.memory.vault import Vault

# Meta keys of the one record that keeps use counts.
USAGE_ROLE = "usage"
# Use counts are written once per this many replies (and at Lock); a crash loses at most these.
USAGE_FLUSH_EVERY = 20


class UsageCounts:
    """Use counts of one vault; writes happen in the service's write lane."""

    def __init__(self, vault: Vault, lane: WriteLane, clock: Callable[[], datetime]) -> None:
        self.vault = vault
        self.lane = lane
        self.clock = clock
        self.record_id: str | None = None  # the record holding the counts, once written
        self._counts: dict[str, list[Any]] = {}
        self._unsaved = 0  # replies counted since the counts were last written
        self.load()

    def get(self, memory_id: str) -> tuple[int, datetime | None]:
        count, last = self._counts.get(memory_id, (0, None))
        return int(count), datetime.fromisoformat(last) if last else None

    def mark_used(self, memory_ids: Sequence[str]) -> None:
        """Count that these memories shaped a reply. Counted in RAM and written every
        ``USAGE_FLUSH_EVERY`` replies and at ``flush`` (Lock and close): a write per turn cost
        159 ms at 10k memories and left a version behind each time."""
        if not memory_ids:
            return
        now = self.clock().isoformat()
        with self.lane:
            for memory_id in memory_ids:
                count = int(self._counts.get(memory_id, (0, None))[0])
                self._counts[memory_id] = [count + 1, now]
            self._unsaved += 1
            if self._unsaved >= USAGE_FLUSH_EVERY:
                self._save()

    def flush(self) -> None:
        """Write what is only counted in RAM; the app calls it before Lock."""
        with self.lane:
            if self._unsaved:
                self._save()

    def load(self) -> None:
        for record in self.vault.list(PROCEDURAL):
            if record.meta.get("role") == USAGE_ROLE:
                self.record_id = str(record.id)
                self._counts = {k: list(v) for k, v in dict(record.meta.get("stats", {})).items()}

    def drop(self, ids: Sequence[str]) -> None:
        """Forget the counts of forgotten memories (the caller is in the lane)."""
        if any(i in self._counts for i in ids):
            for memory_id in ids:
                self._counts.pop(memory_id, None)
            if self.record_id and self.record_id in self.vault:
                self._save()

    def clear(self) -> None:
        """Everything was forgotten, the counts' record with it."""
        self._counts, self.record_id = {}, None

    def _save(self) -> None:
        live = {k: v for k, v in self._counts.items() if k in self.vault}
        self._counts = live
        self._unsaved = 0
        meta = {"role": USAGE_ROLE, "stats": live}
        if self.record_id and self.record_id in self.vault:
            # One version only: the counts' history is of no use and would grow per write.
            self.vault.update(self.record_id, meta=meta, keep_history=False)
        else:
            record = self.vault.add(PROCEDURAL, "memory use counts", vector=self._zero(), meta=meta)
            self.record_id = str(record.id)

    def _zero(self) -> Any:
        import numpy as np

        return np.zeros(self.vault.dim, dtype=np.float32)
