# Everything starts from a bare python3: the first target that needs the
# tools builds .venv and installs the project into it (editable, with the
# test extras), and re-installs only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: site test validate cards check serve bench typecheck clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

validate: $(STAMP)
	$(BIN)/stationmaster validate

site: validate

test: $(STAMP)
	$(BIN)/python -m pytest

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/validate_speed.py

clean:
	rm -rf $(VENV) build
