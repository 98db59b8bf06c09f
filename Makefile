# Two commands for a fresh Linux machine with Python 3.11+ and a C compiler:
#   make run    install into .venv if needed, then start the app
#   make test   install into .venv if needed, then lint (ruff, mypy --strict, import contracts)
#               and run the whole test suite
# Both are idempotent: the stamp file makes a second run install and build nothing.

VENV      ?= .venv
STAMP     := $(VENV)/.installed
BIN       := $(VENV)/bin
LINTED    := desktop_agent tests bench

.PHONY: install run test lint bench clean

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

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .import_linter_cache
