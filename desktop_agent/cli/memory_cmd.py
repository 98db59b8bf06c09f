"""`desktop-agent memory ...`: see, add, edit and forget memories; backups, audit log, keys.

Every command works through the memory service (``app.memory``, the one the window uses) and
takes ``--json``, then prints one JSON object whose shape is documented in docs/CLI-memory.md
(stable: fields are only ever added). More subcommands join the ``memory`` group with
``memory.add_command(command)`` (as ``search``, ``consolidate`` and ``keys`` do).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from desktop_agent.cli.base import (
    Command,
    Group,
    emit,
    json_option,
    memory_service,
    one_line,
    say,
)
from desktop_agent.cli.consolidate_cmd import consolidate
from desktop_agent.cli.keys_cmd import keys
from desktop_agent.cli.search_cmd import search
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.core.memory_upkeep import VaultHealth
    from desktop_agent.memory import ForgetReceipt, MemoryRecord, MemoryVersion

KINDS = ("episodic", "semantic", "procedural", "topic")


@click.group(cls=Group, short_help="see, edit and forget what the assistant remembers")
def memory() -> None:
    """See, edit and forget what the assistant remembers; backups, the audit log, keys."""


@memory.command("add", cls=Command, short_help="remember a new memory (prints its id)")
@click.argument("text")
@click.option(
    "--kind", type=click.Choice(KINDS), default="semantic", help="kind (default semantic)"
)
@json_option()
def memory_add(text: str, kind: str, as_json: bool) -> int:
    """Remember TEXT: through the service, which embeds it and lets a new fact supersede the
    one it replaces."""
    with memory_service() as service:
        record = service.record(service.remember(text, kind=kind).id)
    emit(as_json, {"memory": record_json(record)}, [record.id])
    return 0


@memory.command("list", cls=Command, short_help="list memories")
@click.option("--kind", type=click.Choice(KINDS))
@json_option()
def memory_list(kind: str | None, as_json: bool) -> int:
    """List memories, oldest first, each with where it was learned."""
    with memory_service() as service:
        items = list(reversed(service.items(kind)))  # oldest first
        records = [service.record(item.id) for item in items]
        lines = [line for item in items for line in _describe(service, item)]
        _warn_damage(service.health())
    emit(
        as_json,
        {"memories": [record_json(r) for r in records], "count": len(records)},
        lines or ["no memories"],
    )
    return 0


@memory.command("show", cls=Command, short_help="show one memory and its history")
@click.argument("memory_id", metavar="ID")
@json_option()
def memory_show(memory_id: str, as_json: bool) -> int:
    """Show one memory and its earlier versions."""
    with memory_service() as service:
        record = service.record(memory_id)
        history = service.history(memory_id)
    lines = [
        f"id:          {record.id}",
        f"kind:        {record.kind}",
        f"created:     {record.created_at.isoformat()}",
        f"updated:     {record.updated_at.isoformat()} (version {record.version})",
        *([f"conversation: {record.conversation_id}"] if record.conversation_id else []),
        *(
            [f"meta:        {json.dumps(_plain(record.meta), ensure_ascii=False)}"]
            if record.meta
            else []
        ),
        "",
        record.text,
        *(["", "earlier versions:"] if len(history) > 1 else []),
        *(
            f"  v{v.version} {v.updated_at:%Y-%m-%d %H:%M}  {one_line(v.text)}"
            for v in history
            if not v.current
        ),
    ]
    body = {"memory": record_json(record), "history": [version_json(v) for v in history]}
    emit(as_json, body, lines)
    return 0


@memory.command(
    "edit", cls=Command, short_help="replace a memory's text (the old text stays in its history)"
)
@click.argument("memory_id", metavar="ID")
@click.argument("text")
@json_option()
def memory_edit(memory_id: str, text: str, as_json: bool) -> int:
    """Replace a memory's text with TEXT (the old text stays in its history)."""
    with memory_service() as service:
        service.record(memory_id)  # a clear error before paying for the embedder
        record = service.record(service.edit(memory_id, text=text).id)
    emit(as_json, {"memory": record_json(record)}, [f"{record.id} is now version {record.version}"])
    return 0


