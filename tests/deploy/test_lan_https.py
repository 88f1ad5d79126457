"""The LAN over HTTPS (docs/deployment.md, "HTTPS on your network"): `make cert` writes a certificate that
Daphne's TLS endpoint serves, and the server `make run TLS=1` starts answers the site over https and its
socket over wss, with a client that trusts that certificate and nothing else."""

import contextlib
import json
import os
import shlex
import socket
import ssl
import subprocess
import time
from http.client import HTTPSConnection

import pytest
from django.db import connections
from django.test import Client
from websockets.sync.client import connect

from tests.browser.server import BASE_DIR, STARTUP_SECONDS, database_url
from tests.combat.conftest import Table
from tests.ports import free_port

pytestmark = pytest.mark.django_db(transaction=True)

MAKE_VARIABLES = ("HOST", "PORT", "BASE_URL", "TLS", "CERT_DIR", "HOST_IP", "MAKEFLAGS", "MAKELEVEL")


def make(*args: str) -> subprocess.CompletedProcess:
    """`make ARGS` in the checkout, whatever make variables the shell exports; output captured as text."""
    env = {name: value for name, value in os.environ.items() if name not in MAKE_VARIABLES}
    # --no-print-directory: under `make test` this is a sub-make, which would add "Leaving directory" lines
    command = ["make", "--no-print-directory", *args]
    return subprocess.run(command, cwd=BASE_DIR, env=env, capture_output=True, text=True)


@pytest.fixture
def certificate(tmp_path) -> ssl.SSLContext:
    """A throwaway certificate from `make cert` in tmp_path; a client context that trusts only it."""
    made = make("cert", f"CERT_DIR={tmp_path}", "HOST_IP=127.0.0.1")
    assert made.returncode == 0, made.stdout + made.stderr
    return ssl.create_default_context(cafile=tmp_path / "cert.pem")


@contextlib.contextmanager
def tls_daphne(cert_dir, trust: ssl.SSLContext, log_path):
    """The Daphne that `make run TLS=1` starts, on a free port and the test database; yields the port."""
    port = free_port()
    plan = make("-n", "run", "TLS=1", f"PORT={port}", f"CERT_DIR={cert_dir}")
    assert plan.returncode == 0, plan.stderr
    daphne = shlex.split(plan.stdout.splitlines()[-1])  # the last step of `make run` is the server
    keys = f"privateKey={cert_dir}/key.pem:certKey={cert_dir}/cert.pem"
    assert f"ssl:{port}:{keys}:interface=127.0.0.1" in daphne
    env = dict(os.environ, DATABASE_URL=database_url(connections["default"].settings_dict))
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    with open(log_path, "wb") as log:
        server = subprocess.Popen(daphne, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not answers(port, trust):
            assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def answers(port: int, trust: ssl.SSLContext) -> bool:
    """Whether the TLS endpoint completes a handshake yet."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as raw:
            with trust.wrap_socket(raw, server_hostname="127.0.0.1"):
                return True
    except OSError:
        return False


def https_get(port: int, trust: ssl.SSLContext, path: str) -> tuple[int, str]:
    """GET `path` over https, checking the certificate; the status and the body."""
    connection = HTTPSConnection("127.0.0.1", port, context=trust, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_the_tls_endpoint_serves_the_login_page_and_a_signed_in_socket(certificate, tmp_path):
    table = Table()
    browser = Client()
    browser.force_login(table.alice)
    with tls_daphne(tmp_path, certificate, tmp_path / "daphne.log") as port:
        status, page = https_get(port, certificate, "/accounts/login/")
        assert status == 200 and 'name="password"' in page

        with connect(
            f"wss://127.0.0.1:{port}/ws/encounters/{table.encounter.pk}/",
            ssl=certificate,
            origin=f"https://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={browser.cookies['sessionid'].value}"},
            proxy=None,
        ) as live:
            live.send(json.dumps({"type": "resume", "last_seq": 0}))
            frame = live.recv(timeout=10)

        # What a phone meets first: a certificate that nobody it trusts has signed.
        with pytest.raises(ssl.SSLCertVerificationError, match="self-signed certificate"):
            https_get(port, ssl.create_default_context(), "/accounts/login/")
    assert 'id="live-seq"' in frame and "Sir Boris" in frame
