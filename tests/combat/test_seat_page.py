"""The encounter page's seat (issue 38, item 2, on the page): it says who runs the table; its holder and the
saga's lead hand the seat to another of the saga's storyguides with a reason, from a form beside which a
refusal is said, once however often the click arrives. On the coin duel: Bob is one of the storyguides."""

import re

import pytest
from django.urls import reverse

from campaign import services as campaign_services
from tests.personas import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def troupe(table):
    campaign_services.make_storyguide(table.saga, table.bob, by=table.storyguide)
    return table


def page(table, user) -> str:
    return client_for(user).get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()


def hand_over(table, user, to="bob", reason="Bob runs the ambush", version=None):
    url = reverse("hand_over_seat", args=[table.encounter.pk])
    data = {"expected_version": table.v if version is None else version, "to": to, "reason": reason}
    return client_for(user).post(url, data, HTTP_HX_REQUEST="true")


def test_the_page_says_who_runs_the_table_and_offers_the_hand_over_to_the_holder_and_the_lead(troupe):
    mine = page(troupe, troupe.storyguide)
    assert "You run this table" in mine and 'data-testid="hand-over-seat-form"' in mine
    assert re.search(r'<select id="seat-to" name="to"[^>]*><option value="bob">bob</option></select>', mine)
    for user in (troupe.bob, troupe.alice):  # another storyguide, a player: who runs it, no form
        theirs = page(troupe, user)
        assert "<b>sg</b> runs this table." in theirs and "hand-over-seat-form" not in theirs
    campaign_services.pass_lead(troupe.saga, troupe.bob, by=troupe.storyguide)
    assert 'data-testid="hand-over-seat-form"' in page(troupe, troupe.bob)  # the lead, without the seat


def test_a_hand_over_from_the_page_applies_once_and_everyone_reads_it(troupe):
    version = troupe.v
    assert hand_over(troupe, troupe.storyguide, version=version).status_code == 200
    again = hand_over(troupe, troupe.storyguide, version=version)  # the same click, arriving twice
    assert again.status_code == 409 and troupe.refresh().seat_holder == troupe.bob
    assert troupe.encounter.events.filter(kind="seat_handed_over").count() == 1
    assert "You run this table" in page(troupe, troupe.bob)
    assert "<b>bob</b> takes the storyguide’s seat from <b>sg</b>" in page(troupe, troupe.alice)


@pytest.mark.parametrize(
    "who, to, reason, said",
    [
        ("alice", "bob", "Mine now", "Only the storyguide who holds this seat, or the saga's lead"),
        ("storyguide", "alice", "Alice runs it", "Hand the seat to one of the saga's storyguides."),
        ("storyguide", "bob", "  ", "Say why the seat is handed over."),
        ("storyguide", "sg", "Still me", "sg holds this encounter's seat already."),
    ],
)
def test_a_refused_hand_over_is_said_beside_the_button_and_changes_nothing(troupe, who, to, reason, said):
    before = troupe.v
    response = hand_over(troupe, getattr(troupe, who), to=to, reason=reason)
    assert 400 <= response.status_code < 500
    assert said in response.content.decode().replace("&#x27;", "'")
    assert troupe.v == before and troupe.refresh().seat_holder == troupe.storyguide
