# Covenant: `make run` serves the app as a group's own server (DEBUG off, docs/deployment.md); `make dev` the
# same with DEBUG on, for working on it; `make test` runs the whole suite on PostgreSQL and Redis.
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
# The address the phones use, for the certificate and behind HOST=0.0.0.0: this machine's first address
# unless named.
HOST_IP ?= $(firstword $(shell hostname -I 2>/dev/null))
# The address the browsers use: where the printed links point, and the host the site answers to
# (config/settings.py adds it to ALLOWED_HOSTS). By default the address Daphne serves (an IPv6 one in
# brackets); behind HOST=0.0.0.0 or HOST=::, HOST_IP: make run HOST=0.0.0.0 BASE_URL=http://192.168.1.20:8000
PUBLIC_HOST = $(if $(filter 0.0.0.0 ::,$(HOST)),$(HOST_IP),$(HOST))
BASE_URL ?= $(SCHEME)://$(if $(findstring :,$(PUBLIC_HOST)),[$(PUBLIC_HOST)],$(PUBLIC_HOST)):$(PORT)
# collectstatic's hashed, compressed copies, which Daphne serves with DEBUG off (config/settings.py's default)
STATIC_ROOT ?= staticfiles

UV_VERSION := 0.13.9

.PHONY: run dev demos run-tls cert test soak venv lint lock bench clean

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

# The group's server: DEBUG off, this install's own secret key (made on the first start: secret_key,
# mode 0600), the static files collected, the site answering to BASE_URL's host and the loopback names.
run: demos $(STATIC_ROOT)/staticfiles.json
	BASE_URL=$(BASE_URL) $(BIN)/daphne $(LISTEN) config.asgi:application

# The developer's server: the same with DEBUG on (Django's debug pages, the apps' static files as they are).
dev: demos
	DEBUG=true BASE_URL=$(BASE_URL) $(BIN)/daphne $(LISTEN) config.asgi:application

demos: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --base-url $(BASE_URL)
	$(BIN)/python manage.py load_demo_d6 --base-url $(BASE_URL)

# Collected again only when a static file (the site's static/, an app's own, or the installed packages') changed.
STATIC_SOURCES := $(shell find static campaign combat arsmagica d6 -path '*static/*' -type f 2>/dev/null)
$(STATIC_ROOT)/staticfiles.json: $(STATIC_SOURCES) $(BIN)/.installed
	STATIC_ROOT=$(STATIC_ROOT) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	touch $@

# The LAN over HTTPS, so that phones get a secure context: `make cert`, then `make run-tls` serves on
# every interface at https://HOST_IP:TLS_PORT, with cookies sent over HTTPS only (BASE_URL is https).
TLS_PORT ?= 8443
run-tls:
	$(MAKE) run TLS=1 HOST=0.0.0.0 PORT=$(TLS_PORT) BASE_URL=https://$(HOST_IP):$(TLS_PORT)

# A self-signed certificate for this machine's address on the LAN (HOST_IP), localhost and 127.0.0.1,
# valid 825 days (the longest iOS accepts): CERT_DIR/cert.pem, and its key CERT_DIR/key.pem (kept private).
# basicConstraints CA:TRUE, whatever openssl.cnf says: Android installs a certificate as a "CA certificate"
# (one it trusts for websites) only when it says it is one (docs/deployment.md, "HTTPS on your network").
cert:
	@test -n "$(HOST_IP)" || { echo "make cert: name the address the phones use: make cert HOST_IP=192.168.1.20"; exit 2; }
	mkdir -p $(CERT_DIR)
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 825 -subj "/CN=Covenant on $(HOST_IP)" \
	  -keyout $(CERT_DIR)/key.pem -out $(CERT_DIR)/cert.pem \
	  -addext "subjectAltName=IP:$(HOST_IP),DNS:localhost,IP:127.0.0.1" -addext "extendedKeyUsage=serverAuth" \
	  -addext "basicConstraints=critical,CA:TRUE"
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
	$(BIN)/python bench/idle.py --tables 125 --players 8 --seconds 30

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .coverage
