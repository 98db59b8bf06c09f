"""`desktop-agent memory consolidate`: run consolidation now, or undo one run by its id."""

from __future__ import annotations

import argparse
import json
from typing import Any

from desktop_agent.app import App
from desktop_agent.errors import InputError


def add_to(memory_commands: Any) -> None:
    parser = memory_commands.add_parser(
        "consolidate",
        help="merge duplicates, supersede old statements, refresh topics (undoable)",
        description="Run one consolidation pass and print its run id and changes; "
        "--undo RUN_ID reverts exactly the changes of that run.",
    )
    parser.add_argument("--undo", metavar="RUN_ID", help="revert the changes of this run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from desktop_agent.core.consolidation import consolidate, undo

    if args.undo is not None and not args.undo.strip():
        raise InputError("--undo needs the id of a consolidation run")
    app = App()
    try:
        memory = app.memory
        if args.undo is not None:
            report: Any = undo(memory, args.undo.strip())
        else:
            report = consolidate(memory, force=True)
    finally:
        app.close()
    if args.json:
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
