"""`desktop-agent memory consolidate`: run consolidation now, or undo one run by its id."""

from __future__ import annotations

import json
from typing import Any

import click

from desktop_agent.cli.base import Command, json_option, memory_service
from desktop_agent.errors import InputError


@click.command(
    cls=Command,
    short_help="merge duplicates, supersede old statements, refresh topics (undoable)",
    help="Run one consolidation pass and print its run id and changes; "
    "--undo RUN_ID reverts exactly the changes of that run.",
)
@click.option("--undo", metavar="RUN_ID", help="revert the changes of this run")
@json_option("print one JSON object")
def consolidate(undo: str | None, as_json: bool) -> int:
    from desktop_agent.core import consolidation

    if undo is not None and not undo.strip():
        raise InputError("--undo needs the id of a consolidation run")
    with memory_service() as memory:
        if undo is not None:
            report: Any = consolidation.undo(memory, undo.strip())
        else:
            report = consolidation.consolidate(memory, force=True)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        _print(report.to_json())
    return 0


def _print(report: dict[str, Any]) -> None:
    changes = report.get("changes", report.get("restored", []))
    verb = "undone" if "restored" in report else "changed"
    print(f"run {report['run_id']}: {len(changes)} {verb}")
    for change in changes:
        status = f"{change['before_status'] or '-'} -> {change['after_status']}"
        print(f"  {change['memory_id']}  {change['action']:<14} {status:<24} {change['detail']}")
    for memory_id in report.get("conflicts", []):
        print(f"  {memory_id}  left alone: changed after the run")
    if report.get("stale"):
        print(f"{len(report['stale'])} faded memories kept (nothing is deleted)")
