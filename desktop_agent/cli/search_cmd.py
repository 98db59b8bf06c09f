"""`desktop-agent memory search`: hybrid recall from the command line, one query or a batch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from desktop_agent.cli.base import Command, json_option, memory_service
from desktop_agent.errors import InputError

if TYPE_CHECKING:
    from desktop_agent.core.memory_changes import Recollection


@click.command(
    cls=Command,
    short_help="search memories (hybrid: meaning and keywords)",
    help="Search memories. With --queries FILE.jsonl, answer many queries in one process: "
    'input lines {"id": str, "query": str}, output one JSON line per query '
    '{"id": ..., "hits": [{"memory_id", "source_id", "kind", "text", "score", ...}]}.',
)
@click.argument("query", required=False)
@click.option(
    "--queries", type=click.Path(path_type=Path), metavar="FILE.jsonl", help="a batch of queries"
)
@click.option("--limit", type=int, default=10, metavar="K", help="hits per query (default 10)")
@click.option("--kind", type=click.Choice(("episodic", "semantic")), help="only this kind")
@json_option("JSON output")
def search(
    query: str | None, queries: Path | None, limit: int, kind: str | None, as_json: bool
) -> int:
    if (query is None) == (queries is None):
        raise InputError("give either a QUERY or --queries FILE.jsonl")
    if limit < 1:
        raise InputError("--limit must be at least 1")
    batch = list(read_queries(queries)) if queries is not None else [("1", query or "")]
    with memory_service(embeds=True) as memory:
        kinds = (kind,) if kind else None
        for query_id, text in batch:
            hits = memory.search(text, limit=limit, kinds=kinds, include_superseded=True)
            _print_hits(query_id, text, hits, as_json=as_json, batch=queries is not None)
    return 0


def _print_hits(
    query_id: str, query: str, hits: list[Recollection], *, as_json: bool, batch: bool
) -> None:
    if as_json or batch:
        found = [h.as_json() for h in hits]
        line = {"id": query_id, "hits": found} if batch else {"query": query, "hits": found}
        print(json.dumps(line, ensure_ascii=False))
        return
    if not hits:
        print("no memories match")
    for hit in hits:
        text = " ".join(hit.item.text.split())
        print(f"{hit.hit.score:6.3f}  {hit.item.id}  {hit.item.kind:<8}  {text[:100]}")


def read_queries(path: Path) -> Iterator[tuple[str, str]]:
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
