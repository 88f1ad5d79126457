"""A command's check of who may send it (`combat.views.encounter_command`): its encounter's saga, rule system
and storyguide read in one query, the membership read each time, and the encounter read again under the
service's lock. On the coin duel: its flip is the storyguide's command."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Membership
from combat.models import Encounter
from tests.personas import login

pytestmark = pytest.mark.django_db


def flip(table) -> dict:
    return {"expected_version": table.v}


def post(client, name, encounter, data, htmx=True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse(name, args=[encounter.pk]), data, **headers)


def encounter_reads(queries) -> list[str]:
    sql = [query["sql"] for query in queries]
    return [line for line in sql if line.startswith("SELECT") and 'FROM "combat_encounter"' in line]


def test_the_storyguides_command_reads_the_encounter_for_its_check_and_under_its_lock(client, table):
    login(client, table.storyguide)
    data = flip(table)
    with CaptureQueriesContext(connection) as queries:
        assert post(client, "coinduel:flip", table.encounter, data).status_code == 200
    assert len(encounter_reads(queries.captured_queries)) == 2  # the check, then the lock
    assert not [q for q in queries.captured_queries if 'FROM "campaign_membership"' in q["sql"]]
    assert table.encounter.events.filter(kind="coin_flip").count() == 1


def test_outsiders_and_players_are_refused_the_storyguides_command(client, table):
    login(client, table.storyguide)
    assert post(client, "coinduel:flip", table.encounter, flip(table)).status_code == 200
    version = table.v
    client.logout()
    login(client, table.outsider)
    refused = post(client, "coinduel:flip", table.encounter, flip(table))
    assert refused.status_code == 422 and b"not open to you" in refused.content
    assert post(client, "coinduel:flip", table.encounter, flip(table), htmx=False).status_code == 404
    client.logout()
    login(client, table.alice)
    refused = post(client, "coinduel:flip", table.encounter, flip(table))
    assert refused.status_code == 422 and b"Only the storyguide can do that." in refused.content
    assert table.v == version


def test_a_player_who_has_left_the_saga_is_an_outsider_at_once(client, table):
    login(client, table.alice)
    assert b"Only the storyguide" in post(client, "coinduel:flip", table.encounter, flip(table)).content
    Membership.objects.filter(saga=table.saga, user=table.alice).delete()
    refused = post(client, "coinduel:flip", table.encounter, flip(table))
    assert refused.status_code == 422 and b"not open to you" in refused.content


def test_an_encounter_removed_is_refused_not_an_error(client, table):
    login(client, table.storyguide)
    data = flip(table)
    Encounter.objects.filter(pk=table.encounter.pk).delete()
    refused = post(client, "coinduel:flip", table.encounter, data)
    assert refused.status_code == 422 and b"not open to you: it may have been removed" in refused.content
    assert post(client, "coinduel:flip", table.encounter, data, htmx=False).status_code == 404


def test_another_systems_command_is_sent_away(client, table):
    login(client, table.storyguide)
    assert post(client, "coinduel:flip", table.encounter, flip(table)).status_code == 200
    version = table.v
    d6_command = {"expected_version": version}
    refused = post(client, "d6:start_fight", table.encounter, d6_command)
    assert refused.status_code == 422 and b"not open to you" in refused.content
    assert post(client, "d6:start_fight", table.encounter, d6_command, htmx=False).status_code == 404
    assert table.v == version
