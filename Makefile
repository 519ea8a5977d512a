# The two commands of the README: `make play` and `make test`; `make check` is the quick loop
# while editing (lint, types and the fast tests: about a minute on a quiet machine, see
# docs/development.md for what it leaves to `make test`).
# Each creates .venv/ at the repository root and installs what it needs on first use.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_STAMP := $(VENV)/.play-installed
TEST_STAMP := $(VENV)/.test-installed
ARGS ?=

.PHONY: play test check lint typecheck pytest docs screenshots browser axe pyodide site clean bench bench-site

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The editable install also builds the compiled search core (hatch_build.py): again when
# its source changes.
CORE_SOURCES := hatch_build.py src/devilsgrip/solver/_core.c

$(PLAY_STAMP): pyproject.toml $(CORE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m devilsgrip.i18n_build
	touch $@

$(TEST_STAMP): pyproject.toml $(CORE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m devilsgrip.i18n_build
	touch $@ $(PLAY_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/devilsgrip $(ARGS)

# Debian's chromium for the browser tests (installed when missing and we may).
browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-dejavu-core) >/dev/null \
	      || echo "warning: could not install chromium; browser tests will be skipped"; \
	  else echo "warning: chromium missing; browser tests will be skipped"; fi; \
	fi

# axe-core for the browser tests' accessibility checks: a test-only tool, installed (not
# committed) into .test-tools/ when npm is there; without it those checks are skipped.
AXE := .test-tools/node_modules/axe-core/axe.min.js
axe:
	@if [ ! -f $(AXE) ]; then \
	  if command -v npm >/dev/null 2>&1; then \
	    npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix .test-tools axe-core@4 >/dev/null \
	      || echo "warning: could not install axe-core; accessibility checks will be skipped"; \
	  else echo "warning: npm missing; accessibility checks will be skipped"; fi; \
	fi

# The game as a static web app (build/site/): the Pyodide runtime comes from its npm
# package, installed (not committed) into .site-tools/ at the version the site is built for.
PYODIDE_VERSION := 314.0.8
PYODIDE := .site-tools/node_modules/pyodide
# The browser tests of the site skip themselves without it.
pyodide:
	@if [ "$$(grep -o '"version": *"[^"]*"' $(PYODIDE)/package.json 2>/dev/null | grep -o '[0-9][^"]*')" != "$(PYODIDE_VERSION)" ]; then \
	  if command -v npm >/dev/null 2>&1; then \
	    npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix .site-tools pyodide@$(PYODIDE_VERSION) >/dev/null \
	      || echo "warning: could not install pyodide; the site cannot be built"; \
	  else echo "warning: npm missing; the site cannot be built"; fi; \
	fi

site: $(PLAY_STAMP) pyodide
	$(BIN)/devilsgrip site build/site --pyodide $(PYODIDE)

# The architecture's contracts (pyproject.toml's [tool.importlinter]) are checked with the lint.
lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks) docs/hooks scripts
	$(BIN)/lint-imports

typecheck: $(TEST_STAMP)
	$(BIN)/mypy src/devilsgrip

pytest: $(TEST_STAMP) browser axe pyodide
	$(BIN)/pytest -n 2 --dist worksteal $(ARGS)

# The documentation site (MkDocs + Material + mkdocstrings) into build/docs/, warnings as errors.
docs: $(TEST_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir build/docs

# The README's pictures of the page (Chromium) and of the terminal (Textual's SVG export).
screenshots: $(TEST_STAMP) browser
	$(BIN)/python scripts/screenshots.py --out docs/images

# The documentation site is built (warnings as errors) and checked by tests/docs/test_docs.py,
# so the suite does not build it a second time with `make docs`.
test: lint typecheck pytest

# The edit-test loop: no browser, no test marked slow, property tests at 20 examples.
check: lint typecheck
	HYPOTHESIS_PROFILE=dev $(BIN)/pytest -n 2 --dist worksteal -q -m "not slow and not browser" $(ARGS)

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/engine.py

# The static site's figures (first visit, cold and warm start, moves and hints in the worker).
bench-site: $(TEST_STAMP) browser pyodide
	$(BIN)/python benchmarks/site.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .test-tools .site-tools build/docs build/site
