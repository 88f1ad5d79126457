"""Where a d6 log entry happened, in d6 words: "Round 1 · Marta" in a fight (whose turn it was),
"Exchange 2" in a chase, "Setting up" before; on the table page, in the live frames and in the history,
for the storyguide and for a player. Ids and data-testids stay the events' sequence numbers."""

import re

import pytest
from django.urls import reverse

from combat.audience import PLAYERS
from combat.live import render_frame
from d6 import services

from .test_fight import INITIATIVE

pytestmark = pytest.mark.django_db

LABEL = re.compile(
    r'<li id="event-(\d+)"[^>]*data-testid="event-\1">\s*<span class="seq">(.*?)(?: <span|</span>)', re.S
)
STREETS = [("Market streets", "Running"), ("The river", "Swimming")]


def labels(html):
    return {int(seq): " ".join(label.split()) for seq, label in LABEL.findall(html)}


def by_kind(table, html):
    found = labels(html)
    return [
        (event.kind, found[event.seq])
        for event in table.refresh().events.order_by("seq")
        if event.seq in found
    ]


def page(client, table, user):
    client.force_login(user)
    response = client.get(reverse("d6:table", args=[table.encounter.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def fight(table, dice):
    """Marta attacks Bandit 2, who defends; the storyguide sets a value; the turns pass to round 2."""
    dice(*INITIATIVE)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    dice(2, 7, 3)
    services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        value=6,
        target_id=table.bandits[1].pk,
    )
    services.set_challenge_value(table.storyguide, table.encounter.pk, table.v, 8)  # of the defence
    dice(3, 5)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.bandits[1].pk, "attribute:dexterity")
    for _ in range(4):
        services.end_turn(table.storyguide, table.encounter.pk, table.v)
    services.take_breather(table.storyguide, table.encounter.pk, table.v)  # Marta, round 2
    return table


FIGHT_LABELS = [
    ("encounter_created", "Setting up"),
    ("combatant_added", "Setting up"),
    ("combatant_added", "Setting up"),
    ("combatant_added", "Setting up"),
    ("combatant_added", "Setting up"),
    ("d6_fight_started", "Round 1 · Initiative"),
    ("d6_roll", "Round 1 · Marta"),
    ("d6_value_set", "Round 1"),  # a defence's value: the defender is not the one whose turn it is
    ("d6_roll", "Round 1 · Marta"),  # Bandit 2's defence, in Marta's turn
    ("d6_turn_ended", "Round 1 · Marta"),
    ("d6_turn_ended", "Round 1 · Bandit 2"),
    ("d6_turn_ended", "Round 1 · Bandit 1"),
    ("d6_turn_ended", "Round 1 · Brother Anselm"),
    ("d6_breather", "Round 2 · Marta"),
]


def test_the_storyguide_reads_each_fight_entry_by_round_and_turn(client, fight):
    html = page(client, fight, fight.storyguide)
    found = by_kind(fight, html)
    assert [row for row in found if not row[0].startswith("combatant")] == [
        row for row in FIGHT_LABELS if not row[0].startswith("combatant")
    ]
    assert not re.search(r'class="seq">R\d', html)  # no bare "R3" left
    seq = fight.refresh().events.order_by("-seq").first().seq
    assert f'id="event-{seq}"' in html and f'data-testid="event-{seq}"' in html


def test_a_player_reads_the_same_labels_on_the_page_and_in_the_live_frame(client, fight):
    html = page(client, fight, fight.alice)
    expected = [row for row in FIGHT_LABELS if not row[0].startswith("combatant")]
    assert [row for row in by_kind(fight, html) if not row[0].startswith("combatant")] == expected
    encounter = fight.refresh()
    events = list(encounter.events.order_by("seq"))
    frame = render_frame(encounter, events[-3:], PLAYERS, events[-3].seq, events[-1].seq)
    assert [label for _, label in sorted(labels(frame).items())] == [
        "Round 1 · Bandit 1",
        "Round 1 · Brother Anselm",
        "Round 2 · Marta",
    ]


@pytest.fixture
def chase(table, dice):
    """Bandit 1 chases Marta: exchange 1, a terrain offered and chosen, exchange 2 where she is caught."""
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
    )
    dice(4, 6, 5, 0)  # Marta 6, Bandit 1 10: closes to 1
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("The river", "Swimming")])
    services.choose_terrain(table.alice, table.encounter.pk, table.v, "The river")
    dice(1, 6)  # Swimming is C0: Marta 1, Bandit 1 6 at distance 1 → caught
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    return table


def test_a_chase_reads_by_exchange(client, chase):
    found = [row for row in by_kind(chase, page(client, chase, chase.alice)) if row[0].startswith("d6_")]
    assert found == [
        ("d6_chase_started", "Chase starts"),
        ("d6_exchange", "Exchange 1"),
        ("d6_terrain_offered", "After exchange 1"),
        ("d6_terrain_chosen", "Before exchange 2"),
        ("d6_exchange", "Exchange 2"),
        ("d6_chase_ended", "Exchange 2"),
    ]


def test_typed_dice_say_their_exchange(client, physical_table):
    table = physical_table
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
    )
    services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6")
    found = dict(by_kind(table, page(client, table, table.storyguide)))
    assert found["d6_faces_in"] == "Exchange 1"


def test_the_history_groups_by_round_and_labels_by_turn(client, fight):
    client.force_login(fight.alice)
    response = client.get(reverse("saga_history", args=[fight.saga.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h3>Outside a fight</h3>" in html and "<h3>Round 1</h3>" in html and "<h3>Round 2</h3>" in html
    found = by_kind(fight, html)
    assert ("d6_roll", "Marta") in found and ("d6_breather", "Marta") in found
    assert ("d6_fight_started", "Initiative") in found and ("d6_turn_ended", "Brother Anselm") in found
    assert ("encounter_created", "Setting up") in found


def test_an_ars_magica_history_keeps_its_own_labels(client, db):
    from tests.arsmagica.conftest import Table

    table = Table()
    client.force_login(table.storyguide)
    html = client.get(reverse("saga_history", args=[table.saga.pk])).content.decode()
    assert "<h3>Setting up</h3>" in html and "Outside a fight" not in html


def test_a_second_chase_says_which(client, chase, dice):
    services.start_chase(
        chase.storyguide, chase.encounter.pk, chase.v, chase.bandits[1].pk, [(chase.marta.pk, 3)], STREETS
    )
    dice(6, 2, 6, 3)  # Bandit 2 and Marta on Running
    services.exchange(chase.storyguide, chase.encounter.pk, chase.v)
    found = [row for row in by_kind(chase, page(client, chase, chase.bob)) if row[0].startswith("d6_")]
    assert found[-2:] == [("d6_chase_started", "Chase 2 starts"), ("d6_exchange", "Chase 2 · Exchange 1")]
    assert found[0] == ("d6_chase_started", "Chase starts")
