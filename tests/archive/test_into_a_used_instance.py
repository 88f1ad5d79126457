"""An archive goes into an instance that has been used, its own included: every row gets a new id, every
reference follows it (foreign keys, and the ids written inside payloads, round logs and the systems' rows),
and the imported saga replays, charts and counts step for step as the original does."""

import json
import re
import tempfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from arsmagica import services as ars
from arsmagica.models import Declaration
from campaign.models import Character, Saga
from campaign.services import create_saga, stamp_npc_copies
from combat.archive.importer import import_saga
from combat.models import Combatant, Encounter, Event
from combat.services import add_combatants, create_encounter, remove_combatant
from combat.systems import of as copy_system
from tests.arsmagica.conftest import Table
from tests.personas import make_user
from tests.test_migrations import p168_declared, play_d6_fight_and_chase

from .conftest import archive_of, assert_same_but_ids

pytestmark = pytest.mark.django_db


def played_ars(monkeypatch) -> Table:
    """The p168 round with its Melee confirmed, undone and confirmed again with a modifier on Bandit 1's
    rolls, a correction, then round 2 opened and Bandit 3 taken out of the fight, and worn out running
    home."""
    table = p168_declared(monkeypatch)
    ids, encounter_id, sg = table.ids(), table.encounter.pk, table.storyguide
    ars.preview_phase(sg, encounter_id, table.v, "melee")
    ars.confirm_phase(sg, encounter_id, table.v, "melee")
    ars.undo_phase(sg, encounter_id, table.v, "The dagger was at Reach")
    ars.confirm_phase(sg, encounter_id, table.v, "melee", {"modifiers": {ids["bandit1"]: "2"}})
    ars.preview_phase(sg, encounter_id, table.v, "fatigue")
    ars.confirm_phase(sg, encounter_id, table.v, "fatigue", {"ease_factors": {ids["boris"]: "30"}})
    ars.correct(sg, encounter_id, table.v, table.anselm.pk, {"body_level": "hurt"}, "An old wound")
    ars.end_round(sg, encounter_id, table.v)  # round 2's declarations open
    remove_combatant(sg, encounter_id, table.v, table.bandits[2].pk)
    ars.record_exertion(sg, table.bandits[2].character_id, 1, "The run home", saga_id=table.saga.pk)
    return table


def played_d6(monkeypatch):
    """The d6 fight and chase, and a second encounter where Bandit 2 is put in and taken out again."""
    table = play_d6_fight_and_chase(monkeypatch)
    sg = table.storyguide
    encounter = create_encounter(sg, table.saga.pk, "The alley", table.saga.rule_system)
    characters = [c.pk for c in table.saga.characters.order_by("pk")]
    version = lambda: Encounter.objects.get(pk=encounter.pk).version  # noqa: E731
    added = add_combatants(sg, encounter.pk, version(), characters, "All")
    remove_combatant(sg, encounter.pk, version(), added[-1].pk)
    return table


def uploaded(client, user, raw: bytes) -> Saga:
    """The file through "Import a saga" on the sagas page, as `user`."""
    client.force_login(user)
    response = client.post(reverse("saga_import"), {"archive": SimpleUploadedFile("a.json", raw)})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "is imported with all its history" in client.get(response.url).content.decode()
    return Saga.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


