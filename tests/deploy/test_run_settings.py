"""`make run`'s profile, as config.settings reads it from an environment with nothing of Covenant's set (issue
35, item 1): DEBUG off, the install's own secret key (config/secret_key.py: made once, mode 0600, reused),
the hosts it was given, HTTPS switches only where it serves HTTPS; and the production profile's HTTPS
defaults, behind its TLS proxy, kept."""

import json
import os
import stat
import threading

import pytest

from config.env import BadEnvironment, env_site_url
from config.secret_key import read_or_make

from .profile import manage, profile_env

SHOWN = (
    "DEBUG SECRET_KEY ALLOWED_HOSTS SECURE_SSL_REDIRECT SESSION_COOKIE_SECURE CSRF_COOKIE_SECURE "
    "SECURE_HSTS_SECONDS CSRF_TRUSTED_ORIGINS"
).split()


def settings_with(tmp_path, **variables: str) -> dict:
    """config.settings as a fresh process reads them from PATH, HOME, a database in tmp_path, the install's
    key file in tmp_path, and `variables` (nothing else of this process's environment)."""
    env = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["SECRET_KEY_FILE"] = str(tmp_path / "secret_key")
    env.update(variables)
    code = (
        "from django.conf import settings as s; import json; "
        f"print(json.dumps({{n: getattr(s, n) for n in {SHOWN!r}}}))"
    )
    result = manage("shell", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])  # after Django's "N objects imported automatically"


def test_with_nothing_set_it_is_make_runs_server_debug_off_plain_http_its_own_key(tmp_path):
    first = settings_with(tmp_path)
    assert first["DEBUG"] is False
    assert first["SECURE_SSL_REDIRECT"] is False and first["SECURE_HSTS_SECONDS"] == 0
    assert first["SESSION_COOKIE_SECURE"] is False and first["CSRF_COOKIE_SECURE"] is False
    assert first["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]", "testserver"]
    key_file = tmp_path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert first["SECRET_KEY"] == key_file.read_text().strip() and len(first["SECRET_KEY"]) >= 50
    assert settings_with(tmp_path)["SECRET_KEY"] == first["SECRET_KEY"]  # the next start reuses it


def test_a_secret_key_set_wins_and_no_file_is_made(tmp_path):
    assert settings_with(tmp_path, SECRET_KEY="k" * 60)["SECRET_KEY"] == "k" * 60
    assert not (tmp_path / "secret_key").exists()


def test_the_lan_address_it_was_given_is_a_host_it_answers_to(tmp_path):
    lan = settings_with(tmp_path, BASE_URL="http://192.168.1.20:8000")
    assert "192.168.1.20" in lan["ALLOWED_HOSTS"] and "localhost" in lan["ALLOWED_HOSTS"]
    assert lan["SESSION_COOKIE_SECURE"] is False and lan["SECURE_SSL_REDIRECT"] is False
    assert "[::1]" in settings_with(tmp_path, BASE_URL="http://[::1]:8123")["ALLOWED_HOSTS"]
    named = settings_with(tmp_path, BASE_URL="http://192.168.1.20:8000", ALLOWED_HOSTS="covenant.lan")
    assert named["ALLOWED_HOSTS"] == ["covenant.lan"]  # set explicitly, it wins


def test_served_over_https_itself_its_cookies_are_secure_and_still_no_hsts(tmp_path):
    tls = settings_with(tmp_path, BASE_URL="https://192.168.1.20:8443")
    assert tls["SESSION_COOKIE_SECURE"] is True and tls["CSRF_COOKIE_SECURE"] is True
    assert "192.168.1.20" in tls["ALLOWED_HOSTS"]
    # HSTS would forbid clicking through the self-signed certificate's warning; nothing listens on plain HTTP.
    assert tls["SECURE_HSTS_SECONDS"] == 0 and tls["SECURE_SSL_REDIRECT"] is False


def test_the_production_profile_keeps_its_https_defaults(tmp_path):
    database = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    production = settings_with(tmp_path, **{**profile_env(), "DATABASE_URL": database})
    assert production["DEBUG"] is False and production["SECURE_SSL_REDIRECT"] is True
    assert production["SESSION_COOKIE_SECURE"] is True and production["SECURE_HSTS_SECONDS"] == 31_536_000
    assert production["ALLOWED_HOSTS"] == ["covenant.example"]
    assert not (tmp_path / "secret_key").exists()  # its SECRET_KEY is set


@pytest.mark.parametrize("value", ["192.168.1.20:8000", "ftp://192.168.1.20/", "http://", "http://[::1"])
def test_a_base_url_that_is_no_address_is_refused_in_one_line(tmp_path, value):
    env = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    env.update(BASE_URL=value, SECRET_KEY_FILE=str(tmp_path / "secret_key"))
    result = manage("check", env=env)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "Covenant will not start: BASE_URL must be an address such as http://192.168.1.20:8000, "
        f"not {value!r}"
    )


def test_a_key_file_others_may_read_is_refused_in_one_line(tmp_path):
    key_file = tmp_path / "secret_key"
    key_file.write_text("k" * 60)
    key_file.chmod(0o644)
    env = {name: os.environ[name] for name in ("PATH", "HOME") if name in os.environ}
    result = manage("check", env={**env, "SECRET_KEY_FILE": str(key_file)})
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"Covenant will not start: the secret key file {key_file} can be read by others (mode 0644): "
        f"chmod 600 {key_file}"
    )


def test_a_key_file_that_cannot_be_read_is_refused_with_the_way_out(tmp_path):
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    way_out = r"cannot read the secret key file .*\(Not a directory\): set SECRET_KEY, or SECRET_KEY_FILE"
    with pytest.raises(BadEnvironment, match=way_out):
        read_or_make(not_a_folder / "secret_key")


def test_a_short_key_file_is_refused(tmp_path):
    key_file = tmp_path / "secret_key"
    key_file.write_text("short\n")
    key_file.chmod(0o600)
    with pytest.raises(BadEnvironment, match="holds no key of 50 characters or more: delete it"):
        read_or_make(key_file)


def test_starts_at_the_same_moment_agree_on_one_key(tmp_path):
    key_file, keys = tmp_path / "secret_key", []
    starts = [threading.Thread(target=lambda: keys.append(read_or_make(key_file))) for _ in range(8)]
    for start in starts:
        start.start()
    for start in starts:
        start.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["secret_key"]  # no draft left behind


def test_the_address_given_is_read_as_a_host():
    os.environ["COVENANT_TEST_URL"] = "https://[fe80::1]:8443/"
    try:
        assert env_site_url("COVENANT_TEST_URL") == ("https", "[fe80::1]")
    finally:
        del os.environ["COVENANT_TEST_URL"]
    assert env_site_url("COVENANT_TEST_URL") is None
