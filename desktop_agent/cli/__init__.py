"""The `desktop-agent` command line, on click (as simonw/llm builds its CLI).

Each command group lives in its own module and is imported only when it runs or its help is
shown. Every command works through the app's services, the same ones the window uses, and
formats what they return. Exit codes: 0 done; 1 a ``UserError`` (one line on stderr, never a
traceback) or a failed check; 2 a usage error (click's usage message); 130 Ctrl+C.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from desktop_agent import __version__
from desktop_agent.cli.base import USAGE_EXIT, Finished, RootGroup, say

COMMANDS = {
    "chat": "desktop_agent.cli.chat_cmd:chat",
    "memory": "desktop_agent.cli.memory_cmd:memory",
    "history": "desktop_agent.cli.history_cmd:history",
    "models": "desktop_agent.cli.models_cmd:models",
    "doctor": "desktop_agent.cli.doctor_cmd:doctor",
    "gui": "desktop_agent.cli.gui_cmd:gui",
}


@click.group(
    cls=RootGroup,
    lazy=COMMANDS,
    invoke_without_command=True,
    help="A private assistant that runs a local model and remembers, encrypted. With no "
    "command, open the window (the terminal chat when there is no display).",
)
@click.version_option(__version__, "--version", message="desktop-agent %(version)s")
@click.option("--model", metavar="PATH", help="chat model (.gguf) instead of the configured one")
@click.pass_context
def cli(ctx: click.Context, model: str | None) -> int:
    _start_logging()
    if ctx.invoked_subcommand is not None:
        return 0
    from desktop_agent.cli import gui_cmd

    return gui_cmd.run(model, screenshot=None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit code. ``--help`` and ``--version`` print and raise
    ``SystemExit(0)``, as argparse did; a usage error prints click's message and returns 2.
    Without ``argv`` this is the process's own command line (the ``desktop-agent`` script),
    which exits right after."""
    args = list(sys.argv[1:] if argv is None else argv)
    code = _run(args)
    if argv is None:
        _before_exit()
    return code


def _run(args: list[str]) -> int:
    try:
        with cli.make_context("desktop-agent", args) as ctx:
            cli.invoke(ctx)
    except Finished as done:
        return done.exit_code
    except click.exceptions.Exit as done:  # --help or --version: printed, nothing else to do
        raise SystemExit(done.exit_code) from None
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except (click.Abort, KeyboardInterrupt):
        say("desktop-agent: interrupted")
        return 130
    return 0


def _before_exit() -> None:
    """The command is done and the process exits next. Interpreter shutdown ends with a full
    garbage collection over every object the imports made (lancedb's pydantic models, numpy,
    pyarrow): about 0.1-0.2 s spent freeing memory the OS takes back anyway. Frozen objects
    are left out of it. Nothing waits on that collection: the command's ``App.close`` wiped
    the keys, collected the closed vault and released the writer lock, atexit handlers still
    run (logging flushes its files there), and every write was fsynced before it returned."""
    import gc

    gc.freeze()


def _start_logging() -> None:
    """Every command logs to the data dir's rotating file (Help -> Diagnostics shows it); a
    log that cannot be opened (read-only home) never stops the command."""
    from desktop_agent.logs import start_logging
    from desktop_agent.paths import app_paths

    try:
        start_logging(app_paths())
    except OSError as error:
        say(f"desktop-agent: warning: no log file ({error.strerror})")


__all__ = ["USAGE_EXIT", "cli", "main"]
