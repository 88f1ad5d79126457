"""d6's table follows the seat (issue 38, items 2 and 3): the lead who has handed an encounter's seat to
another storyguide is sent the players' table, without its controls, and is refused its storyguide's
commands; the one who holds it has them. The chase through Ashford, with Bob one of the saga's storyguides."""

import pytest
from django.urls import reverse

from campaign import services as campaign_services
from combat import services
from tests.personas import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def handed(table):
    """The chase's seat handed by the storyguide, the saga's lead, to Bob."""
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    services.hand_over_seat(table.storyguide, table.encounter.pk, table.v, "bob", "Bob runs the chase")
    return table


def test_the_controls_are_the_holders(handed):
    url = reverse("d6:table", args=[handed.encounter.pk])
    assert 'data-testid="start-fight"' not in client_for(handed.storyguide).get(url).content.decode()
    assert 'data-testid="start-fight"' in client_for(handed.bob).get(url).content.decode()


def test_the_lead_without_the_seat_is_refused_the_storyguides_command(handed):
    version = handed.v
    url = reverse("d6:start_fight", args=[handed.encounter.pk])
    refused = client_for(handed.storyguide).post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and b"bob holds this encounter" in refused.content
    assert handed.v == version
    done = client_for(handed.bob).post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and handed.v == version + 1
