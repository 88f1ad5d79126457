import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from campaign.management.commands.set_password import Command
from tests.personas import PASSWORD

User = get_user_model()


def test_anonymous_nav_offers_log_in_and_sign_up(db):
    response = Client().get("/")
    assert response.status_code == 200
    assert b'href="/accounts/login/"' in response.content
    assert b'href="/accounts/signup/"' in response.content
    assert b"My sagas" not in response.content


def test_logged_in_nav_shows_the_user_my_sagas_and_log_out(as_player):
    response = as_player.get("/")
    assert b"alice" in response.content
    assert b'href="/sagas/"' in response.content
    assert b'action="/accounts/logout/"' in response.content


def test_sign_up_creates_the_account_logs_in_and_goes_to_my_sagas(db):
    client = Client()
    assert client.get("/accounts/signup/").status_code == 200
    response = client.post(
        "/accounts/signup/", {"username": "erin", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302 and response.url == "/sagas/"
    assert User.objects.get(username="erin").check_password(PASSWORD)
    assert client.get("/sagas/").status_code == 200


def test_sign_up_follows_a_safe_next_only(db):
    response = Client().post(
        "/accounts/signup/",
        {"username": "erin", "password1": PASSWORD, "password2": PASSWORD, "next": "/join/abc/"},
    )
    assert response.url == "/join/abc/"
    response = Client().post(
        "/accounts/signup/",
        {"username": "finn", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.url == "/sagas/"


def test_sign_up_shows_why_a_password_is_refused(db):
    data = {"username": "erin", "password1": "abc", "password2": "abc"}
    response = Client().post("/accounts/signup/", data)
    assert response.status_code == 200
    assert b"too short" in response.content
    assert not User.objects.filter(username="erin").exists()


def test_signed_in_people_skip_the_sign_up_form(as_player):
    response = as_player.get("/accounts/signup/")
    assert response.status_code == 302 and response.url == "/sagas/"


def test_log_in_and_log_out_by_post(player):
    client = Client()
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/sagas/").status_code == 200
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/sagas/").status_code == 302


def test_log_in_with_a_wrong_password_says_so(player):
    response = Client().post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert b"do not match" in response.content


def test_set_password_from_the_option(player):
    out = io.StringIO()
    call_command("set_password", "alice", password="a-brand-new-secret", stdout=out)
    player.refresh_from_db()
    assert player.check_password("a-brand-new-secret")
    assert "Password for alice changed." in out.getvalue()


def test_set_password_from_stdin(player):
    call_command("set_password", "alice", stdin=io.StringIO("read-from-the-pipe\n"), stdout=io.StringIO())
    player.refresh_from_db()
    assert player.check_password("read-from-the-pipe")


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("alice", "short", "This password is too short"),
        ("alice", "password123", "This password is too common"),
        ("alice", "", "No password given"),
        ("nobody", "a-brand-new-secret", "No user named 'nobody'"),
    ],
)
def test_set_password_refuses_with_one_line_and_changes_nothing(player, username, password, message):
    with pytest.raises(CommandError) as error:
        call_command("set_password", username, password=password, stdout=io.StringIO())
    assert message in str(error.value)
    assert "\n" not in str(error.value)
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_set_password_exits_non_zero_on_the_command_line(player):
    """The path manage.py takes: run_from_argv prints the error on one line and exits 1."""
    stderr = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        Command(stderr=stderr).run_from_argv(["manage.py", "set_password", "alice", "--password", "short"])
    assert exit_info.value.code == 1
    assert stderr.getvalue().count("\n") == 1
    assert "too short" in stderr.getvalue()
