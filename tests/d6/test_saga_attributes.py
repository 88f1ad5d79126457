"""A d6 saga's attribute names, set by its storyguide on the saga page: words only, for d6 sagas and their
storyguide alone."""

import pytest
from django.urls import reverse

from campaign import services as campaign_services
from campaign.sent_once import fresh_key
from d6.sheet import DEFAULT_ATTRIBUTES, saga_attributes
from tests.campaign.test_sent_once import keys_on


def test_storyguide_names_the_d6_attributes(d6_saga, as_storyguide):
    url = f"/sagas/{d6_saga.pk}/d6/attributes/"
    assert as_storyguide.get(url).status_code == 200
    response = as_storyguide.post(url, {"names": "Agility\nWits\nstamina\n\nWits"})
    assert response.status_code == 302
    d6_saga.refresh_from_db()
    # the storyguide's order is kept; the attributes the fatigue rules need are always there
    assert saga_attributes(d6_saga) == ["strength", "dexterity", "agility", "wits", "stamina"]


def test_d6_attribute_names_must_be_words(d6_saga, as_storyguide):
    response = as_storyguide.post(f"/sagas/{d6_saga.pk}/d6/attributes/", {"names": "str3ngth!"})
    assert response.status_code == 200
    assert "is not a usable attribute name" in response.content.decode()
    d6_saga.refresh_from_db()
    assert "str3ngth!" not in saga_attributes(d6_saga)


def test_d6_attributes_are_for_d6_sagas_and_their_storyguide(
    storyguide, d6_saga, as_storyguide, as_player, as_stranger
):
    saga = campaign_services.create_saga(storyguide, name="Another system's", rule_system="coinduel")
    assert as_storyguide.get(f"/sagas/{saga.pk}/d6/attributes/").status_code == 404
    assert as_player.get(f"/sagas/{d6_saga.pk}/d6/attributes/").status_code == 403
    assert as_stranger.get(f"/sagas/{d6_saga.pk}/d6/attributes/").status_code == 404
    assert as_storyguide.delete(f"/sagas/{d6_saga.pk}/d6/attributes/").status_code == 405


@pytest.mark.django_db
def test_a_late_resend_of_the_d6_attributes_does_not_undo_a_later_one(d6_saga, as_storyguide):
    url = reverse("d6:attributes", args=[d6_saga.pk])
    assert keys_on(as_storyguide, url)
    old = {"names": "Might\nWits", "command_key": fresh_key()}
    as_storyguide.post(url, old)
    as_storyguide.post(url, {"names": "Body\nMind\nSoul", "command_key": fresh_key()})
    same = as_storyguide.post(url, old)
    assert same.status_code == 302
    d6_saga.refresh_from_db()
    assert saga_attributes(d6_saga)[-3:] == ["body", "mind", "soul"]


def test_a_new_d6_saga_has_the_default_attributes(storyguide):
    saga = campaign_services.create_saga(storyguide, name="Tribunal", rule_system="d6fatigue")
    saga.refresh_from_db()
    assert saga_attributes(saga) == list(DEFAULT_ATTRIBUTES)
    assert saga_attributes(saga)[:3] == ["strength", "dexterity", "stamina"]


def test_the_old_path_of_the_attributes_still_answers(d6_saga, as_storyguide):
    """Before 2026-11-29 the page sat at `sagas/<id>/attributes/`: a GET is sent on for good, a post done."""
    old = f"/sagas/{d6_saga.pk}/attributes/"
    response = as_storyguide.get(old)
    assert response.status_code == 301 and response["Location"] == f"/sagas/{d6_saga.pk}/d6/attributes/"
    assert as_storyguide.post(old, {"names": "Might\nGrace"}).status_code == 302
    d6_saga.refresh_from_db()
    assert "grace" in saga_attributes(d6_saga)


@pytest.mark.django_db
def test_a_storyguide_who_is_not_the_lead_names_the_attributes_and_sees_the_link(
    d6_saga, storyguide, player, as_player
):
    campaign_services.make_storyguide(d6_saga, player, by=storyguide)
    page = as_player.get(reverse("saga_detail", args=[d6_saga.pk])).content.decode()
    assert 'data-testid="system-links"' in page and reverse("d6:attributes", args=[d6_saga.pk]) in page
    url = reverse("d6:attributes", args=[d6_saga.pk])
    assert as_player.post(url, {"names": "Might\nWits", "command_key": fresh_key()}).status_code == 302
    d6_saga.refresh_from_db()
    assert saga_attributes(d6_saga)[-2:] == ["might", "wits"]
