"""The LanceDB table on disk: opaque ids, a key id and one ciphertext per row, nothing else.

``<vault>/db`` is a LanceDB database (``lancedb.connect``) holding one table, ``memories``
(``db/memories.lance``), with a row per version of each memory. The store uses LanceDB's
table API where it has the operation, and drops to the Lance dataset under the table
(``table.to_lance()``) where LanceDB lacks it; each such place says why. Predicates only ever
name opaque ids, because Lance keeps every predicate in its transaction files. Each commit is
retried on a commit conflict and fsynced (files, then folders) before the caller acknowledges it.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

import lance
import pyarrow as pa
from lance.commit import CommitConflictError

from desktop_agent.errors import VaultError
from desktop_agent.memory.files import disk_error, fsync_path, write_blocked
from desktop_agent.memory.model import Damage

if TYPE_CHECKING:
    import lancedb
    from lancedb.table import Table

logger = logging.getLogger(__name__)

TABLE: Final = "memories"
SCHEMA: Final = pa.schema(
    [
        ("memory_id", pa.string()),
        ("version", pa.int32()),
        ("key_id", pa.string()),
        ("blob", pa.large_binary()),
    ]
)
ROWS_PER_FRAGMENT: Final = 8192  # forget rewrites one fragment, so keep them small
READ_BATCH: Final = 65536  # LanceDB hands over each batch across its event loop: few, large
MAINTAIN_EVERY: Final = 64  # commits between compactions of the small fragments single adds make
_ID: Final = re.compile(r"^[0-9a-f]{32}$")
_T = TypeVar("_T")


class Store:
    """One LanceDB table; all writes go through here, in one thread, under the writer lock."""

    def __init__(self, directory: Path, name: str = TABLE) -> None:
        self.root = directory / "db"
        self.uri = self.root / f"{name}.lance"  # where LanceDB keeps the table ``name``
        self.quarantine = directory / "quarantine"
        self.name = name
        self._commits = 0
        self._db: lancedb.DBConnection | None = None
        self._table: Table | None = None  # opened on first use
        self.damage: list[Damage] = []

    # --- opening -------------------------------------------------------------------------

    def exists(self) -> bool:
        return (self.uri / "_versions").is_dir()

    def create(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self._table = self._commit(lambda: self._connect().create_table(self.name, schema=SCHEMA))

    def table(self) -> Table:
        """The LanceDB table at its newest readable version; a torn newest manifest is set aside once."""
        if self._table is None:
            try:
                self._table = self._open()
            except VaultError:
                if not self._set_aside_torn_manifest():
                    raise
                self._table = self._open()
        return self._table

    def _open(self) -> Table:
        try:
            return self._connect().open_table(self.name)
        except Exception as exc:
            raise VaultError(f"the memory table cannot be opened: {_short(exc)}") from None

    def dataset(self) -> lance.LanceDataset:
        """The Lance dataset under the table, at the table's version (for what LanceDB lacks)."""
        dataset: lance.LanceDataset = self.table().to_lance()
        return dataset

    def version(self) -> int:
        return int(self.table().version)

    def _connect(self) -> lancedb.DBConnection:
        if self._db is None:
            # Imported here, and without lance_namespace's REST client (lancedb_import.py):
            # only a process that opens the table pays for it.
            from desktop_agent.memory.lancedb_import import import_lancedb

            self._db = import_lancedb().connect(self.root)
        return self._db

    def _set_aside_torn_manifest(self) -> bool:
        manifests = sorted((self.uri / "_versions").glob("*.manifest"), key=lambda p: p.name)
        if len(manifests) < 2:
            return False
        newest, previous = manifests[0], manifests[1]  # v2 names count down from u64::MAX
        try:
            # Lance: LanceDB opens only the newest version, which is the torn one here.
            lance.dataset(self.uri, version=_version_of(previous))
        except Exception:
            return False
        try:
            self.quarantine.mkdir(exist_ok=True)
            shutil.move(newest, self.quarantine / f"{self.name}-{newest.name}")
            (self.uri / "_versions" / "latest_version_hint.json").unlink(missing_ok=True)
            fsync_path(self.uri / "_versions")
        except OSError as exc:
            raise disk_error(
                exc, "the memory table's newest version is torn and cannot be set aside"
            ) from None
        self.damage.append(
            Damage(
                self.name,
                f"manifest {newest.name}",
                "torn newest version set aside; the previous one is used",
            )
        )
        return True

    # --- reading -------------------------------------------------------------------------

    def read(
        self, columns: Sequence[str] | None = None, ids: Iterable[str] | None = None
    ) -> pa.Table:
        """All rows (or the rows of ``ids``): a damaged file is reported and skipped."""
        names = list(columns or SCHEMA.names)
        where = None if ids is None else _in_clause(ids)
        schema = pa.schema([SCHEMA.field(n) for n in names])
        if not self.damaged_fragments():
            query = self.table().search().select(names)
            query = query if where is None else query.where(where)
            try:
                return _as(schema, query.to_batches(READ_BATCH).read_all())
            except Exception as exc:
                if write_blocked(exc):
                    raise
                logger.info("a full read failed (%s); reading file by file", type(exc).__name__)
        return self._read_fragments(names, where, schema)

    def _read_fragments(self, names: list[str], where: str | None, schema: pa.Schema) -> pa.Table:
        # Lance: LanceDB reads the table whole, so one unreadable file would hide every row.
        parts = []
        for fragment in self.dataset().get_fragments():
            try:
                parts.append(fragment.to_table(columns=names, filter=where))
            except Exception as exc:
                self._note_damage(fragment, exc)
        return _as(schema, pa.concat_tables(parts)) if parts else schema.empty_table()

    def damaged_fragments(self) -> list[int]:
        return [int(d.where.split()[1]) for d in self.damage if d.where.startswith("fragment ")]

    def damaged_files(self) -> list[str]:
        """One line per damaged fragment: which one, and its data file."""
        return [
            f"{d.where} ({d.reason.split(':')[0]})"
            for d in self.damage
            if d.where.startswith("fragment ")
        ]

    def _note_damage(self, fragment: Any, exc: BaseException) -> None:
        where = f"fragment {fragment.fragment_id}"
        if any(d.where == where for d in self.damage):
            return
        try:
            names = ", ".join(Path(f.path).name for f in fragment.data_files())
        except Exception:
            names = "?"
        self.damage.append(Damage(self.name, where, f"unreadable data file {names}: {_short(exc)}"))

    # --- writing -------------------------------------------------------------------------

    def append(self, rows: pa.Table) -> None:
        if rows.num_rows:
            self._commit(partial(self._write, rows, "append"))

    def replace_all(self, rows: pa.Table) -> None:
        """Replace every row in one commit (a migration), then drop the old versions."""
        self._commit(partial(self._write, rows, "overwrite"))
        self._commit(self._cleanup)

    def _write(self, rows: pa.Table, mode: str) -> None:
        # Lance: LanceDB's add cannot cap the rows per data file, and a forget rewrites the
        # files it deletes from, so a large import must not become one huge file.
        lance.write_dataset(rows, self.uri, mode=mode, max_rows_per_file=ROWS_PER_FRAGMENT)

    def upsert(self, rows: pa.Table) -> None:
        """Replace rows with the same (memory_id, version), in one commit."""
        if rows.num_rows:
            self._commit(
                lambda: (
                    self.table()
                    .merge_insert(["memory_id", "version"])
                    .when_matched_update_all()
                    .when_not_matched_insert_all()
                    .execute(rows)
                )
            )

    def delete(self, memory_ids: Iterable[str]) -> None:
        ids = list(memory_ids)
        for start in range(0, len(ids), 1000):
            clause = _in_clause(ids[start : start + 1000])
            self._commit(partial(self._delete_where, clause))

    def _delete_where(self, clause: str) -> None:
        """Delete matching rows fragment by fragment, in one commit. A fragment whose file
        cannot be read is noted as damaged and left as it is: one bad file must not block
        every forget (the rows in it stay as unreadable as they were)."""
        # Lance: LanceDB's delete fails whole on one unreadable file and cannot skip it.
        dataset = self.dataset()
        updated, removed = [], []
        for fragment in dataset.get_fragments():
            if fragment.fragment_id in self.damaged_fragments():
                continue
            try:
                changed = fragment.delete(clause)
            except Exception as exc:
                if write_blocked(exc):
                    raise  # a full or read-only disk is not damage
                self._note_damage(fragment, exc)
                continue
            if changed is None:
                removed.append(fragment.fragment_id)
            elif changed != fragment.metadata:
                updated.append(changed)
        if updated or removed:
            lance.LanceDataset.commit(
                self.uri,
                lance.LanceOperation.Delete(updated, removed, clause),
                read_version=dataset.version,
            )

    def delete_rows(self, rows: Sequence[tuple[str, int]]) -> None:
        """Delete single versions (damaged rows whose key is about to be destroyed)."""
        if rows:
            for memory_id, _version in rows:
                _in_clause([memory_id])
            clause = " OR ".join(f"(memory_id = '{m}' AND version = {int(v)})" for m, v in rows)
            self._commit(partial(self._delete_where, clause))

    def compact_and_purge(self) -> None:
        """Rewrite every fragment with deleted rows, then delete every old version and stray file."""

        def run() -> None:
            try:
                self._compact()
            except Exception as exc:
                # A file damaged since unlock (an unlock snapshot skips reading them): find it,
                # then compact around it.
                if write_blocked(exc) or not self._found_new_damage():
                    raise
                self._compact()
            self._table_refreshed()
            self._cleanup()

        self._commit(run)
        self._commits = 0

    def _compact(self) -> None:
        # Lance: LanceDB's optimize() has no deletion threshold (a forgotten row must leave
        # every file now), no fragment size and no way to leave a damaged file out.
        self.dataset().optimize.compact_files(
            target_rows_per_fragment=ROWS_PER_FRAGMENT,
            materialize_deletions=True,
            materialize_deletions_threshold=0.0,
            excluded_fragment_ids=self.damaged_fragments() or None,
        )

    def _cleanup(self) -> None:
        """Delete every old version and unreferenced file. Safe only because this process holds
        the writer lock (``delete_unverified`` would otherwise remove a writer's files in flight)."""
        # Lance: LanceDB's optimize(cleanup_older_than=0) would also compact with its own
        # settings (one big file, failing on a damaged one); its cleanup_old_versions is
        # deprecated and calls this same Lance method.
        self.dataset().cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)

    def _found_new_damage(self) -> bool:
        known = len(self.damage)
        self._read_fragments(list(SCHEMA.names), None, SCHEMA)
        return len(self.damage) > known

    def drop(self) -> None:
        """Remove the table's files entirely (forget everything), then recreate it empty."""
        try:
            self._connect().drop_table(self.name)
        except Exception as exc:  # a table too damaged for LanceDB: its folder goes below
            logger.warning("dropping the memory table failed (%s)", type(exc).__name__)
        self._table = None
        shutil.rmtree(self.uri, ignore_errors=True)  # anything the drop left behind
        shutil.rmtree(self.quarantine, ignore_errors=True)
        fsync_path(self.root)
        self.damage = []
        self.create()

    def maintain(self) -> None:
        """Compact the one-row fragments single adds leave, every so many commits."""
        if self._commits >= MAINTAIN_EVERY:
            self.compact_and_purge()

    def versions(self) -> list[int]:
        return [int(v["version"]) for v in self.table().list_versions()]

    def _table_refreshed(self) -> None:
        """Lance commits made under LanceDB's table: have it read the newest version again."""
        if self._table is not None:
            self._table.checkout_latest()  # type: ignore[no-untyped-call]

    def _commit(self, write: Callable[[], _T]) -> _T:
        before = _files(self.uri)
        for attempt in range(6):
            try:
                result = write()
                self._table_refreshed()
                break
            except CommitConflictError as exc:
                if exc.retryable and attempt < 5:  # preempted: try again on the newer version
                    time.sleep(0.05 * 2**attempt)
                    continue
                raise VaultError(f"cannot write the memory table: {_short(exc)}") from None
            except OSError as exc:
                raise disk_error(exc, "cannot write the memory table") from None
            except Exception as exc:
                if write_blocked(exc):
                    raise disk_error(exc, "cannot write the memory table") from None
                raise VaultError(f"cannot write the memory table: {_short(exc)}") from None
        _fsync_new(self.uri, before)
        self._commits += 1
        return result


