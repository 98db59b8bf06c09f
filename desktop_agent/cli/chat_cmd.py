"""`desktop-agent chat`: the terminal chat, interactive or one turn for scripts."""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import click

from desktop_agent.app import App
from desktop_agent.cli.base import Command, Group, json_option, model_of, say
from desktop_agent.core.assistant import Assistant, Reply
from desktop_agent.core.conversation import Conversation
from desktop_agent.core.transcript import FORMATS
from desktop_agent.errors import InputError

QUIT_COMMANDS = {"/quit", "/exit", "/q"}


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """What `chat` was asked for (also what the no-display fallback of `gui` starts)."""

    once: str | None = None
    json: bool = False
    jsonl: bool = False
    model: str | None = None
    server: str | None = None
    gpu_layers: int | None = None
    incognito: bool = False


class GpuLayers(click.ParamType):
    """``auto`` (-1: all layers if llama.cpp has a GPU backend), 0, or a number of layers."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        if value == "auto":
            return -1
        if str(value).isdigit():
            return int(value)
        self.fail(f"--gpu-layers takes auto, 0 or a number of layers, not {value!r}", param, ctx)


@click.group(
    cls=Group,
    invoke_without_command=True,
    short_help="chat in the terminal",
    help="Chat with the local model in the terminal. Type /quit or press Ctrl+D to leave; "
    "Ctrl+C stops a reply. Standard input may be piped, one message per line.",
)
@click.option("--once", metavar="MESSAGE", help="send one message, print the reply, exit")
@json_option("with --once: print the reply as JSON")
@click.option(
    "--jsonl",
    is_flag=True,
    help='read messages from standard input, one JSON line each ("text" or '
    '{"message": "text"}), and print one JSON reply per line, all in one conversation',
)
@click.option("--model", metavar="PATH", help="chat model (.gguf) to use")
@click.option(
    "--server",
    metavar="URL",
    help="chat through an OpenAI-compatible server (llama.cpp, Ollama, LM Studio) instead of "
    "the local model; only each prompt is sent, memory stays here",
)
@click.option(
    "--gpu-layers",
    type=GpuLayers(),
    help="layers to offload to the GPU: auto (all if llama.cpp has a GPU backend), 0, or N",
)
@click.option("--incognito", is_flag=True, help="remember nothing of this chat")
@click.pass_context
def chat(ctx: click.Context, as_json: bool, model: str | None, **options: Any) -> int:
    if ctx.invoked_subcommand is not None:  # `chat list`, `chat export`
        return 0
    return run(ChatOptions(json=as_json, model=model_of(ctx, model), **options))


@chat.command("list", cls=Command, short_help="list the remembered conversations, newest first")
@json_option("print JSON")
def chat_list(as_json: bool) -> int:
    return run_list(as_json)


@chat.command(
    "export",
    cls=Command,
    short_help="write a conversation out as Markdown or JSON",
    help="Write a remembered conversation out as Markdown or JSON. The file is plain text, not "
    "encrypted: keep it somewhere safe.",
)
@click.argument("conversation_id", metavar="ID")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    help="markdown or json (default: from the output file's name, else markdown)",
)
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    type=click.Path(path_type=Path),
    help="write here instead of standard output",
)
@click.option("--force", is_flag=True, help="replace FILE if it exists")
def chat_export(conversation_id: str, fmt: str | None, output: Path | None, force: bool) -> int:
    return run_export(conversation_id, fmt=fmt, output=output, force=force)


def _remembering_app() -> App:
    app = App()
    if not app.assistant.memory.is_open:
        problem = app.memory_problem or "memory is off in the settings"
        app.close()
        raise InputError(f"no remembered conversations: {problem}")
    return app


def run_list(as_json: bool) -> int:
    app = _remembering_app()
    try:
        summaries = app.assistant.memory.conversations()
    finally:
        app.close()
    if as_json:
        print(
            json.dumps(
                {
                    "conversations": [
                        {
                            "id": s.id,
                            "title": s.title,
                            "started_at": s.started_at.isoformat(),
                            "last_at": s.last_at.isoformat(),
                            "exchanges": s.episodes,
                        }
                        for s in summaries
                    ]
                },
                ensure_ascii=False,
            )
        )
        return 0
    if not summaries:
        print("no remembered conversations")
    for s in summaries:
        print(f"{s.id}  {s.last_at.astimezone():%Y-%m-%d %H:%M}  {s.episodes:>4}  {s.title}")
    return 0


def run_export(conversation_id: str, *, fmt: str | None, output: Path | None, force: bool) -> int:
    from desktop_agent.core.transcript import format_for, render

    if output is not None and output.exists() and not force:
        raise InputError(f"{output} exists: choose another file, or add --force to replace it")
    if output is not None and not output.parent.is_dir():
        raise InputError(f"no such folder: {output.parent}")
    fmt = fmt or (format_for(output.name) if output is not None else "markdown")
    app = _remembering_app()
    try:
        conversation = app.assistant.conversation(conversation_id)
        if not conversation.messages:
            raise InputError(f"conversation {conversation_id} has no messages to export")
        text = render(conversation, fmt)
    finally:
        app.close()
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {output}: {error.strerror}") from None
    print(f"exported {len(conversation.messages)} messages to {output} ({fmt}; not encrypted)")
    return 0


def make_app(options: ChatOptions) -> App:
    if options.model and options.server:
        raise InputError("--model and --server both choose the chat model: give one")
    app = App(
        model_override=Path(options.model) if options.model else None,
        server_override=options.server,
    )
    app.gpu_layers = options.gpu_layers
    return app


def run(options: ChatOptions) -> int:
    if options.json and options.once is None:
        raise InputError("--json needs --once MESSAGE")
    if options.jsonl and options.once is not None:
        raise InputError("--jsonl reads its messages from standard input: drop --once")
    if options.once is not None and not options.once.strip():
        raise InputError("the message is empty: type something to send")
    app = make_app(options)
    try:
        app.engine.start()  # a bad model file is reported before memory is unlocked
        if app.model_fallback:
            say(f"desktop-agent: note: {app.model_fallback}")
        assistant = app.assistant
        if app.memory_problem and app.settings.memory.enabled:
            say(f"desktop-agent: memory is off for this chat: {app.memory_problem}")
        if options.once is not None:
            return run_once(
                assistant, options.once, as_json=options.json, incognito=options.incognito
            )
        if options.jsonl:
            return run_jsonl(assistant, sys.stdin, sys.stdout, incognito=options.incognito)
        return run_interactive(assistant, incognito=options.incognito)
    finally:
        app.close()


def run_once(assistant: Assistant, message: str, *, as_json: bool, incognito: bool) -> int:
    conversation = assistant.start_conversation(incognito=incognito)
    turn = assistant.send(conversation, message)
    if as_json:
        for _ in turn:
            pass
        reply = turn.finish()
        print(json.dumps(reply_json(reply, assistant), ensure_ascii=False))
        return 0
    stream_reply(turn, sys.stdout)
    return 0


def run_jsonl(assistant: Assistant, lines: TextIO, out: TextIO, *, incognito: bool) -> int:
    """One conversation driven by JSON lines, for scripts: one JSON object out per message in.

    A line that is not a message, or a message the assistant refuses, prints
    ``{"line": n, "error": text}`` and the conversation goes on; the exit code is then 1.
    """
    from desktop_agent.errors import UserError

    conversation = assistant.start_conversation(incognito=incognito)
    failed = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            message = _jsonl_message(line)
            turn = assistant.send(conversation, message)
            for _ in turn:
                pass
            result: dict[str, Any] = {"line": number, **reply_json(turn.finish(), assistant)}
        except UserError as error:
            failed = True
            result = {"line": number, "error": str(error)}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return 1 if failed else 0


def _jsonl_message(line: str) -> str:
    try:
        item = json.loads(line)
    except json.JSONDecodeError:
        raise InputError('not a JSON line: give "text" or {"message": "text"}') from None
    message = item.get("message") if isinstance(item, dict) else item
    if not isinstance(message, str) or not message.strip():
        raise InputError('a line needs a non-empty "text" or {"message": "text"}')
    return message


def reply_json(reply: Reply, assistant: Assistant) -> dict[str, Any]:
    result = reply.result
    return {
        "reply": reply.text,
        "conversation_id": reply.conversation_id,
        "model": assistant.engine.info.model_name,
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "finish_reason": result.finish_reason,
        "time_to_first_token_ms": round(result.time_to_first_token_s * 1000, 1),
        "tokens_per_second": round(result.tokens_per_second, 1),
        "memories_used": [m.as_json() for m in reply.memories_used],
        "learned": [m.to_json() for m in reply.learned],
    }


def stream_reply(turn: Any, out: TextIO) -> Reply:
    """Print a reply as it streams; Ctrl+C stops this reply, not the program."""
    try:
        for piece in turn:
            out.write(piece)
            out.flush()
    except KeyboardInterrupt:
        turn.cancel()
        for _ in turn:  # drain what the worker already produced
            pass
        out.write(" [stopped]")
    out.write("\n")
    out.flush()
    return turn.finish()


def run_interactive(assistant: Assistant, *, incognito: bool) -> int:
    from desktop_agent.errors import UserError

    interactive = sys.stdin.isatty()
    if interactive:
        # Line editing and arrow keys; readline keeps its history in memory only (we never
        # write a history file: the messages are private).
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401
    conversation: Conversation = assistant.start_conversation(incognito=incognito)
    if interactive:
        name = assistant.engine.info.model_name
        mode = " (incognito: nothing is remembered)" if incognito else ""
        print(
            f"desktop-agent chat with {name}{mode}. /quit or Ctrl+D to leave, Ctrl+C stops a reply."
        )
    while True:
        try:
            line = input("you> " if interactive else "")
        except EOFError:
            break
        except KeyboardInterrupt:
            print()
            break
        message = line.strip()
        if not message:
            continue
        if message.lower() in QUIT_COMMANDS:
            break
        try:
            turn = assistant.send(conversation, message)
            if interactive:
                sys.stdout.write("assistant> ")
            stream_reply(turn, sys.stdout)
        except UserError as error:
            # One bad message must not end the chat.
            print(f"desktop-agent: error: {error}", file=sys.stderr)
    return 0
