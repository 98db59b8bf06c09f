"""`desktop-agent memory search`: hybrid recall from the command line, one query or a batch."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from desktop_agent.app import App
from desktop_agent.errors import InputError


def add_to(memory_commands: Any) -> None:
    parser = memory_commands.add_parser(
        "search",
        help="search memories (hybrid: meaning and keywords)",
        description="Search memories. With --queries FILE.jsonl, answer many queries in one process: "
        'input lines {"id": str, "query": str}, output one JSON line per query '
        '{"id": ..., "hits": [{"memory_id", "source_id", "kind", "text", "score", ...}]}.',
    )
    parser.add_argument("query", nargs="?", help="what to look for")
    parser.add_argument("--queries", type=Path, metavar="FILE.jsonl", help="a batch of queries")
    parser.add_argument(
        "--limit", type=int, default=10, metavar="K", help="hits per query (default 10)"
    )
    parser.add_argument("--kind", choices=("episodic", "semantic"), help="only this kind")
    parser.add_argument("--json", action="store_true", help="JSON output")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if (args.query is None) == (args.queries is None):
        raise InputError("give either a QUERY or --queries FILE.jsonl")
    if args.limit < 1:
        raise InputError("--limit must be at least 1")
    queries = [("1", args.query)] if args.query is not None else list(read_queries(args.queries))
    app = App()
    try:
        return search(app, queries, args)
    finally:
        app.close()


def search(app: App, queries: list[tuple[str, str]], args: argparse.Namespace) -> int:
    memory = app.memory
    kinds = (args.kind,) if args.kind else None
    for query_id, query in queries:
        hits = memory.search(query, limit=args.limit, kinds=kinds, include_superseded=True)
        if args.json or args.queries is not None:
            line = {"id": query_id, "hits": [h.as_json() for h in hits]}
            if args.queries is None:
                line = {"query": query, "hits": line["hits"]}
            print(json.dumps(line, ensure_ascii=False))
        else:
            if not hits:
                print("no memories match")
            for hit in hits:
                text = " ".join(hit.item.text.split())
                print(f"{hit.hit.score:6.3f}  {hit.item.id}  {hit.item.kind:<8}  {text[:100]}")
    return 0


def read_queries(path: Path):  # noqa: ANN201
    if not path.is_file():
        raise InputError(f"no such file: {path}")
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                query_id, query = item["id"], item["query"]
            except (json.JSONDecodeError, KeyError, TypeError):
                raise InputError(
                    f'{path}: line {number} is not {{"id": str, "query": str}}'
                ) from None
            if not isinstance(query, str) or not query.strip():
                raise InputError(f"{path}: line {number} has an empty query")
            yield str(query_id), query