@memory.command(
    "forget",
    cls=Command,
    short_help="erase memories for good (data keys destroyed, files rewritten)",
)
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--all", "everything", is_flag=True, help="erase every memory")
@click.option(
    "--about",
    metavar="TEXT",
    help="what the chat's 'forget ...' means: the facts TEXT names, else the sentences that "
    "say it (shown first; --yes forgets them)",
)
@click.option("--yes", is_flag=True, help="confirm --all or --about")
@click.option(
    "--dry-run",
    is_flag=True,
    help="say what would be forgotten and what else it touches; change nothing",
)
@json_option()
def memory_forget(
    ids: tuple[str, ...],
    everything: bool,
    about: str | None,
    yes: bool,
    dry_run: bool,
    as_json: bool,
) -> int:
    """Erase memories for good: their data keys are destroyed and the files rewritten."""
    if sum((bool(ids), everything, about is not None)) > 1:
        raise InputError("give memory ids, --about TEXT or --all, only one of them")
    if about is not None:
        return _forget_about(about, confirmed=yes and not dry_run, as_json=as_json)
    if everything and not yes:
        raise InputError("forget --all erases every memory for good; add --yes to confirm")
    if not everything and not ids:
        raise InputError("which memories? give one or more ids, or --all --yes")
    with memory_service() as service:
        if dry_run:
            _forget_preview(service, list(ids), everything=everything, as_json=as_json)
            return 0
        if everything:
            receipt = service.forget_all()
        else:
            for memory_id in ids:
                service.record(memory_id)  # a clear error before paying for the embedder
            # Topic summaries that quoted a forgotten memory go with it, and so do the words
            # each forgotten fact was learned from.
            receipt = service.forget(ids)
    return _forgotten(receipt, as_json=as_json)


def _forget_about(topic: str, *, confirmed: bool, as_json: bool) -> int:
    """Forget what ``topic`` names, as the chat's "forget ..." does; without ``confirmed``,
    say what that would be and change nothing."""
    from desktop_agent.core.forget_request import forget_offered, offer_to_forget

    if not topic.strip():
        raise InputError("--about needs the words of what to forget")
    with memory_service() as service:
        offer = offer_to_forget(service, topic)
        if not offer:
            raise InputError(f"nothing remembered is about “{topic}”; nothing was changed")
        # ("Tomás and the Porto trip": his facts, and the sentences that told the trip)
        parts = {"facts": offer.fact_lines(), "sentences": offer.said_lines()}
        found: dict[str, object] = {"dry_run": not confirmed}
        found |= {kind: lines for kind, lines in parts.items() if lines}
        if not confirmed:
            kinds = " and ".join(kind for kind, lines in parts.items() if lines)
            lines = [*offer.lines(), f"would forget these {kinds}; add --yes to forget them"]
            emit(as_json, found, lines)
            return 0
        receipt = forget_offered(service, offer)
    if offer.facts:
        return _forgotten(receipt, as_json=as_json)
    messages = len(receipt.redacted)
    line = (
        f"forgot {len(offer.said)} sentence{'s' if len(offer.said) != 1 else ''} from "
        f"{messages} message{'s' if messages != 1 else ''}; keys now at epoch {receipt.epoch}"
    )
    return _forgotten(receipt, as_json=as_json, line=line)


def _forget_preview(
    service: MemoryService, ids: list[str], *, everything: bool, as_json: bool
) -> None:
    if everything:
        count = service.health().records
        lines = [f"would forget all {count} memories; nothing was changed"]
        emit(as_json, {"dry_run": True, "count": count}, lines)
        return
    for memory_id in ids:
        service.record(memory_id)  # a clear error for an unknown id
    preview = service.forget_preview(ids)
    count = len(preview.ids)
    also = preview.describe()
    lines = [
        f"would forget {count} memor{'y' if count == 1 else 'ies'}"
        + (f" {also}" if also else "")
        + "; nothing was changed"
    ]
    emit(as_json, {"dry_run": True, **preview.to_json()}, lines)


def _forgotten(receipt: ForgetReceipt, *, as_json: bool, line: str | None = None) -> int:
    """Say what a forget did (``line`` instead of the count of memories: words forgotten), and
    a damaged file that kept rows of it."""
    from desktop_agent.core.memory_service import receipt_touched

    topics = sum(1 for k in receipt.kinds if k == "topic")
    count = len(receipt.ids) - topics - len(receipt.learned) or len(receipt.ids)
    also = receipt_touched(receipt)
    line = line or (
        f"forgot {count} memor{'y' if count == 1 else 'ies'}"
        + (f" {also}" if also else "")
        + f"; keys now at epoch {receipt.epoch}"
    )
    emit(as_json, receipt.to_json(), [line])
    if receipt.damaged:
        # Forgotten (keys destroyed, rows deleted elsewhere), but not everywhere: say so.
        say(
            f"desktop-agent: error: the memory table's {receipt.damaged[0]} is damaged and was "
            "left as it is: the forgotten memories' keys are destroyed, but rows of theirs in "
            "that file could not be deleted; see `desktop-agent memory keys status`"
        )
        return 1
    return 0


@memory.command(
    "export", cls=Command, short_help="write an encrypted backup (asks for a passphrase)"
)
@click.argument("file", type=click.Path(path_type=Path))
@json_option()
def memory_export(file: Path, as_json: bool) -> int:
    """Write an encrypted backup of every memory to FILE (asks for a new passphrase twice)."""
    from desktop_agent.secrets import passphrase_from_env_or_prompt

    with memory_service() as service:
        passphrase = passphrase_from_env_or_prompt("Backup passphrase: ", confirm=True)
        summary = service.export_backup(file, passphrase)
    lines = [
        f"exported {summary.memories} memories ({summary.versions} versions) to {summary.file}"
    ]
    emit(as_json, summary.to_json(), lines)
    return 0


