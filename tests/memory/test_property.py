"""Any sequence of add / edit / forget / reopen matches a plain dict model."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule

from desktop_agent.memory import Vault
from desktop_agent.memory import snapshot as snapshot_module
from desktop_agent.secrets import KeyringKeySource
from desktop_agent.secrets.memory_backend import InMemoryKeyring
from tests.memory.conftest import unit

texts = st.text(st.characters(exclude_categories=[]), min_size=1, max_size=30).filter(
    lambda s: s.strip()
)
kinds = st.sampled_from(["episodic", "semantic", "procedural", "topic"])
conversations = st.sampled_from([None, "c1", "c2"])


class VaultMatchesDict(RuleBasedStateMachine):
    ids = Bundle("ids")

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="vault-prop-"))
        self.source = KeyringKeySource(InMemoryKeyring())
        self.vault = Vault.open(self.root / "vault", self.source)
        self.model: dict[str, tuple[str, str, str | None]] = {}
        self.edits: dict[str, int] = {}

    @rule(target=ids, kind=kinds, text=texts, conversation=conversations, seed=st.integers(0, 1000))
    def add(self, kind: str, text: str, conversation: str | None, seed: int) -> str:
        record = self.vault.add(kind, text, vector=unit(seed), conversation_id=conversation)
        self.model[record.id] = (kind, text, conversation)
        self.edits[record.id] = 1
        return record.id

    @rule(memory_id=ids, text=texts, kind=st.none() | kinds)
    def edit(self, memory_id: str, text: str, kind: str | None) -> None:
        if memory_id not in self.model:
            return
        old_kind, _old, conversation = self.model[memory_id]
        self.vault.update(memory_id, text=text, kind=kind)
        self.model[memory_id] = (kind or old_kind, text, conversation)
        self.edits[memory_id] += 1

    @rule(memory_id=consumes(ids))
    def forget(self, memory_id: str) -> None:
        if memory_id not in self.model:
            return
        receipt = self.vault.forget([memory_id])
        assert receipt.ids == (memory_id,)
        del self.model[memory_id]

    @rule()
    def reopen(self) -> None:
        self.vault.close()
        self.vault = Vault.open(self.root / "vault", self.source)

    @invariant()
    def matches_the_model(self) -> None:
        seen = {r.id: (r.kind, r.text, r.conversation_id) for r in self.vault.list()}
        assert seen == self.model
        for memory_id in self.model:
            assert len(self.vault.history(memory_id)) == self.edits[memory_id]

    def teardown(self) -> None:
        self.vault.close()
        shutil.rmtree(self.root, ignore_errors=True)


VaultMatchesDict.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestVaultMatchesDict = VaultMatchesDict.TestCase


class VaultWithSnapshotsMatchesDict(VaultMatchesDict):
    """The same, with the unlock snapshot written on every close (reopen reads it)."""

    def __init__(self) -> None:
        self._saved_min_rows = snapshot_module.MIN_ROWS
        snapshot_module.MIN_ROWS = 1
        super().__init__()

    def teardown(self) -> None:
        super().teardown()
        snapshot_module.MIN_ROWS = self._saved_min_rows


VaultWithSnapshotsMatchesDict.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestVaultWithSnapshotsMatchesDict = VaultWithSnapshotsMatchesDict.TestCase
