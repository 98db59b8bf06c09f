"""Settings: the chat model (the bundled default or any GGUF file), threads, context size,
temperature, and memory; and, with a session, memory & security (keys, backups, audit log).
The dialog edits a copy of the settings; the window saves and applies it. The security tab
acts at once (lock, rotate, export...), it has nothing to save."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_agent.errors import ModelError, UserError
from desktop_agent.gui.theme import icon
from desktop_agent.llm.model_file import bundled_model_path, check_model_file, physical_cores
from desktop_agent.settings import Settings

if TYPE_CHECKING:
    from desktop_agent.gui.session import Session


def _hint(text: str) -> QLabel:
    label = QLabel(text, objectName="hintLabel")
    label.setWordWrap(True)
    return label


def _scrolled(page: QWidget, name: str) -> QScrollArea:
    """A settings page that scrolls vertically when the dialog is short (800x600 screens)."""
    scroll = QScrollArea(objectName=name)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setWidget(page)
    return scroll


class SettingsDialog(QDialog):
    """Edits ``settings``; after ``exec()`` returns Accepted, read ``result_settings()``."""

    def __init__(
        self, settings: Settings, parent: QWidget | None = None, session: Session | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(620)
        self._settings = settings
        self._session = session
        self.security = None
        self._build()
        self._load(settings)
        self.resize(680, 700)

    # --- layout ---
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 12, 18, 14)
        layout.setSpacing(10)
        self.tabs = QTabWidget(objectName="settingsTabs")
        general = QWidget()
        page = QVBoxLayout(general)
        page.setContentsMargins(4, 4, 4, 4)
        page.addWidget(self._model_group())
        page.addWidget(self._generation_group())
        page.addStretch(1)
        self.tabs.addTab(_scrolled(general, "settingsModelScroll"), icon("model"), "Model")
        from desktop_agent.gui.models_panel import ModelsPanel
        from desktop_agent.paths import app_paths

        self.models_panel = ModelsPanel(app_paths().models_dir, self.choose_model_file)
        self.tabs.addTab(self.models_panel, icon("import"), "Get models")
        memory = QWidget(objectName="settingsMemoryPage")
        page = QVBoxLayout(memory)
        page.setContentsMargins(4, 4, 4, 4)
        page.addWidget(self._memory_group())
        if self._session is not None:
            from desktop_agent.gui.security_settings import SecuritySettings

            self.security = SecuritySettings(self._session)
            page.addWidget(self.security, 1)
        else:
            page.addStretch(1)
        self.tabs.addTab(_scrolled(memory, "settingsScroll"), icon("shield"), "Memory && security")
        layout.addWidget(self.tabs, 1)
        self.error_label = QLabel(objectName="errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def _model_group(self) -> QGroupBox:
        group = QGroupBox("Chat model")
        box = QVBoxLayout(group)
        bundled = bundled_model_path()
        name = bundled.name if bundled else "not installed"
        self.bundled_radio = QRadioButton(f"Bundled default  ({name})")
        self.custom_radio = QRadioButton("A GGUF file on this computer:")
        self.model_choice = QButtonGroup(self)
        self.server_radio = QRadioButton("A chat server (OpenAI-compatible):")
        self.model_choice.addButton(self.bundled_radio)
        self.model_choice.addButton(self.custom_radio)
        self.model_choice.addButton(self.server_radio)
        self.server_edit = QLineEdit(placeholderText="http://127.0.0.1:8080")
        self.server_edit.textEdited.connect(lambda _text: self.server_radio.setChecked(True))
        self.server_radio.toggled.connect(self.server_edit.setEnabled)
        self.path_edit = QLineEdit(placeholderText="/path/to/model.gguf")
        self.browse_button = QPushButton(icon("folder"), "Browse…")
        self.browse_button.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.setContentsMargins(22, 0, 0, 0)
        row.addWidget(self.path_edit, 1)
        row.addWidget(self.browse_button)
        self.custom_radio.toggled.connect(self._custom_toggled)
        self.path_edit.textEdited.connect(lambda _text: self.custom_radio.setChecked(True))
        box.addWidget(self.bundled_radio)
        box.addWidget(self.custom_radio)
        box.addLayout(row)
        box.addWidget(self.server_radio)
        server_row = QHBoxLayout()
        server_row.setContentsMargins(22, 0, 0, 0)
        server_row.addWidget(self.server_edit, 1)
        box.addLayout(server_row)
        box.addWidget(
            _hint(
                "With a server (llama.cpp, Ollama, LM Studio), only each message's prompt is "
                "sent to it; what the assistant remembers stays encrypted on this computer."
            )
        )
        box.addWidget(
            _hint(
                "Any llama.cpp GGUF chat model works. Larger models answer better and "
                "need more memory; the model reloads when you save."
            )
        )
        return group

    def _generation_group(self) -> QGroupBox:
        group = QGroupBox("Performance and replies")
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        cores = physical_cores()
        self.threads_spin = QSpinBox(minimum=0, maximum=max(64, cores * 2))
        self.threads_spin.setSpecialValueText(f"Automatic ({cores} cores)")
        self.context_spin = QSpinBox(minimum=512, maximum=131072, singleStep=512)
        self.context_spin.setSuffix(" tokens")
        self.max_tokens_spin = QSpinBox(minimum=16, maximum=32768, singleStep=64)
        self.max_tokens_spin.setSuffix(" tokens")
        self.temperature_spin = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.05)
        self.temperature_spin.setDecimals(2)
        self.top_p_spin = QDoubleSpinBox(minimum=0.05, maximum=1.0, singleStep=0.05)
        self.top_p_spin.setDecimals(2)
        self.repeat_spin = QDoubleSpinBox(minimum=1.0, maximum=2.0, singleStep=0.05)
        self.repeat_spin.setDecimals(2)
        self.gpu_spin = QSpinBox(minimum=-1, maximum=999)
        self.gpu_spin.setSpecialValueText("Automatic")
        self.gpu_spin.setSuffix(" layers")
        self.gpu_spin.setToolTip(
            "Layers of the model run on the GPU. Automatic: all of them when llama.cpp was "
            "built with a GPU backend (see `desktop-agent doctor`), none otherwise."
        )
        form.addRow("CPU threads:", self.threads_spin)
        form.addRow("GPU offload:", self.gpu_spin)
        form.addRow("Context size:", self.context_spin)
        form.addRow("Longest reply:", self.max_tokens_spin)
        form.addRow("Temperature:", self.temperature_spin)
        form.addRow("Top-p:", self.top_p_spin)
        form.addRow("Repeat penalty:", self.repeat_spin)
        for spin in (
            self.threads_spin,
            self.gpu_spin,
            self.context_spin,
            self.max_tokens_spin,
            self.temperature_spin,
            self.top_p_spin,
            self.repeat_spin,
        ):
            spin.setMinimumWidth(200)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        box = QVBoxLayout(group)
        box.addLayout(form)
        box.addWidget(
            _hint(
                "Lower temperature gives focused, repeatable answers; higher gives more "
                "varied ones. Threads and context size reload the model."
            )
        )
        box.addWidget(QLabel("Custom instructions (a persona, how to answer):"))
        self.instructions_edit = QPlainTextEdit(objectName="instructionsEdit")
        self.instructions_edit.setPlaceholderText(
            "e.g. You are a patient tutor. Answer in British English, with examples."
        )
        self.instructions_edit.setFixedHeight(70)
        box.addWidget(self.instructions_edit)
        box.addWidget(
            _hint("Every chat follows them; Chat > Instructions for this chat overrides.")
        )
        return group

    def _memory_group(self) -> QGroupBox:
        group = QGroupBox("Memory")
        box = QVBoxLayout(group)
        self.memory_check = QCheckBox("Remember things from my conversations")
        self.extraction_check = QCheckBox("Let the chat model extract facts (model-assisted)")
        self.memory_check.toggled.connect(self.extraction_check.setEnabled)
        box.addWidget(self.memory_check)
        box.addWidget(
            _hint(
                "When off, nothing new is remembered and nothing is recalled. "
                "Incognito chats are never remembered."
            )
        )
        box.addWidget(self.extraction_check)
        box.addWidget(
            _hint(
                "For capable models only. Memory works without it; the bundled "
                "model is too small to do this reliably."
            )
        )
        return group

    # --- values ---
    def _load(self, settings: Settings) -> None:
        model, memory = settings.model, settings.memory
        chosen = self.server_radio if model.server else self.custom_radio if model.path else None
        (chosen or self.bundled_radio).setChecked(True)
        self.path_edit.setText(model.path)
        self.server_edit.setText(model.server)
        self.server_edit.setEnabled(bool(model.server))
        self._custom_toggled(bool(model.path))
        self.threads_spin.setValue(model.n_threads)
        self.gpu_spin.setValue(model.n_gpu_layers)
        self.context_spin.setValue(model.n_ctx)
        self.max_tokens_spin.setValue(model.max_tokens)
        self.temperature_spin.setValue(model.temperature)
        self.top_p_spin.setValue(model.top_p)
        self.repeat_spin.setValue(model.repeat_penalty)
        self.instructions_edit.setPlainText(model.instructions)
        self.memory_check.setChecked(memory.enabled)
        self.extraction_check.setChecked(memory.model_assisted_extraction)
        self.extraction_check.setEnabled(memory.enabled)

    def result_settings(self) -> Settings:
        """The edited settings (raises UserError for a bad value)."""
        path = self.path_edit.text().strip() if self.custom_radio.isChecked() else ""
        server = self.server_edit.text().strip() if self.server_radio.isChecked() else ""
        if self.server_radio.isChecked() and not server.startswith(("http://", "https://")):
            raise UserError("give the chat server's address, e.g. http://127.0.0.1:8080")
        if path:
            try:  # never saved unless it can load: a bad file would fail at every start
                check_model_file(Path(path))
            except ModelError as error:
                raise UserError(str(error)) from None
        return self._settings.replace(
            "model",
            path=path,
            server=server,
            n_threads=self.threads_spin.value(),
            n_gpu_layers=self.gpu_spin.value(),
            n_ctx=self.context_spin.value(),
            max_tokens=self.max_tokens_spin.value(),
            temperature=round(self.temperature_spin.value(), 2),
            top_p=round(self.top_p_spin.value(), 2),
            repeat_penalty=round(self.repeat_spin.value(), 2),
            instructions=self.instructions_edit.toPlainText().strip(),
        ).replace(
            "memory",
            enabled=self.memory_check.isChecked(),
            model_assisted_extraction=self.extraction_check.isChecked(),
        )

    def accept(self) -> None:
        try:
            self.result_settings()
        except UserError as error:
            self.error_label.setText(str(error))
            self.error_label.show()
            return
        super().accept()

    def choose_model_file(self, path: Path) -> None:
        """A model picked in the Models tab: Save switches to it, no restart needed."""
        self.path_edit.setText(str(path))
        self.custom_radio.setChecked(True)

    def done(self, result: int) -> None:
        self.models_panel.cancel_download()  # a closed dialog leaves a .part to resume later
        super().done(result)

    # --- slots ---
    @Slot(bool)
    def _custom_toggled(self, custom: bool) -> None:
        self.path_edit.setEnabled(custom)
        self.browse_button.setEnabled(custom)

    @Slot()
    def _browse(self) -> None:
        start = self.path_edit.text() or str(Path.home())
        path, _filter = QFileDialog.getOpenFileName(
            self, "Choose a GGUF model", start, "GGUF models (*.gguf);;All files (*)"
        )
        if path:
            self.path_edit.setText(path)
            self.custom_radio.setChecked(True)
