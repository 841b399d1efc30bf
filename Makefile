# frictionlab: `make demo` sets up and reproduces the papers; `make test` sets up and tests.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test test-slow test-all bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e ".[test]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/frictionlab reproduce --quick --out out/

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

test-all: $(STAMP)
	$(BIN)/python -m pytest -q -m "slow or not slow"

bench: $(STAMP)
	$(BIN)/frictionlab bench

docs: $(STAMP)
	$(BIN)/python -m pip install -e ".[docs]"
	$(BIN)/python -m sphinx -b html docs docs/_build/html

clean:
	rm -rf $(VENV) out .pytest_cache
