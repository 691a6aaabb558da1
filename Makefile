# Everything a fresh clone needs: `make demo` and `make test` create .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
OUT    := out
DOMAINS := $(notdir $(patsubst %/,%,$(wildcard examples/manuals/*/)))

.PHONY: help install install-test demo test lint bench eval clean

help:
	@echo "make demo   - create .venv, install, compile the examples, run the paper's cases, then"
	@echo "              play the engine scenario through rulec-sim -> pty -> rulec-onboard"
	@echo "make test   - create .venv, install with test extras, run the suite on both backends"
	@echo "make lint   - ruff and mypy"
	@echo "make bench  - kernel benchmarks (see bench/README.md)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml setup.py csrc/kernel.c csrc/kernel.h csrc/logic.c csrc/logic.h csrc/build_kernel.py
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml setup.py csrc/kernel.c csrc/kernel.h csrc/logic.c csrc/logic.h csrc/build_kernel.py
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

demo: $(VENV)/.installed
	@mkdir -p $(OUT)
	@for d in $(DOMAINS); do \
	  $(BIN)/rulec compile examples/manuals/$$d -o $(OUT)/$$d.bundle || exit 1; \
	done
	@$(BIN)/python examples/demo.py --bundles $(OUT)
	@$(BIN)/python examples/demo_hil.py --bundle $(OUT)/rocket_engine.bundle

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest
	RULEC_PUREPYTHON=1 $(BIN)/python -m pytest -m "not wheel"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check compiler runtime firmware_bridge csrc tests bench examples
	$(BIN)/mypy compiler runtime firmware_bridge

bench: $(VENV)/.installed-test
	$(BIN)/python bench/kernel_report.py
	$(BIN)/python bench/bench_logic.py
	$(BIN)/python bench/bench_e2e.py --quick

clean:
	rm -rf $(VENV) build $(OUT) *.egg-info runtime/_kernel*.so runtime/_kernel.c

eval: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[eval,ground]'
	$(BIN)/python bench/eval/regenerate.py
