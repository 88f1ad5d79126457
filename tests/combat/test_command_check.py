"""A command's check of who may send it (`combat.views.encounter_command`): from what the process keeps of
an encounter (`whose`: its saga, rule system and storyguide, which never change), with the membership read
each time. The storyguide's command reads the encounter once, under its service's lock. On the coin duel:
its flip is the storyguide's command."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Membership
from combat import kept
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


def test_the_storyguides_command_reads_the_encounter_once_under_its_services_lock(client, table):
    login(client, table.storyguide)
    data = flip(table)
    with CaptureQueriesContext(connection) as first:
        assert post(client, "coinduel_flip", table.encounter, data).status_code == 200
    data = flip(table)
    with CaptureQueriesContext(connection) as second:
        assert post(client, "coinduel_flip", table.encounter, data).status_code == 200
    assert len(encounter_reads(first.captured_queries)) == 2  # whose, then the lock
    assert len(encounter_reads(second.captured_queries)) == 1  # the lock alone
    assert not [q for q in second.captured_queries if 'FROM "campaign_membership"' in q["sql"]]
    assert table.encounter.events.filter(kind="coin_flip").count() == 2


def test_what_is_kept_refuses_outsiders_and_players_as_before(client, table):
    login(client, table.storyguide)
    assert post(client, "coinduel_flip", table.encounter, flip(table)).status_code == 200
    version = table.v
    client.logout()
    login(client, table.outsider)
    refused = post(client, "coinduel_flip", table.encounter, flip(table))
    assert refused.status_code == 422 and b"not open to you" in refused.content
    assert post(client, "coinduel_flip", table.encounter, flip(table), htmx=False).status_code == 404
    client.logout()
    login(client, table.alice)
    refused = post(client, "coinduel_flip", table.encounter, flip(table))
    assert refused.status_code == 422 and b"Only the storyguide can do that." in refused.content
    assert table.v == version


def test_a_player_who_has_left_the_saga_is_an_outsider_at_once(client, table):
    login(client, table.alice)
    assert b"Only the storyguide" in post(client, "coinduel_flip", table.encounter, flip(table)).content
    Membership.objects.filter(saga=table.saga, user=table.alice).delete()
    refused = post(client, "coinduel_flip", table.encounter, flip(table))
    assert refused.status_code == 422 and b"not open to you" in refused.content


def test_an_encounter_removed_after_it_was_kept_is_refused_not_an_error(client, table):
    login(client, table.storyguide)
    assert post(client, "coinduel_flip", table.encounter, flip(table)).status_code == 200
    data = flip(table)
    facts, _ = kept.whose(table.encounter.pk)
    Encounter.objects.filter(pk=table.encounter.pk).delete()
    assert table.encounter.pk not in kept._kept  # this process forgets what it deletes
    kept.keep(table.encounter.pk, facts)  # another process, which kept it: refused by the service's lock
    still_kept = post(client, "coinduel_flip", table.encounter, data)
    kept.forget_all()  # another process, which never kept it: refused by the check
    never_kept = post(client, "coinduel_flip", table.encounter, data)
    for refused in (still_kept, never_kept):
        assert refused.status_code == 422 and b"not open to you: it may have been removed" in refused.content


def test_what_is_kept_still_sends_another_systems_command_away(client, table):
    login(client, table.storyguide)
    assert post(client, "coinduel_flip", table.encounter, flip(table)).status_code == 200
    version = table.v
    d6_command = {"expected_version": version}
    refused = post(client, "d6_start_fight", table.encounter, d6_command)
    assert refused.status_code == 422 and b"not open to you" in refused.content
    assert post(client, "d6_start_fight", table.encounter, d6_command, htmx=False).status_code == 404
    assert table.v == version


def test_an_encounter_not_there_is_never_kept(client, table):
    login(client, table.storyguide)
    missing = Encounter(pk=table.encounter.pk + 1000)
    assert post(client, "coinduel_flip", missing, {"expected_version": 1}).status_code == 422
    assert missing.pk not in kept._kept
