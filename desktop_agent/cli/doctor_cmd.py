"""`desktop-agent doctor`: is every part in place, and if not, what to do."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click

from desktop_agent.cli.base import Command, json_option, model_of


@click.command(
    cls=Command,
    short_help="check that every component is in place",
    help="Check the model, llama.cpp, the embedder, the keyring and the data dir. "
    "Exits non-zero when a required part is missing, with the fix in words.",
)
@json_option("print the checks as JSON")
@click.option("--model", metavar="PATH", help="check this model file instead")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool, model: str | None) -> int:
    from desktop_agent.app import App
    from desktop_agent.health import run_checks

    model = model_of(ctx, model)
    app = App(model_override=Path(model) if model else None)
    checks = run_checks(app)
    healthy = all(c.ok for c in checks if c.required)
    if as_json:
        print(
            json.dumps({"ok": healthy, "checks": [asdict(c) for c in checks]}, ensure_ascii=False)
        )
    else:
        for check in checks:
            mark = "ok  " if check.ok else ("FAIL" if check.required else "warn")
            print(f"[{mark}] {check.name}: {check.detail}")
    return 0 if healthy else 1
