"""`make run HOST=… PORT=…` prints the links of the address it serves, not the default one."""

import os
import subprocess
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command


def planned_commands(*variables: str) -> str:
    """What `make run` would run with those variables, without running it (make -n), whatever the shell
    exports."""
    env = {key: value for key, value in os.environ.items() if key not in ("HOST", "PORT", "BASE_URL")}
    return subprocess.run(
        ["make", "-n", "run", *variables],
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
    ],
)
def test_make_run_gives_the_demos_the_address_it_serves(variables, base):
    plan = planned_commands(*variables)
    assert f"manage.py load_demo --base-url {base}\n" in plan
    assert f"manage.py load_demo_d6 --base-url {base}\n" in plan


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["load_demo", "load_demo_d6"])
def test_the_demos_print_links_on_the_port_given(command):
    out = StringIO()
    call_command(command, "--base-url", "http://127.0.0.1:8123", stdout=out)
    assert "http://127.0.0.1:8123/encounters/" in out.getvalue() and ":8000" not in out.getvalue()
