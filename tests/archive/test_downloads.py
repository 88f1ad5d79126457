"""Issue 10, item 10: every export is a download, an attachment named for its saga (and encounter,
when filtered to one) and the day it was made."""

from datetime import date
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from combat.archive import downloads
from combat.archive.downloads import file_name

pytestmark = pytest.mark.django_db

EXPORTS = [
    ("saga_history_json", "history.json"),
    ("saga_archive_json", "archive.json"),
    ("saga_recap", "recap.md"),
]


def downloaded(saga, user, url_name, **query):
    client = Client()
    client.force_login(user)
    response = client.get(reverse(url_name, args=[saga.pk]), query)
    assert response.status_code == 200
    return response


@pytest.mark.parametrize(("url_name", "what"), EXPORTS)
@pytest.mark.parametrize("who", ["storyguide", "alice"])
def test_every_export_is_an_attachment_named_for_the_saga_and_the_day(ars, monkeypatch, url_name, what, who):
    monkeypatch.setattr(downloads.timezone, "localdate", lambda: date(2026, 11, 24))
    response = downloaded(ars.saga, getattr(ars, who), url_name)
    assert response["Content-Disposition"] == f'attachment; filename="test-saga-2026-11-24-{what}"'


@pytest.mark.parametrize(("url_name", "what"), [EXPORTS[0], EXPORTS[2]])
def test_an_export_filtered_to_one_encounter_names_it(ars, url_name, what):
    encounter = ars.saga.encounters.get(name="Forest road")
    response = downloaded(ars.saga, ars.storyguide, url_name, encounter=str(encounter.pk))
    day = response["Content-Disposition"].split("forest-road-")[1][:10]
    assert date.fromisoformat(day)
    assert response["Content-Disposition"] == f'attachment; filename="test-saga-forest-road-{day}-{what}"'


def test_a_file_name_is_plain_ascii_whatever_the_names():
    saga = SimpleNamespace(name="Æthelred’s «saga» / ../../etc")
    encounter = SimpleNamespace(name="☠☠☠")
    name = file_name(saga, "recap.md", encounter, date(2026, 11, 24))
    assert name == "thelreds-saga-etc-encounter-2026-11-24-recap.md"
    assert file_name(SimpleNamespace(name="x" * 300), "archive.json", day=date(2026, 1, 2)).startswith(
        "x" * 60 + "-2026"
    )
