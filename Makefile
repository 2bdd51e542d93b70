# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/senet-companion serve --hardware sim

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	./firmware_bridge/tests-setup
	./deploy/tests-setup
	bash tests/setup-browser.sh
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/web.py --write docs/benchmarks.md
	$(BIN)/python bench/hardware_scan.py
	$(BIN)/python bench/serial_link.py
	$(BIN)/python bench/loop.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/service.py --write docs/benchmarks.md

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
