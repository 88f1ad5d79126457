"""Covenant installs as a wheel: build the sdist from the checkout, the wheel from the sdist (as `python -m
build` does), install it in a fresh venv, run it there.

No network: both are built with --no-build-isolation (setuptools and wheel come from the `test`
extra) and installed with --no-deps. The fresh venv sees its dependencies (Django, Channels...) through
one .pth line naming this interpreter's site-packages; a directory added by a .pth line does not have
its own .pth files read, so the checkout's editable install stays invisible there, and every check
below first proves that `combat` is imported from the fresh venv.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
APPS = ("config", "campaign", "combat", "arsmagica", "d6")
# The whole site's own folders, at the top: the wheel's data files, which pip installs under share/covenant/.
SITE = ("templates", "static")
DATA = ".data/data/share/covenant/"
EXAMPLES = sorted((REPO / "docs" / "examples").glob("*.json"))


def _tracked(*paths: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *paths], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout
    return sorted(name for name in out.split("\0") if name)


def _run(args, *, cwd, env) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(
            f"{args} exited {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
        )
    return done


def _clean_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"}
        and not key.startswith("COV_CORE_")
        and key != "COVERAGE_PROCESS_START"
    }
    env["PYTHONNOUSERSITE"] = "1"
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(sdist, wheel, python of a fresh venv holding only the wheel, a working directory outside the
    checkout)."""
    root = tmp_path_factory.mktemp("packaging")
    # Build from the tracked files only: no stale build/ or untracked file can slip into the wheel, and
    # the checkout gets no build/ or egg-info written by this test.
    src = root / "src"
    for name in _tracked("."):
        if (REPO / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
    dist = root / "dist"
    sdist_of = "import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])"
    _run([sys.executable, "-c", sdist_of, str(dist)], cwd=src, env=_clean_env())
    (sdist,) = dist.glob("covenant-*.tar.gz")
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-q", "-w", str(dist), str(sdist)],
        cwd=root, env=_clean_env(),
    )
    (wheel,) = dist.glob("covenant-*.whl")

    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
         "-q", str(wheel)],
        cwd=root, env=_clean_env(),
    )
    purelib = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
             cwd=root, env=_clean_env()).stdout.strip()
    )
    ours = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()]
    (purelib / "_covenant_test_deps.pth").write_text(
        "".join(f"{path}\n" for path in dict.fromkeys(ours) if Path(path).is_dir())
    )
    outside = root / "elsewhere"
    outside.mkdir()
    return sdist, wheel, python, env_dir.resolve(), outside


def test_sdist_carries_every_app_file_and_the_sites_folders(installed):
    sdist, *_ = installed
    with tarfile.open(sdist) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    missing = sorted(set(_tracked(*APPS, *SITE)) - names)
    assert missing == []
    assert {"templates/base.html", "static/css/covenant.css", "static/js/live.js", "pyproject.toml"} <= names


def test_wheel_carries_every_app_file_and_nothing_else(installed):
    _, wheel, *_ = installed
    names = zipfile.ZipFile(wheel).namelist()
    # The site's folders are the wheel's data files: covenant-0.1.0.data/data/share/covenant/templates/...
    shipped = sorted(
        name.partition(DATA)[2] if DATA in name else name for name in names if ".dist-info/" not in name
    )
    tracked = _tracked(*APPS, *SITE)
    missing = sorted(set(tracked) - set(shipped))
    extra = sorted(set(shipped) - set(tracked))
    assert (missing, extra) == ([], []), "missing from the wheel, then in the wheel but not tracked"
    assert len(shipped) == len(tracked)
    # Spelled out, so a failure names what went missing.
    for needed in (
        "combat/migrations/0003_core_without_rule_systems.py",
        "d6/migrations/0002_players_act.py",
        "campaign/management/commands/set_password.py",
        "arsmagica/management/commands/load_demo.py",
        "d6/management/commands/load_demo_d6.py",
        "templates/base.html",
        "templates/registration/login.html",
        "templates/django/forms/widgets/select.html",
        "static/favicon.svg",
        "static/icons/favicon.ico",
        "static/js/live.js",
        "campaign/templates/campaign/home.html",
        "combat/static/css/combat.css",
        "d6/static/css/d6.css",
    ):
        assert needed in shipped
    outside = {"tests", "bench", "docs", "scripts", "manage.py", *SITE}  # the site's folders: data files only
    assert not [n for n in names if n.split("/")[0] in outside]
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))
    ).decode()
    assert "Requires-Python: >=3.11\n" in metadata


def test_encounter_files_resolve_from_the_wheel_as_from_the_checkout(installed):
    *_, python, env_dir, outside = installed
    env = _clean_env()  # no DJANGO_SETTINGS_MODULE: the command line needs no Django settings
    where = _run([str(python), "-c", "import combat; print(combat.__file__)"], cwd=outside, env=env)
    assert Path(where.stdout.strip()).resolve().is_relative_to(env_dir)
    assert EXAMPLES
    for example in EXAMPLES:
        args = ["-m", "combat.rules", "resolve", str(example)]
        theirs = _run([sys.executable, *args], cwd=REPO, env=env)
        ours = _run([str(python), *args], cwd=outside, env=env)
        assert ours.stdout == theirs.stdout, example.name
        assert ours.stdout.strip(), example.name


PROBE = """
import json
import django
django.setup()
import combat
from django.contrib.staticfiles import finders
from django.core.management import get_commands
from django.template.loader import get_template
print(json.dumps({
    "combat": combat.__file__,
    "templates": [get_template(name).origin.name for name in (
        "base.html", "registration/login.html", "django/forms/widgets/select.html", "sw.js",
        "combat/history.html", "arsmagica/play.html", "d6/table.html")],
    "static": [finders.find(name) for name in (
        "css/covenant.css", "css/combat.css", "css/d6.css",
        "js/live.js", "js/saga_live.js", "js/d6.js", "favicon.svg", "icons/favicon.ico",
    )],
    "commands": sorted(name for name, app in get_commands().items() if not app.startswith("django")),
}))
"""


def test_django_runs_from_the_wheel(installed, tmp_path):
    *_, python, env_dir, outside = installed
    env = _clean_env(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"
    )
    check = _run([str(python), "-m", "django", "check"], cwd=outside, env=env)
    assert "System check identified no issues" in check.stdout

    found = json.loads(_run([str(python), "-c", PROBE], cwd=outside, env=env).stdout)
    for path in [found["combat"], *found["templates"], *found["static"]]:
        assert path is not None
        assert Path(path).resolve().is_relative_to(env_dir), path
    assert {"load_demo", "load_demo_d6", "set_password"} <= set(found["commands"])

    # docs/deployment.md's step before Daphne (DEBUG off): collectstatic gathers the site's files too.
    collected = tmp_path / "collected"
    collect = ["-m", "django", "collectstatic", "--noinput", "-v", "0"]
    _run([str(python), *collect], cwd=outside, env={**env, "DEBUG": "false", "STATIC_ROOT": str(collected)})
    paths = json.loads((collected / "staticfiles.json").read_text())["paths"]
    site = {"css/covenant.css", "js/live.js", "icons/icon-512.png"}
    assert site | {"css/combat.css", "css/d6.css"} <= set(paths)

    # Every migration ships and applies, and none is missing for the models.
    _run([str(python), "-m", "django", "migrate", "--noinput", "-v", "0"], cwd=outside, env=env)
    _run([str(python), "-m", "django", "makemigrations", "--check", "--dry-run"], cwd=outside, env=env)
