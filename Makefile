# Two entry points (README): `make run` starts the web parlor (hkmj serve on SQLite, prints the URL),
# `make test` runs the whole suite; `make play` is the terminal game.
# Both create .venv and install what they need on a fresh machine with only Python 3.11 and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run play test quick lint typecheck layers unit unit-pure min-versions min-venv min-tests postgres redis browser caddy bench \
	rl-check build compiled pure clean cluster-demo

RL_STAMP := $(VENV)/.installed-rl-stamp

$(STAMP): pyproject.toml
	sh tools/ensure_icu.sh
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

# The compiled build (issue 16, docs/build.md): mypyc compiles the hot modules into
# src/hkmahjong/_compiled when a C compiler is present and the build is missing or stale (a minute or
# two the first time, nothing when current); the package then loads them instead of their .py files.
# HKMJ_BUILD=pure (in the environment) skips it and runs pure Python.
build: $(STAMP)
	$(BIN)/python tools/build_compiled.py

run: build
	$(BIN)/hkmj serve

play: build
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

# TLS in front (docs/operations.md): tests/ops/test_tls.py runs Debian's caddy on loopback.
caddy:
	tools/ensure_caddy.sh

# The browser tests drive Debian's chromium: install it (and a CJK font) with apt-get when missing.
browser:
	sh tools/install_browser.sh

# --dist loadgroup: the tests marked xdist_group("ray") share one worker, so one Ray instance.
# The whole suite runs on the build that `make run` uses (compiled where a C compiler is present;
# tests/test_build.py checks it is the one loaded); unit-pure runs the rules core and engine tests,
# the bots' decision hashes and the env's encoder and hashes (pure and compiled must decide and
# encode alike) and every doctest again on pure Python (the rest of bots, env and the terminal ran
# compiled above: the suite stays within its 15 minutes). The doctests of src/ run there only:
# collecting a module's doctests by path would load its .py beside the compiled twin.
#
# The browser tests (tests/web/browser) run in a second pytest beside the rest, on two workers of
# their own: they mostly wait (a person's pace, the table's clocks, a page to draw), so run after
# the rest on the same two workers they left both cores idle for minutes; side by side the suite
# takes about the longer of the two. Their output is printed when both are done.
# AFTER_BROWSER runs after the browser tests on their side (`make test`: unit-pure, so that it too
# overlaps the rest's tail, which mostly waits on real processes).
BROWSER_LOG := .browser-tests.log
AFTER_BROWSER := true

unit: $(RL_STAMP) build postgres redis browser caddy
	@expect=$$($(BIN)/python tools/build_compiled.py --expect); \
	( HKMJ_EXPECT_BUILD=$$expect $(BIN)/python -m pytest -n 2 --dist loadgroup \
		-p no:cacheprovider tests/web/browser; b=$$?; $(AFTER_BROWSER); a=$$?; \
		[ $$b -eq 0 ] && [ $$a -eq 0 ] ) > $(BROWSER_LOG) 2>&1 & bg=$$!; \
	HKMJ_EXPECT_BUILD=$$expect $(BIN)/python -m pytest -n 2 --dist loadgroup tests \
		--ignore=tests/web/browser; rc=$$?; \
	wait $$bg; brc=$$?; echo "--- the browser tests (run beside the rest; then AFTER_BROWSER)"; cat $(BROWSER_LOG); \
	rm -f $(BROWSER_LOG); [ $$rc -eq 0 ] && [ $$brc -eq 0 ]

PURE_TESTS := tests/test_build.py tests/test_readme.py tests/tiles tests/hand tests/rules \
	tests/scoring tests/payment tests/engine tests/bots/test_decision_hashes.py \
	tests/env/test_encoder.py tests/env/test_env_hashes.py

unit-pure: $(RL_STAMP)
	HKMJ_BUILD=pure HKMJ_EXPECT_BUILD=pure \
		$(BIN)/python -m pytest -n 2 --dist loadgroup src $(PURE_TESTS)

