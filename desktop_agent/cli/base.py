"""What every command shares: the click classes (lower-case ``usage:``, subcommands loaded on
first use), how a run ends (``UserError`` -> one line and exit 1, Ctrl+C -> 130, a closed pipe
-> 1), ``--json`` and the output helpers, and the memory service a command works through.

A command's function returns its exit code (``None`` is 0); the root group turns it, or the
error that stopped it, into ``Finished``, which click's own ``main`` and ``CliRunner`` both
exit with.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.exceptions import Exit

from desktop_agent.errors import UserError

if TYPE_CHECKING:
    from desktop_agent.app import App
    from desktop_agent.core.memory_service import MemoryService

logger = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

USAGE_EXIT = 2  # click's code for a bad option, a missing argument, an unknown command
ERROR_EXIT = 1  # a UserError without a code of its own


class Finished(Exit):
    """A command ran (or stopped on a user error): exit with this code, nothing more to say."""


class _Formatter(click.HelpFormatter):
    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, "usage: " if prefix is None else prefix)


class _Context(click.Context):
    formatter_class = _Formatter


class Command(click.Command):
    """A leaf command."""

    context_class = _Context


class Group(click.Group):
    """A command group whose subcommands may be named as ``module:attribute`` and are imported
    only when asked for (``--version`` imports none of them), listed in the order given."""

    context_class = _Context
    command_class = Command

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.lazy, *(name for name in self.commands if name not in self.lazy)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return self.commands.get(cmd_name)


Group.group_class = Group


class RootGroup(Group):
    """``desktop-agent``: runs the command and turns its result or its error into the exit."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            code = super().invoke(ctx)
        except UserError as error:
            say(f"desktop-agent: error: {error}")
            code = exit_code_of(error)
        except KeyboardInterrupt:
            say("desktop-agent: interrupted")
            code = 130
        except BrokenPipeError:
            _silence_closed_stdout()
            code = ERROR_EXIT
        raise Finished(int(code or 0))


def _silence_closed_stdout() -> None:
    """The reader went away (`| head`): stop quietly. Python flushes stdout once more at exit,
    which would print about the broken pipe; point the real stdout at /dev/null first (the
    recipe of Python's signal docs). Only the process's own stdout: a test's stays as it is."""
    if sys.stdout is not sys.__stdout__:
        return
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        logger.info("stdout could not be pointed at %s", os.devnull, exc_info=True)


def exit_code_of(error: UserError) -> int:
    """1 for a user error; 2 stays reserved for usage errors (a bad option, a missing argument)."""
    code = getattr(error, "exit_code", ERROR_EXIT)
    return ERROR_EXIT if code in (0, USAGE_EXIT) else int(code)


def json_option(help_text: str = "print JSON (see docs/CLI-memory.md)") -> Callable[[F], F]:
    return click.option("--json", "as_json", is_flag=True, help=help_text)


def model_of(ctx: click.Context, model: str | None) -> str | None:
    """A command's own ``--model``, else the one given before the command."""
    if model is not None:
        return model
    root = ctx.find_root().params.get("model")
    return str(root) if root else None


# --- output --------------------------------------------------------------------------------


def say(line: str) -> None:
    """One line on stderr (a note, a warning, an error)."""
    print(line, file=sys.stderr, flush=True)


def emit(as_json: bool, body: dict[str, Any], lines: list[str]) -> None:
    """``body`` as one JSON object, or ``lines`` as text. ensure_ascii keeps lone surrogates
    printable as \\udXXX escapes: the output is always valid."""
    text = json.dumps(body, ensure_ascii=True) if as_json else "\n".join(lines)
    write(text + "\n")


def write(text: str) -> None:
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


def one_line(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


# --- the service ---------------------------------------------------------------------------


@contextmanager
def opened_app(**options: Any) -> Iterator[App]:
    """An ``App`` for one command, closed after it (writer lock released, threads settled)."""
    from desktop_agent.app import App

    app = App(**options)
    try:
        yield app
    finally:
        app.close()


@contextmanager
def memory_service(*, embeds: bool = False) -> Iterator[MemoryService]:
    """The memory service the GUI uses too, for one command. ``embeds``: the command embeds
    text (a search), so the embedder loads while the vault unlocks."""
    with opened_app() as app:
        if embeds:
            app.load_embedder_soon()
        yield app.memory
