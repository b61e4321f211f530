# Two entry points (README): `make run` starts the web parlor (hkmj serve on SQLite, prints the URL),
# `make test` runs the whole suite; `make play` is the terminal game.
# Both create .venv and install what they need on a fresh machine with only Python 3.11 and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run play test lint typecheck layers unit postgres browser bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,env,server,test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hkmj serve

play: $(STAMP)
	$(BIN)/hkmj play

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/hkmahjong

layers: $(STAMP)
	$(BIN)/lint-imports

# The parlor's store is tested on a real local PostgreSQL as well as SQLite.
postgres:
	tools/ensure_postgres.sh

# The browser tests drive Debian's chromium: install it (and a CJK font) with apt-get when missing.
browser:
	sh tools/install_browser.sh

unit: $(STAMP) postgres browser
	$(BIN)/python -m pytest -n 2 src tests

test: lint typecheck layers unit

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
