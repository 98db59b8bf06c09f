"""`desktop-agent doctor`: is every part in place, and if not, what to do."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from desktop_agent.app import App
from desktop_agent.health import run_checks


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "doctor",
        help="check that every component is in place",
        description="Check the model, llama.cpp, the embedder, the keyring and the data dir. "
        "Exits non-zero when a required part is missing, with the fix in words.",
    )
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    parser.add_argument(
        "--model", metavar="PATH", default=argparse.SUPPRESS, help="check this model file instead"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    model = getattr(args, "model", None)
    app = App(model_override=Path(model) if model else None)
    checks = run_checks(app)
    healthy = all(c.ok for c in checks if c.required)
    if args.json:
        print(
            json.dumps({"ok": healthy, "checks": [asdict(c) for c in checks]}, ensure_ascii=False)
        )
    else:
        for check in checks:
            mark = "ok  " if check.ok else ("FAIL" if check.required else "warn")
            print(f"[{mark}] {check.name}: {check.detail}")
    return 0 if healthy else 1
