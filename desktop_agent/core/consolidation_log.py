"""A consolidation run's writes, each logged in the changed memory's own meta (run id, the
fields changed, their values before and after), so a run can be undone field by field and
leaves alone a field someone changed since."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from desktop_agent.core.memory_changes import MemoryChange
from desktop_agent.core.memory_model import ACTIVE, TOPIC, MemoryItem, item_from_record
from desktop_agent.memory.model import thaw

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.core.topics import Topic

RUN_KEY: Final = "consolidation_run"
LOG_KEY: Final = "consolidation_log"
# Pairs the user un-merged or un-superseded with ``undo``: later runs leave them apart.
APART_KEY: Final = "consolidation_keep_apart"
TEXT_FIELD: Final = "__text__"
LOG_KEEP: Final = 8


@dataclass(frozen=True, slots=True)
class Change:
    """One write of a run: which memory, what was done, and its status before and after."""

    memory_id: str
    action: str  # superseded, supersedes, merged, absorbed, topic, topic_created, ...
    before_status: str
    after_status: str
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "action": self.action,
            "before_status": self.before_status,
            "after_status": self.after_status,
            "detail": self.detail,
        }


@dataclass
class LoggedRun:
    """One run's writes, each logged in the memory's own meta so ``revert`` can undo it."""

    memory: MemoryService
    run_id: str
    changes: list[Change] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)

    def write(
        self,
        memory_id: str,
        action: str,
        fields: Mapping[str, Any],
        *,
        text: str | None = None,
        detail: str = "",
    ) -> MemoryItem | None:
        """Set ``fields`` (and the text) of a memory, logged; no write when nothing differs.
        None when the memory was forgotten meanwhile (runs go on in the background)."""
        vault = self.memory.vault
        with vault.lock:
            if memory_id not in vault:
                return None
            record = vault.get(memory_id)
            meta = thaw(record.meta)
            wanted = {k: thaw(v) for k, v in fields.items()}
            before = {k: meta.get(k) for k in wanted}
            if text is not None and text != record.text:
                before[TEXT_FIELD], wanted[TEXT_FIELD] = record.text, text
            if all(same_value(before[k], v) for k, v in wanted.items()):
                return item_from_record(record)
            before[RUN_KEY], wanted[RUN_KEY] = meta.get(RUN_KEY), self.run_id
            entry = {"run": self.run_id, "action": action, "before": before, "after": wanted}
            meta |= {k: v for k, v in wanted.items() if k != TEXT_FIELD}
            meta[LOG_KEY] = [*meta.get(LOG_KEY, [])[-(LOG_KEEP - 1) :], entry]
            new_text = wanted.get(TEXT_FIELD)
            vector = self.memory.embedder.embed([new_text])[0] if new_text else None
            updated = vault.update(memory_id, meta=meta, text=new_text, vector=vector)
        status = str(meta.get("status", ACTIVE))
        self._changed(memory_id, action, str(before.get("status") or status), status, detail)
        return item_from_record(updated)

    def add_topic(self, topic: Topic) -> None:
        wanted = {
            "topic": topic.name,
            "members": list(topic.members),
            "summarised": sorted(topic.members),
            "status": ACTIVE,
        }
        entry = {"run": self.run_id, "action": "topic_created", "before": {}, "after": wanted}
        meta = {**wanted, "importance": 0.5, RUN_KEY: self.run_id, LOG_KEY: [entry]}
        vector = self.memory.embedder.embed([topic.summary])[0]
        record = self.memory.vault.add(TOPIC, topic.summary, vector=vector, meta=meta)
        self.added.append(str(record.id))
        self.changes.append(Change(str(record.id), "topic_created", "", ACTIVE, topic.name))

    def revert(self, memory_id: str) -> tuple[list[Change], bool, bool]:
        """Undo this run's log entries of one memory, newest first: (changes, conflict, forget)."""
        vault = self.memory.vault
        restored: list[Change] = []
        conflict = forget = False
        with vault.lock:
            record = vault.get(memory_id)
            meta = thaw(record.meta)
            log = list(meta.get(LOG_KEY, []))
            mine = [e for e in log if e.get("run") == self.run_id]
            text = record.text
            for entry in reversed(mine):
                after, before = entry["after"], entry["before"]
                now = {k: (text if k == TEXT_FIELD else meta.get(k)) for k in after}
                if not all(same_value(now[k], v) for k, v in after.items()):
                    conflict = True
                    continue
                if entry["action"] == "topic_created":
                    forget = True
                    continue
                status = str(meta.get("status", ACTIVE))
                for key, value in before.items():
                    if key == TEXT_FIELD:
                        text = value
                    elif value is None:
                        meta.pop(key, None)
                    else:
                        meta[key] = value
                self._keep_apart(meta, entry)
                restored.append(
                    Change(
                        memory_id,
                        entry["action"],
                        status,
                        str(meta.get("status", ACTIVE)),
                        "undone",
                    )
                )
            if forget:
                return restored, conflict, True
            meta[LOG_KEY] = [e for e in log if e.get("run") != self.run_id]
            if not meta[LOG_KEY]:
                del meta[LOG_KEY]
            changed_text = text if text != record.text else None
            vector = self.memory.embedder.embed([changed_text])[0] if changed_text else None
            vault.update(memory_id, meta=meta, text=changed_text, vector=vector)
        self.edited.append(memory_id)
        return restored, conflict, False

    @staticmethod
    def _keep_apart(meta: dict[str, Any], entry: Mapping[str, Any]) -> None:
        after = entry["after"]
        other = after.get("merged_into") or after.get("superseded_by")
        if other:
            meta[APART_KEY] = sorted({*meta.get(APART_KEY, []), str(other)})

    def _changed(self, memory_id: str, action: str, before: str, after: str, detail: str) -> None:
        self.edited.append(memory_id)
        self.changes.append(Change(memory_id, action, before, after, detail))

    def notify(self) -> None:
        """Tell the service (and the panels) what the run wrote."""
        if self.added or self.edited:
            edited = tuple(dict.fromkeys(i for i in self.edited if i not in self.added))
            self.memory.notify(MemoryChange(added=tuple(self.added), edited=edited))


def same_value(a: Any, b: Any) -> bool:
    return bool(thaw(a) == thaw(b))
