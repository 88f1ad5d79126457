"""A d6 command reads the combatants once (issue 36, item 6): the fight's commands read them under the lock
with the fight's rows, each fighter given its own combatant (`d6.state.with_combatants`), and hand them to
the push (`d6.state.D6Read`), which renders both audiences' frames and the players' version from them."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from d6 import services
from d6.kinds import BREATHER

from .test_fight import INITIATIVE

pytestmark = pytest.mark.django_db


def test_a_breather_reads_the_combatants_once(
    table, dice, django_capture_on_commit_callbacks
):
    dice(*INITIATIVE)  # Marta (Alice's) acts first
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.alice)
    url = reverse("d6:breather", args=[table.encounter.pk])
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"expected_version": table.v}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert table.encounter.events.order_by("-seq").first().kind == BREATHER
    sql = [query["sql"] for query in queries.captured_queries]
    assert len([line for line in sql if line.startswith("SELECT") and '"combat_combatant"' in line]) == 1
