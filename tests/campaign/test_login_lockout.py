"""Failed logins are throttled per username and address (django-axes), with a plain page, never a 500."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.urls import reverse

from campaign.lockout import wait_words
from tests.personas import PASSWORD

pytestmark = pytest.mark.django_db

HOME = {"REMOTE_ADDR": "203.0.113.7"}
ELSEWHERE = {"REMOTE_ADDR": "198.51.100.9"}


@pytest.fixture(autouse=True)
def axes_on(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)


def log_in(client, username, password, where=HOME):
    return client.post(reverse("login"), {"username": username, "password": password}, **where)


def test_five_wrong_passwords_lock_that_username_from_that_address(client, player):
    for _ in range(4):
        response = log_in(client, "alice", "not-the-password")
        assert response.status_code == 200
        assert "That username and password do not match" in response.content.decode()
    locked = log_in(client, "alice", "not-the-password")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Too many failed logins" in page
    assert "failed to log in 5 times from your address" in page
    assert "Try again in 15 minutes." in page
    assert "Traceback" not in page
    right_password_too_soon = log_in(client, "alice", PASSWORD)
    assert right_password_too_soon.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lock_is_per_address_so_the_player_still_logs_in_from_elsewhere(client, player):
    for _ in range(5):
        log_in(client, "alice", "not-the-password")
    response = log_in(client, "alice", PASSWORD, where=ELSEWHERE)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


def test_after_the_cool_off_the_right_password_logs_in_and_clears_the_count(client, player):
    for _ in range(5):
        log_in(client, "alice", "not-the-password")
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=15, seconds=1))
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert response.url == reverse("saga_list")  # "My sagas", not the front page
    assert client.session["_auth_user_id"] == str(player.pk)
    assert not AccessAttempt.objects.filter(username="alice", failures_since_start__gt=0).exists()


def test_signing_up_logs_in_with_axes_on(client):
    response = client.post(
        reverse("signup"),
        {"username": "erin", "password1": "tallow-and-vellum-42", "password2": "tallow-and-vellum-42"},
        **HOME,
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.parametrize(
    ("cool_off", "words"),
    [
        (timedelta(minutes=15), "15 minutes"),
        (timedelta(minutes=1), "1 minute"),
        (timedelta(hours=1), "1 hour"),
        (timedelta(minutes=90), "1 hour 30 minutes"),
        (timedelta(hours=2, minutes=1), "2 hours 1 minute"),
        (timedelta(seconds=5), "1 minute"),
    ],
)
def test_the_wait_is_said_in_words(cool_off, words):
    assert wait_words(cool_off) == words
