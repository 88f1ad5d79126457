"""The saga archive (format 2) goes anywhere: exported, imported on an instance without the saga, and
exported again, it is the same file but for the ids its rows got anew; the storyguide's archive holds
everything, a player's what they saw."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.db.models import Max
from django.urls import reverse

from arsmagica.models import Declaration, Weapon
from campaign.models import Character, Saga
from combat.archive.export import archive_chunks
from combat.archive.importer import import_saga
from combat.archive.reading import reader_for
from combat.events import CoreKind
from combat.models import Event, SagaRecord
from combat.services.log import EventLog, lock_encounter
from d6.models import Chase, Fight, Fighter, Runner

from .conftest import archive_data, archive_of, assert_same_but_ids

pytestmark = pytest.mark.django_db


def forget(saga, *, people=()):
    """The instance without the saga (and without these people): as a fresh one would be."""
    saga.delete()
    get_user_model().objects.filter(username__in=people).delete()


def test_an_ars_magica_saga_comes_back_the_same_file_but_for_its_ids(ars):
    before = archive_of(ars.saga, ars.storyguide)
    counts = (
        Event.objects.count(),
        Declaration.objects.count(),
        Weapon.objects.count(),
        SagaRecord.objects.count(),
    )
    forget(ars.saga)
    assert Event.objects.count() == 0
    saga = import_saga(json.loads(before))
    assert_same_but_ids(before, archive_of(saga, ars.storyguide))
    assert counts == (
        Event.objects.count(),
        Declaration.objects.count(),
        Weapon.objects.count(),
        SagaRecord.objects.count(),
    )
    assert counts[0] > 20 and counts[1] == 4 and counts[3] == 2


def test_a_d6_fight_and_chase_come_back_the_same_file_with_their_people_made_anew(d6):
    before = archive_of(d6.saga, d6.storyguide)
    people = [m["username"] for m in json.loads(before)["members"]]
    forget(d6.saga, people=people)
    saga = call_import(before)
    storyguide = get_user_model().objects.get(username=json.loads(before)["saga"]["storyguide"])
    assert not storyguide.has_usable_password()
    assert_same_but_ids(before, archive_of(saga, storyguide))
    assert (Fight.objects.count(), Chase.objects.count()) == (1, 1)
    assert Fighter.objects.count() >= 3 and Runner.objects.count() == 3


def call_import(raw: bytes, tmp_path=None) -> Saga:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".json") as handle:
        handle.write(raw)
        handle.flush()
        call_command("import_saga", handle.name, stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Saga.objects.order_by("-pk").first()


def test_the_imported_saga_plays_on_its_history_page(client, ars):
    before = archive_of(ars.saga, ars.storyguide)
    forget(ars.saga)
    saga = import_saga(json.loads(before))
    client.force_login(ars.alice)
    html = client.get(reverse("saga_history", args=[saga.pk])).content.decode()
    assert "Forest road" in html and "An old wound" in html


def test_new_rows_after_an_import_get_fresh_ids(ars):
    before = json.loads(archive_of(ars.saga, ars.storyguide))
    forget(ars.saga)
    saga = import_saga(before)
    newest = max(c["id"] for c in before["characters"])
    assert Character.objects.create(saga=saga, name="Newcomer").pk > newest


def test_an_imported_encounter_numbers_its_next_event_on_from_its_log(ars):
    before = json.loads(archive_of(ars.saga, ars.storyguide))
    forget(ars.saga)
    saga = import_saga(before)
    encounters = list(saga.encounters.all())
    assert encounters and any(encounter.last_seq for encounter in encounters)
    for encounter in encounters:
        assert encounter.last_seq == (encounter.events.aggregate(newest=Max("seq"))["newest"] or 0)
    encounter = next(encounter for encounter in encounters if encounter.last_seq)
    with transaction.atomic():  # a command's frame (the fight is over: only the archive's commands lock it)
        log = EventLog(lock_encounter(encounter.pk, encounter.version, after_end=True), ars.storyguide)
        log.append(CoreKind.COMBATANT_REMOVED, {"combatant": "1", "name": "Nobody"})
        (written,) = log.save()
    assert written.seq == encounter.last_seq + 1
    encounter.refresh_from_db()
    assert encounter.last_seq == written.seq


def test_a_players_archive_is_what_that_player_saw(ars):
    data = archive_data(ars.saga, ars.alice)
    assert data["audience"] == "players" and data["system_rows"] == {}
    events = data["encounters"][0]["events"]
    assert "seq" not in events[0] and "storyguide_only" not in events[0]
    hidden = Event.objects.filter(encounter=ars.encounter, storyguide_only=True).count()
    assert hidden and len(events) == Event.objects.filter(encounter=ars.encounter).count() - hidden
    sheets = {c["name"]: c["sheet"] for c in data["characters"]}
    assert (
        sheets["Sir Boris"]["soak"] == 5 and sheets["Bandit 1"] is None and sheets["Brother Anselm"] is None
    )
    assert "pending" not in data["encounters"][0] and "round_log" not in data["encounters"][0]


def test_the_storyguides_archive_keeps_the_hidden_and_the_rows(ars):
    data = archive_data(ars.saga, ars.storyguide)
    events = data["encounters"][0]["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert any(e["storyguide_only"] for e in events)
    assert len(data["system_rows"]["arsmagica.weapon"]) == 5
    assert {r["kind"] for r in data["records"]} == {"time_passed", "exertion"}


def test_the_archive_is_made_a_piece_at_a_time(ars):
    pieces = list(archive_chunks(reader_for(ars.storyguide, ars.saga.pk)))
    events = Event.objects.filter(encounter__saga=ars.saga).count()
    assert len(pieces) > events and max(len(piece) for piece in pieces) < 20_000


def test_outsiders_get_404(client, ars):
    client.force_login(ars.outsider)
    assert client.get(reverse("saga_archive_json", args=[ars.saga.pk])).status_code == 404