@memory.command("import", cls=Command, short_help="add memories from a backup (duplicates skipped)")
@click.argument("file", type=click.Path(path_type=Path))
@json_option()
def memory_import(file: Path, as_json: bool) -> int:
    """Add the memories of the backup FILE; ones already here are skipped and listed."""
    from desktop_agent.secrets import passphrase_from_env_or_prompt

    if not file.is_file():
        raise InputError(f"no such file: {file}")
    with memory_service() as service:
        passphrase = passphrase_from_env_or_prompt("Backup passphrase: ")
        summary = service.import_backup(file, passphrase)
    lines = [
        f"imported {len(summary.imported)} memories; skipped {len(summary.skipped)} already here"
    ]
    lines += [f"  skipped {memory_id}" for memory_id in summary.skipped]
    emit(as_json, summary.to_json(), lines)
    return 0


@memory.command("audit", cls=Command, short_help="show the audit log")
@click.option("--verify", is_flag=True, help="check the hash chain; exit 1 if broken")
@json_option()
def memory_audit(verify: bool, as_json: bool) -> int:
    """Show the audit log; entries after a break in the hash chain are marked unverified."""
    with memory_service() as service:
        if verify:
            report = service.verify_audit()
            lines = (
                [f"audit log intact: {report.entries} entries"]
                if report.ok
                else list(report.problems)
            )
            emit(as_json, report.to_json(), lines)
            return 0 if report.ok else 1
        entries = list(service.audit_entries())
        problems = list(service.verify_audit().problems)
    lines = [
        f"{e.seq:>6}  {e.at:%Y-%m-%d %H:%M:%S}  {e.action:<10} {e.count:>6}  epoch {e.epoch}"
        + ("" if e.verified else "  unverified")
        for e in entries
    ]
    if problems:
        # Entries after a break are shown, not hidden: they open under the audit key, but what
        # came before them was removed or altered, so their place in the history is not proven.
        after = (
            "; entries after it are marked unverified"
            if not all(e.verified for e in entries)
            else ""
        )
        say(f"desktop-agent: warning: {problems[0]}{after}")
    emit(as_json, {"entries": [e.to_json() for e in entries], "problems": problems}, lines)
    return 0


memory.add_command(keys)
memory.add_command(search)
memory.add_command(consolidate)


# --- output --------------------------------------------------------------------------------


def _describe(memory: MemoryService, item: Any) -> list[str]:
    """One line per memory, and one per source it was learned from (its provenance)."""
    status = "" if item.status == "active" else f" [{item.status}]"
    kind = f"{item.kind}/{item.type}" if item.type else item.kind
    lines = [
        f"{item.id}  {kind:<20}  {item.updated_at:%Y-%m-%d %H:%M}  {one_line(item.text)}{status}"
    ]
    remembered = {episode.id: episode for episode in memory.provenance(item.id)}
    for source in item.provenance:
        if source.episode_id in remembered:
            said = remembered[source.episode_id].user_text[source.start : source.end]
            lines.append(
                f"    from conversation {source.conversation_id}: \u201c{one_line(said)}\u201d"
            )
        else:
            lines.append(f"    from conversation {source.conversation_id} (since forgotten)")
    if item.source_id:
        lines.append(f"    imported message {item.source_id} of {item.conversation_id}")
    return lines


def record_json(record: MemoryRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "kind": record.kind,
        "text": record.text,
        "meta": _plain(record.meta),
        "created_at": record.created_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
        "conversation_id": record.conversation_id,
        "source_id": record.source_id,
        "version": record.version,
    }


def version_json(version: MemoryVersion) -> dict[str, Any]:
    return {
        "version": version.version,
        "kind": version.kind,
        "text": version.text,
        "meta": _plain(version.meta),
        "updated_at": version.updated_at.isoformat(),
        "current": version.current,
    }


def _plain(value: Any) -> Any:
    from desktop_agent.memory.model import thaw

    return thaw(value)


def _warn_damage(health: VaultHealth) -> None:
    if health.read_only:
        say(
            f"desktop-agent: warning: memory is read-only because {health.read_only}: "
            "it can be read, not changed"
        )
    if health.rekey_unfinished:
        say(
            "desktop-agent: warning: a re-encryption was interrupted; run "
            "`desktop-agent memory keys rotate --rekey` to finish it"
        )
    if health.damaged:
        say(
            f"desktop-agent: warning: {len(health.damaged)} damaged rows or files could not be "
            "read (see `desktop-agent memory keys status`)"
        )
