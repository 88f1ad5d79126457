# Covenant: `make run` serves the app; `make test` runs the whole suite on PostgreSQL and Redis.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# TLS=1: serve HTTPS and wss with the certificate `make cert` writes into CERT_DIR, through Daphne's TLS
# endpoint (Twisted's endpoint syntax; a colon in the address is escaped). docs/deployment.md, "HTTPS on
# your network".
CERT_DIR ?= tls
ifeq ($(TLS),1)
SCHEME := https
LISTEN = -e 'ssl:$(PORT):privateKey=$(CERT_DIR)/key.pem:certKey=$(CERT_DIR)/cert.pem:interface=$(subst :,\:,$(HOST))'
else
SCHEME := http
LISTEN = -b $(HOST) -p $(PORT)
endif
# Where the printed links point: the address Daphne serves (an IPv6 one in brackets). Behind
# HOST=0.0.0.0, name the address the phones use: make run HOST=0.0.0.0 BASE_URL=http://192.168.1.20:8000
BASE_URL ?= $(SCHEME)://$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)
# The address the phones use, for the certificate: this machine's first address unless named.
HOST_IP ?= $(firstword $(shell hostname -I 2>/dev/null))

UV_VERSION := 0.13.9

.PHONY: run run-tls cert test soak venv lint lock bench clean

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
	$(BIN)/daphne $(LISTEN) config.asgi:application

# The LAN over HTTPS, so that phones get a secure context: `make cert`, then `make run-tls` serves on
# every interface at https://HOST_IP:TLS_PORT (ALLOWED_HOSTS, unless set, is HOST_IP and localhost).
TLS_PORT ?= 8443
run-tls:
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-$(HOST_IP),localhost,127.0.0.1}" $(MAKE) run TLS=1 HOST=0.0.0.0 \
	  PORT=$(TLS_PORT) BASE_URL=https://$(HOST_IP):$(TLS_PORT)

# A self-signed certificate for this machine's address on the LAN (HOST_IP), localhost and 127.0.0.1,
# valid 825 days (the longest iOS accepts): CERT_DIR/cert.pem, and its key CERT_DIR/key.pem (kept private).
cert:
	@test -n "$(HOST_IP)" || { echo "make cert: name the address the phones use: make cert HOST_IP=192.168.1.20"; exit 2; }
	mkdir -p $(CERT_DIR)
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 825 -subj "/CN=Covenant on $(HOST_IP)" \
	  -keyout $(CERT_DIR)/key.pem -out $(CERT_DIR)/cert.pem \
	  -addext "subjectAltName=IP:$(HOST_IP),DNS:localhost,IP:127.0.0.1" -addext "extendedKeyUsage=serverAuth"
	chmod 600 $(CERT_DIR)/key.pem

test: venv
	scripts/test.sh

# The model of the table at length: 20,000 steps or more, its seed printed (docs/reliability.md).
soak: venv
	scripts/soak.sh

lint: venv
	$(BIN)/ruff check .

# The benches at their real sizes (docs/performance.md); `make test` runs each at its smallest
# (tests/test_benches.py) to see that it still runs.
bench: venv
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/fanout.py --tables 3 --players 8 --seconds 10
	$(BIN)/python bench/page.py --combatants 40 --repeat 3

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .coverage
