"""`desktop-agent memory ...`: see, add, edit and forget memories; backups, audit log, keys.

Every command takes ``--json`` and then prints one JSON object whose shape is documented in
docs/CLI-memory.md (stable: fields are only ever added). More subcommands (such as ``search``)
attach to the group through ``register``'s return value or ``memory_subcommands(parser)``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.app import App
    from desktop_agent.memory import MemoryRecord, MemoryVersion, Vault

KINDS = ("episodic", "semantic", "procedural", "topic")


def register(commands: Any) -> Any:
    """Add the ``memory`` group to ``commands``; returns the group's own subparsers."""
    parser = commands.add_parser("memory", help="see, edit and forget what the assistant remembers")
    parser.set_defaults(handler=lambda _args: _usage(parser))
    sub = parser.add_subparsers(title="memory commands", metavar="COMMAND")
    _command(
        sub,
        "add",
        "remember a new memory (prints its id)",
        run_add,
        [
            (("text",), {"help": "what to remember"}),
            (
                ("--kind",),
                {"choices": KINDS, "default": "semantic", "help": "kind (default semantic)"},
            ),
        ],
    )
    _command(sub, "list", "list memories", run_list, [(("--kind",), {"choices": KINDS})])
    _command(sub, "show", "show one memory and its history", run_show, [(("id",), {})])
    _command(
        sub,
        "edit",
        "replace a memory's text (the old text stays in its history)",
        run_edit,
        [
            (("id",), {}),
            (("text",), {"help": "the new text"}),
        ],
    )
    _command(
        sub,
        "forget",
        "erase memories for good (data keys destroyed, files rewritten)",
        run_forget,
        [
            (("ids",), {"nargs": "*", "metavar": "ID"}),
            (("--all",), {"action": "store_true", "help": "erase every memory"}),
            (("--yes",), {"action": "store_true", "help": "confirm --all"}),
            (
                ("--dry-run",),
                {
                    "action": "store_true",
                    "help": "say what would be forgotten and what else it touches; change nothing",
                },
            ),
        ],
    )
    _command(
        sub,
        "export",
        "write an encrypted backup (asks for a passphrase)",
        run_export,
        [(("file",), {"type": Path})],
    )
    _command(
        sub,
        "import",
        "add memories from a backup (duplicates skipped)",
        run_import,
        [(("file",), {"type": Path})],
    )
    _command(
        sub,
        "audit",
        "show the audit log",
        run_audit,
        [
            (
                ("--verify",),
                {"action": "store_true", "help": "check the hash chain; exit 1 if broken"},
            ),
        ],
    )
    from desktop_agent.cli import keys_cmd  # it builds on this module's helpers

    keys_cmd.register(sub)
    return sub


def memory_subcommands(parser: argparse.ArgumentParser) -> Any:
    """The ``memory`` group's subparsers inside a built top-level parser."""
    for action in parser._actions:  # argparse offers no public lookup of subparsers
        if isinstance(action, argparse._SubParsersAction) and "memory" in action.choices:
            group = action.choices["memory"]
            for inner in group._actions:
                if isinstance(inner, argparse._SubParsersAction):
                    return inner
    raise LookupError("no memory command group in this parser")


def _command(
    sub: Any,
    name: str,
    help_text: str,
    handler: Callable[[argparse.Namespace], int],
    arguments: list[tuple[tuple[str, ...], dict[str, Any]]],
) -> None:
    parser = sub.add_parser(name, help=help_text, description=help_text)
    for flags, options in arguments:
        parser.add_argument(*flags, **options)
    parser.add_argument("--json", action="store_true", help="print JSON (see docs/CLI-memory.md)")
    parser.set_defaults(handler=handler)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


@contextmanager
def _vault() -> Iterator[tuple[App, Vault]]:
    from desktop_agent.app import App

    app = App()
    try:
        yield app, app.vault()
    finally:
        app.close()


# --- handlers ------------------------------------------------------------------------------


def run_add(args: argparse.Namespace) -> int:
    # Through the memory service: it embeds, and a new fact supersedes what it replaces.
    with _vault() as (app, vault):
        item = app.memory.remember(args.text, kind=args.kind)
        record = vault.get(item.id)
    _emit(args, {"memory": record_json(record)}, [record.id])
    return 0


def run_list(args: argparse.Namespace) -> int:
    with _vault() as (app, vault):
        items = list(reversed(app.memory.items(args.kind)))  # oldest first, like the vault
        records = [vault.get(item.id) for item in items]
        lines = [line for item in items for line in _describe(app.memory, item)]
        _warn_damage(vault)
    _emit(
        args,
        {"memories": [record_json(r) for r in records], "count": len(records)},
        lines or ["no memories"],
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    with _vault() as (_app, vault):
        record = vault.get(args.id)
        history = vault.history(args.id)
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
            f"  v{v.version} {v.updated_at:%Y-%m-%d %H:%M}  {_one_line(v.text)}"
            for v in history
            if not v.current
        ),
    ]
    _emit(
        args, {"memory": record_json(record), "history": [version_json(v) for v in history]}, lines
    )
    return 0


def run_edit(args: argparse.Namespace) -> int:
    with _vault() as (app, vault):
        vault.get(args.id)  # a clear error before paying for the embedder
        record = vault.get(app.memory.edit(args.id, text=args.text).id)
    _emit(args, {"memory": record_json(record)}, [f"{record.id} is now version {record.version}"])
    return 0