def commanded(raw: bytes) -> Saga:
    """The file through `manage.py import_saga`."""
    with tempfile.NamedTemporaryFile(suffix=".json") as handle:
        handle.write(raw)
        handle.flush()
        call_command("import_saga", handle.name, stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Saga.objects.order_by("-pk").first()


def page(client, name: str, pk: int, query: str = "", combatants: dict | None = None) -> str:
    """A page with what differs between two copies of a saga taken out: the CSRF token, the saga's and
    encounters' ids in its links, combatants' ids in its element ids (as their place in the saga's log)."""
    html = client.get(reverse(name, args=[pk]) + query).content.decode()
    html = re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', r"\1", html)
    html = re.sub(r'(/sagas/|/encounters/|encounter=|encounter-|<option value=")\d+', r"\1N", html)
    places = combatants or {}
    named = r'(data-testid="(?:replay-(?:row|body|fatigue|initiative|runner|fighter)|exchange-roll)-)(-?\d+)"'
    return re.sub(named, lambda m: m[1] + places.get(m[2], m[2]) + '"', html)


def places(saga: Saga) -> dict[str, str]:
    """Each combatant's id in the saga's log → its place in the order they joined."""
    added = Event.objects.filter(encounter__saga=saga, kind="combatant_added").order_by("encounter_id", "seq")
    return {event.payload["combatant"]: f"C{index}" for index, event in enumerate(added)}


def assert_replays_alike(client, original: Saga, copy: Saga) -> None:
    """Every step of every encounter's replay, each encounter's charts, the saga's charts and statistics
    read the same (the copy under the original's name: its own says it was imported or copied)."""
    Saga.objects.filter(pk=copy.pk).update(name=original.name)
    pairs = list(zip(original.encounters.order_by("pk"), copy.encounters.order_by("pk"), strict=True))
    assert pairs
    old, new = places(original), places(copy)
    for before, after in pairs:
        seqs = list(before.events.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(after.events.order_by("seq").values_list("seq", flat=True))
        for seq in seqs:
            query = f"?seq={seq}"
            assert page(client, "encounter_replay", after.pk, query, new) == page(
                client, "encounter_replay", before.pk, query, old
            ), (before.name, seq)
        charts = "encounter_charts"
        assert page(client, charts, after.pk, "", new) == page(client, charts, before.pk, "", old)
    assert page(client, "saga_charts", copy.pk, "", new) == page(client, "saga_charts", original.pk, "", old)


@pytest.mark.parametrize("how", ["page", "command"])
def test_a_played_ars_magica_saga_goes_into_its_own_instance_and_replays_alike(client, monkeypatch, how):
    table = played_ars(monkeypatch)
    before = archive_of(table.saga, table.storyguide)
    copy = uploaded(client, table.storyguide, before) if how == "page" else commanded(before)
    assert copy.pk != table.saga.pk and Saga.objects.count() == 2
    assert_same_but_ids(before, archive_of(copy, table.storyguide))
    client.force_login(table.storyguide)
    assert_replays_alike(client, table.saga, copy)
    # Rows name their own saga's rows only: nothing of the copy points into the original.
    assert not Combatant.objects.filter(encounter__saga=copy).exclude(character__saga=copy).exists()
    declarations = Declaration.objects.filter(encounter__saga=copy)
    assert declarations.exists()
    assert not declarations.exclude(combatant__encounter__saga=copy).exists()
    assert not declarations.exclude(weapon__character__saga=copy).exists()


@pytest.mark.parametrize("how", ["page", "command"])
def test_a_played_d6_saga_goes_into_its_own_instance_and_replays_alike(client, monkeypatch, how):
    table = played_d6(monkeypatch)
    before = archive_of(table.saga, table.storyguide)
    copy = uploaded(client, table.storyguide, before) if how == "page" else commanded(before)
    assert copy.pk != table.saga.pk
    assert_same_but_ids(before, archive_of(copy, table.storyguide))
    client.force_login(table.storyguide)
    assert_replays_alike(client, table.saga, copy)


def test_the_removed_combatant_is_named_apart_from_every_row(monkeypatch):
    table = played_ars(monkeypatch)
    removed = str(table.bandits[2].pk)
    copy = import_saga(json.loads(archive_of(table.saga, table.storyguide)))
    events = Event.objects.filter(encounter__saga=copy, kind="combatant_removed")
    (gone,) = [e.payload["combatant"] for e in events]
    assert int(gone) == -int(removed)
    added = Event.objects.filter(encounter__saga=copy, kind="combatant_added")
    assert added.filter(payload__combatant=gone).exists()


def test_a_copy_names_its_own_characters_where_a_combatant_joined(monkeypatch):
    """Found by the model of the table (tests/model/): duplicate, then the storyguide records exertion for
    Sir Boris in the copy; the copy's `combatant_added` still named the original's character, so its
    replay found nobody to tire and no longer matched the live table."""
    table = played_ars(monkeypatch)
    copy = import_saga(json.loads(archive_of(table.saga, table.storyguide)))
    boris = copy.characters.get(name="Sir Boris")
    added = Event.objects.get(encounter__saga=copy, kind="combatant_added", payload__name="Sir Boris")
    assert added.payload["character"] == added.payload["levels"]["character"] == boris.pk
    encounter = copy.encounters.get()
    ars.record_exertion(
        table.storyguide,
        boris.pk,
        1,
        "a day's march",
        encounter_id=encounter.pk,
        expected_version=encounter.version,
    )
    combatant = encounter.combatants.get(character=boris)
    replayed = copy_system(copy).replay.state_at(list(encounter.events.order_by("seq"))).facts()
    boris.refresh_from_db()
    assert replayed["fighters"][str(combatant.pk)][0] == boris.sheet["fatigue_level"]


def test_the_same_file_twice_makes_two_sagas(client, monkeypatch):
    table = played_ars(monkeypatch)
    before = archive_of(table.saga, table.storyguide)
    first, second = uploaded(client, table.storyguide, before), uploaded(client, table.storyguide, before)
    assert len({table.saga.pk, first.pk, second.pk}) == 3
    assert first.characters.count() == second.characters.count() == table.saga.characters.count()
    ids = [set(saga.characters.values_list("pk", flat=True)) for saga in (first, second)]
    assert not ids[0] & ids[1]
    logs = [Event.objects.filter(encounter__saga=saga).count() for saga in (table.saga, first, second)]
    assert logs[0] == logs[1] == logs[2]
    assert "the same file imported twice makes two" in client.get(reverse("saga_list")).content.decode()


def test_stamped_copies_keep_their_template(ars_saga_with_copies):
    saga, storyguide = ars_saga_with_copies
    copy = import_saga(json.loads(archive_of(saga, storyguide)))
    template = copy.characters.get(name="Bandit")
    assert sorted(template.stamped_copies.values_list("name", flat=True)) == ["Bandit 1", "Bandit 2"]
    assert set(Character.objects.filter(saga=copy).fighters().values_list("name", flat=True)) == {
        "Bandit 1",
        "Bandit 2",
    }


@pytest.fixture
def ars_saga_with_copies(db):
    storyguide = make_user("sg")
    saga = create_saga(storyguide, name="Stamps", rule_system="arsmagica")
    stamp_npc_copies(Character.objects.create(saga=saga, name="Bandit", is_npc=True), 2)
    return saga, storyguide


def test_duplicate_this_saga_makes_a_copy_by_export_and_import_once(client, monkeypatch):
    table = played_ars(monkeypatch)
    client.force_login(table.storyguide)
    html = client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    assert 'data-testid="duplicate-saga"' in html
    key = re.search(r'name="command_key" value="(\w+)"', html[html.index('id="duplicate"') :])[1]
    url = reverse("saga_duplicate", args=[table.saga.pk])
    first = client.post(url, {"command_key": key})
    again = client.post(url, {"command_key": key})  # a double click: the same page, nothing made twice
    assert first.status_code == again.status_code == 302 and first.url == again.url
    copy = Saga.objects.exclude(pk=table.saga.pk).get()
    today = timezone.localdate()
    assert copy.name == f"Test saga (copy {today.day} {today:%b})" and copy.storyguide == table.storyguide
    assert copy.created_at > table.saga.created_at
    assert set(copy.memberships.values_list("user__username", "role")) == set(
        table.saga.memberships.values_list("user__username", "role")
    )
    assert "is a copy of" in client.get(first.url).content.decode()
    assert_replays_alike(client, table.saga, copy)


def test_only_the_storyguide_duplicates(client, monkeypatch):
    table = played_ars(monkeypatch)
    client.force_login(table.alice)
    html = client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    assert 'data-testid="duplicate-saga"' not in html
    assert client.post(reverse("saga_duplicate", args=[table.saga.pk])).status_code == 403
    client.force_login(table.outsider)
    assert client.post(reverse("saga_duplicate", args=[table.saga.pk])).status_code == 404
    assert Saga.objects.count() == 1
