"""A new encounter's form, sent twice, makes one encounter, in each rule system's saga (every other form sent
once: tests/campaign/test_sent_once.py)."""

import pytest
from django.urls import reverse

from campaign import services
from combat.models import Encounter
from tests.campaign.test_sent_once import keys_on, same_page, twice


@pytest.mark.django_db
@pytest.mark.parametrize("rule_system", ["arsmagica", "d6fatigue"])
def test_a_new_encounter_sent_twice_makes_one(storyguide, as_storyguide, rule_system):
    saga = services.create_saga(storyguide, name="Encounters", rule_system=rule_system)
    url = reverse("encounter_create", args=[saga.pk])
    data = {
        "name": "The ford",
        "command_key": keys_on(as_storyguide, reverse("saga_detail", args=[saga.pk]))[-1],
    }
    first, second = twice(as_storyguide, url, data)
    same_page(first, second)
    assert Encounter.objects.filter(saga=saga, name="The ford").count() == 1
    from_htmx = as_storyguide.post(
        url, data, HTTP_HX_REQUEST="true"
    )  # htmx is told where to go, not redirected
    assert from_htmx.status_code == 200 and from_htmx["HX-Redirect"] == first.url
