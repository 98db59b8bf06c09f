# Two commands for a fresh Linux machine with Python 3.11+ and a C compiler:
#   make run    install into .venv if needed, then start the app
#   make test   install into .venv if needed, then lint (ruff, mypy --strict, import contracts)
#               and run the whole test suite
# Both are idempotent: the stamp file makes a second run install and build nothing.
# Also: `make package` builds a one-folder bundle in dist/desktop-agent/ (PyInstaller, installed
# on first use); `make package-test` builds it if needed, then runs it with .venv out of sight.

VENV      ?= .venv
STAMP     := $(VENV)/.installed
BIN       := $(VENV)/bin
LINTED    := desktop_agent tests bench
BUNDLE    := dist/desktop-agent
PACKAGER  := $(VENV)/.packager-installed

.PHONY: install run test lint bench package package-test clean

install: $(STAMP)

$(STAMP): pyproject.toml packaging/constraints.txt packaging/install.sh
	bash packaging/install.sh
	@touch $@

run: $(STAMP)
	$(BIN)/desktop-agent

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	bash packaging/with-keyring.sh $(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/llm_throughput.py

# PyInstaller comes from the `package` extra, installed here only (make test never waits for it).
$(PACKAGER): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-cache-dir \
		-c packaging/constraints.txt -e ".[package]"
	@touch $@

package: $(BUNDLE)/desktop-agent

$(BUNDLE)/desktop-agent: $(PACKAGER) packaging/desktop-agent.spec \
		$(shell find desktop_agent -type f -not -path '*/__pycache__/*')
	$(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/desktop-agent.spec
	rm -rf build/pyinstaller  # (its copies are in the bundle now; disk is short in CI)
	@touch $@

package-test: package
	bash packaging/package-test.sh

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .import_linter_cache \
		$(BUNDLE) build/pyinstaller