def run_forget(args: argparse.Namespace) -> int:
    if args.all and args.ids:
        raise InputError("give memory ids or --all, not both")
    if args.all and not args.yes:
        raise InputError("forget --all erases every memory for good; add --yes to confirm")
    if not args.all and not args.ids:
        raise InputError("which memories? give one or more ids, or --all --yes")
    from desktop_agent.core.memory_service import also_touched

    with _vault() as (app, vault):
        if args.all and args.dry_run:
            count = len(vault)
            lines = [f"would forget all {count} memories; nothing was changed"]
            _emit(args, {"dry_run": True, "count": count}, lines)
            return 0
        if args.all:
            receipt = app.memory.forget_all()
        else:
            for memory_id in args.ids:
                vault.get(memory_id)  # a clear error before paying for the embedder
            # Through the service: topic summaries that quoted a forgotten memory go with it,
            # and so do the words each forgotten fact was learned from.
            preview = app.memory.forget_preview(args.ids)
            if args.dry_run:
                count = len(preview.ids)
                also = preview.describe()
                lines = [
                    f"would forget {count} memor{'y' if count == 1 else 'ies'}"
                    + (f" {also}" if also else "")
                    + "; nothing was changed"
                ]
                _emit(args, {"dry_run": True, **preview.to_json()}, lines)
                return 0
            receipt = app.memory.forget(args.ids)
    topics = sum(1 for k in receipt.kinds if k == "topic")
    count = len(receipt.ids) - topics - len(receipt.learned) or len(receipt.ids)
    also = also_touched(len(receipt.redacted), topics, len(receipt.learned))
    lines = [
        f"forgot {count} memor{'y' if count == 1 else 'ies'}"
        + (f" {also}" if also else "")
        + f"; keys now at epoch {receipt.epoch}"
    ]
    _emit(args, receipt.to_json(), lines)
    if receipt.damaged:
        # Forgotten (keys destroyed, rows deleted elsewhere), but not everywhere: say so.
        print(
            f"desktop-agent: error: the memory table's {receipt.damaged[0]} is damaged and was "
            "left as it is: the forgotten memories' keys are destroyed, but rows of theirs in "
            "that file could not be deleted; see `desktop-agent memory keys status`",
            file=sys.stderr,
        )
        return 1
    return 0


def run_export(args: argparse.Namespace) -> int:
    from desktop_agent.secrets import passphrase_from_env_or_prompt

    with _vault() as (app, _):
        passphrase = passphrase_from_env_or_prompt("Backup passphrase: ", confirm=True)
        summary = app.memory.export_backup(args.file, passphrase)
    lines = [
        f"exported {summary.memories} memories ({summary.versions} versions) to {summary.file}"
    ]
    _emit(args, summary.to_json(), lines)
    return 0


def run_import(args: argparse.Namespace) -> int:
    from desktop_agent.secrets import passphrase_from_env_or_prompt

    if not args.file.is_file():
        raise InputError(f"no such file: {args.file}")
    with _vault() as (app, _):
        passphrase = passphrase_from_env_or_prompt("Backup passphrase: ")
        summary = app.memory.import_backup(args.file, passphrase)
    lines = [
        f"imported {len(summary.imported)} memories; skipped {len(summary.skipped)} already here"
    ]
    lines += [f"  skipped {memory_id}" for memory_id in summary.skipped]
    _emit(args, summary.to_json(), lines)
    return 0


def run_audit(args: argparse.Namespace) -> int:
    with _vault() as (app, _):
        if args.verify:
            report = app.memory.verify_audit()
            lines = (
                [f"audit log intact: {report.entries} entries"]
                if report.ok
                else list(report.problems)
            )
            _emit(args, report.to_json(), lines)
            return 0 if report.ok else 1
        entries = list(app.memory.audit_entries())
        problems = list(app.memory.verify_audit().problems)
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
        print(f"desktop-agent: warning: {problems[0]}{after}", file=sys.stderr)
    _emit(args, {"entries": [e.to_json() for e in entries], "problems": problems}, lines)
    return 0


# --- output --------------------------------------------------------------------------------


def _describe(memory: Any, item: Any) -> list[str]:
    """One line per memory, and one per source it was learned from (its provenance)."""
    status = "" if item.status == "active" else f" [{item.status}]"
    kind = f"{item.kind}/{item.type}" if item.type else item.kind
    lines = [
        f"{item.id}  {kind:<20}  {item.updated_at:%Y-%m-%d %H:%M}  {_one_line(item.text)}{status}"
    ]
    for source in item.provenance:
        if source.episode_id in memory.vault:
            said = memory.item(source.episode_id).user_text[source.start : source.end]
            lines.append(
                f"    from conversation {source.conversation_id}: \u201c{_one_line(said)}\u201d"
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


def _emit(args: argparse.Namespace, body: dict[str, Any], lines: list[str]) -> None:
    # ensure_ascii keeps lone surrogates printable as \udXXX escapes: the output is always valid.
    text = json.dumps(body, ensure_ascii=True) if args.json else "\n".join(lines)
    _write(text + "\n")


def _write(text: str) -> None:
    """Print any string, even one with lone surrogates or on a non-UTF-8 terminal."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    data = text.encode(encoding, "backslashreplace")
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode(encoding))
    else:
        sys.stdout.flush()
        buffer.write(data)
        buffer.flush()


def _one_line(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _warn_damage(vault: Vault) -> None:
    if vault.read_only:
        print(
            f"desktop-agent: warning: memory is read-only because {vault.read_only}: "
            "it can be read, not changed",
            file=sys.stderr,
        )
    if vault.rekey_unfinished:
        print(
            "desktop-agent: warning: a re-encryption was interrupted; run "
            "`desktop-agent memory keys rotate --rekey` to finish it",
            file=sys.stderr,
        )
    if vault.damaged:
        print(
            f"desktop-agent: warning: {len(vault.damaged)} damaged rows or files could not be read "
            "(see `desktop-agent memory keys status`)",
            file=sys.stderr,
        )
