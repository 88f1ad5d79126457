"""Locked out, back in without email: the storyguide's one-time password link for a player of the saga,
end to end through the test client; and Django's email reset where the host has mail."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.db.models import F
from django.test import Client
from django.urls import reverse

from campaign import resets, services
from campaign.models import Membership, ResetLink
from campaign.sent_once import FIELD, fresh_key
from combat.models import SagaRecord
from tests.coinduel import KEY
from tests.personas import PASSWORD

NEW = "a-fresh-candle-at-vespers"
ROOT = Path(__file__).resolve().parents[2]


def link_page(saga, user) -> str:
    return reverse("reset_link", args=[saga.pk, user.pk])


def make_link(client, saga, user) -> str:
    """The storyguide's two clicks: open the player's password-link page, make the link; the URL shown."""
    response = client.post(link_page(saga, user), {FIELD: fresh_key()})
    assert response.status_code == 302 and response.url == link_page(saga, user)
    page = client.get(response.url).content.decode()
    (url,) = re.findall(r'id="reset-url" value="([^"]+)"', page)
    return url.removeprefix("http://testserver")


def set_password(client, url, password=NEW):
    return client.post(url, {"new_password1": password, "new_password2": password})


def logs_in(username, password) -> bool:
    return Client().post(reverse("login"), {"username": username, "password": password}).status_code == 302


def test_the_members_list_offers_the_storyguide_a_link_for_each_player(saga, as_storyguide, as_player):
    page = as_storyguide.get(f"/sagas/{saga.pk}/").content.decode()
    assert 'data-testid="reset-link-alice"' in page and 'data-testid="reset-link-bob"' in page
    assert 'data-testid="reset-link-sg"' not in page  # her own is the host's set_password
    assert "reset-link-" not in as_player.get(f"/sagas/{saga.pk}/").content.decode()


def test_a_locked_out_player_gets_back_in_through_the_link_and_lands_on_the_saga(saga, player, as_storyguide):
    url = make_link(as_storyguide, saga, player)
    assert url.startswith("/accounts/reset/")
    guest = Client()
    page = guest.get(url)
    assert page.status_code == 200 and "<b>alice</b>" in page.content.decode()
    response = set_password(guest, url)
    assert response.status_code == 302 and response.url == f"/sagas/{saga.pk}/"
    assert "Welcome back, alice" in guest.get(response.url).content.decode()
    assert logs_in("alice", NEW) and not logs_in("alice", PASSWORD)


def test_the_link_is_shown_once(saga, player, as_storyguide):
    make_link(as_storyguide, saga, player)
    again = as_storyguide.get(link_page(saga, player)).content.decode()
    assert "reset-url" not in again and "Make a password link" in again


def test_a_second_use_is_refused_with_a_clear_message_even_with_the_same_password(
    saga, player, as_storyguide
):
    url = make_link(as_storyguide, saga, player)
    assert set_password(Client(), url, PASSWORD).status_code == 302  # the same password as before
    for answer in (Client().get(url), set_password(Client(), url, "someone-else-got-the-link")):
        assert answer.status_code == 410
        assert "This password link was used already: each link works once." in answer.content.decode()
    assert logs_in("alice", PASSWORD)


def test_a_link_expires_after_the_hours_the_setting_gives(saga, player, as_storyguide, settings):
    settings.RESET_LINK_HOURS = 24
    url = make_link(as_storyguide, saga, player)
    link = ResetLink.objects.get()
    assert link.expires_at - link.created_at == timedelta(hours=24)
    assert Client().get(url).status_code == 200
    day = timedelta(hours=24, seconds=1)
    ResetLink.objects.update(created_at=F("created_at") - day, expires_at=F("expires_at") - day)
    for answer in (Client().get(url), set_password(Client(), url)):
        assert answer.status_code == 410
        assert "This password link has expired: a link works for 24 hours." in answer.content.decode()
    assert logs_in("alice", PASSWORD)


def test_the_link_sets_its_own_users_password_whoever_opens_it(
    saga, player, second_player, as_storyguide, as_second_player
):
    url = make_link(as_storyguide, saga, player)
    assert "<b>alice</b>" in as_second_player.get(url).content.decode()
    set_password(as_second_player, url)
    assert logs_in("alice", NEW) and logs_in("bob", PASSWORD)
    assert as_second_player.session["_auth_user_id"] == str(player.pk)  # the browser is the player's now


@pytest.mark.parametrize("change", ["another link's id", "another nonce", "a cut token"])
def test_a_token_that_was_tampered_with_opens_nothing(saga, player, second_player, as_storyguide, change):
    url = make_link(as_storyguide, saga, player)
    other = make_link(as_storyguide, saga, second_player)
    token = url.removeprefix("/accounts/reset/").rstrip("/")
    link_id, _ = signing.loads(token, salt=resets.SALT)
    forged = {
        "another link's id": signing.dumps([link_id + 1, "x" * 32], salt=resets.SALT),
        "another nonce": signing.dumps([link_id, "x" * 32], salt=resets.SALT),
        "a cut token": token[:-3],
    }[change]
    answer = set_password(Client(), f"/accounts/reset/{forged}/")
    assert answer.status_code == 404 and "This is not a working password link." in answer.content.decode()
    assert logs_in("alice", PASSWORD) and logs_in("bob", PASSWORD)
    assert Client().get(other).status_code == 200


def test_a_newer_link_replaces_the_older(saga, player, as_storyguide):
    old = make_link(as_storyguide, saga, player)
    new = make_link(as_storyguide, saga, player)
    answer = Client().get(old)
    assert answer.status_code == 410 and "A newer password link was made for you" in answer.content.decode()
    assert Client().get(new).status_code == 200


def test_the_storyguide_of_another_saga_is_refused(saga, player, second_player, stranger, as_stranger):
    theirs = services.create_saga(stranger, name="Elsewhere", rule_system=KEY)
    Membership.objects.create(saga=theirs, user=player, role=Membership.Role.PLAYER)
    assert as_stranger.get(link_page(saga, player)).status_code == 404
    assert as_stranger.post(link_page(saga, player)).status_code == 404
    assert (
        as_stranger.post(link_page(theirs, second_player)).status_code == 404
    )  # the second player does not play in the stranger's saga
    assert not ResetLink.objects.exists() and not SagaRecord.objects.exists()


def test_a_player_cannot_make_a_link(saga, second_player, as_player):
    assert as_player.post(link_page(saga, second_player)).status_code == 403
    assert not ResetLink.objects.exists()


def test_no_link_for_the_storyguide_or_for_someone_who_runs_a_saga(
    saga, storyguide, second_player, as_storyguide
):
    assert as_storyguide.post(link_page(saga, storyguide)).status_code == 404
    services.create_saga(second_player, name="Carol's own", rule_system=KEY)
    page = as_storyguide.get(link_page(saga, second_player)).content.decode()
    assert "bob runs a saga of their own" in page and "disabled" in page
    response = as_storyguide.post(link_page(saga, second_player), {FIELD: "r" * 20})
    assert response.status_code == 422 and "bob runs a saga of their own" in response.content.decode()
    assert not ResetLink.objects.exists() and not SagaRecord.objects.exists()


def test_a_repeated_click_makes_one_link(saga, player, as_storyguide):
    for _ in range(2):
        as_storyguide.post(link_page(saga, player), {FIELD: "SameKeyForBothClicks1"})
    assert ResetLink.objects.count() == 1 and SagaRecord.objects.count() == 1


def test_the_history_says_a_link_was_made_and_never_shows_it(saga, player, as_storyguide, as_player):
    url = make_link(as_storyguide, saga, player)
    token = url.removeprefix("/accounts/reset/").rstrip("/")
    _, nonce = signing.loads(token, salt=resets.SALT)
    record = SagaRecord.objects.get()
    assert (
        record.kind == "reset_link_made"
        and record.payload == {"player": "alice"}
        and record.actor.username == "sg"
    )
    for client in (as_storyguide, as_player):
        page = client.get(reverse("saga_history", args=[saga.pk])).content.decode()
        assert "made a one-time password link for <b>alice</b>" in page
        exports = [page]
        for name in ("saga_history_json", "saga_archive_json"):
            response = client.get(reverse(name, args=[saga.pk]))
            exports.append(
                b"".join(response.streaming_content if response.streaming else [response.content]).decode()
            )
        assert '"player": "alice"' in exports[1]
        for text in exports:
            assert (
                token not in text and nonce not in text and ResetLink.objects.get().nonce_digest not in text
            )


def test_the_link_lifts_a_login_lockout(saga, player, as_storyguide, settings):
    settings.AXES_ENABLED = True
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post(reverse("login"), {"username": "alice", "password": "not-it"})
    assert Client().post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code == 429
    set_password(Client(), make_link(as_storyguide, saga, player))
    assert not AccessAttempt.objects.filter(username="alice").exists()
    assert logs_in("alice", NEW)


def test_a_refused_new_password_is_said_beside_its_field_and_keeps_the_link(saga, player, as_storyguide):
    url = make_link(as_storyguide, saga, player)
    response = set_password(Client(), url, "abc")
    page = response.content.decode()
    assert response.status_code == 200 and 'id="id_new_password2_error"' in page and "too short" in page
    assert ResetLink.objects.get().used_at is None and set_password(Client(), url).status_code == 302


def test_without_email_the_log_in_page_says_to_ask_the_storyguide(db, settings):
    settings.PASSWORD_RESET_BY_EMAIL = False
    page = Client().get(reverse("login")).content.decode()
    assert "Ask your storyguide for a one-time link" in page and "/accounts/password-reset/" not in page
    assert Client().get("/accounts/password-reset/").status_code == 404
    assert "email" not in Client().get(reverse("signup")).content.decode().lower()


def test_with_email_the_log_in_page_offers_djangos_email_reset(player, settings):
    settings.PASSWORD_RESET_BY_EMAIL = True
    page = Client().get(reverse("login")).content.decode()
    assert 'href="/accounts/password-reset/"' in page
    player.email = "alice@example.org"
    player.save()
    client = Client()
    response = client.post("/accounts/password-reset/", {"email": "alice@example.org"})
    assert response.status_code == 302 and response.url == "/accounts/password-reset/sent/"
    (message,) = mail.outbox
    (link,) = re.findall(r"http://testserver(/accounts/password-reset/\S+/)", message.body)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.url == "/accounts/password-reset/done/"
    assert logs_in("alice", NEW)


def test_sign_up_asks_for_an_optional_email_only_where_email_resets_are_offered(db, settings):
    settings.PASSWORD_RESET_BY_EMAIL = True
    data = {"username": "erin", "email": "erin@example.org", "password1": PASSWORD, "password2": PASSWORD}
    assert Client().post(reverse("signup"), data).status_code == 302
    assert get_user_model().objects.get(username="erin").email == "erin@example.org"


def test_no_page_a_player_or_guest_sees_names_a_shell_command():
    templates = [
        path
        for app in ("campaign", "combat", "arsmagica", "d6")
        for path in (ROOT / app / "templates").rglob("*")
        if path.is_file()
    ]
    assert templates
    assert not [path for path in templates if "manage.py" in path.read_text()]


def test_a_player_no_longer_in_the_saga_lands_on_their_sagas(saga, player, as_storyguide):
    url = make_link(as_storyguide, saga, player)
    Membership.objects.filter(saga=saga, user=player).delete()
    assert set_password(Client(), url).url == reverse("saga_list")
    assert logs_in("alice", NEW)