def valid_id(memory_id: str) -> bool:
    return bool(_ID.match(memory_id))


def _in_clause(ids: Iterable[str]) -> str:
    checked = list(ids)
    for memory_id in checked:
        if not valid_id(memory_id):  # only our own hex ids ever reach a predicate
            raise VaultError("internal error: a non-opaque id reached a table predicate")
    return "memory_id IN (" + ",".join(f"'{i}'" for i in checked) + ")" if checked else "false"


def _files(root: Path) -> set[str]:
    found: set[str] = set()
    for folder, _dirs, names in os.walk(root):
        found.update(os.path.join(folder, name) for name in names)
    return found


def _fsync_new(root: Path, before: set[str]) -> None:
    """fsync what the commit wrote, then the folders naming it (neither LanceDB nor Lance does)."""
    folders = {root, root.parent}
    try:
        for path in sorted(_files(root) - before):
            fsync_path(Path(path))
            folders.add(Path(path).parent)
        for folder in folders:
            if folder.exists():
                fsync_path(folder)
    except OSError as exc:
        raise disk_error(exc, "cannot flush the memory table to disk") from None


def _as(schema: pa.Schema, table: pa.Table) -> pa.Table:
    return table if table.schema.equals(schema) else table.cast(schema)  # a cast copies


def _version_of(manifest: Path) -> int:
    return 2**64 - 1 - int(manifest.stem)


def _short(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def arrow_rows(
    memory_ids: Sequence[str],
    versions: Sequence[int],
    key_ids: Sequence[str],
    blobs: Sequence[bytes],
) -> pa.Table:
    return pa.table(
        {"memory_id": memory_ids, "version": versions, "key_id": key_ids, "blob": blobs},
        schema=SCHEMA,
    )


def lance_version() -> Any:
    return lance.__version__
