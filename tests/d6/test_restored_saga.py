"""A saga deleted and restored from its archive plays on at once (issue 29, bug 7: the restored encounters
kept their ids, and the players' commands were answered "This encounter is not open to you" until the server
restarted, by what each process had kept of an encounter for a command's check; an import now gives new
ids, and a command's check reads the encounter each time)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from combat.archive.importer import import_saga
from combat.errors import NOT_OPEN
from d6 import services
from d6.kinds import BREATHER

from .test_fight import INITIATIVE

pytestmark = pytest.mark.django_db


def breather(user, encounter_id, version):
    """The player's (or anyone's) breather on the fighter whose turn it is, as the page posts it."""
    client = Client()
    client.force_login(user)
    url = reverse("d6:breather", args=[encounter_id])
    return client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")


def restored(table, dice):
    """The fight started, Alice's command checked, then the saga deleted and restored from the
    storyguide's archive: the restored encounter."""
    dice(*INITIATIVE)  # Marta (Alice's) acts first
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    assert breather(table.alice, table.encounter.pk, 0).status_code == 409  # stale: checked, then refused
    before = table.saga.pk
    client = Client()
    client.force_login(table.storyguide)
    archive = b"".join(client.get(reverse("saga_archive_json", args=[table.saga.pk])).streaming_content)
    table.saga.delete()
    saga = import_saga(json.loads(archive))
    (encounter,) = saga.encounters.all()
    assert saga.pk != before  # new ids: the importer gives them
    return encounter


def test_a_players_command_is_accepted_on_a_restored_saga_in_the_same_process(table, dice):
    encounter = restored(table, dice)
    answer = breather(table.alice, encounter.pk, encounter.version)
    assert answer.status_code == 200 and NOT_OPEN.encode() not in answer.content
    assert encounter.events.order_by("-seq").first().kind == BREATHER
