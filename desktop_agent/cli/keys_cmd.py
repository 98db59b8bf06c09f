"""`desktop-agent memory keys ...`: key status, rotation, and re-encryption under new data keys.

``keys rotate`` makes a new key-encryption key and retires every data key, so what is written
after it is under keys no earlier keystore holds. ``keys rotate --rekey`` also re-encrypts every
stored row under new data keys and destroys the old ones, so a data key (or an old keystore and
its KEK) stolen before it opens nothing; progress goes to stderr, and after a crash running it
again finishes the same re-encryption. See docs/SECURITY.md, "Rotating keys".
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_agent.cli.memory_cmd import _command, _emit, _usage, _vault


def register(sub: Any) -> None:
    """Add the ``keys`` group under the ``memory`` group's subparsers ``sub``."""
    keys = sub.add_parser("keys", help="key status, rotation and re-encryption")
    keys.set_defaults(handler=lambda _args: _usage(keys))
    keys_sub = keys.add_subparsers(title="keys commands", metavar="COMMAND")
    _command(
        keys_sub,
        "status",
        "where the key lives, its epoch, how many data keys",
        run_keys_status,
        [],
    )
    _command(
        keys_sub,
        "rotate",
        "new key-encryption key and new data keys for what is written from now on "
        "(old key-encryption key deleted); --rekey also re-encrypts every stored memory",
        run_keys_rotate,
        [
            (
                ("--rekey",),
                {
                    "action": "store_true",
                    "help": "re-encrypt every stored memory under new data keys and destroy the "
                    "old ones (progress on stderr; run it again to finish one a crash stopped)",
                },
            )
        ],
    )


def run_keys_status(args: argparse.Namespace) -> int:
    with _vault() as (app, vault):
        status = app.memory.key_status()
        damaged = [
            {"table": d.table, "where": d.where, "reason": d.reason, "memory_id": d.memory_id}
            for d in vault.damaged
        ]
    body = {
        "mode": status.mode,
        "backend": status.backend,
        "epoch": status.epoch,
        "data_keys": status.data_keys,
        "memories": status.memories,
        "vault_id": status.vault_id,
        "schema_version": status.schema_version,
        "created_at": status.extra.get("created_at", ""),
        "rotated_at": status.extra.get("rotated_at", ""),
        "damaged": damaged,
        "read_only": status.extra.get("read_only"),
        "forget_reaches_copies": bool(status.extra.get("forget_reaches_copies", True)),
        "rekey_unfinished": bool(status.extra.get("rekey_unfinished", False)),
        "key_files": list(status.extra.get("key_files", [])),  # damaged, repaired from a copy
    }
    writing = f"off: {body['read_only']} (memories can be read, not changed)"
    lines = [
        f"key mode:     {status.mode} ({status.backend})",
        f"epoch:        {status.epoch} (rotated {body['rotated_at']})",
        f"data keys:    {status.data_keys}",
        f"memories:     {status.memories}",
        f"damaged rows: {len(damaged)}",
        f"writing:      {writing if body['read_only'] else 'on'}",
    ]
    if not body["forget_reaches_copies"]:
        lines.append(
            "forgetting:   cannot reach copies of this folder made before a forget (passphrase "
            "mode: each copy carries its own wrapped key, which your passphrase opens)"
        )
    lines += [f"key file:     {note}" for note in body["key_files"]]
    if body["rekey_unfinished"]:
        lines.append(
            "re-encryption: interrupted; run `desktop-agent memory keys rotate --rekey` to finish"
        )
    _emit(args, body, lines)
    return 0


def run_keys_rotate(args: argparse.Namespace) -> int:
    if args.rekey:
        return _rekey(args)
    with _vault() as (app, vault):
        previous = vault.epoch
        epoch = app.memory.rotate_keys()
    _emit(
        args,
        {"epoch": epoch, "previous_epoch": previous},
        [f"new key-encryption key: epoch {previous} -> {epoch}"],
    )
    return 0


def _rekey(args: argparse.Namespace) -> int:
    # Straight to the vault: the CLI process holds the writer lock, and no memory service (no
    # background writer) is started for this command.
    with _vault() as (_app, vault):
        if vault.rekey_unfinished:
            print("desktop-agent: finishing an interrupted re-encryption", file=sys.stderr)
        receipt = vault.rekey(progress=_report)
    line = (
        f"re-encrypted {receipt.rows} rows under new data keys; destroyed "
        f"{receipt.keys_destroyed} old keys; key-encryption key: epoch "
        f"{receipt.previous_epoch} -> {receipt.epoch}"
    )
    _emit(args, receipt.to_json(), [line])
    return 0


def _report(done: int, total: int) -> None:
    """One line per batch on stderr (stdout stays the result, or the JSON)."""
    share = 100 if total == 0 else done * 100 // total
    print(f"re-encrypting: {done}/{total} rows ({share}%)", file=sys.stderr, flush=True)
