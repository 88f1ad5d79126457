"""A saga deleted and restored from its archive plays on at once, in this process and in any other: what a
process keeps of an encounter for a command's check (`combat.kept`) never refuses or admits by a saga that
is gone (issue 29, bug 7: the restored encounters kept their ids, and the players' commands were answered
"This encounter is not open to you" until the server restarted; an import now gives new ids, and a process
that kept an id's saga is still checked against the row)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Membership, Saga
from combat import kept
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
    url = reverse("d6_breather", args=[encounter_id])
    return client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")


def restored(table, dice):
    """The fight started, Alice's command checked (so this process keeps the encounter), then the saga
    deleted and restored from the storyguide's archive: the restored encounter, with the facts the
    process kept of it before."""
    dice(*INITIATIVE)  # Marta (Alice's) acts first
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    assert breather(table.alice, table.encounter.pk, 0).status_code == 409  # stale: checked, then refused
    before, _ = kept.whose(table.encounter.pk)
    client = Client()
    client.force_login(table.storyguide)
    archive = b"".join(client.get(reverse("saga_archive_json", args=[table.saga.pk])).streaming_content)
    table.saga.delete()
    saga = import_saga(json.loads(archive))
    (encounter,) = saga.encounters.all()
    assert saga.pk != before.saga_id  # new ids since the importer gives them; a kept id may still be met
    return encounter, before


def test_a_players_command_is_accepted_on_a_restored_saga_in_the_same_process(table, dice):
    encounter, _ = restored(table, dice)
    answer = breather(table.alice, encounter.pk, encounter.version)
    assert answer.status_code == 200 and NOT_OPEN.encode() not in answer.content
    assert encounter.events.order_by("-seq").first().kind == BREATHER


def test_a_process_that_kept_the_deleted_saga_accepts_the_players_command(table, dice):
    encounter, before = restored(table, dice)
    kept.keep(encounter.pk, before)  # another Daphne's memory, which the delete and import never reached
    answer = breather(table.alice, encounter.pk, encounter.version)
    assert answer.status_code == 200 and NOT_OPEN.encode() not in answer.content
    assert encounter.events.order_by("-seq").first().kind == BREATHER
    assert kept.whose(encounter.pk) == (kept.Whose(encounter.saga_id, "d6fatigue", table.storyguide.pk), True)


def test_a_process_that_kept_another_saga_does_not_let_its_members_in(table, dice):
    encounter, before = restored(table, dice)
    elsewhere = Saga.objects.create(name="Elsewhere", storyguide=table.storyguide, rule_system="d6fatigue")
    Membership.objects.create(saga=elsewhere, user=table.outsider, role=Membership.Role.PLAYER)
    kept.keep(encounter.pk, before._replace(saga_id=elsewhere.pk))  # memory naming a saga Charlie is in
    version = encounter.version
    answer = breather(table.outsider, encounter.pk, version)
    assert answer.status_code == 422 and NOT_OPEN.encode() in answer.content
    encounter.refresh_from_db()
    assert encounter.version == version
