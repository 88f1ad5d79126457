"""Issue 37: the signed-in user is read at each request with SQL compiled once a process
(campaign.backends.PreparedModelBackend), and everything Django's ModelBackend guarded still holds."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import backends
from tests.personas import PASSWORD

pytestmark = pytest.mark.django_db

PREPARED = "campaign.backends.PreparedModelBackend"


def signed_in(user) -> Client:
    """A client whose session is the user's, as logging in makes it."""
    client = Client()
    assert client.post(reverse("login"), {"username": user.username, "password": PASSWORD}).status_code == 302
    return client


def test_logging_in_names_the_prepared_backend_and_each_request_reads_the_user_once(player):
    client = signed_in(player)
    assert client.session[BACKEND_SESSION_KEY] == PREPARED
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("saga_list")).status_code == 200
    users = [query["sql"] for query in queries if 'FROM "auth_user"' in query["sql"]]
    assert len(users) == 1
    assert users[0] == backends._USER.compiled["default"][1] % (player.pk,)  # the SQL compiled once, again


def test_a_deactivated_account_is_signed_out_at_its_next_request(player):
    client = signed_in(player)
    assert client.get(reverse("saga_list")).status_code == 200
    type(player).objects.filter(pk=player.pk).update(is_active=False)
    response = client.get(reverse("saga_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_password_changed_elsewhere_signs_the_session_out(player):
    client = signed_in(player)
    player.set_password("another-long-password")
    player.save()
    response = client.get(reverse("saga_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_user_gone_from_the_database_is_nobody(player):
    client = signed_in(player)
    player.delete()
    response = client.get(reverse("saga_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_session_signed_in_before_through_djangos_backend_stays_signed_in(player):
    client = Client()
    client.force_login(player, backend="django.contrib.auth.backends.ModelBackend")
    assert client.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert client.get(reverse("saga_list")).status_code == 200


def test_a_wrong_password_is_checked_once_and_counted_once(player, monkeypatch, settings):
    settings.AXES_ENABLED = True
    checked = []
    original = ModelBackend.authenticate

    def noted(self, *args, **kwargs):
        checked.append(type(self).__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", noted)
    response = Client().post(reverse("login"), {"username": player.username, "password": "not-it"})
    assert response.status_code == 200 and "do not match" in response.content.decode()
    assert checked == ["PreparedModelBackend"]  # Django's own, listed after, does not hash it again
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.get(username=player.username).failures_since_start == 1
