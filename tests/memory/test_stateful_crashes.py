"""Any sequence of add / edit / forget / forget-all / rotate / rekey, with crashes at random
steps, against a model (issue 13, item 10).

A crash is an exception nothing in the vault catches (``Crash``), raised before or after the
n-th call of one internal step (a Lance commit, a key-journal append, an atomic rename, the
forget journal, the ratchet's KEK calls, an audit append, compaction ...) while an operation
runs; the vault object is then abandoned without ``close`` (its writer lock dropped, as a dead
process drops it) and the vault reopened, sometimes with a second crash inside that reopen.
Whatever the step, after the reopen:

- an interrupted add or edit either fully happened or not at all;
- an interrupted forget (also one that rewrites another memory without the forgotten words,
  whose old versions must then go too) whose journal was written is complete: the memory is gone, its
  ciphertext is in no file under the vault folder, and no key that exists opens its words in
  any Lance version or in the unlock snapshot; one that crashed before its journal forgot
  nothing and lost nothing;
- an interrupted rotation left one epoch: one KEK in the keyring, only that epoch's key
  files, no temporary file;
- an interrupted re-encryption (``rekey``) lost nothing, says it is unfinished, and the next
  one finishes it; once one finishes, no data key from before it opens any row in any version;
- and always: every memory the model holds reads back with its history, no row is damaged,
  the audit chain verifies, and no memory's words are in any file in plaintext.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lance
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from desktop_agent.memory import Vault, forget_journal, rekey_journal
from desktop_agent.memory import snapshot as snapshot_module
from desktop_agent.memory.header import read_header
from desktop_agent.memory.keystore import KeyStore
from desktop_agent.memory.model import Rewrite
from desktop_agent.memory.store import Store
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.keyring_source import account
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from tests.memory.conftest import all_bytes, unit
from tests.memory.crash_points import (
    POINT_NAMES,
    Armed,
    Crash,
    arm,
    forget_crashes,
    nths,
    ratchet_crashes,
    reopen_crashes,
    write_crashes,
)
from tests.memory.test_forget import decryptable_texts
from tests.memory.test_rotation import all_rows, opens_with

texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
kinds = st.sampled_from(["episodic", "semantic", "procedural", "topic"])
conversations = st.sampled_from([None, "c1", "c2"])


@dataclass
class Memory:
    kind: str
    conversation: str | None
    markers: list[str]  # one per version, oldest first; the last is the current text's
    texts: list[str]


class VaultSurvivesCrashes(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._saved_min_rows = snapshot_module.MIN_ROWS
        snapshot_module.MIN_ROWS = 1  # every clean close writes the unlock snapshot
        self.root = Path(tempfile.mkdtemp(prefix="vault-crash-"))
        self.dir = self.root / "vault"
        self.keyring = InMemoryKeyring()
        self.source = KeyringKeySource(self.keyring)
        self.vault = Vault.open(self.dir, self.source)
        self.model: dict[str, Memory] = {}
        # What must be gone from disk: forgotten id (or "<id> before redaction n") -> slices of
        # those ciphertexts.
        self.gone: dict[str, list[bytes]] = {}
        self.gone_markers: list[str] = []
        self.counter = 0
        # Raw data keys from before a re-encryption a crash interrupted (None: none pending).
        self.keys_before_rekey: dict[str, bytes] | None = None

    # --- helpers ---------------------------------------------------------------------------

    def _marker(self) -> str:
        self.counter += 1
        return f"QZM{self.counter:04d}{os.urandom(3).hex()}QZ"

    def _run(
        self, action: Callable[[], Any], point: str | None, nth: int, reopen_point: str | None
    ) -> Armed | None:
        """Run ``action``; with a crash armed, die there, abandon the vault and reopen it.
        Returns the armed crash if it fired (the caller then settles the model)."""
        if point is None:
            action()
            return None
        armed = Armed(point, nth)
        with pytest.MonkeyPatch.context() as patch:
            arm(patch, armed, self.source)
            with contextlib.suppress(Crash):
                action()
        if not armed.fired:
            return None
        event(f"crash: {point}")
        # A journal renamed into place is durable even if the call writing it never returned.
        armed.journal_written |= forget_journal.journal_path(self.dir).exists()
        self.vault._lock.release()  # the process is gone; nothing else of it runs
        self._reopen_after_crash(reopen_point)
        return armed

    def _reopen_after_crash(self, reopen_point: str | None) -> None:
        if reopen_point is not None:
            armed = Armed(reopen_point, 0)
            with pytest.MonkeyPatch.context() as patch:
                arm(patch, armed, self.source)
                # Vault.open releases its lock on the way out, as a dying process would.
                with contextlib.suppress(Crash):
                    Vault.open(self.dir, self.source).close()
        self.vault = Vault.open(self.dir, self.source)

    def _forgotten(self, memory_id: str) -> None:
        memory = self.model.pop(memory_id)
        self.gone_markers += memory.markers

    def _blobs(self, memory_id: str) -> list[bytes]:
        rows = self.vault._state.store.read(ids=[memory_id]).to_pylist()
        return [bytes(r["blob"])[20:60] for r in rows]

    # --- rules -----------------------------------------------------------------------------

    @initialize()
    def three_memories(self) -> None:
        """Two episodes of one conversation (forgetting one re-encrypts the other) and a fact."""
        for kind, conversation in [("episodic", "c1"), ("episodic", "c1"), ("semantic", None)]:
            marker = self._marker()
            record = self.vault.add(
                kind, marker, vector=unit(len(self.model)), conversation_id=conversation
            )
            self.model[record.id] = Memory(kind, conversation, [marker], [marker])

    @rule(
        kind=kinds,
        text=texts,
        conversation=conversations,
        seed=st.integers(0, 1000),
        point=write_crashes,
        nth=nths,
        reopen_point=reopen_crashes,
    )
    def add(
        self,
        kind: str,
        text: str,
        conversation: str | None,
        seed: int,
        point: str | None,
        nth: int,
        reopen_point: str | None,
    ) -> None:
        marker = self._marker()
        full = f"{marker} {text}"
        before = {r.id for r in self.vault.list()}
        added: list[str] = []

        def action() -> None:
            record = self.vault.add(kind, full, vector=unit(seed), conversation_id=conversation)
            added.append(record.id)

        if self._run(action, point, nth, reopen_point) is None:
            new_id = added[0]
        else:
            new = [r for r in self.vault.list() if r.id not in before]
            assert len(new) <= 1, "a crashed add made more than one memory"
            if not new:
                return  # it did not happen: fine, it was never acknowledged
            new_id = new[0].id
            assert (new[0].text, new[0].kind, new[0].conversation_id) == (full, kind, conversation)
        self.model[new_id] = Memory(kind, conversation, [marker], [full])

    @precondition(lambda self: bool(self.model))
    @rule(
        data=st.data(),
        text=texts,
        kind=st.none() | kinds,
        point=write_crashes,
        nth=nths,
        reopen_point=reopen_crashes,
    )
    def edit(
        self,
        data: st.DataObject,
        text: str,
        kind: str | None,
        point: str | None,
        nth: int,
        reopen_point: str | None,
    ) -> None:
        memory_id = data.draw(st.sampled_from(list(self.model)))
        memory = self.model[memory_id]
        marker = self._marker()
        full = f"{marker} {text}"
        crashed = self._run(
            lambda: self.vault.update(memory_id, text=full, kind=kind), point, nth, reopen_point
        )
        now = self.vault.get(memory_id)
        if crashed is not None and now.text != full:
            # It did not happen: the old text and history are intact (checked by the invariant).
            assert now.text == memory.texts[-1]
            self.gone_markers.append(marker)  # never acknowledged, so never to be found
            return
        assert now.text == full
        memory.kind = kind or memory.kind
        memory.markers.append(marker)
        memory.texts.append(full)

    @precondition(lambda self: bool(self.model))
    @rule(
        data=st.data(),
        point=forget_crashes,
        nth=nths,
        reopen_point=reopen_crashes,
    )
    def forget(
        self, data: st.DataObject, point: str | None, nth: int, reopen_point: str | None
    ) -> None:
        memory_id = data.draw(st.sampled_from(list(self.model)))
        blobs = self._blobs(memory_id)
        crashed = self._run(lambda: self.vault.forget([memory_id]), point, nth, reopen_point)
        if crashed is not None and not crashed.journal_written:
            # Only copies were made before the journal: nothing is forgotten, nothing lost.
            assert memory_id in self.vault
            return
        assert memory_id not in self.vault
        assert not forget_journal.journal_path(self.dir).exists()
        self._forgotten(memory_id)
        self.gone[memory_id] = blobs

    @precondition(lambda self: len(self.model) >= 2)
    @rule(data=st.data(), point=forget_crashes, nth=nths, reopen_point=reopen_crashes)
    def forget_redacting(
        self, data: st.DataObject, point: str | None, nth: int, reopen_point: str | None
    ) -> None:
        """Forget one memory and rewrite another without its words (an episode a forgotten fact
        was learned from): the rewritten memory's old versions go in the same forget."""
        memory_id, redacted = data.draw(
            st.lists(st.sampled_from(list(self.model)), min_size=2, max_size=2, unique=True)
        )
        blobs, old_blobs = self._blobs(memory_id), self._blobs(redacted)
        marker = self._marker()
        rewrite = {redacted: Rewrite(marker, {}, unit(7))}
        crashed = self._run(
            lambda: self.vault.forget([memory_id], rewrite=rewrite), point, nth, reopen_point
        )
        kept = self.model[redacted]
        if crashed is not None and not crashed.journal_written:
            assert memory_id in self.vault
            # The new version is a copy written before the journal: it may be there, with
            # every old one (nothing lost), or not at all.
            history = [v.text for v in self.vault.history(redacted)]
            if history == kept.texts:
                self.gone_markers.append(marker)
            else:
                assert history == [*kept.texts, marker]
                kept.markers.append(marker)
                kept.texts.append(marker)
            return
        assert memory_id not in self.vault
        assert [v.text for v in self.vault.history(redacted)] == [marker]
        self._forgotten(memory_id)
        self.gone[memory_id] = blobs
        self.gone[f"{redacted} before redaction {self.counter}"] = old_blobs
        self.gone_markers += kept.markers
        kept.markers, kept.texts = [marker], [marker]

    @precondition(lambda self: bool(self.model))
    @rule(
        data=st.data(),
        point=st.sampled_from(POINT_NAMES),
        nth=nths,
        reopen_point=reopen_crashes,
    )
    def crash_mid_forget(
        self, data: st.DataObject, point: str, nth: int, reopen_point: str | None
    ) -> None:
        """Forget has the most steps: give it a rule that always arms a crash."""
        self.forget(data, point, nth, reopen_point)

    @precondition(lambda self: len(self.model) >= 3)
    @rule(
        go=st.sampled_from([True, False, False, False]),  # rarely: it empties the model
        point=forget_crashes,
        nth=nths,
        reopen_point=reopen_crashes,
    )
    def forget_everything(
        self, go: bool, point: str | None, nth: int, reopen_point: str | None
    ) -> None:
        if not go:
            return
        event("forget everything")
        blobs = {memory_id: self._blobs(memory_id) for memory_id in self.model}
        crashed = self._run(self.vault.forget_all, point, nth, reopen_point)
        if crashed is not None and not crashed.journal_written:
            assert len(self.vault) == len(self.model)  # nothing destroyed before the journal
            return
        assert len(self.vault) == 0
        for memory_id in list(self.model):
            self._forgotten(memory_id)
            self.gone[memory_id] = blobs[memory_id]

    @rule(point=ratchet_crashes, nth=nths, reopen_point=reopen_crashes)
    def rotate(self, point: str | None, nth: int, reopen_point: str | None) -> None:
        epoch = self.vault.epoch
        crashed = self._run(self.vault.rotate_keys, point, nth, reopen_point)
        if crashed is None:
            assert self.vault.epoch == epoch + 1
        else:
            # A crash before the commit leaves the old epoch; one after, the new one; the open
            # that follows may ratchet once more (keys a crashed add left unused).
            assert self.vault.epoch >= epoch

    @rule(point=forget_crashes, nth=nths, reopen_point=reopen_crashes)
    def rekey(self, point: str | None, nth: int, reopen_point: str | None) -> None:
        """Re-encrypt everything (2 rows per batch); after a crash every memory still reads and
        a later rekey finishes the same plan; once done, no data key from before opens a row."""
        keys = self.vault._state.keys
        before = self.keys_before_rekey or {k: keys.raw_key(k) for k in keys.ids()}
        crashed = self._run(lambda: self.vault.rekey(batch=2), point, nth, reopen_point)
        if crashed is not None:
            pending = rekey_journal.journal_path(self.dir).exists()
            self.keys_before_rekey = before if pending else None
            return  # (with no journal it either never started or finished: nothing to check)
        self.keys_before_rekey = None
        for row in all_rows(self.dir):
            assert not opens_with(before, row), "a data key from before the rekey opens a row"

    @rule()
    def reopen(self) -> None:
        self.vault.close()
        self.vault = Vault.open(self.dir, self.source)

    # --- what always holds -----------------------------------------------------------------

    @invariant()
    def every_memory_reads_back_with_its_history(self) -> None:
        seen = {r.id: (r.kind, r.text, r.conversation_id) for r in self.vault.list()}
        assert seen == {i: (m.kind, m.texts[-1], m.conversation) for i, m in self.model.items()}
        for memory_id, memory in self.model.items():
            assert [v.text for v in self.vault.history(memory_id)] == memory.texts
        assert self.vault.damaged == ()
        # No false tamper report: the row log agrees with the table after every crash.
        assert self.vault.status().extra["row_set"] is None

    @invariant()
    def one_epoch_one_kek_no_litter(self) -> None:
        header = read_header(self.dir)
        assert header is not None and header.epoch == self.vault.epoch
        assert [a for _s, a in self.keyring.entries] == [account(header.vault_id, header.epoch)]
        keys = {p.name for p in (self.dir / "keys").iterdir()}
        epoch_files = {f"keystore-{header.epoch}.bin", f"journal-{header.epoch}.bin"}
        assert keys <= epoch_files | {f"{name}.copy" for name in epoch_files}
        assert not list(self.dir.rglob("*.tmp"))
        assert not forget_journal.journal_path(self.dir).exists()
        pending = self.keys_before_rekey is not None
        assert rekey_journal.journal_path(self.dir).exists() == pending
        assert self.vault.status().extra["rekey_unfinished"] == pending
        assert self.vault.verify_audit().ok

    @invariant()
    def no_words_on_disk_and_forgotten_is_gone(self) -> None:
        on_disk = all_bytes(self.dir)
        live = [m for memory in self.model.values() for m in memory.markers]
        for marker in [*live, *self.gone_markers]:
            assert marker.encode() not in on_disk  # plaintext never reaches a file
        for memory_id, blobs in self.gone.items():
            for blob in blobs:
                assert blob not in on_disk, f"ciphertext of forgotten {memory_id} is still on disk"
        if self.gone:
            readable = b"\n".join([*decryptable_texts(self.dir, self.source), *self._snapshots()])
            # (gone_markers also holds the words of edits that never happened: never written,
            # so finding them readable would be a bug too.)
            assert not any(m.encode() in readable for m in self.gone_markers)

    def _snapshots(self) -> list[bytes]:
        """The unlock snapshot's records, for every table version today's keys open it at."""
        header = read_header(self.dir)
        assert header is not None
        keys = KeyStore.unlock(self.dir, header, self.source)
        found = []
        for entry in lance.dataset(Store(self.dir).uri).versions():
            loaded = snapshot_module.load(self.dir, keys, entry["version"], self.vault.dim)
            if loaded is not None:
                found += loaded.records
        return found

    def teardown(self) -> None:
        try:
            self.vault.close()
        finally:
            snapshot_module.MIN_ROWS = self._saved_min_rows
            shutil.rmtree(self.root, ignore_errors=True)


VaultSurvivesCrashes.TestCase.settings = settings(
    # 25 in CI (about 40 s); VAULT_STATEFUL_EXAMPLES=500 for a longer hunt.
    max_examples=int(os.environ.get("VAULT_STATEFUL_EXAMPLES", "25")),
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestVaultSurvivesCrashes = VaultSurvivesCrashes.TestCase
