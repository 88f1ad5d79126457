# Covenant: `make run` serves the app; `make test` runs the whole suite on PostgreSQL and Redis.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Where the printed links point: the address Daphne serves (an IPv6 one in brackets). Behind
# HOST=0.0.0.0, name the address the phones use: make run HOST=0.0.0.0 BASE_URL=http://192.168.1.20:8000
BASE_URL ?= http://$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)

UV_VERSION := 0.13.9

.PHONY: run test soak venv lint lock bench clean

# uv, pinned, from PyPI into the venv; it installs exactly what uv.lock says (versions and hashes).
$(BIN)/uv:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv==$(UV_VERSION)

# --locked: refuse a uv.lock that no longer matches pyproject.toml (run `make lock`); --inexact: keep
# pip and uv. Then Covenant itself, editable, with no dependencies of its own choosing.
$(BIN)/.installed: pyproject.toml uv.lock $(BIN)/uv
	$(BIN)/uv sync --quiet --locked --inexact --extra test --no-install-project
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

venv: $(BIN)/.installed

# Re-resolve every dependency to the newest versions pyproject.toml allows; commit the new uv.lock.
lock: $(BIN)/uv
	$(BIN)/uv lock --upgrade

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --base-url $(BASE_URL)
	$(BIN)/python manage.py load_demo_d6 --base-url $(BASE_URL)
	$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

test: venv
	scripts/test.sh

# The model of the table at length: 20,000 steps or more, its seed printed (docs/reliability.md).
soak: venv
	scripts/soak.sh

lint: venv
	$(BIN)/ruff check .

bench: venv
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/fanout.py --tables 3 --players 8 --seconds 10
	$(BIN)/python bench/page.py --combatants 40 --repeat 3

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .coverage
