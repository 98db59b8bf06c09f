"""The store is a LanceDB table (issue 11), and vaults written before it still open.

``data/pylance_store`` is a schema-2 vault written by the store as it was before it went
through LanceDB (commit 3e12676, which drove pylance directly): ``build_pylance_store`` run in a
``git worktree`` of that commit (``python -c "from tests.memory.test_store import
build_pylance_store; build_pylance_store()"``). Its passphrase is ``PASSPHRASE``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import lancedb
import pytest

from desktop_agent.memory import Vault
from desktop_agent.memory.store import Store, arrow_rows
from desktop_agent.secrets import PassphraseKeySource
from tests.memory.conftest import FAST_ARGON2, all_bytes, unit

FIXTURE = Path(__file__).parent / "data" / "pylance_store"
PASSPHRASE = "pylance fixture"
CANARY = "the canary's PIN is 4471"


def build_pylance_store(target: Path = FIXTURE) -> None:
    """Write the fixture: an edit, a conversation, a forget (so compaction and cleanup ran)."""
    shutil.rmtree(target, ignore_errors=True)
    with Vault.open(target, PassphraseKeySource(PASSPHRASE, FAST_ARGON2)) as vault:
        tea = vault.add("semantic", "The user likes green tea", vector=unit(1))
        vault.update(tea.id, text="The user likes black coffee")
        for n, text in enumerate(["We planned a trip to Lisbon", "We booked the train"]):
            vault.add("episodic", text, vector=unit(2 + n), conversation_id="conv-1")
        gone = vault.add("semantic", "forgotten before the move to LanceDB", vector=unit(9))
        vault.forget([gone.id])
        vault.add("procedural", "Answer in short sentences", vector=unit(10))


@pytest.fixture
def old_vault(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    shutil.copytree(FIXTURE, target)
    return target


def _opened(directory: Path) -> Vault:
    return Vault.open(directory, PassphraseKeySource(PASSPHRASE, FAST_ARGON2))


def test_a_vault_written_through_pylance_opens_as_it_was(old_vault: Path) -> None:
    before = {p.relative_to(old_vault) for p in (old_vault / "db").rglob("*")}
    with _opened(old_vault) as vault:
        assert vault.damaged == ()
        texts = sorted(r.text for r in vault.list())
        assert texts == [
            "Answer in short sentences",
            "The user likes black coffee",
            "We booked the train",
            "We planned a trip to Lisbon",
        ]
        coffee = next(r for r in vault.list() if "coffee" in r.text)
        assert [v.text for v in vault.history(coffee.id)] == [
            "The user likes green tea",
            "The user likes black coffee",
        ]
        assert len(vault.list(conversation_id="conv-1")) == 2
        assert isinstance(vault._state.store.table(), lancedb.table.LanceTable)
    # Opening and reading wrote nothing into the table: no migration was needed.
    assert {p.relative_to(old_vault) for p in (old_vault / "db").rglob("*")} == before


def test_an_old_vault_takes_writes_and_forgets_through_lancedb(old_vault: Path) -> None:
    with _opened(old_vault) as vault:
        canary = vault.add("semantic", CANARY, vector=unit(20))
        coffee = next(r for r in vault.list() if "coffee" in r.text)
        vault.update(coffee.id, text="The user likes oolong")
        blob = vault._state.store.read(ids=[canary.id]).column("blob")[0].as_py()
        vault.forget([canary.id])
        assert vault._state.store.versions() == [
            vault._state.store.version()
        ]  # old versions removed
    assert blob[-32:] not in all_bytes(old_vault)  # the forgotten ciphertext is in no file
    assert b"4471" not in all_bytes(old_vault)
    with _opened(old_vault) as vault:
        assert [v.text for v in vault.history(coffee.id)][-1] == "The user likes oolong"
        assert len(vault) == 4
    table = lancedb.connect(old_vault / "db").open_table("memories")
    assert table.count_rows() == 6  # coffee's three versions, two episodes, one procedure


def test_the_store_is_a_lancedb_table_that_sees_every_write(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.create()
    ids = [f"{n:032x}" for n in range(5)]
    store.append(arrow_rows(ids, [1] * 5, ["k" * 32] * 5, [b"x%d" % n for n in range(5)]))
    store.upsert(arrow_rows(ids[:2], [1, 2], ["k" * 32] * 2, [b"new", b"two"]))
    store.delete([ids[4]])
    store.delete_rows([(ids[3], 1)])
    rows = {(r["memory_id"], r["version"]): r["blob"] for r in store.read().to_pylist()}
    assert rows == {
        (ids[0], 1): b"new",
        (ids[1], 1): b"x1",
        (ids[1], 2): b"two",
        (ids[2], 1): b"x2",
    }
    assert [
        r["memory_id"] for r in store.read(columns=["memory_id"], ids=[ids[2]]).to_pylist()
    ] == [ids[2]]
    assert len(store.versions()) == 5  # create, append, upsert, two deletes
    store.compact_and_purge()
    assert store.versions() == [store.version()] == [store.dataset().version]
    assert {n.name for n in (tmp_path / "db").iterdir()} == {"memories.lance"}
    fresh = lancedb.connect(tmp_path / "db")
    assert fresh.list_tables().tables == ["memories"]
    assert fresh.open_table("memories").count_rows() == 4


def test_lancedb_writes_nothing_outside_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key_source: object
) -> None:
    elsewhere = tmp_path / "home"
    for name in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "TMPDIR"):
        folder = elsewhere / name
        folder.mkdir(parents=True)
        monkeypatch.setenv(name, str(folder))
    vault_dir = tmp_path / "vault"
    with Vault.open(vault_dir, key_source) as vault:  # type: ignore[arg-type]
        kept = vault.add("semantic", CANARY, vector=unit(1))
        doomed = vault.add("episodic", "said in passing", vector=unit(2), conversation_id="c")
        vault.search(unit(1), "canary", k=2)
        vault.forget([doomed.id])
        assert [r.id for r in vault.list()] == [kept.id]
    assert [p for p in elsewhere.rglob("*") if p.is_file()] == []
    assert sorted(p.name for p in (vault_dir / "db").iterdir()) == ["memories.lance"]


def test_opening_the_table_leaves_lancedbs_rest_client_unloaded(tmp_path: Path) -> None:
    # In a fresh interpreter: the generated REST client's API classes cost about 0.7 s at
    # import and this app never uses a REST namespace (memory/lancedb_import.py).
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from desktop_agent.memory.store import Store\n"
        f"from pathlib import Path\nstore = Store(Path({str(tmp_path)!r}))\n"
        "store.create()\n"
        "print(store.version())\n"
        "print('lance_namespace_urllib3_client.api' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["1", "False"], done.stderr
