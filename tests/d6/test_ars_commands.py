"""The Ars Magica round's commands refuse a d6 encounter: its table runs its own turns and chases."""

import pytest
from django.urls import reverse

from arsmagica import services as combat_services
from combat.errors import InvalidCommand
from combat.models import Encounter

pytestmark = pytest.mark.django_db


def test_the_storyguide_cannot_open_ars_declarations_on_a_d6_encounter(table):
    version = table.v
    with pytest.raises(InvalidCommand, match="d6"):
        combat_services.open_declarations(table.storyguide, table.encounter.pk, version)
    encounter = table.refresh()
    assert encounter.status == Encounter.Status.PREPARING and encounter.version == version
    assert not encounter.events.filter(kind="declarations_opened").exists()


def test_the_ars_control_panel_buttons_answer_a_d6_encounter_with_an_error(client, table):
    """The command's check reads the encounter's rule system once, with who may (`checked_encounter`):
    another system's encounter is not there for Ars Magica's commands, a 404, or beside the button."""
    client.force_login(table.storyguide)
    version = table.v
    url = reverse("arsmagica:open_declarations", args=[table.encounter.pk])
    assert client.post(url, {"expected_version": version}).status_code == 404
    response = client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422 and "not open to you" in response.content.decode()
    assert table.refresh().status == Encounter.Status.PREPARING and table.v == version
