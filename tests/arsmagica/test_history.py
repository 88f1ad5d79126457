"""The saga's history archive: encounters, rounds and events, filtered and exported, per audience."""

import pytest
from django.urls import reverse

from arsmagica import services
from tests.personas import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def declared(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    services.declare(
        table.storyguide,
        table.encounter.pk,
        table.bandits[0].pk,
        {"action": "attack", "weapon_id": table.weapon(table.bandits[0]), "engage": [table.boris.pk]},
    )
    services.correct(
        table.storyguide, table.encounter.pk, table.v, table.boris.pk, {"body_level": "hurt"}, "An old wound"
    )
    return table


def test_the_storyguide_sees_every_event(client, declared):
    login(client, declared.storyguide)
    html = client.get(reverse("saga_history", args=[declared.saga.pk])).content.decode()
    assert "Forest road" in html and "Round 1" in html
    assert "Bandit 1</b> has declared" in html and "An old wound" in html


def test_players_see_the_players_version(client, declared):
    login(client, declared.alice)
    response = client.get(reverse("saga_history", args=[declared.saga.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bandit 1</b> has declared" not in html and "An old wound" in html
    data = client.get(reverse("saga_history_json", args=[declared.saga.pk])).json()
    kinds = [event["kind"] for event in data["encounters"][0]["events"]]
    assert "declared" not in kinds and "correction" in kinds and data["audience"] == "players"


def test_the_export_filters_by_kind_and_encounter(client, declared):
    login(client, declared.storyguide)
    url = reverse("saga_history_json", args=[declared.saga.pk])
    data = client.get(url, {"kind": "correction", "encounter": declared.encounter.pk}).json()
    events = data["encounters"][0]["events"]
    assert [e["kind"] for e in events] == ["correction"]
    assert (
        events[0]["payload"]["changes"] == {"body_level": ["unhurt", "hurt"]} and events[0]["actor"] == "sg"
    )
    page = client.get(
        reverse("saga_history", args=[declared.saga.pk]), {"kind": "correction"}
    ).content.decode()
    assert "An old wound" in page and "joins the fight" not in page


def test_outsiders_get_404(client, declared):
    login(client, declared.outsider)
    assert client.get(reverse("saga_history", args=[declared.saga.pk])).status_code == 404
    assert client.get(reverse("saga_history_json", args=[declared.saga.pk])).status_code == 404
