# Two entry points, both safe to run on a fresh clone:
#   make demo   sets everything up and plays a demo game between two starter androids
#   make test   sets everything up and runs the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test bench mutation planted-bugs schemas clean

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

# Mutation testing of the critical modules ([tool.mutmut] in pyproject.toml; docs/testing.md).
# Hours on two cores, so not part of `make test`; it resumes where it stopped.
mutation: setup $(VENV)/.mutation-installed
	mkdir -p mutants && ln -sfn ../node_modules mutants/node_modules
	nice $(BIN)/mutmut run --max-children 2
	$(BIN)/mutmut results

$(VENV)/.mutation-installed: pyproject.toml
	$(BIN)/pip install --quiet -e '.[dev,mutation]'
	touch $@

# Plant the known one-line bugs of issue 17 in a scratch copy; each must fail the suite.
planted-bugs: setup
	$(BIN)/python tests/planted_bugs.py --control

schemas: setup
	$(BIN)/nova generate

clean:
	rm -rf $(VENV) node_modules mutants
