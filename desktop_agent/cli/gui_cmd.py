"""`desktop-agent gui` (and no arguments): the window, or the terminal chat without a display."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from desktop_agent.cli.base import Command, model_of, say


@click.command(
    cls=Command,
    short_help="open the desktop window (the default)",
    help="Open the desktop window. With no display, start the terminal chat instead.",
)
@click.option("--model", metavar="PATH", help="chat model (.gguf) to use")
@click.option(
    "--screenshot",
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="render each main view over sample data into DIR as PNG files, then exit",
)
@click.pass_context
def gui(ctx: click.Context, model: str | None, screenshot: Path | None) -> int:
    return run(model_of(ctx, model), screenshot=screenshot)


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(model: str | None, *, screenshot: Path | None) -> int:
    if screenshot is None and not has_display():
        from desktop_agent.cli import chat_cmd

        say(
            "desktop-agent: no display found (DISPLAY and WAYLAND_DISPLAY are unset), "
            "so starting the terminal chat instead"
        )
        return chat_cmd.run(chat_cmd.ChatOptions(model=model))
    from desktop_agent.gui.launch import launch

    return launch(model=model, screenshot_dir=screenshot)
