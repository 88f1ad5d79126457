"""A command reads the combatants once (issue 36, item 6): an Ars Magica declaration reads them for its form,
and its service, under the lock, takes them from the view (`arsmagica.services.table.Seen`) while nothing
has changed since; a confirmed phase reads them under its lock, and its push renders from that read."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arsmagica import services

from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db


def combatant_reads(queries) -> list[str]:
    """The queries that read the combatants' table, alone or joined to another."""
    sql = [query["sql"] for query in queries.captured_queries]
    return [line for line in sql if line.startswith("SELECT") and '"combat_combatant"' in line]


def posted(client, url, data, django_capture_on_commit_callbacks):
    """The command posted as htmx posts it, its push run; its answer and the queries of both."""
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, data, HTTP_HX_REQUEST="true")
    return answer, queries


def test_a_players_declaration_reads_the_combatants_once(table, django_capture_on_commit_callbacks):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.alice)
    url, data = table.boris_attack_form()
    answer, queries = posted(client, url, data, django_capture_on_commit_callbacks)
    assert answer.status_code == 200 and table.encounter.events.filter(kind="declared").count() == 1
    assert len(combatant_reads(queries)) == 1


def test_same_as_last_round_reads_the_combatants_once(
    table, scripted_dice, django_capture_on_commit_callbacks
):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    resolve(table, "fatigue")
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.alice)
    url = reverse("arsmagica:declare_as_before", args=[table.encounter.pk, table.boris.pk])
    answer, queries = posted(client, url, {"expected_version": table.v}, django_capture_on_commit_callbacks)
    assert answer.status_code == 200 and 'data-testid="declared-mark-' in answer.content.decode()
    assert len(combatant_reads(queries)) == 1


def test_a_declaration_after_another_change_reads_them_again_under_the_lock(
    table, django_capture_on_commit_callbacks, monkeypatch
):
    """The view's read is used only while the encounter's version is the one it was read at."""
    from arsmagica import views

    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    declare = services.declare

    def after_a_correction(*args, **kwargs):
        changes = {"advantage_attack": 1}
        services.correct(table.storyguide, table.encounter.pk, table.v, table.anselm.pk, changes, "Scar")
        return declare(*args, **kwargs)

    monkeypatch.setattr(views.services, "declare", after_a_correction)
    client = Client()
    client.force_login(table.alice)
    url, data = table.boris_attack_form()
    answer, queries = posted(client, url, data, django_capture_on_commit_callbacks)
    assert answer.status_code == 200
    assert len(combatant_reads(queries)) == 3  # the view's, the correction's, the declaration's again


def test_a_confirmed_phase_reads_the_combatants_once(
    table, scripted_dice, django_capture_on_commit_callbacks
):
    through_movement(table, scripted_dice)
    client = Client()
    client.force_login(table.storyguide)
    pk = table.encounter.pk
    preview = {"expected_version": table.v, "phase": "melee"}
    previewed = client.post(reverse("arsmagica:preview_phase", args=[pk]), preview, HTTP_HX_REQUEST="true")
    assert previewed.status_code == 200
    confirm = {"expected_version": table.v, "phase": "melee"}
    url = reverse("arsmagica:confirm_phase", args=[pk])
    answer, queries = posted(client, url, confirm, django_capture_on_commit_callbacks)
    assert answer.status_code == 200 and table.refresh().phase == "fatigue"
    assert len(combatant_reads(queries)) == 1
