"""A played Ars Magica saga and a played d6 saga (the migration test's games), and their archives."""

import copy
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_migrations import play_ars_magica_round, play_d6_fight_and_chase


@pytest.fixture
def ars(db, monkeypatch):
    return play_ars_magica_round(monkeypatch)


@pytest.fixture
def d6(db, monkeypatch):
    return play_d6_fight_and_chase(monkeypatch)


def archive_of(saga, user) -> bytes:
    """The archive (format 2) as `user` downloads it."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_archive_json", args=[saga.pk]))
    assert response.status_code == 200 and response.streaming
    return b"".join(response.streaming_content)


def archive_data(saga, user) -> dict:
    return json.loads(archive_of(saga, user))


_ARCHIVES: dict[str, bytes] = {}


@pytest.fixture
def ars_archive(db, monkeypatch) -> dict:
    """The storyguide's archive of the played Ars Magica saga, on an instance without it (a fresh one):
    played once for the session, then handed out as a fresh copy to each test."""
    if "ars" not in _ARCHIVES:
        table = play_ars_magica_round(monkeypatch)
        _ARCHIVES["ars"] = archive_of(table.saga, table.storyguide)
        table.saga.delete()
        from django.contrib.auth import get_user_model

        get_user_model().objects.all().delete()
    return copy.deepcopy(json.loads(_ARCHIVES["ars"]))
