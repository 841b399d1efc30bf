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

# reproduce prints "checks: P pass, D deviation, F fail" and exits 0 when no claim fails (a deviation of a
# paper, proven by evidence computed in the run, is not a failure), 1 when one does, 2 on an error; the demo
# succeeds when the report was written, and fails only on an error.
demo: $(STAMP)
	@$(BIN)/frictionlab reproduce --quick --out out/; rc=$$?; \
	if [ $$rc -eq 1 ]; then echo "demo: report written to out/report.html; some paper claims failed (listed there)"; \
	elif [ $$rc -ne 0 ]; then exit $$rc; \
	else echo "demo: report written to out/report.html; no claim fails (deviations of the papers listed there)"; fi

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
	$(BIN)/python -m sphinx -n -b html docs docs/_build/html

clean:
	rm -rf $(VENV) out .pytest_cache
