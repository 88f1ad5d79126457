"""`make run HOST=… PORT=…` prints the links of the address it serves, not the default one, and starts the
group's server (DEBUG off, the static files collected, BASE_URL told to the settings); `make dev` the
developer's (DEBUG on)."""

import os
import subprocess
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command


def planned_commands(*variables: str) -> str:
    """What `make run` would run with those variables, without running it (make -n), whatever the shell
    exports."""
    return plan("run", *variables)


def plan(target: str, *variables: str) -> str:
    """What `make TARGET` would run with those variables (make -n), whatever the shell exports."""
    unset = ("HOST", "PORT", "BASE_URL", "HOST_IP", "STATIC_ROOT", "DEBUG", "MAKEFLAGS", "MAKELEVEL")
    env = {key: value for key, value in os.environ.items() if key not in unset}
    return subprocess.run(
        ["make", "--no-print-directory", "-n", target, *variables],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.mark.parametrize(
    ("variables", "base"),
    [
        ((), "http://127.0.0.1:8000"),
        (("PORT=8123",), "http://127.0.0.1:8123"),
        (("HOST=::1", "PORT=8123"), "http://[::1]:8123"),
        (("HOST=0.0.0.0", "BASE_URL=http://192.168.1.20:8123"), "http://192.168.1.20:8123"),
        (("HOST=0.0.0.0", "HOST_IP=192.168.1.20"), "http://192.168.1.20:8000"),  # every interface: the LAN's
    ],
)
def test_make_run_gives_the_demos_and_the_server_the_address_it_serves(variables, base):
    commands = planned_commands(*variables)
    assert f"manage.py load_demo --base-url {base}\n" in commands
    assert f"manage.py load_demo_d6 --base-url {base}\n" in commands
    server = commands.splitlines()[-1]
    assert server.startswith(f"BASE_URL={base} .venv/bin/daphne "), server  # its host: ALLOWED_HOSTS
    assert "DEBUG" not in server  # off: config.settings' default


def test_make_run_collects_the_static_files_it_serves_when_they_changed(tmp_path):
    fresh = planned_commands(f"STATIC_ROOT={tmp_path}")
    collect = "manage.py collectstatic --noinput --verbosity 0\n"
    assert f"STATIC_ROOT={tmp_path} .venv/bin/python {collect}" in fresh
    (tmp_path / "staticfiles.json").write_text("{}")  # newer than every static file and the install
    assert "collectstatic" not in planned_commands(f"STATIC_ROOT={tmp_path}")
    # A file of the site's static/ changed, or an app's own (make -W: as if it had just been written).
    for changed in ("static/css/covenant.css", "static/js/live.js", "combat/static/css/combat.css"):
        assert collect in planned_commands(f"STATIC_ROOT={tmp_path}", "-W", changed), changed


def test_make_run_tls_serves_https_at_the_lan_address_and_make_dev_has_debug_on():
    tls = plan("run-tls", "HOST_IP=192.168.1.20").splitlines()[-1]
    assert tls.startswith("BASE_URL=https://192.168.1.20:8443 .venv/bin/daphne -e 'ssl:8443:"), tls
    assert "interface=0.0.0.0" in tls
    dev = plan("dev").splitlines()
    assert dev[-1].startswith("DEBUG=true BASE_URL=http://127.0.0.1:8000 .venv/bin/daphne ")
    assert not any("collectstatic" in line for line in dev)


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["load_demo", "load_demo_d6"])
def test_the_demos_print_links_on_the_port_given(command):
    out = StringIO()
    call_command(command, "--base-url", "http://127.0.0.1:8123", stdout=out)
    assert "http://127.0.0.1:8123/encounters/" in out.getvalue() and ":8000" not in out.getvalue()
