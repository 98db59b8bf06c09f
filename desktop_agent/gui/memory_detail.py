"""The inspector's detail pane: one memory, where it came from, its edit history, what it
supersedes; edit its text, kind, type and importance, pin it, or forget it."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.core.memory_model import FACT_TYPES, MemoryItem
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.gui.memory_lens import kind_label
from desktop_agent.gui.theme import icon

KINDS = ("semantic", "episodic", "procedural", "topic")
HISTORY_KEYS = ("type", "importance", "pinned", "status", "reviewed", "topic", "provenance")


@dataclass(frozen=True, slots=True)
class Source:
    """One provenance link: the user's words, in which conversation, when."""

    episode_id: str
    conversation_id: str | None
    title: str
    user_text: str
    words: str
    at: datetime


@dataclass(frozen=True, slots=True)
class VersionLine:
    version: int
    at: datetime
    current: bool
    summary: str


@dataclass(frozen=True, slots=True)
class MemoryDetail:
    """One read of everything the pane shows (made off the GUI thread)."""

    item: MemoryItem
    sources: tuple[Source, ...]
    history: tuple[VersionLine, ...]
    uses: int
    last_used: datetime | None
    supersedes: MemoryItem | None
    superseded_by: MemoryItem | None


def read_detail(memory: MemoryService, memory_id: str) -> MemoryDetail:
    item = memory.item(memory_id)
    titles = {c.id: c.title for c in memory.conversations()}
    episodes = {e.id: e for e in memory.provenance(memory_id)}
    sources = []
    for link in item.provenance:
        episode = episodes.get(link.episode_id)
        if episode is None:
            continue
        user = episode.user_text
        words = user[link.start : link.end] if link.end > link.start else ""
        sources.append(
            Source(
                episode.id,
                link.conversation_id or episode.conversation_id,
                titles.get(link.conversation_id or "", "") or "Untitled chat",
                user,
                words,
                episode.created_at,
            )
        )
    uses, last = memory.usage(memory_id)
    return MemoryDetail(
        item,
        tuple(sources),
        _history(memory, memory_id),
        uses,
        last,
        _maybe(memory, item.supersedes),
        _maybe(memory, item.superseded_by),
    )


def _maybe(memory: MemoryService, memory_id: str | None) -> MemoryItem | None:
    if not memory_id:
        return None
    try:
        return memory.item(memory_id)
    except Exception:  # forgotten since: the link just does not show
        return None


def _history(memory: MemoryService, memory_id: str) -> tuple[VersionLine, ...]:
    lines = []
    previous: Any = None
    for version in memory.history(memory_id):
        if previous is None:
            summary = f"created: “{version.text}”"
        elif version.text != previous.text:
            summary = f"text changed to “{version.text}”"
        else:
            summary = _meta_changes(previous.meta, version.meta) or "saved again"
        lines.append(VersionLine(version.version, version.updated_at, version.current, summary))
        previous = version
    return tuple(reversed(lines))  # newest first


def _meta_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    changes = []
    for key in HISTORY_KEYS:
        old, new = before.get(key), after.get(key)
        if old != new:
            if key == "provenance":
                changes.append(f"sources {len(old or ())} → {len(new or ())}")
            elif isinstance(new, float):
                changes.append(f"{key} {float(old or 0):.2f} → {new:.2f}")
            else:
                changes.append(f"{key} {old if old not in (None, '') else '—'} → {new}")
    return ", ".join(changes)


def _when(moment: datetime | None) -> str:
    return moment.astimezone().strftime("%d %b %Y, %H:%M") if moment else "never"


def _section(title: str) -> QLabel:
    return QLabel(title, objectName="sectionTitle")


