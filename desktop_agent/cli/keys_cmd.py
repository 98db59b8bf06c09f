"""`desktop-agent memory keys ...`: key status, rotation, and re-encryption under new data keys.

``keys rotate`` makes a new key-encryption key and retires every data key, so what is written
after it is under keys no earlier keystore holds. ``keys rotate --rekey`` also re-encrypts every
stored row under new data keys and destroys the old ones, so a data key (or an old keystore and
its KEK) stolen before it opens nothing; progress goes to stderr, and after a crash running it
again finishes the same re-encryption. See docs/SECURITY.md, "Rotating keys".
"""

from __future__ import annotations

import sys

import click

from desktop_agent.cli.base import (
    Command,
    Group,
    emit,
    json_option,
    memory_service,
    opened_app,
    say,
)


@click.group(cls=Group, short_help="key status, rotation and re-encryption")
def keys() -> None:
    """Key status, rotation and re-encryption (see docs/SECURITY.md, "Rotating keys")."""


@keys.command(
    "status", cls=Command, short_help="where the key lives, its epoch, how many data keys"
)
@json_option()
def keys_status(as_json: bool) -> int:
    """Where the key lives, its epoch, how many data keys, damaged rows, whether writing is on."""
    with memory_service() as memory:
        status = memory.key_status()
        damaged = [
            {"table": d.table, "where": d.where, "reason": d.reason, "memory_id": d.memory_id}
            for d in memory.health().damaged
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
        # Memories the row log names but the store lacks (deleted or rolled back), or None.
        "missing": status.extra.get("row_set"),
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
    if body["missing"]:
        lines.append(f"missing:      {body['missing']}")
    if body["rekey_unfinished"]:
        lines.append(
            "re-encryption: interrupted; run `desktop-agent memory keys rotate --rekey` to finish"
        )
    emit(as_json, body, lines)
    return 0


@keys.command(
    "rotate",
    cls=Command,
    short_help="new key-encryption key and new data keys for what is written from now on "
    "(old key-encryption key deleted); --rekey also re-encrypts every stored memory",
)
@click.option(
    "--rekey",
    is_flag=True,
    help="re-encrypt every stored memory under new data keys and destroy the old ones "
    "(progress on stderr; run it again to finish one a crash stopped)",
)
@json_option()
def keys_rotate(rekey: bool, as_json: bool) -> int:
    """A new key-encryption key (the old one deleted) and new data keys for what is written from
    now on; with --rekey, every stored memory is also re-encrypted under new data keys."""
    if rekey:
        return _rekey(as_json)
    with memory_service() as memory:
        previous = memory.key_status().epoch
        epoch = memory.rotate_keys()
    emit(
        as_json,
        {"epoch": epoch, "previous_epoch": previous},
        [f"new key-encryption key: epoch {previous} -> {epoch}"],
    )
    return 0


@keys.command(
    "passphrase",
    cls=Command,
    short_help="change the passphrase (passphrase mode): a new key-encryption key under it",
)
@json_option()
def keys_passphrase(as_json: bool) -> int:
    """Passphrase mode: choose a new passphrase. The key-encryption key is rotated and wrapped
    under the new one; copies of the data folder made before still open with the old one. The
    current passphrase comes from DESKTOP_AGENT_PASSPHRASE or a prompt, the new one from
    DESKTOP_AGENT_NEW_PASSPHRASE or a prompt (asked twice)."""
    from desktop_agent.errors import InputError
    from desktop_agent.secrets.passphrase import passphrase_from_env_or_prompt

    with opened_app() as app:
        if app.key_source().mode != "passphrase":
            raise InputError("this memory keeps its key in the OS keyring: it has no passphrase")
        old = passphrase_from_env_or_prompt("Current passphrase: ")
        memory = app.unlock_memory(old)
        previous = memory.key_status().epoch
        new = passphrase_from_env_or_prompt(
            "New passphrase: ", confirm=True, env=NEW_PASSPHRASE_ENV
        )
        epoch = app.change_passphrase(old, new)
    emit(
        as_json,
        {"epoch": epoch, "previous_epoch": previous},
        [f"passphrase changed; new key-encryption key: epoch {previous} -> {epoch}"],
    )
    return 0


NEW_PASSPHRASE_ENV = "DESKTOP_AGENT_NEW_PASSPHRASE"


@keys.command(
    "accept-missing",
    cls=Command,
    short_help="forget the memories missing from the store (their keys are kept until then)",
)
@click.option("--yes", is_flag=True, help="do not ask: forget them")
@json_option()
def keys_accept_missing(yes: bool, as_json: bool) -> int:
    """Memories deleted or rolled back in the store behind the app's back are reported and
    their keys kept, so restoring the data folder from a copy brings them back. This accepts
    the loss instead: the record of memories is rewritten from what the store holds and the
    keys only the missing rows used are destroyed."""
    from desktop_agent.errors import InputError

    with memory_service() as memory:
        note = memory.key_status().extra.get("row_set")
        if not note:
            emit(as_json, {"accepted": 0}, ["nothing is missing from the store"])
            return 0
        say(f"desktop-agent: {note}")
        if not yes:
            asking = sys.stdin.isatty()
            if not asking or not click.confirm("Forget them for good?", default=False, err=True):
                raise InputError("nothing was changed (run it with --yes to forget them)")
        accepted = memory.accept_missing()
    emit(
        as_json,
        {"accepted": accepted},
        [
            f"forgot {accepted} missing memor{'y' if accepted == 1 else 'ies'}; their keys are destroyed"
        ],
    )
    return 0


def _rekey(as_json: bool) -> int:
    with memory_service() as memory:
        if memory.health().rekey_unfinished:
            say("desktop-agent: finishing an interrupted re-encryption")
        receipt = memory.rekey(progress=_report)
    line = (
        f"re-encrypted {receipt.rows} rows under new data keys; destroyed "
        f"{receipt.keys_destroyed} old keys; key-encryption key: epoch "
        f"{receipt.previous_epoch} -> {receipt.epoch}"
    )
    emit(as_json, receipt.to_json(), [line])
    return 0


def _report(done: int, total: int) -> None:
    """One line per batch on stderr (stdout stays the result, or the JSON)."""
    share = 100 if total == 0 else done * 100 // total
    say(f"re-encrypting: {done}/{total} rows ({share}%)")
