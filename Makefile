# Everything a fresh clone needs: `make demo` and `make test` create .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
OUT    := out
DOMAINS := $(notdir $(patsubst %/,%,$(wildcard examples/manuals/*/)))

.PHONY: help install install-test browser demo test lint bench eval clean test-sanitize coverage fuzz

help:
	@echo "make demo   - create .venv, install, compile the examples, run the paper's cases, then"
	@echo "              play the engine scenario through rulec-sim -> pty -> rulec-onboard"
	@echo "make test   - create .venv, install with test extras, run the suite on both backends"
	@echo "make lint   - ruff and mypy"
	@echo "make bench  - kernel benchmarks (see bench/README.md)"
	@echo "make fuzz   - every fuzz target for FUZZ_SECONDS each (default 60; see fuzz/README.md)"
	@echo "make test-sanitize - C parts built with ASan + UBSan (build/sanitize), C-touching tests"
	@echo "make coverage      - C parts built with gcov, C-touching tests, line and branch"
	@echo "                     coverage of csrc/ in build/coverage (see docs/robustness.md)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml setup.py csrc/kernel.c csrc/kernel.h csrc/logic.c csrc/logic.h csrc/lane.c csrc/lane_io.c csrc/lane.h csrc/build_kernel.py \
		csrc/rulec_proto.c csrc/rulec_proto.h csrc/build_proto.py
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml setup.py csrc/kernel.c csrc/kernel.h csrc/logic.c csrc/logic.h csrc/lane.c csrc/lane_io.c csrc/lane.h csrc/build_kernel.py \
		csrc/rulec_proto.c csrc/rulec_proto.h csrc/build_proto.py
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@$(MAKE) --no-print-directory browser
	@touch $@ $(VENV)/.installed

# The review page's tests drive Debian's chromium through its driver (docs/review.md).
# Installed when missing and the user is root; otherwise those tests skip and say why.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then \
	  :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium and chromium-driver (browser tests of rulec review)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-driver >/dev/null; \
	else \
	  echo "chromium or chromedriver missing and not root: the browser tests will skip"; \
	fi

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

demo: $(VENV)/.installed
	@mkdir -p $(OUT)
	@for d in $(DOMAINS); do \
	  $(BIN)/rulec compile examples/manuals/$$d -o $(OUT)/$$d.bundle || exit 1; \
	done
	@$(BIN)/python examples/demo.py --bundles $(OUT)
	@$(BIN)/python examples/demo_hil.py --bundle $(OUT)/rocket_engine.bundle

# Byte-compiled once here: with PYTHONDONTWRITEBYTECODE set, each of the suite's many
# `rulec` processes would otherwise compile the sources again.
test: $(VENV)/.installed-test
	$(BIN)/python -m compileall -q compiler runtime firmware_bridge > /dev/null
	$(BIN)/python -m pytest
	RULEC_PUREPYTHON=1 $(BIN)/python -m pytest -m "not wheel"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check compiler runtime firmware_bridge csrc tests bench examples fuzz tools
	$(BIN)/mypy compiler runtime firmware_bridge

bench: $(VENV)/.installed-test
	$(BIN)/python bench/kernel_report.py
	$(BIN)/python bench/bench_logic.py
	$(BIN)/python bench/bench_e2e.py --quick

clean:
	rm -rf $(VENV) build $(OUT) *.egg-info runtime/_kernel*.so runtime/_kernel.c \
		firmware_bridge/_proto*.so firmware_bridge/_proto.c

# Fuzzing (fuzz/README.md): atheris for the Python targets, clang's libFuzzer for the C
# codec when clang is installed.  One target at a time, at low priority.
FUZZ_SECONDS ?= 60
$(VENV)/.installed-fuzz: $(VENV)/.installed pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[fuzz]'
	@touch $@

fuzz: $(VENV)/.installed-fuzz
	nice -n 15 $(BIN)/python fuzz/run.py --seconds $(FUZZ_SECONDS)

eval: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[eval,ground]'
	$(BIN)/python bench/eval/regenerate.py

# --- sanitizers and C coverage (docs/robustness.md) ------------------------------------
# The tests that run compiled code carry the `compiled` marker: the kernel, logic and
# codec through cffi and the standalone codec program, then every suite that drives the
# runtime, the daemon or the wire protocol (docs/robustness.md, "Sanitizers", says why
# these).  The compiler-only suites never call into C; test_fault_matrix_determinism and
# test_fuzz_regressions build their own instrumented variants and are left unmarked.
C_TESTS := -m "compiled and not wheel" tests
INSTRUMENTED := $(BIN)/python csrc/build_instrumented.py
SITE := PYTHONPATH=$(CURDIR)/tools/instrumented_site
SAN_CC := gcc
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -g -O1
SAN_LDFLAGS := -fsanitize=address,undefined
SAN_DIR := build/sanitize
# Option by option, why: docs/robustness.md, "Sanitizers".
ASAN_OPTS := detect_leaks=0:allocator_may_return_null=1:detect_stack_use_after_return=1:halt_on_error=1
UBSAN_OPTS := print_stacktrace=1:halt_on_error=1
SAN_REPORTS := $(CURDIR)/$(SAN_DIR)/reports
SAN_ENV := LD_PRELOAD="$$($(SAN_CC) -print-file-name=libasan.so) $$($(SAN_CC) -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=$(ASAN_OPTS) UBSAN_OPTIONS=$(UBSAN_OPTS) PYTHONMALLOC=malloc \
	$(SITE) RULEC_NATIVE_DIR=$(CURDIR)/$(SAN_DIR)/lib CC=$(SAN_CC) \
	RULEC_CFLAGS="$(SAN_FLAGS)" RULEC_LDFLAGS="$(SAN_LDFLAGS)"
COV_DIR := build/coverage
COV_ENV := $(SITE) RULEC_NATIVE_DIR=$(CURDIR)/$(COV_DIR)/lib \
	RULEC_CFLAGS="--coverage -O0 -g" RULEC_LDFLAGS="--coverage"

# The suite's sanitizer reports go to files in $(SAN_REPORTS), so that a report from any
# process (a daemon or CLI the tests start included) fails the target.
test-sanitize: $(VENV)/.installed-instrumented
	rm -rf $(SAN_DIR)
	CC=$(SAN_CC) $(INSTRUMENTED) $(SAN_DIR) "--cflags=$(SAN_FLAGS)" "--ldflags=$(SAN_LDFLAGS)"
	$(SAN_ENV) $(BIN)/python csrc/check_sanitizers.py $(SAN_DIR)/canary "--cflags=$(SAN_FLAGS)"
	$(SAN_ENV) $(INSTRUMENTED) $(SAN_DIR) --check --needs libasan --needs libubsan
	@mkdir -p $(SAN_REPORTS)
	$(SAN_ENV) ASAN_OPTIONS=$(ASAN_OPTS):log_path=$(SAN_REPORTS)/asan \
		UBSAN_OPTIONS=$(UBSAN_OPTS):log_path=$(SAN_REPORTS)/ubsan \
		$(BIN)/python -m pytest -p no:cacheprovider -p rulec_instrumented \
		--basetemp=$(SAN_DIR)/pytest -rs $(C_TESTS); status=$$?; \
	if [ -n "$$(ls -A $(SAN_REPORTS))" ]; then cat $(SAN_REPORTS)/*; \
	  echo "sanitizer reports: $$(ls $(SAN_REPORTS) | wc -l) (above)"; exit 1; fi; \
	echo "sanitizer reports: 0"; exit $$status

# gcovr, and setuptools for building without isolation (venvs of Python 3.12+ lack it)
$(VENV)/.installed-instrumented: $(VENV)/.installed-test pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,coverage]'
	@touch $@

coverage: $(VENV)/.installed-instrumented
	rm -rf $(COV_DIR)
	$(INSTRUMENTED) $(COV_DIR) "--cflags=--coverage -O0 -g" "--ldflags=--coverage"
	$(COV_ENV) $(INSTRUMENTED) $(COV_DIR) --check
	$(COV_ENV) $(BIN)/python -m pytest -p no:cacheprovider -p rulec_instrumented \
		--basetemp=$(COV_DIR)/pytest -rs $(C_TESTS)
	@mkdir -p $(COV_DIR)/html
	$(BIN)/gcovr --root . --filter 'csrc/' --exclude csrc/proto_test.c \
		--merge-mode-functions=separate --txt-metric line --txt-metric branch \
		--txt $(COV_DIR)/summary.txt --json $(COV_DIR)/coverage.json \
		--html-details $(COV_DIR)/html/index.html $(COV_DIR)
	@cat $(COV_DIR)/summary.txt
	@$(BIN)/python csrc/coverage_gate.py $(COV_DIR)/coverage.json > $(COV_DIR)/gate.txt; \
	  status=$$?; cat $(COV_DIR)/gate.txt; cat $(COV_DIR)/gate.txt >> $(COV_DIR)/summary.txt; \
	  exit $$status
