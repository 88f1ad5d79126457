"""A click applies once, however often it arrives: twenty identical posts of a command at once, as
a double-clicking storyguide and a second tab send them, apply once; the others are refused as stale."""

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services as ars
from combat.models import Encounter
from tests.arsmagica.conftest import Table
from tests.concurrency import run_together
from tests.d6.conftest import D6Table

pytestmark = pytest.mark.django_db(transaction=True)
POSTS = 20


def ars_open(table):
    return "arsmagica:open_declarations", {}


def ars_close(table):
    ars.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    return "arsmagica:close_declarations", {}


def ars_correct(table):
    return "arsmagica:correct", {"combatant": table.boris.pk, "body_level": "hurt", "reason": "An old wound"}


def ars_undo(table):
    ars.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    ars.close_declarations(table.storyguide, table.encounter.pk, table.v)
    phase = table.refresh().phase  # the first phase someone acts in (the empty ones pass by themselves)
    ars.preview_phase(table.storyguide, table.encounter.pk, table.v, phase)
    ars.confirm_phase(table.storyguide, table.encounter.pk, table.v, phase)
    return "arsmagica:undo_phase", {"reason": "Wrong target"}


def ars_end(table):
    return "end_encounter", {}


def d6_start_fight(table):
    return "d6:start_fight", {}


@pytest.mark.parametrize(
    ("make_table", "command"),
    [
        (Table, ars_open),
        (Table, ars_close),
        (Table, ars_correct),
        (Table, ars_undo),
        (Table, ars_end),
        (D6Table, d6_start_fight),
    ],
    ids=["open declarations", "close declarations", "correct", "undo", "end encounter", "d6 start fight"],
)
def test_twenty_identical_posts_apply_once(make_table, command):
    table = make_table()
    url_name, data = command(table)
    encounter = Encounter.objects.get(pk=table.encounter.pk)
    before = encounter.events.count()
    url = reverse(url_name, args=[encounter.pk])
    post = {**data, "expected_version": encounter.version}

    def click(_):
        client = Client()
        client.force_login(table.storyguide)
        return client.post(url, post, HTTP_HX_REQUEST="true").status_code

    statuses = run_together(click, POSTS)
    assert statuses.count(200) == 1, statuses
    assert statuses.count(409) == POSTS - 1, statuses
    encounter.refresh_from_db()
    assert encounter.version == post["expected_version"] + 1
    assert encounter.events.count() > before
