from django.test import Client

from campaign.models import Membership

from .conftest import PASSWORD


def test_dave_opens_the_invite_and_joins_as_a_player(saga, as_dave, dave):
    url = f"/join/{saga.invite_token}/"
    response = as_dave.get(url)
    assert response.status_code == 200
    assert "Sir Boris and the bandits" in response.content.decode()
    assert "Join as player" in response.content.decode()
    assert not Membership.objects.filter(saga=saga, user=dave).exists()  # opening the link joins nothing
    response = as_dave.post(url)
    assert response.status_code == 302 and response.url == f"/sagas/{saga.pk}/"
    assert Membership.objects.get(saga=saga, user=dave).role == "player"
    assert as_dave.get(f"/sagas/{saga.pk}/").status_code == 200


def test_members_go_straight_to_the_saga(saga, as_bob, as_alice, alice):
    url = f"/join/{saga.invite_token}/"
    assert as_bob.get(url).url == f"/sagas/{saga.pk}/"
    assert as_alice.post(url).url == f"/sagas/{saga.pk}/"
    assert Membership.objects.get(saga=saga, user=alice).role == "storyguide"
    assert saga.memberships.count() == 3


def test_a_stranger_logs_in_and_comes_back_to_the_invite(saga, dave):
    client = Client()
    url = f"/join/{saga.invite_token}/"
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next=/join/{saga.invite_token}/"
    login_page = client.get(response.url).content.decode()
    assert f"/accounts/signup/?next=/join/{saga.invite_token}/" in login_page
    response = client.post("/accounts/login/", {"username": "dave", "password": PASSWORD, "next": url})
    assert response.url == url
    client.post(url)
    assert saga.memberships.filter(user=dave, role="player").exists()


def test_a_newcomer_signs_up_and_comes_back_to_the_invite(saga):
    client = Client()
    url = f"/join/{saga.invite_token}/"
    response = client.post(
        "/accounts/signup/", {"username": "erin", "password1": PASSWORD, "password2": PASSWORD, "next": url}
    )
    assert response.url == url
    assert client.get(url).status_code == 200
    client.post(url)
    assert saga.memberships.filter(user__username="erin", role="player").exists()


def test_anonymous_post_to_an_invite_joins_nobody(saga):
    response = Client().post(f"/join/{saga.invite_token}/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert saga.memberships.count() == 3


def test_a_wrong_token_is_404(saga, as_dave):
    assert as_dave.get("/join/not-a-token/").status_code == 404
    assert Client().get("/join/not-a-token/").status_code == 404


def test_the_invite_takes_only_get_and_post(saga, as_dave):
    assert as_dave.put(f"/join/{saga.invite_token}/").status_code == 405
