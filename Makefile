# Two entry points, both safe to run on a fresh clone:
#   make demo   sets everything up and plays a demo game between two starter androids
#   make test   sets everything up and runs the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test bench schemas clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

demo: setup
	$(BIN)/nova demo

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python -m bench

schemas: setup
	$(BIN)/nova generate

clean:
	rm -rf $(VENV) node_modules
