"""Finding things in the history: by encounter, character and kind for every rule system, a page at a
time, each page in the same number of SQL queries however long the saga."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arsmagica import services as ars_services
from combat.archive.paging import PER_PAGE
from combat.models import Event

pytestmark = pytest.mark.django_db

SEQS = re.compile(r'data-seq="(\d+)"')


def page(saga, user, **query) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_history", args=[saga.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def shown(html) -> list[int]:
    return [int(seq) for seq in SEQS.findall(html)]


def test_a_character_filter_keeps_the_entries_that_name_them(ars):
    bandit = ars.bandits[2]
    html = page(ars.saga, ars.storyguide, character=bandit.character_id)
    seqs = shown(html)
    expected = [e.seq for e in Event.objects.filter(encounter=ars.encounter) if f'"{bandit.pk}"' in _text(e)]
    assert seqs == expected and 5 < len(seqs) < Event.objects.filter(encounter=ars.encounter).count()
    assert f'<option value="{bandit.character_id}" selected>Bandit 3</option>' in html


def _text(event) -> str:
    import json

    return json.dumps(event.payload)


def test_a_d6_character_filter_and_kind_filter(d6):
    html = page(d6.saga, d6.storyguide, character=d6.marta.character_id, kind="d6_roll")
    kinds = re.findall(r'data-kind="([a-z0-9_]+)"', html)
    assert kinds == ["d6_roll", "d6_roll"]
    assert "Marta</b> attacks" in html and "defends against Marta" in html


def test_an_encounter_filter_and_nothing_that_matches(ars):
    other = ars_services.create_encounter(ars.storyguide, ars.saga.pk, "Mill pond")
    html = page(ars.saga, ars.storyguide, encounter=other.pk)
    listed = html.split('data-testid="history-exports"')[1]
    assert shown(html) == [1] and "Mill pond" in listed and "Forest road" not in listed
    empty = page(ars.saga, ars.storyguide, encounter=other.pk, kind="attack")
    assert 'data-testid="history-empty">Nothing recorded that matches.' in empty


def test_values_the_saga_does_not_have_are_dropped(ars):
    html = page(ars.saga, ars.storyguide, encounter="99999", character="x", kind="nonsense", page="-3")
    assert len(shown(html)) == Event.objects.filter(encounter=ars.encounter).count()


def long_saga(table, encounters):
    """`encounters` more encounters of five combatants each: six entries apiece."""
    characters = [table.boris_character, table.anselm_character, *table.bandit_characters]
    for number in range(encounters):
        encounter = ars_services.create_encounter(table.storyguide, table.saga.pk, f"Skirmish {number}")
        ars_services.add_combatants(table.storyguide, encounter.pk, 0 + 1, [c.pk for c in characters], "All")


def queries(saga, user, **query) -> int:
    client = Client()
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("saga_history", args=[saga.pk]), query).status_code == 200
    return len(captured)


def test_every_page_takes_the_same_queries_however_long_the_saga(ars):
    long_saga(ars, 15)  # two pages
    short = {
        who: [queries(ars.saga, getattr(ars, who), page=n) for n in (1, 2)] for who in ("storyguide", "alice")
    }
    long_saga(ars, 70)
    assert Event.objects.filter(encounter__saga=ars.saga).count() > 4 * PER_PAGE
    for who, counts in short.items():
        person = getattr(ars, who)
        assert [queries(ars.saga, person, page=n) for n in (1, 2, 4)] == [*counts, counts[1]]
        assert queries(ars.saga, person, character=ars.boris_character.pk) == counts[0]
    assert short["storyguide"][0] <= 12


def test_the_pager_says_where_the_page_stands_and_keeps_the_filters(ars):
    long_saga(ars, 50)
    total = Event.objects.filter(encounter__saga=ars.saga).count()
    html = page(ars.saga, ars.storyguide, page=2, kind="combatant_added")
    added = Event.objects.filter(encounter__saga=ars.saga, kind="combatant_added").count()
    assert added > 2 * PER_PAGE and f"Page 2: entries {PER_PAGE + 1} to {2 * PER_PAGE}</span>" in html
    assert 'href="?kind=combatant_added&amp;page=3" data-testid="page-next"' in html
    assert 'href="?kind=combatant_added&amp;page=1" data-testid="page-previous"' in html
    assert len(shown(html)) == PER_PAGE and total > added
    first = page(ars.saga, ars.storyguide)
    assert '<span\n    class="muted">Previous</span>' in first and len(shown(first)) == PER_PAGE
    last = -(-added // PER_PAGE)
    end = page(ars.saga, ars.storyguide, page=last, kind="combatant_added")
    assert (
        f"entries {(last - 1) * PER_PAGE + 1} to {added}</span>" in end and 'class="muted">Next</span>' in end
    )
    past = page(ars.saga, ars.storyguide, page=last + 1, kind="combatant_added")
    assert "Nothing on page" in past and 'data-testid="page-first"' in past
