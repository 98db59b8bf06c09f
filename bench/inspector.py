"""GUI-thread cost of the memory inspector's table at 10k memories: load, search-as-you-type,
column sorts. Each step's median over repeated runs, in ms, on the offscreen platform.

    python bench/inspector.py [--memories 10000] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from datetime import UTC, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QTableView  # noqa: E402

from desktop_agent.core.memory_model import MemoryItem  # noqa: E402
from desktop_agent.gui.memory_table_model import (  # noqa: E402
    MemoryFilter,
    MemoryTable,
    MemoryTableModel,
)


def sample(count: int) -> list[MemoryItem]:
    now = datetime.now(UTC)
    return [
        MemoryItem(
            id=f"m{i}",
            kind="semantic" if i % 2 else "episodic",
            text=f"User mentioned thing {i} while talking about hiking trip {i % 97}",
            created_at=now - timedelta(minutes=i),
            updated_at=now,
            type="preference" if i % 2 else "",
            importance=(i % 10) / 10,
            topic=f"Topic {i % 7}",
        )
        for i in range(count)
    ]


def timed(app: QApplication, step) -> float:  # noqa: ANN001
    started = time.perf_counter()
    step()
    app.processEvents()
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    items = sample(args.memories)
    figures: dict[str, list[float]] = {"load": [], "filter": [], "clear_filter": [], "sort": []}
    for _ in range(args.repeat):
        model, proxy = MemoryTableModel(), MemoryFilter()
        proxy.setSourceModel(model)
        view = QTableView()
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.resize(1200, 800)
        view.show()
        figures["load"].append(timed(app, lambda m=model: m.set_table(MemoryTable(list(items)))))
        figures["filter"].append(timed(app, lambda p=proxy: p.set_filters(text="hiking 5")))
        figures["clear_filter"].append(timed(app, lambda p=proxy: p.set_filters(text="")))
        for column in (1, 3, 4):
            figures["sort"].append(
                timed(app, lambda p=proxy, c=column: p.sort(c, Qt.SortOrder.AscendingOrder))
            )
        view.close()
    result = {
        f"{name}_ms_{args.memories // 1000}k": round(statistics.median(v), 1)
        for name, v in figures.items()
    }
    result["max_ms"] = round(max(max(v) for v in figures.values()), 1)
    print(
        json.dumps(result) if args.json else "\n".join(f"{k:>24}: {v}" for k, v in result.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
