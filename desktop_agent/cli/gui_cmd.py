"""`desktop-agent gui` (and no arguments): the window, or the terminal chat without a display."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "gui",
        help="open the desktop window (the default)",
        description="Open the desktop window. With no display, start the terminal chat instead.",
    )
    parser.add_argument(
        "--model", metavar="PATH", default=argparse.SUPPRESS, help="chat model (.gguf) to use"
    )
    parser.add_argument(
        "--screenshot",
        metavar="DIR",
        type=Path,
        help="render each main view over sample data into DIR as PNG files, then exit",
    )
    parser.set_defaults(handler=run)


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_default(args: argparse.Namespace) -> int:
    args.screenshot = None
    return run(args)


def run(args: argparse.Namespace) -> int:
    if args.screenshot is None and not has_display():
        from desktop_agent.cli import chat_cmd

        print(
            "desktop-agent: no display found (DISPLAY and WAYLAND_DISPLAY are unset), "
            "so starting the terminal chat instead",
            file=sys.stderr,
        )
        chat_args = argparse.Namespace(
            once=None,
            json=False,
            jsonl=False,
            model=getattr(args, "model", None),
            incognito=False,
        )
        return chat_cmd.run(chat_args)
    from desktop_agent.gui.launch import launch

    return launch(model=getattr(args, "model", None), screenshot_dir=args.screenshot)
