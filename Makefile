# Two commands do all set-up on a fresh machine: `make run` and `make test`.
# The venv prefers Debian's python3.11 where there is one: it is built with profile-guided and
# link-time optimisation, and the pyenv build these machines put first on PATH is not. The same
# moves take about 15% less CPU on it in process (bench.move; docs/performance.md).
PYTHON ?= $(firstword $(foreach p,/usr/bin/python3.11 python3.11 python3,$(shell $(p) -c 'import ensurepip, sys; print(sys.executable) if sys.version_info[:2] == (3, 11) else None' 2>/dev/null)) python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
PYTEST_ARGS ?=
# Test processes (pytest-xdist): each has its own database, channel-layer prefix and live daphne
# (tests/settings.py). 0 runs the suite in this process alone. The tests marked `alone` time the
# site against a clock, so they run afterwards with the machine to themselves (none selected: fine).
# TEST_MARKS narrows both steps by marker expression (CI's second pass: "not screen and not pure");
# TEST_ALONE=no leaves the `alone` step out (CI's first pass: they run on the second's set-up).
# The processes take tests in the suite's order (xdist's load scheduling), which keeps browser tests
# after the asyncio ones in each process (tests/conftest.py); work stealing would not. Three on two
# cores: a browser test leaves a core idle about a sixth of its time (waiting on the page, the
# server or a timer), and a third process takes it (the PostgreSQL pass in 403 s against 551).
TEST_WORKERS ?= 3
TEST_MARKS ?=
TEST_ALONE ?= yes
TEST_ALSO = $(if $(TEST_MARKS), and ($(TEST_MARKS)))

.PHONY: run test venv chromium axe migrate lint bench serve clean

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

venv: $(VENV)/.installed

# Development: the settings default to DEBUG off (and then refuse the development SECRET_KEY);
# runserver serves the static files from the source folders only with DEBUG on.
run migrate: export DEBUG := true

migrate: venv
	$(PY) manage.py migrate --noinput

# The development server and one task worker beside it (turn notices, analyses, and the periodic jobs:
# the daily puzzle, the own-pace clocks, the daily summary, tournament forfeits);
# Ctrl-C stops both, and the worker goes when the server stops for any other reason.
run: migrate
	$(PY) manage.py task_worker & worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

# Browser tests drive Debian's Chromium; Playwright cannot download its own browser here.
chromium:
	@test -x $(CHROMIUM) || { \
	  echo "Installing Chromium with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The npm tools (package.json): axe-core, injected into pages by the accessibility tests, and
# eslint for the site's scripts. The site itself needs no npm: what it serves is in static/.
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; }
	npm install --no-audit --no-fund --silent
	touch $@

axe: node_modules/.installed

test: venv chromium axe
	$(PY) -m ruff check .
	node_modules/.bin/eslint static/js
	timeout 3000 $(PY) -m pytest -n $(TEST_WORKERS) -m "not alone$(TEST_ALSO)" $(PYTEST_ARGS)
	test "$(TEST_ALONE)" = no || timeout 900 $(PY) -m pytest -m "alone$(TEST_ALSO)" $(PYTEST_ARGS) || test $$? -eq 5

lint: venv axe
	$(PY) -m ruff check .
	node_modules/.bin/eslint static/js

# Production: DEBUG off, PostgreSQL and Redis from DATABASE_URL and REDIS_URL, static files collected
# (whitenoise serves them), WORKERS daphne processes on PORT, PORT+1, ... (docs/operations.md, Production).
WORKERS ?= 2
DB_POOL_MAX ?= 20
serve: venv
	@test -n "$$SECRET_KEY" || { echo "make serve needs SECRET_KEY (and DATABASE_URL, REDIS_URL): see docs/operations.md, Production" >&2; exit 1; }
	DEBUG=false $(PY) manage.py migrate --noinput
	DEBUG=false $(PY) manage.py collectstatic --noinput --verbosity 0
	DEBUG=false $(PY) manage.py check --deploy
	DEBUG=false DB_POOL_MAX=$(DB_POOL_MAX) $(PY) -m cribsite.serve --workers $(WORKERS) --host $(HOST) --port $(PORT)

bench: venv
	$(PY) -m bench.engine
	$(PY) -m bench.ai --games 400

clean:
	rm -rf $(VENV) node_modules staticfiles db.sqlite3 test_db.sqlite3
