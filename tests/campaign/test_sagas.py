import pytest
from django.test import Client

from campaign.models import Membership, Saga
from tests.coinduel import KEY


def test_my_sagas_lists_guided_and_played_sagas(saga, as_storyguide, as_player, as_stranger):
    assert b"Sir Boris and the bandits" in as_storyguide.get("/sagas/").content
    response = as_player.get("/sagas/")
    assert response.status_code == 200
    assert [s.name for s in response.context["played"]] == ["Sir Boris and the bandits"]
    assert response.context["guided"] == []
    assert b"Sir Boris and the bandits" not in as_stranger.get("/sagas/").content


def test_anonymous_people_are_sent_to_log_in(saga):
    client = Client()
    for url in ["/sagas/", "/sagas/new/", f"/sagas/{saga.pk}/"]:
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith("/accounts/login/?next=")


def test_a_stranger_creates_a_saga_and_becomes_its_storyguide(as_stranger, stranger):
    assert as_stranger.get("/sagas/new/").status_code == 200
    response = as_stranger.post(
        "/sagas/new/", {"name": "  Winter raid ", "rule_system": KEY, "physical_dice": "True"}
    )
    saga = Saga.objects.get()
    assert response.status_code == 302 and response.url == f"/sagas/{saga.pk}/"
    assert (saga.name, saga.rule_system, saga.physical_dice, saga.storyguide) == (
        "Winter raid",
        KEY,
        True,
        stranger,
    )
    assert Membership.objects.get(saga=saga).role == "storyguide"


def test_a_saga_without_a_name_is_refused_with_a_message(as_stranger):
    data = {"name": "  ", "rule_system": KEY, "physical_dice": "False"}
    response = as_stranger.post("/sagas/new/", data)
    assert response.status_code == 200
    assert "Give the saga a name." in response.content.decode()
    assert not Saga.objects.exists()


def test_the_storyguide_sees_invite_npcs_and_members(saga, bandit, boris, as_storyguide):
    response = as_storyguide.get(f"/sagas/{saga.pk}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert f"/join/{saga.invite_token}/" in page
    assert "Bandit" in page and "Sir Boris" in page
    assert "alice" in page and "bob" in page
    assert '<section id="encounters">' in page


def test_a_player_sees_characters_but_no_invite_and_no_npcs(saga, bandit, boris, as_player):
    response = as_player.get(f"/sagas/{saga.pk}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Sir Boris" in page
    assert saga.invite_token not in page
    assert "Bandit" not in page
    assert response.context["npcs"] == []


def test_outsiders_get_404_for_a_saga(saga, as_stranger):
    assert as_stranger.get(f"/sagas/{saga.pk}/").status_code == 404
    assert as_stranger.get("/sagas/999999/").status_code == 404


def test_saga_page_is_get_only(saga, as_storyguide):
    assert as_storyguide.post(f"/sagas/{saga.pk}/").status_code == 405


def test_storyguide_regenerates_the_invite(saga, as_storyguide):
    old = saga.invite_token
    response = as_storyguide.post(f"/sagas/{saga.pk}/invite/")
    assert response.status_code == 302
    saga.refresh_from_db()
    assert saga.invite_token != old
    assert as_storyguide.get(f"/join/{old}/").status_code == 404


@pytest.mark.parametrize(("who", "status"), [("as_player", 403), ("as_stranger", 404)])
def test_only_the_storyguide_regenerates_the_invite(saga, request, who, status):
    old = saga.invite_token
    assert request.getfixturevalue(who).post(f"/sagas/{saga.pk}/invite/").status_code == status
    saga.refresh_from_db()
    assert saga.invite_token == old


def test_regenerating_the_invite_needs_post(saga, as_storyguide):
    assert as_storyguide.get(f"/sagas/{saga.pk}/invite/").status_code == 405
