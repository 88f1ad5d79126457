"""The d6 table's pages and pushed frames read a fixed number of rows, however many fight or run."""

import pytest
from django.urls import reverse

from combat import services as combat_services
from combat.live import render_frame
from d6 import services

pytestmark = pytest.mark.django_db

RUNNING = {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}
EXTRA = 8


def crowd(table):
    """Eight more bandits on the table (each sheet reads its saga's attribute names)."""
    extras = [
        table.character(f"Extra {n}", None, dexterity=1, stamina=0, strength=1, abilities=[RUNNING])
        for n in range(EXTRA)
    ]
    combat_services.add_combatants(
        table.storyguide, table.encounter.pk, table.v, [c.pk for c in extras], "Bandits"
    )
    return extras


def renders_within(client, django_assert_max_num_queries, table, frame: int, page: int):
    encounter = table.refresh()
    events = list(encounter.events.order_by("seq"))
    for audience in ("storyguide", "players"):
        with django_assert_max_num_queries(frame):
            render_frame(encounter, events, audience, 1, events[-1].seq, replay=True)
    for user in (table.storyguide, table.alice):
        client.force_login(user)
        with django_assert_max_num_queries(page):
            assert client.get(reverse("d6:table", args=[encounter.pk])).status_code == 200


def test_a_crowded_fight_renders_in_a_few_queries(client, django_assert_max_num_queries, table, dice):
    crowd(table)
    dice(*([5, 5] * 50))
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    renders_within(client, django_assert_max_num_queries, table, frame=8, page=12)


def test_a_crowded_chase_renders_in_a_few_queries(client, django_assert_max_num_queries, table, dice):
    extras = crowd(table)
    chasers = [(table.bandits[0].pk, 3)] + [(c.combatants.get().pk, 3) for c in extras]
    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        chasers,
        [("Market streets", "Running")],
    )
    renders_within(client, django_assert_max_num_queries, table, frame=8, page=12)


def test_a_push_reads_the_table_once_for_both_audiences(django_assert_max_num_queries, table, dice):
    """Issue 11: both audiences' frames of one push share one read of the d6 table (`table_facts`)."""
    from combat.live import broadcast

    crowd(table)
    dice(*([5, 5] * 50))
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    last = table.refresh().events.order_by("-seq").first().seq
    # 13: the saga page's push (the fight started) reads the troupe's newest records too (issue 38).
    with django_assert_max_num_queries(13) as captured:
        broadcast(table.encounter.pk, 1, last)
    reads = [q["sql"] for q in captured.captured_queries]
    assert len([sql for sql in reads if sql.startswith('SELECT "combat_combatant"."id", ')]) == 1
    assert len([sql for sql in reads if 'FROM "d6table_fighter"' in sql]) == 1
