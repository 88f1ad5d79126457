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

from .test_chase import STREETS
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


def combatant_reads(queries) -> int:
    """The reads of the combatants' rows among a command's queries (its push's included)."""
    sql = [query["sql"] for query in queries.captured_queries]
    return len([line for line in sql if line.startswith("SELECT") and 'FROM "combat_combatant"' in line])


def test_the_chase_commands_read_the_combatants_once(table, dice, django_capture_on_commit_callbacks):
    """The chase's commands read every combatant once under the lock, give each runner its own
    (`with_combatants`) and hand them to the table's state and the push (issue 37, item 1): before, an
    exchange read them three times (the runners' join, the state's, the push's)."""
    encounter = table.encounter.pk
    commands = {
        "start": lambda: services.start_chase(
            table.storyguide, encounter, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
        ),
        "exchange": lambda: services.exchange(table.storyguide, encounter, table.v),
        "offer": lambda: services.offer_terrain(
            table.storyguide, encounter, table.v, [("The river", "Swimming")]
        ),
        "choose": lambda: services.choose_terrain(table.alice, encounter, table.v, "The river"),  # Marta's
    }
    dice(4, 6, 5, 0)  # the exchange: Marta 4,6; Bandit 1 5,ten (tests/d6/test_chase.py)
    for name, command in commands.items():
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
            command()
        assert combatant_reads(queries) == 1, name
