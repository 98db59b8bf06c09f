"""The memory inspector (a dockable panel): every memory in a table with search and filters, the
selected one in a detail pane, forgetting with receipts, and the inbox of new memories."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_service import MemoryService
from desktop_agent.gui import forget_dialogs
from desktop_agent.gui.memory_detail import MemoryDetail, MemoryDetailPane, read_detail
from desktop_agent.gui.memory_filters import (
    DATE_FILTERS,
    KIND_FILTERS,
    SEMANTIC_DELAY_MS,
    MemoryFilters,
)
from desktop_agent.gui.memory_inbox import MemoryInbox
from desktop_agent.gui.memory_panel import MemoryPanel
from desktop_agent.gui.memory_table_model import (
    TOPIC,
    IdRole,
    MemoryFilter,
    MemoryTable,
    MemoryTableModel,
    read_table,
)
from desktop_agent.gui.memory_table_view import memory_table_view
from desktop_agent.gui.search_edit import SearchEdit
from desktop_agent.gui.session import Session
from desktop_agent.gui.theme import icon

# Re-exported: older imports find the search box and the filter choices here.
__all__ = ["DATE_FILTERS", "KIND_FILTERS", "SEMANTIC_DELAY_MS", "MemoryInspector", "SearchEdit"]


class MemoryInspector(MemoryFilters, MemoryPanel):
    """Signals: ``inspector_did_request_source(Source)`` to open where a memory came from."""

    inspector_did_request_source = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("memoryInspector")
        self.model = MemoryTableModel(self)
        self.proxy = MemoryFilter(self)
        self.proxy.setSourceModel(self.model)
        self.receipt_dialog: forget_dialogs.ReceiptDialog | None = None
        self.last_receipt: Any = None
        self._wanted_id: str | None = None
        self._semantic_timer = QTimer(self, singleShot=True, interval=SEMANTIC_DELAY_MS)
        self._semantic_timer.timeout.connect(self._semantic_search)
        self._build()
        self.start()

    # --- layout ---
    def _build(self) -> None:
        self.tabs = QTabWidget(self.content, objectName="inspectorTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self._memories_page(), icon("memory"), "Memories")
        self.inbox = MemoryInbox()
        self.inbox.inbox_did_accept.connect(self.accept)
        self.inbox.inbox_did_accept_all.connect(self.accept_all)
        self.inbox.inbox_did_reject.connect(self.reject)
        self.inbox.inbox_did_request_edit.connect(self.edit_in_inspector)
        self.tabs.addTab(self.inbox, icon("inbox"), "Inbox")
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)

    def _memories_page(self) -> QWidget:
        page = QWidget()
        self._build_filters()

        self.table, self.columns = memory_table_view(self.proxy)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        forget_key = QAction("Forget selected…", self.table)
        forget_key.setShortcuts([QKeySequence(QKeySequence.StandardKey.Delete)])
        forget_key.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        forget_key.triggered.connect(self.forget_selected)
        self.table.addAction(forget_key)

        self.detail = MemoryDetailPane()
        self.detail.detail_did_request_save.connect(self.save)
        self.detail.detail_did_request_forget.connect(lambda i: self.forget([i]))
        self.detail.detail_did_request_memory.connect(self.select_memory)
        self.detail.detail_did_request_source.connect(self.inspector_did_request_source)

        # Short labels so the panel fits beside the chat at 800x600; the tooltips say it all.
        self.forget_button = QPushButton(icon("delete"), "Forget…")
        self.forget_button.setToolTip("Forget the selected memories (Delete)")
        self.forget_button.clicked.connect(self.forget_selected)
        self.forget_all_button = QPushButton("Forget all…", objectName="dangerButton")
        self.forget_all_button.setToolTip("Forget everything the assistant remembers")
        self.forget_all_button.clicked.connect(self.forget_everything)
        self.count_label = QLabel(objectName="mutedLabel")

        search_row = QHBoxLayout()
        search_row.addWidget(self.search_edit, 1)
        search_row.addWidget(self.semantic_check)
        search_row.addWidget(self.superseded_check)
        filter_row = QHBoxLayout()
        for widget in (self.kind_combo, self.topic_combo, self.date_combo):
            filter_row.addWidget(widget, 1)
        actions = QHBoxLayout()
        actions.addWidget(self.count_label, 1)
        actions.addWidget(self.forget_button)
        actions.addWidget(self.forget_all_button)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setChildrenCollapsible(False)

        layout = QVBoxLayout(page)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addLayout(search_row)
        layout.addLayout(filter_row)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(actions)
        return page

    # --- reading ---
    def reload(self) -> None:
        self.read(read_table, self._show_table)

    def clear(self) -> None:
        self.model.set_table(MemoryTable([]))
        self.detail.show_detail(None)
        self.inbox.set_items([], {})

    @Slot(object)
    def _show_table(self, table: MemoryTable) -> None:
        self.model.set_table(table)
        topics = sorted({i.topic for i in table.items if i.topic})
        current = self.topic_combo.currentData()
        self.topic_combo.blockSignals(True)
        self.topic_combo.clear()
        self.topic_combo.addItem("All topics", "")
        for topic in topics:
            self.topic_combo.addItem(topic, topic)
        self.topic_combo.setCurrentIndex(max(self.topic_combo.findData(current), 0))
        self.topic_combo.blockSignals(False)
        self.topic_combo.setVisible(bool(topics))
        self.table.setColumnHidden(TOPIC, not topics)  # no topics yet: room for the text
        inbox = [i for i in table.items if i.kind == "semantic" and i.active and not i.reviewed]
        self.inbox.set_items(inbox, {i.id: self.model.source_of(i) for i in inbox})
        self.tabs.setTabText(1, f"Inbox ({len(inbox)})" if inbox else "Inbox")
        self._update_count()
        if self._wanted_id is not None:
            wanted, self._wanted_id = self._wanted_id, None
            self.select_memory(wanted)
        elif self.detail.detail is not None:
            self._load_detail(self.detail.detail.item.id)

    # --- selection and detail ---
    def selected_ids(self) -> list[str]:
        rows = self.table.selectionModel().selectedRows()
        return [index.data(IdRole) for index in rows]

    def select_memory(self, memory_id: str) -> bool:
        """Select ``memory_id`` (clearing filters that hide it) and show its detail."""
        self.tabs.setCurrentIndex(0)
        row = self.model.row_of(memory_id)
        if row < 0:
            self._wanted_id = memory_id  # not loaded yet: select it after the next read
            self.refresh()
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            self.reset_filters()
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)
        return True

    @Slot()
    def _selection_changed(self, *_: object) -> None:
        ids = self.selected_ids()
        self.forget_button.setEnabled(bool(ids))
        current = self.table.currentIndex()
        memory_id = current.data(IdRole) if current.isValid() else None
        if memory_id in ids:
            self._load_detail(memory_id)
        elif not ids:
            self.detail.show_detail(None)

    def _load_detail(self, memory_id: str) -> None:
        self.read(lambda memory: read_detail(memory, memory_id), self._show_detail)

    @Slot(object)
    def _show_detail(self, detail: MemoryDetail) -> None:
        current = self.table.currentIndex()
        if current.isValid() and current.data(IdRole) == detail.item.id:
            self.detail.show_detail(detail)
            self._make_room_for_detail()

    def _make_room_for_detail(self) -> None:
        """The table gives the detail pane the height its editor and buttons need (down to a
        few rows of its own), so Save shows without scrolling where the window allows."""
        sizes = self.splitter.sizes()
        total = sum(sizes)
        body = self.detail.widget()
        needed = body.sizeHint().height() + 2 * self.detail.frameWidth() if body else 0
        table_least = self.table.horizontalHeader().height() + 3 * 28
        detail = min(needed, total - table_least)
        if len(sizes) == 2 and detail > sizes[1]:
            self.splitter.setSizes([total - detail, detail])

    @Slot(str)
    def edit_in_inspector(self, memory_id: str) -> None:
        if self.select_memory(memory_id):
            self.detail.text_edit.setFocus()

    # --- writing ---
    @Slot(str, object)
    def save(self, memory_id: str, changes: dict[str, Any]) -> None:
        def edit(memory: MemoryService) -> Any:
            return memory.edit(memory_id, reviewed=True, **changes)

        self.write(edit, lambda item: self._saved(item), name="edit-memory")

    def _saved(self, item: Any) -> None:
        self.model.replace(item)
        self._load_detail(item.id)
        self.panel_did_report.emit("Memory saved; the previous version is kept in its history")

    @Slot(str)
    def accept(self, memory_id: str) -> None:
        self.accept_all([memory_id])

    @Slot(object)
    def accept_all(self, memory_ids: list[str]) -> None:
        def accept(memory: MemoryService) -> int:
            for memory_id in memory_ids:
                memory.accept(memory_id)
            return len(memory_ids)

        self.write(accept, lambda n: self.panel_did_report.emit(f"Accepted {n}"), name="accept")

    @Slot(str)
    def reject(self, memory_id: str) -> None:
        self.write(lambda m: m.reject(memory_id), self._forgotten, name="reject")

    @Slot()
    def forget_selected(self) -> None:
        self.forget(self.selected_ids())

    def forget(self, memory_ids: list[str]) -> None:
        """Ask first, saying what else goes with them (read on the memory lane), then forget."""
        if not memory_ids:
            return
        self.read(
            lambda m: m.forget_preview(memory_ids),
            lambda preview: self._confirm_forget(memory_ids, preview),
        )

    def _confirm_forget(self, memory_ids: list[str], preview: Any) -> None:
        count = len(memory_ids)
        rows = [r for r in (self.model.row_of(i) for i in memory_ids[:3]) if r >= 0]
        texts = [self.model.item_at(r).text for r in rows]
        listed = "".join(f"<br>• {html.escape(t[:80])}" for t in texts) + (
            "<br>…" if count > 3 else ""
        )
        also = preview.describe()
        also_line = f"<br><br>This also erases {html.escape(also[4:])}." if also else ""
        self.last_forget_question = f"Forget {count} {also}".strip()
        if not forget_dialogs.confirm(
            self,
            "Forget memories",
            f"<b>Forget {count} memor{'y' if count == 1 else 'ies'}?</b>{listed}{also_line}"
            "<br><br>Their keys are destroyed: no file, old version or backup can bring them back.",
        ):
            return
        self.write(lambda m: m.forget(memory_ids), self._forgotten, name="forget")

    @Slot()
    def forget_everything(self) -> None:
        if not forget_dialogs.confirm_typed(self, self.model.rowCount()):
            return
        self.write(lambda m: m.forget_all(), self._forgotten, name="forget-all")

    def _forgotten(self, receipt: Any) -> None:
        self.model.remove_ids(receipt.ids)
        self._update_count()
        self.last_receipt = receipt
        self.receipt_dialog = forget_dialogs.show_receipt(receipt, self)
        self.panel_did_report.emit(
            f"{forget_dialogs.forgotten_summary(receipt)}, key epoch {receipt.epoch}"
        )

    @Slot("QPoint")
    def _context_menu(self, position: Any) -> None:
        index = self.table.indexAt(position)
        if not index.isValid():
            return
        memory_id = index.data(IdRole)
        row = self.model.row_of(memory_id)
        if row < 0:
            return
        item = self.model.item_at(row)
        menu = QMenu(self)
        if not item.reviewed and item.active:
            menu.addAction(icon("check"), "Accept", lambda: self.accept(memory_id))
        pin = "Unpin" if item.pinned else "Pin"
        menu.addAction(icon("pin"), pin, lambda: self.save(memory_id, {"pinned": not item.pinned}))
        menu.addAction(icon("edit"), "Edit", lambda: self.edit_in_inspector(memory_id))
        menu.addSeparator()
        menu.addAction(icon("delete"), "Forget selected…", self.forget_selected)
        menu.exec(self.table.viewport().mapToGlobal(position))

    def current_index(self) -> QModelIndex:
        return self.table.currentIndex()
