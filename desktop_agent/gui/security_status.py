"""What Settings › Memory & security says of the keys: where the key lives, its epoch and
counts, and anything the user should know (read-only, missing memories, a repaired key file, an
interrupted re-encryption, what forgetting cannot reach)."""

from __future__ import annotations

import html

from desktop_agent.memory.model import KeyStatus


def status_html(status: KeyStatus) -> str:
    where = "the OS keyring" if status.mode == "keyring" else "a passphrase (Argon2id)"
    rotated = str(status.extra.get("rotated_at", ""))[:16].replace("T", " ")
    damaged = f" · <b>{status.damaged} damaged</b>" if status.damaged else ""
    read_only = status.extra.get("read_only")
    return (
        f"<b>Unlocked.</b> The key-encryption key is kept in {where} "
        f"(<i>{status.backend}</i>).<br>Key epoch <b>{status.epoch}</b> · {status.data_keys} "
        f"data keys · {status.memories} memories{damaged} · last rotated {rotated} UTC"
        + (
            f"<br><b>Read-only:</b> {read_only}, so nothing can be changed or forgotten "
            "until it can be written again."
            if read_only
            else ""
        )
        + (
            f"<br><b>Missing:</b> {html.escape(str(status.extra['row_set']))}"
            if status.extra.get("row_set")
            else ""
        )
        + "".join(
            f"<br><b>Key file:</b> {html.escape(str(note))}"
            for note in status.extra.get("key_files", ())  # damaged, repaired from a copy
        )
        + (
            "<br><b>Re-encryption interrupted:</b> run it again to finish (Settings → "
            "Security, or <code>desktop-agent memory keys rotate --rekey</code>)."
            if status.extra.get("rekey_unfinished")
            else ""
        )
        + (
            "<br><b>Passphrase mode:</b> forgetting cannot reach copies of the data folder "
            "made before the forget (a backup, a synced or copied folder): each carries its "
            "own wrapped key, which your passphrase opens."
            if not status.extra.get("forget_reaches_copies", True)
            else ""
        )
    )
