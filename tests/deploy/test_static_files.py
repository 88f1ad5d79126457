"""Static files by ServeStatic: hashed, compressed and cached for a year in production; tricks get 404."""

import json

import pytest
from django.test import Client

from .profile import manage, profile_env

PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"},
}
TRICKS = [
    "/static/..%2f..%2fconfig/settings.py",
    "/static/../manage.py",
    "/static/css/..%2f..%2f..%2fmanage.py",
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/css\\..\\..\\manage.py",
    "/static/css/covenant.css%00.js",
]


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """collectstatic run with the production profile into a fresh STATIC_ROOT."""
    root = tmp_path_factory.mktemp("static")
    result = manage("collectstatic", "--noinput", env=profile_env(STATIC_ROOT=str(root)))
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def production(settings, collected):
    settings.DEBUG = False
    settings.STATIC_ROOT = collected
    settings.STORAGES = PRODUCTION_STORAGES
    return json.loads((collected / "staticfiles.json").read_text())["paths"]


def test_collectstatic_writes_hashed_and_compressed_copies(collected):
    hashed = json.loads((collected / "staticfiles.json").read_text())["paths"]["css/covenant.css"]
    assert hashed != "css/covenant.css" and hashed.startswith("css/covenant.") and hashed.endswith(".css")
    assert (collected / hashed).is_file()
    assert (collected / f"{hashed}.gz").is_file()
    assert (collected / f"{hashed}.br").is_file()


def test_a_hashed_file_is_cached_for_a_year_and_sent_compressed(production):
    hashed = production["css/covenant.css"]
    response = Client().get(f"/static/{hashed}", HTTP_ACCEPT_ENCODING="gzip, br", secure=True)
    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=315360000, public, immutable"
    assert response["Content-Encoding"] == "br"
    assert response["Content-Type"].startswith("text/css")


def test_an_unhashed_name_is_cached_briefly(production):
    response = Client().get("/static/css/covenant.css", secure=True)
    assert response.status_code == 200
    assert response["Cache-Control"] == "max-age=60, public"


@pytest.mark.parametrize("path", TRICKS)
def test_a_path_trick_is_404_in_production(production, path):
    response = Client().get(path, secure=True)
    assert response.status_code == 404


@pytest.mark.parametrize("path", TRICKS)
def test_a_path_trick_is_404_in_development_too(settings, path):
    settings.DEBUG = True
    response = Client().get(path)
    assert response.status_code == 404


def test_development_serves_the_apps_files_without_collectstatic(settings):
    settings.DEBUG = True
    response = Client().get("/static/css/covenant.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert int(response["Content-Length"]) > 1000
