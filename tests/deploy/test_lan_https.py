"""The LAN over HTTPS (docs/deployment.md, "HTTPS on your network"): `make cert` writes a certificate that
Daphne's TLS endpoint serves, and the server `make run TLS=1` starts answers the site over https and its
socket over wss, with a client that trusts that certificate and nothing else."""

import contextlib
import json
import os
import re
import shlex
import socket
import ssl
import stat
import subprocess
import time
from http.client import HTTPSConnection
from urllib.parse import urlencode

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connections
from django.test import Client
from websockets.sync.client import connect

from bench.servers import free_port
from tests.arsmagica.conftest import Table
from tests.browser.server import BASE_DIR, STARTUP_SECONDS, database_url

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
def tls_daphne(cert_dir, trust: ssl.SSLContext, log_path, static_root):
    """The Daphne that `make run TLS=1` starts (DEBUG off, its static files collected), on a free port and
    the test database; yields the port."""
    port = free_port()
    plan = make("-n", "run", "TLS=1", f"PORT={port}", f"CERT_DIR={cert_dir}")
    assert plan.returncode == 0, plan.stderr
    daphne = shlex.split(plan.stdout.splitlines()[-1])  # the last step of `make run` is the server
    keys = f"privateKey={cert_dir}/key.pem:certKey={cert_dir}/cert.pem"
    assert f"ssl:{port}:{keys}:interface=127.0.0.1" in daphne
    env = dict(os.environ, DATABASE_URL=database_url(connections["default"].settings_dict))
    while "=" in daphne[0]:  # the variables the Makefile gives the server: BASE_URL=https://...
        name, _, value = daphne.pop(0).partition("=")
        env[name] = value
    assert env["BASE_URL"] == f"https://127.0.0.1:{port}"
    env.update(DEBUG="false", STATIC_ROOT=str(static_root), DJANGO_SETTINGS_MODULE="config.settings")
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


def https_log_in(port: int, trust: ssl.SSLContext, username: str, password: str) -> tuple[str, str]:
    """Log in over https as a browser does (the form's token, its cookie, the Origin a browser sends); the
    cookies the form's page and the answer set, as their Set-Cookie lines."""
    connection = HTTPSConnection("127.0.0.1", port, context=trust, timeout=10)
    try:
        connection.request("GET", "/accounts/login/")
        page = connection.getresponse()
        form_cookie = page.getheader("Set-Cookie")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode()).group(1)
        cookie = form_cookie.split(";")[0]
        body = urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password})
        origin = f"https://127.0.0.1:{port}"
        headers = {"Cookie": cookie, "Origin": origin, "Referer": f"{origin}/accounts/login/",
                   "Content-Type": "application/x-www-form-urlencoded"}
        connection.request("POST", "/accounts/login/", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 302 and answer.getheader("Location") == "/sagas/", answer.status
        cookies = answer.headers.get_all("Set-Cookie")
        return form_cookie, next(cookie for cookie in cookies if cookie.startswith("sessionid="))
    finally:
        connection.close()


def test_the_tls_endpoint_serves_the_login_page_and_a_signed_in_socket(
    certificate, tmp_path, collected_static
):
    table = Table()
    browser = Client()
    browser.force_login(table.alice)
    # a password the server's own hasher reads (this process hashes with MD5 first: tests/conftest.py)
    table.bob.password = make_password("bob's own long password", hasher="pbkdf2_sha256")
    table.bob.save(update_fields=["password"])
    with tls_daphne(tmp_path, certificate, tmp_path / "daphne.log", collected_static) as port:
        status, page = https_get(port, certificate, "/accounts/login/")
        assert status == 200 and 'name="password"' in page

        # Logging in over https at the LAN address works with no CSRF_TRUSTED_ORIGINS (the browser's Origin
        # is the host it asked), and the cookies go over https only.
        csrf_cookie, session_cookie = https_log_in(port, certificate, "bob", "bob's own long password")
        assert csrf_cookie.startswith("csrftoken=") and "Secure" in csrf_cookie
        assert session_cookie.startswith("sessionid=") and "Secure" in session_cookie

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


def test_make_certs_certificate_is_one_a_phone_installs_as_an_authority(tmp_path):
    """Android installs a file as a "CA certificate" (trusted for websites) only when its basicConstraints
    say it is one; iOS takes none valid longer than 825 days, and wants the server's purpose named."""
    from cryptography import x509
    from cryptography.x509.oid import ExtendedKeyUsageOID

    made = make("cert", f"CERT_DIR={tmp_path}", "HOST_IP=192.168.1.20")
    assert made.returncode == 0, made.stdout + made.stderr
    cert = x509.load_pem_x509_certificate((tmp_path / "cert.pem").read_bytes())
    constraints = cert.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert [str(ip) for ip in names.get_values_for_type(x509.IPAddress)] == ["192.168.1.20", "127.0.0.1"]
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    purposes = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(purposes) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert (cert.not_valid_after_utc - cert.not_valid_before_utc).days <= 825
    assert stat.S_IMODE((tmp_path / "key.pem").stat().st_mode) == 0o600
