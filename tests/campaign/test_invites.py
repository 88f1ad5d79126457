from django.test import Client

from campaign.models import Membership
from tests.personas import PASSWORD


def test_a_stranger_opens_the_invite_and_joins_as_a_player(saga, as_stranger, stranger):
    url = f"/join/{saga.invite_token}/"
    response = as_stranger.get(url)
    assert response.status_code == 200
    assert "Sir Boris and the bandits" in response.content.decode()
    assert "Join as player" in response.content.decode()
    assert not Membership.objects.filter(saga=saga, user=stranger).exists()  # opening the link joins nothing
    response = as_stranger.post(url)
    assert response.status_code == 302 and response.url == f"/sagas/{saga.pk}/"
    assert Membership.objects.get(saga=saga, user=stranger).role == "player"
    assert as_stranger.get(f"/sagas/{saga.pk}/").status_code == 200


def test_members_go_straight_to_the_saga(saga, as_player, as_storyguide, storyguide):
    url = f"/join/{saga.invite_token}/"
    assert as_player.get(url).url == f"/sagas/{saga.pk}/"
    assert as_storyguide.post(url).url == f"/sagas/{saga.pk}/"
    assert Membership.objects.get(saga=saga, user=storyguide).role == "storyguide"
    assert saga.memberships.count() == 3


def test_the_invite_names_the_saga_and_its_storyguide_and_offers_both_ways_in(saga):
    url = f"/join/{saga.invite_token}/"
    response = Client().get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Sir Boris and the bandits" in page and "run by <b" in page and ">sg</b>" in page
    assert f'href="/accounts/signup/?next=/join/{saga.invite_token}/">Join as a new player</a>' in page
    assert f'href="/accounts/login/?next=/join/{saga.invite_token}/">I have an account</a>' in page
    assert "manage.py" not in page


def test_a_stranger_logs_in_through_the_invite_and_lands_on_the_saga_joined(saga, stranger):
    client = Client()
    url = f"/join/{saga.invite_token}/"
    login_page = client.get(f"/accounts/login/?next={url}").content.decode()
    assert "Then you join <b>Sir Boris and the bandits</b>, run by\nsg." in login_page
    assert f"/accounts/signup/?next=/join/{saga.invite_token}/" in login_page
    response = client.post("/accounts/login/", {"username": "charlie", "password": PASSWORD, "next": url})
    assert response.status_code == 302 and response.url == f"/sagas/{saga.pk}/"
    assert saga.memberships.filter(user=stranger, role="player").exists()
    page = client.get(response.url).content.decode()
    assert "You joined “Sir Boris and the bandits” as a player." in page
    assert 'data-testid="first-step"' in page and "Make your character" in page


def test_a_newcomer_signs_up_through_the_invite_and_lands_on_the_saga_joined(saga):
    client = Client()
    url = f"/join/{saga.invite_token}/"
    assert (
        "Then you join <b>Sir Boris and the bandits</b>"
        in client.get(f"/accounts/signup/?next={url}").content.decode()
    )
    response = client.post(
        "/accounts/signup/", {"username": "erin", "password1": PASSWORD, "password2": PASSWORD, "next": url}
    )
    assert response.status_code == 302 and response.url == f"/sagas/{saga.pk}/"
    assert saga.memberships.filter(user__username="erin", role="player").exists()
    assert 'data-testid="first-step"' in client.get(response.url).content.decode()


def test_a_member_logging_in_through_the_invite_keeps_their_role(saga, storyguide):
    client = Client()
    url = f"/join/{saga.invite_token}/"
    response = client.post("/accounts/login/", {"username": "sg", "password": PASSWORD, "next": url})
    assert response.url == f"/sagas/{saga.pk}/"
    assert saga.memberships.get(user=storyguide).role == "storyguide"
    assert 'data-testid="first-step"' not in client.get(response.url).content.decode()


def test_a_player_with_a_character_sees_no_first_step(saga, boris, as_player, as_second_player):
    assert 'data-testid="first-step"' not in as_player.get(f"/sagas/{saga.pk}/").content.decode()
    assert 'data-testid="first-step"' in as_second_player.get(f"/sagas/{saga.pk}/").content.decode()


def test_an_old_invite_in_next_joins_nothing(saga, stranger):
    old = saga.invite_token
    saga.invite_token = "replaced-token-0001"
    saga.save()
    response = Client().post(
        "/accounts/login/", {"username": "charlie", "password": PASSWORD, "next": f"/join/{old}/"}
    )
    assert response.url == f"/join/{old}/"  # which answers 404: the storyguide made a new link
    assert not saga.memberships.filter(user=stranger).exists()


def test_anonymous_post_to_an_invite_joins_nobody(saga):
    response = Client().post(f"/join/{saga.invite_token}/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert saga.memberships.count() == 3


def test_a_wrong_token_is_404(saga, as_stranger):
    assert as_stranger.get("/join/not-a-token/").status_code == 404
    assert Client().get("/join/not-a-token/").status_code == 404


def test_the_invite_takes_only_get_and_post(saga, as_stranger):
    assert as_stranger.put(f"/join/{saga.invite_token}/").status_code == 405
