"""The archive's machinery on the coin duel (docs/archive-format.md): a saga's archive.json, imported into
an instance without it, is a new saga whose log, names, recap and numbers read as the old one's, every
combatant its payloads name being a new one; the imported duel plays on, numbering its next event from its
log (Ars Magica's and d6's own rows: tests/archive)."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign.services import rename_character
from combat.archive.importer import import_saga
from combat.models import Encounter, Event
from combat.rules.dice import ScriptedDice
from tests.coinduel import services as coin

from .conftest import HEADS, TAILS

pytestmark = pytest.mark.django_db


def download(saga, user, name: str) -> bytes:
    client = Client()
    client.force_login(user)
    response = client.get(reverse(name, args=[saga.pk]))
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def played(table):
    """Two turns, Bruno renamed Brutus between them."""
    table.flip(HEADS, TAILS)
    rename_character(table.bruno_character, "Brutus", table.storyguide)
    table.flip(TAILS, HEADS)
    return table


def test_an_imported_duel_reads_as_the_one_exported_with_new_ids(table):
    played(table)
    before = json.loads(download(table.saga, table.storyguide, "saga_archive_json"))
    recap = download(table.saga, table.storyguide, "saga_recap").decode()
    old_ids = {str(c.pk) for c in table.refresh().combatants.all()}
    table.saga.delete()
    assert not Event.objects.exists()
    saga = import_saga(before)
    encounter = Encounter.objects.get(saga=saga)
    new_ids = {str(c.pk) for c in encounter.combatants.all()}
    assert len(new_ids) == 2 and not new_ids & old_ids
    flips = [e.payload for e in encounter.events.filter(kind="coin_flip").order_by("seq")]
    assert [set(p["faces"]) for p in flips] == [new_ids, new_ids]
    assert [sorted(p["names"].values()) for p in flips] == [["Ada", "Bruno"], ["Ada", "Brutus"]]
    after = json.loads(download(saga, table.storyguide, "saga_archive_json"))
    assert [e["kind"] for e in after["encounters"][0]["events"]] == [
        e["kind"] for e in before["encounters"][0]["events"]
    ]
    assert re.fullmatch(r"Test saga \(imported \d{1,2} [A-Z][a-z]{2}\)", saga.name)
    again = download(saga, table.storyguide, "saga_recap").decode()
    assert again.replace(saga.name, "Test saga") == recap


def test_the_imported_duel_plays_on_from_its_log(table):
    played(table)
    before = json.loads(download(table.saga, table.storyguide, "saga_archive_json"))
    table.saga.delete()
    encounter = Encounter.objects.get(saga=import_saga(before, storyguide=table.storyguide))
    last = encounter.last_seq
    duel = coin.flip(table.storyguide, encounter.pk, encounter.version, ScriptedDice([HEADS, TAILS]))
    assert sorted(duel.hits.values()) == [1, 2]  # Ada's two heads, Brutus's one, carried over the import
    assert list(encounter.events.filter(seq__gt=last).values_list("seq", flat=True)) == [last + 1]
