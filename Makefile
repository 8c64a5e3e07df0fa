# Two commands on a fresh machine:
#   make run    set everything up and serve the site at http://127.0.0.1:$(PORT)/
#   make test   set everything up and run the whole test suite
# make run HOST=0.0.0.0 serves the classroom network and prints the address to type;
# make dev is make run with Django's debug pages (development only).
# make test-fast runs the quick tier: the tests that need no browser, no server process
# and no Redis or PostgreSQL (their marks: pyproject.toml). Both run the tests in
# TEST_WORKERS processes (pytest-xdist; make test TEST_WORKERS=0 runs them in this one).
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
TEST_WORKERS ?= 4
BIN := $(VENV)/bin
PYTEST := DEBUG=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup
STAMP := $(VENV)/.installed

.PHONY: run dev test test-fast setup install messages messages-update migrate content \
	stack clean bench bench-engine bench-lease bench-limits bench-tables bench-abuse bench-pages \
	bench-smoke bench-lighthouse

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

messages: install
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore '.venv' -v 0

messages-update: install
	DEBUG=1 $(BIN)/python manage.py makemessages -a --no-obsolete --ignore .venv --ignore tests --ignore 'games/engine/*'
	DEBUG=1 $(BIN)/python manage.py makemessages -d djangojs -a --no-obsolete --ignore .venv --ignore tests --ignore staticfiles --ignore 'games/vendor/*'
	for f in django djangojs; do msgen locale/en/LC_MESSAGES/$$f.po -o locale/en/LC_MESSAGES/$$f.po; done

migrate: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput -v 0

content: migrate
	DEBUG=1 $(BIN)/python manage.py load_content

setup: install messages content

# snapsite/serve.py: debug pages off, the secret key (.secret_key), allowed hosts.
run: setup
	$(BIN)/python -m snapsite.serve --host $(HOST) --port $(PORT)

dev: setup
	$(BIN)/python -m snapsite.serve --host $(HOST) --port $(PORT) --debug

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run -v 0
	$(PYTEST)

test-fast: setup
	$(PYTEST) -m "not browser and not server and not postgres and not redis"

# A run starts many Python processes (workers, servers, manage.py): each reads its
# compiled modules, and pytest its rewritten tests, from __pycache__ instead of
# compiling them again.
test test-fast: export PYTHONDONTWRITEBYTECODE =

# The production stack on 127.0.0.1:8080 (nginx, page workers, table processes,
# PostgreSQL and Redis): docs/deploy.md.
stack: setup
	$(BIN)/python -m deploy.stack

# Benchmarks (bench/, docs/benchmarks.md): each prints a line per measurement, JSON last.
# Options go in ARGS, e.g. make bench-tables ARGS="--tables 5 --seconds 10".
# The stack's ones need nginx, PostgreSQL and Redis on 127.0.0.1, as `make stack` does.
ARGS ?=
TABLES_FIND_MAX := --find-max --table-processes 1,2 --tables 10 --step 10

bench: bench-engine

bench-engine: install
	$(BIN)/python -m bench.engine $(ARGS)

bench-lease: install
	$(BIN)/python -m bench.lease $(ARGS)

bench-limits: install
	$(BIN)/python -m bench.limits $(ARGS)

bench-tables: setup
	$(BIN)/python -m bench.tables $(or $(ARGS),$(TABLES_FIND_MAX))

bench-abuse: setup
	$(BIN)/python -m bench.abuse $(ARGS)

bench-pages: setup
	$(BIN)/python -m bench.pages $(ARGS)

# Lighthouse over every kind of page in en, he and ta, phone and desktop (bench/lighthouse.py);
# lighthouse itself from npm into .lighthouse/ (ignored), once.
LIGHTHOUSE := .lighthouse/node_modules/.bin/lighthouse
$(LIGHTHOUSE):
	mkdir -p .lighthouse
	cd .lighthouse && npm install --no-audit --no-fund --save-exact lighthouse@12.2.3

bench-lighthouse: setup $(LIGHTHOUSE)
	$(BIN)/python -m bench.lighthouse $(ARGS)

# The benchmarks' own tests, at smoke sizes (not part of `make test`).
bench-smoke: setup
	DEBUG=1 $(BIN)/python -m pytest bench

clean:
	rm -rf $(VENV) staticfiles test-output