# The server extra at the lowest versions pyproject.toml admits (issue 32 item 6). The native
# websocket path (src/hkmahjong/server/wsframes.py) drives uvicorn's and the websockets library's
# internals, so a throwaway venv installs the extra's direct dependencies at their lower bounds
# (tools/min_versions.py writes the constraints from pyproject.toml: they cannot drift) and runs the
# tests of that path on pure Python. pip has no lowest-direct resolution: what those packages need
# in turn resolves as usual. The install (min-venv, 1-2 min, most of it pip waiting on the package
# registry) runs beside the rest of `make test`; the tests themselves take seconds.
MIN_VENV := .venv-min

min-venv: $(STAMP)
	rm -rf $(MIN_VENV)
	$(PYTHON) -m venv $(MIN_VENV)
	$(BIN)/python tools/min_versions.py server > $(MIN_VENV)/constraints.txt
	$(BIN)/python tools/min_versions.py dev test --ranges --only pytest httpx hypothesis > $(MIN_VENV)/tools.txt
	$(MIN_VENV)/bin/python -m pip install --quiet -c $(MIN_VENV)/constraints.txt \
		-r $(MIN_VENV)/tools.txt -e '.[server]'

min-tests:
	HKMJ_BUILD=pure $(MIN_VENV)/bin/python -m pytest -p no:randomly \
		tests/server/test_native_ws.py tests/server/test_wsframes_uvicorn.py
	rm -rf $(MIN_VENV)

min-versions: min-venv
	$(MAKE) --no-print-directory min-tests

# The whole suite. The min-versions venv installs in the background meanwhile (its output is
# printed when the rest is done); its tests run last. The checks and the set-up that do not depend
# on each other run side by side first (mypy's type-check and mypyc's compile are each one core's
# work; the services' scripts mostly wait): about 40 s less on two cores. Any failure fails it.
PREPARE := lint typecheck layers build postgres redis browser caddy

test: $(RL_STAMP)
	@( $(MAKE) --no-print-directory min-venv > $(MIN_VENV).log 2>&1; echo $$? > $(MIN_VENV).rc ) & \
	bg=$$!; \
	$(MAKE) --no-print-directory -j3 --output-sync=target $(PREPARE) \
		&& $(MAKE) --no-print-directory unit AFTER_BROWSER='$(MAKE) --no-print-directory unit-pure'; \
	rc=$$?; \
	wait $$bg; echo "--- min-versions: its venv (installed in the background)"; cat $(MIN_VENV).log; \
	[ $$rc -eq 0 ] || exit $$rc; \
	[ "$$(cat $(MIN_VENV).rc)" = 0 ] || { echo "min-versions: installing its venv failed"; exit 1; }; \
	rm -f $(MIN_VENV).log $(MIN_VENV).rc; \
	$(MAKE) --no-print-directory min-tests

# The quick loop (issue 32 item 8, README): SQLite only, pure Python, two workers; no browser, no
# PostgreSQL or Redis, no torch or Ray, no slow end-to-end runs, nothing that needs root (the
# markers: pyproject.toml; tests/conftest.py sets postgres / redis / torch from what a test uses).
QUICK_MARKS := not browser and not postgres and not redis and not torch and not slow

quick: $(STAMP)
	HKMJ_BUILD=pure HKMJ_EXPECT_BUILD=pure \
		$(BIN)/python -m pytest -n 2 -m "$(QUICK_MARKS)" tests

# The RL example's smoke test and SB3's env checker alone (also part of `make test`).
rl-check: $(RL_STAMP)
	$(BIN)/python -m pytest -p no:warnings tests/env/test_train_sb3.py

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run_all.py

# Build the compiled modules again (`make build` builds only when missing or stale); `make pure`
# removes them, so everything runs pure Python until the next `make build`, `run`, `play` or `test`.
compiled: $(STAMP)
	$(BIN)/python tools/build_compiled.py --force

pure: $(STAMP)
	$(BIN)/python tools/build_compiled.py --clean

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache src/hkmahjong/_compiled
