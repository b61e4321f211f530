# Two entry points (README): `make run` starts the web parlor (hkmj serve on SQLite, prints the URL),
# `make test` runs the whole suite; `make play` is the terminal game.
# Both create .venv and install what they need on a fresh machine with only Python 3.11 and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run play test lint typecheck layers unit postgres redis browser bench rl-check compiled clean cluster-demo

RL_STAMP := $(VENV)/.installed-rl-stamp

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,env,server,test]'
	touch $(STAMP)

# The rl extra (examples/train_sb3.py, tested in tests/env) needs torch: its CPU wheel 2.13.0 lies on
# the development machines' disk and goes in first; left to resolve `torch` by itself, pip would
# download a CUDA build of several GB. Only the test suite and rl-check install it: `make run` and
# `make play` never need torch. The ray extra goes in with it for the Ray backend's tests
# (tests/bots/test_backend_ray.py; about 20 s and 250 MB more).
$(RL_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev,env,server,test,rl,ray]'
	touch $(RL_STAMP)

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

# Several server processes (docs/deploy.md): their tests and demo use a local Redis as well.
redis:
	tools/ensure_redis.sh

# Two hkmj serve processes behind one address (http://127.0.0.1:8000/), on the local PostgreSQL
# (database hkmj_demo) and Redis: docs/deploy.md. Ctrl-C stops them gracefully.
cluster-demo: $(STAMP) postgres redis
	$(BIN)/python tools/cluster_demo.py

# The browser tests drive Debian's chromium: install it (and a CJK font) with apt-get when missing.
browser:
	sh tools/install_browser.sh

# --dist loadgroup: the tests marked xdist_group("ray") share one worker, so one Ray instance.
unit: $(RL_STAMP) postgres redis browser
	$(BIN)/python -m pytest -n 2 --dist loadgroup src tests

test: lint typecheck layers unit

# The RL example's smoke test and SB3's env checker alone (also part of `make test`).
rl-check: $(RL_STAMP)
	$(BIN)/python -m pytest -p no:warnings tests/env/test_train_sb3.py

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run_all.py

# Experiment (issue 16): the hottest pure modules compiled to C extensions by mypyc, into a copy of
# the package under build/compiled — the default install and `make test` stay pure Python. Run
# anything against it with PYTHONPATH=$PWD/build/compiled (an absolute path; compiled modules are
# found before the .py files); docs/bots.md "Compiled build" gives the build time and the speed-ups measured.
COMPILED := build/compiled
MYPYC_MODULES := hkmahjong/hand/_fast.py hkmahjong/hand/_profile.py hkmahjong/hand/arrange.py \
	hkmahjong/hand/shanten.py hkmahjong/bots/evaluate.py hkmahjong/bots/routes.py \
	hkmahjong/bots/planner.py

compiled: $(STAMP)
	rm -rf $(COMPILED)
	mkdir -p $(COMPILED)
	cp -r src/hkmahjong $(COMPILED)/
	cd $(COMPILED) && $(abspath $(BIN))/mypyc $(MYPYC_MODULES)
	@echo "compiled build: PYTHONPATH=$(abspath $(COMPILED)) $(BIN)/python ..."

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