class MemoryDetailPane(QScrollArea):
    """Shows one ``MemoryDetail``; the inspector does the reading and writing."""

    detail_did_request_save = Signal(str, object)  # memory id, dict of changes
    detail_did_request_forget = Signal(str)
    detail_did_request_source = Signal(object)  # Source
    detail_did_request_memory = Signal(str)  # jump to another memory

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memoryDetail")
        self.setWidgetResizable(True)
        self.detail: MemoryDetail | None = None
        body = QWidget(objectName="memoryDetailBody")
        self.setWidget(body)
        self.column = QVBoxLayout(body)
        self.column.setContentsMargins(12, 10, 12, 10)
        self.column.setSpacing(8)
        self.empty = QLabel(
            "Select a memory to see where it came from, its history, and to edit or forget it.",
            objectName="mutedLabel",
        )
        self.empty.setWordWrap(True)
        self.column.addWidget(self.empty)
        self.content = QWidget()
        self.column.addWidget(self.content)
        self.column.addStretch(1)
        self._build(self.content)
        self.content.hide()

    def _build(self, content: QWidget) -> None:
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        self.status_label = QLabel(objectName="detailStatus")
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self.text_edit = QPlainTextEdit(objectName="memoryText")
        self.text_edit.setFixedHeight(58)
        layout.addWidget(self.text_edit)
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.kind_combo = QComboBox()
        self.kind_combo.addItems(KINDS)
        self.type_combo = QComboBox()
        self.type_combo.addItems(["", *FACT_TYPES])
        for combo in (self.kind_combo, self.type_combo):  # shrinkable: a narrow panel fits
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(6)
            combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.importance_spin = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05)
        self.importance_spin.setDecimals(2)
        self.importance_spin.setMaximumWidth(110)
        self.pin_check = QCheckBox("Pinned")
        self.pin_check.setToolTip("A pinned memory is always considered and never fades")
        # Kind and type one above the other (side by side they made the pane wider than the
        # panel at 800x600); Pinned beside the importance keeps the form three rows tall.
        row = QHBoxLayout()
        row.addWidget(self.importance_spin, 1)
        row.addSpacing(8)
        row.addWidget(self.pin_check)
        row.addStretch(1)
        form.addRow("Kind:", self.kind_combo)
        form.addRow("Type:", self.type_combo)
        form.addRow("Importance:", row)
        layout.addLayout(form)
        buttons = QHBoxLayout()
        self.save_button = QPushButton(icon("check"), "Save changes")
        self.save_button.clicked.connect(self._save)
        self.forget_button = QPushButton(icon("delete"), "Forget…", objectName="dangerButton")
        self.forget_button.clicked.connect(self._forget)
        buttons.addWidget(self.save_button)
        buttons.addStretch(1)
        buttons.addWidget(self.forget_button)
        layout.addLayout(buttons)
        layout.addWidget(_section("Where it came from"))
        self.sources_label = self._links_label()
        layout.addWidget(self.sources_label)
        self.links_label = self._links_label()
        layout.addWidget(self.links_label)
        layout.addWidget(_section("Edit history"))
        self.history_label = QLabel(objectName="historyLabel")
        self.history_label.setWordWrap(True)
        self.history_label.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.history_label)
        self.facts_label = QLabel(objectName="mutedLabel")
        self.facts_label.setWordWrap(True)
        self.facts_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.facts_label)

    def _links_label(self) -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.linkActivated.connect(self._link)
        return label

    # --- showing ---
    def show_detail(self, detail: MemoryDetail | None) -> None:
        self.detail = detail
        self.empty.setVisible(detail is None)
        self.content.setVisible(detail is not None)
        if detail is None:
            return
        item = detail.item
        status = {"active": "Active", "superseded": "Superseded", "merged": "Merged"}.get(
            item.status, item.status
        )
        notes = [f"<b>{html.escape(kind_label(item.kind, item.type).capitalize())}</b>", status]
        if not item.reviewed:
            notes.append("new: not reviewed yet")
        if item.pinned:
            notes.append("pinned")
        self.status_label.setText(" · ".join(notes))
        self.text_edit.setPlainText(item.text)
        self.kind_combo.setCurrentText(item.kind)
        self.type_combo.setCurrentText(item.type)
        self.importance_spin.setValue(item.importance)
        self.pin_check.setChecked(item.pinned)
        self.sources_label.setText(self._sources_html(detail))
        self.links_label.setText(self._links_html(detail))
        self.links_label.setVisible(bool(detail.supersedes or detail.superseded_by))
        self.history_label.setText(self._history_html(detail))
        self.facts_label.setText(
            f"Created {_when(item.created_at)} · updated {_when(item.updated_at)} · "
            f"used in {detail.uses} repl{'y' if detail.uses == 1 else 'ies'}, last "
            f"{_when(detail.last_used)}<br>id {item.id}"
        )

    @staticmethod
    def _sources_html(detail: MemoryDetail) -> str:
        if not detail.sources:
            source = str((detail.item.meta or {}).get("source", ""))
            if detail.item.kind == "episodic":
                return "This is an exchange from a conversation."
            return "Imported." if source == "import" else "No source episode is remembered."
        lines = []
        for source in detail.sources:
            words = html.escape(source.words or source.user_text)
            lines.append(
                f"<a href='source:{source.episode_id}'>“{words}”</a><br>"
                f"<span style='color:gray'>you said it in “{html.escape(source.title)}”, "
                f"{_when(source.at)}</span>"
            )
        return "<br>".join(lines)

    @staticmethod
    def _links_html(detail: MemoryDetail) -> str:
        parts = []
        if detail.supersedes is not None:
            old = detail.supersedes
            parts.append(f"Supersedes <a href='memory:{old.id}'>“{html.escape(old.text)}”</a>")
        if detail.superseded_by is not None:
            new = detail.superseded_by
            parts.append(f"Superseded by <a href='memory:{new.id}'>“{html.escape(new.text)}”</a>")
        return "<br>".join(parts)

    @staticmethod
    def _history_html(detail: MemoryDetail) -> str:
        rows = []
        for line in detail.history:
            mark = " <b>(current)</b>" if line.current else ""
            rows.append(
                f"<tr><td style='padding-right:8px'>v{line.version}</td>"
                f"<td style='padding-right:8px'>{_when(line.at)}</td>"
                f"<td>{html.escape(line.summary)}{mark}</td></tr>"
            )
        return f"<table>{''.join(rows)}</table>"

    # --- verbs ---
    def changes(self) -> dict[str, Any]:
        """What the user changed in the form (only those fields)."""
        if self.detail is None:
            return {}
        item, changes = self.detail.item, {}
        text = self.text_edit.toPlainText().strip()
        if text != item.text:
            changes["text"] = text
        if self.kind_combo.currentText() != item.kind:
            changes["kind"] = self.kind_combo.currentText()
        if self.type_combo.currentText() != item.type:
            changes["type"] = self.type_combo.currentText()
        if abs(self.importance_spin.value() - item.importance) > 1e-6:
            changes["importance"] = round(self.importance_spin.value(), 2)
        if self.pin_check.isChecked() != item.pinned:
            changes["pinned"] = self.pin_check.isChecked()
        return changes

    @Slot()
    def _save(self) -> None:
        changes = self.changes()
        if self.detail is not None and changes:
            self.detail_did_request_save.emit(self.detail.item.id, changes)

    @Slot()
    def _forget(self) -> None:
        if self.detail is not None:
            self.detail_did_request_forget.emit(self.detail.item.id)

    @Slot(str)
    def _link(self, link: str) -> None:
        scheme, _, target = link.partition(":")
        if scheme == "memory":
            self.detail_did_request_memory.emit(target)
        elif scheme == "source" and self.detail is not None:
            source = next((s for s in self.detail.sources if s.episode_id == target), None)
            if source is not None:
                self.detail_did_request_source.emit(source)
