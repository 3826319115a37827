# Everything starts from a bare python3: the first target that needs the
# tools builds .venv and installs the project into it (editable, with the
# test extras), and re-installs only when pyproject.toml changes.
PYTHON ?= python3
# Material prints an end-of-life banner on every build; the build log is ours.
export NO_MKDOCS_2_WARNING := 1
# Python's bytecode cache (__pycache__, ignored by git) is written even where
# the environment turns it off: without it every test worker compiles and
# rewrites the whole suite again (collection 9 s instead of 2.6 s a worker)
# and every command a test starts compiles the kit's modules afresh.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# axe-core (MPL-2.0), the accessibility checker the browser tests load into
# each page (tests/generator/test_browser_access.py). It comes from the npm
# registry, pinned, into .venv/ beside the Python tools: Node.js and npm are
# on every machine of the project's kind but not promised on every clone, so
# without npm this step does nothing and those tests skip (fail under CI).
AXE_VERSION := 4.14.1
AXE := $(VENV)/axe/node_modules/axe-core/axe.min.js

.PHONY: site test test-fast fuzz-deep mutants lint format goldens validate cards reports check check-reports serve bench typecheck layers clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# compat mode puts the checkout on sys.path with a .pth line: no import hook,
	# so every command starts ~40 ms sooner than with the default editable finder.
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]' --config-settings editable_mode=compat
	touch $(STAMP)
	$(MAKE) --no-print-directory $(AXE)

$(AXE): Makefile
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --no-audit --no-fund --no-save --prefix $(VENV)/axe axe-core@$(AXE_VERSION) && touch $(AXE); \
	else \
		echo "no npm: axe-core not installed, the accessibility tests will skip"; \
	fi

validate: $(STAMP)
	$(BIN)/stationmaster validate

cards: $(STAMP)
	$(BIN)/stationmaster cards

# Plays the seeded games of every stale simulation report and rewrites it
# (seconds of play: kept out of `cards` and `check`, which follow every edit).
reports: $(STAMP)
	$(BIN)/stationmaster cards --reports

check: $(STAMP)
	$(BIN)/stationmaster check

# As `check`, and a simulation report measured before the last change fails too.
check-reports: $(STAMP)
	$(BIN)/stationmaster check --reports

# Validate, refuse drift, then build into build/site (warnings are errors).
# Not --quiet: MkDocs 1.6 then drops warnings before --strict counts them
# (mkdocs/mkdocs#4126), so a page missing from the nav would pass.
site: validate check
	$(BIN)/mkdocs build --strict
	@echo "site built: open build/site/index.html"

serve: $(STAMP)
	$(BIN)/mkdocs serve

# CI (.ci/run) runs this target, so this is what keeps tests/ and bench/
# typed and linted too. The type check (some 14 CPU-s without its cache, one
# core) runs beside the suite rather than before it: the suite's workers
# leave a core idle while they wait on a browser, a server or a cluster's
# timeout, and the check fills those gaps. Its report is printed when it
# ends, and its failure fails the target once the suite is done.
# The suite runs over every core, tests handed to workers as they come free
# (pytest-xdist; modules marked xdist_group stay on one worker);
# `.venv/bin/python -m pytest tests/ROOM/FILE.py` runs one module alone, in-process.
test: lint $(AXE)
	@( $(BIN)/mypy > $(VENV)/typecheck.log 2>&1; echo $$? > $(VENV)/typecheck.status; cat $(VENV)/typecheck.log ) & \
	$(BIN)/python -m pytest -n auto --dist loadgroup; tests=$$?; \
	wait; types=$$(cat $(VENV)/typecheck.status); \
	if [ "$$types" != 0 ]; then echo "make test: the type check failed (above)"; fi; \
	[ "$$tests" = 0 ] && [ "$$types" = 0 ]

# The rules, content and page tests that run in this process: none of the
# slow tiers (subprocess, browser, cluster, fuzz, sim; see pyproject.toml),
# the quick loop while working. `-m "not browser"`, `-m fuzz` and the like
# pick the tiers by hand.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup -m "not slow"

# The fuzz tier at five times its usual budget (STATIONMASTER_FUZZ_EXAMPLES):
# every fuzz test's examples, and 5,000 random Trick of the Rails games a
# player count. Minutes: CI runs it after `make test`; by hand, before a release.
fuzz-deep: $(STAMP)
	STATIONMASTER_FUZZ_EXAMPLES=5 $(BIN)/python -m pytest -n auto --dist loadgroup -m fuzz

# One-line mutants of every pack's rules and effects, each run against the
# rule-level tests that reach its line (tests/kit/mutants.py); prints the
# share killed and every survivor. Several CPU-minutes a pack: on demand.
# ARGS passes options, e.g. make mutants ARGS="--pack trickoftherails".
mutants: $(STAMP)
	$(BIN)/python -m tests.kit.mutants $(ARGS)

# Records the golden playthroughs again (tests/*/golden/*.txt: one seeded bot
# game a pack and player count). Run it only when play is meant to change,
# and read the diff of those files before committing it.
goldens: $(STAMP)
	UPDATE_GOLDENS=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/stationmaster/test_golden_playthrough.py tests/trickoftherails/test_golden_playthrough.py

typecheck: $(STAMP)
	$(BIN)/mypy

# Lint and formatting are checked, never applied, by the tests; `make format` applies both.
lint: $(STAMP)
	$(BIN)/ruff check --quiet .
	$(BIN)/ruff format --check --quiet .

format: $(STAMP)
	$(BIN)/ruff check --fix --quiet .
	$(BIN)/ruff format --quiet .

layers: $(STAMP)
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python bench/edit_loop.py
	$(BIN)/python bench/validate_speed.py
	$(BIN)/python bench/lsp_latency.py
	$(BIN)/python bench/list_speed.py
	$(BIN)/python bench/check_speed.py
	$(BIN)/python bench/check_loop.py
	$(BIN)/python bench/engine_speed.py
	$(BIN)/python bench/simulate_speed.py
	$(BIN)/python bench/cpu_figures.py
	$(BIN)/python bench/totr_speed.py
	$(BIN)/python bench/site_build.py
	$(BIN)/python bench/page_weight.py
	$(BIN)/python bench/search_speed.py --runs 3
	$(BIN)/python bench/two_player.py
	nice -n 15 $(BIN)/python bench/ladder.py --game stationmaster --players 2 --deals 3
	nice -n 15 $(BIN)/python bench/ladder.py --game trickoftherails --players 3 --players 4 --deals 3
	$(BIN)/python bench/sweep_speed.py

clean:
	rm -rf $(VENV) build
