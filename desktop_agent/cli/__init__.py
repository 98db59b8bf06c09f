"""The `desktop-agent` command line.

Each command group lives in its own module with ``register(subparsers)``; a command's handler
takes the parsed arguments and returns the exit code. A ``UserError`` anywhere becomes one line
on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from desktop_agent import __version__
from desktop_agent.errors import UserError


def build_parser() -> argparse.ArgumentParser:
    from desktop_agent.cli import (
        chat_cmd,
        consolidate_cmd,
        doctor_cmd,
        gui_cmd,
        history_cmd,
        memory_cmd,
        models_cmd,
        search_cmd,
    )

    parser = argparse.ArgumentParser(
        prog="desktop-agent",
        description="A private assistant that runs a local model and remembers, encrypted.",
    )
    parser.add_argument("--version", action="version", version=f"desktop-agent {__version__}")
    parser.add_argument(
        "--model", metavar="PATH", help="chat model (.gguf) instead of the configured one"
    )
    parser.set_defaults(handler=gui_cmd.run_default)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    chat_cmd.register(commands)
    memory_commands = memory_cmd.register(commands)
    search_cmd.add_to(memory_commands)
    consolidate_cmd.add_to(memory_commands)
    history_cmd.register(commands)
    models_cmd.register(commands)
    doctor_cmd.register(commands)
    gui_cmd.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _start_logging()
    try:
        return int(args.handler(args) or 0)
    except UserError as error:
        print(f"desktop-agent: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("desktop-agent: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


def _start_logging() -> None:
    """Every command logs to the data dir's rotating file (Help -> Diagnostics shows it); a
    log that cannot be opened (read-only home) never stops the command."""
    from desktop_agent.logs import start_logging
    from desktop_agent.paths import app_paths

    try:
        start_logging(app_paths())
    except OSError as error:
        print(f"desktop-agent: warning: no log file ({error.strerror})", file=sys.stderr)
