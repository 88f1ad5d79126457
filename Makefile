# Covenant: `make run` serves the app; `make test` runs the whole suite on PostgreSQL and Redis.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv lint bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

venv: $(BIN)/.installed

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py load_demo_d6
	$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

test: venv
	scripts/test.sh

lint: venv
	$(BIN)/ruff check .

bench: venv
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/fanout.py --tables 3 --players 8 --seconds 10

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .coverage
