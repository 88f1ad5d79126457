"""Secrets follow the seat (issue 38, items 3 and 6), in both rule systems: a storyguide who does not hold an
encounter's seat (the saga's lead, here) reads it as a player does in every download and page of the archive,
is refused its commands and is sent the players' frames of it; whoever holds it reads the storyguide's
version. An encounter from before a hand-over shows each what their place let them see at each step: the one
who handed the seat over keeps the storyguide's version of the steps they ran, and reads the rest as a player.

Dora, who plays no character, is made one of the saga's storyguides; the saga's lead (`sg`) ran the played
round. Each NPC's dice, scores and totals in the stored log are set to numbers found nowhere else
(`test_export_privacy.marked`), so a page or file leaks one exactly when its number is in it."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from arsmagica import services as ars
from campaign import services as campaign_services
from campaign.models import Membership, NpcRolls, Saga
from combat import services
from combat.archive.checks import Refused
from combat.archive.importer import import_saga
from combat.archive.replay import reader_events
from combat.models import Encounter, Event, SagaRecord
from tests.test_migrations import p168_declared

from .conftest import archive_data
from .test_export_privacy import MARKED, exports, marked

pytestmark = pytest.mark.django_db

SEEN = ("dice", "scores", "totals")  # every part of an NPC's roll is behind the screen at "results only"


def dora_of(table):
    """Dora, a member who plays no character, made one of the saga's storyguides by its lead."""
    dora = get_user_model().objects.create_user("dora")
    Membership.objects.create(saga=table.saga, user=dora, role=Membership.Role.PLAYER)
    campaign_services.make_storyguide(table.saga, dora, by=table.storyguide)
    return dora


def pages(saga, user) -> dict[str, str]:
    """Every page and file of the archive as `user` gets it: the exports, the history page, the saga's
    charts, and each encounter's replay (every step), charts and print view."""
    client = Client()
    client.force_login(user)
    got = exports(saga, user)
    for name, url in (("history", "saga_history"), ("saga charts", "saga_charts")):
        response = client.get(reverse(url, args=[saga.pk]))
        assert response.status_code == 200, name
        got[name] = response.content.decode()
    for encounter in saga.encounters.all():
        response = client.get(reverse("encounter_charts", args=[encounter.pk]))
        assert response.status_code == 200
        got[f"charts {encounter.pk}"] = response.content.decode()
        for event in Event.objects.filter(encounter=encounter):
            response = client.get(reverse("encounter_replay", args=[encounter.pk]), {"seq": event.seq})
            assert response.status_code == 200
            got[f"replay {encounter.pk} #{event.seq}"] = response.content.decode()
    return got


@pytest.fixture(params=["ars", "d6"])
def ran_by_dora(request):
    """A played round whose encounter Dora ran from its start (its seat hers, no hand-over in its log), every
    NPC roll marked, the saga's setting "results only"; no record between encounters (the troupe's: below)."""
    table = request.getfixturevalue(request.param)
    table.dora = dora_of(table)
    marked(table)
    SagaRecord.objects.filter(saga=table.saga).delete()
    Encounter.objects.filter(saga=table.saga).update(seat_holder=table.dora)
    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save()
    return table


def test_the_lead_without_the_seat_reads_every_page_and_download_as_a_player(ran_by_dora):
    saga = ran_by_dora.saga
    for name, text in pages(saga, saga.storyguide).items():
        shown = [part for part in SEEN if str(MARKED[part]) in text]
        assert not shown, f"the lead's {name} shows an NPC's {shown} of an encounter whose seat is Dora's"
    for name, text in exports(saga, ran_by_dora.dora).items():
        if name.endswith(".json"):
            assert all(str(number) in text for number in MARKED.values()), f"Dora's {name} lacks a roll"


def test_the_lead_without_the_seat_gets_no_storyguide_only_entry_nor_step_numbers(ran_by_dora):
    saga = ran_by_dora.saga
    secret = Event.objects.filter(encounter__saga=saga, storyguide_only=True).count()
    everyone = Event.objects.filter(encounter__saga=saga, storyguide_only=False).count()
    lead = archive_data(saga, saga.storyguide)
    assert lead["audience"] == "players"
    (encounter,) = lead["encounters"]
    assert len(encounter["events"]) == everyone and not any("seq" in e for e in encounter["events"])
    assert "pending" not in encounter and "version" not in encounter and lead["system_rows"] == {}
    assert encounter["seat_holder"] == "dora" and encounter["hand_overs"] == []
    assert lead["saga"]["storyguides"] == [saga.storyguide.get_username(), "dora"]
    dora = archive_data(saga, ran_by_dora.dora)
    assert dora["audience"] == "storyguide", "Dora holds every seat of the saga: hers is the whole archive"
    (held,) = dora["encounters"]
    assert len(held["events"]) == everyone + secret and all("seq" in e for e in held["events"])
    assert "pending" in held
    history = json.loads(exports(saga, saga.storyguide)["history.json"])
    assert not any("seq" in e for e in history["encounters"][0]["events"])
    with pytest.raises(Refused):
        import_saga(lead, storyguide=saga.storyguide)
    audience, replayed = reader_events(saga.encounters.get(), saga.storyguide)
    assert audience == "players" and not any(e.whole for e in replayed)
    assert len(replayed) == everyone


def test_the_recaps_name_the_storyguide_who_ran_it(ran_by_dora):
    saga = ran_by_dora.saga
    for user in (saga.storyguide, ran_by_dora.dora, ran_by_dora.alice):
        got = exports(saga, user)
        assert "_Storyguide: dora_" in got["recap.md"]
        assert "Storyguide: dora." in got["evening.md"]


def test_the_saga_records_are_the_troupes(ars):
    """Time passing between encounters is any of the saga's storyguides' to record: each of them reads the
    saga's records whole, a player the players' version."""
    marked(ars)
    dora = dora_of(ars)
    Encounter.objects.filter(saga=ars.saga).update(seat_holder=dora)
    ars.saga.npc_rolls = NpcRolls.RESULTS
    ars.saga.save()
    for user, whole in ((ars.storyguide, True), (dora, True), (ars.alice, False)):
        history = json.loads(exports(ars.saga, user)["history.json"])
        assert (str(MARKED["dice"]) in json.dumps(history["between_encounters"])) is whole, user


@pytest.fixture(params=["ars", "d6"])
def handed(request, monkeypatch):
    """A fight the lead ran, its seat then handed to Dora, who runs on (Ars Magica: the p168 fight declared
    and its Initiative rolled by the lead, Melee resolved by Dora; d6: the fight and chase, then a bandit's
    faces typed in), every NPC roll marked, "results only"."""
    if request.param == "ars":
        table = p168_declared(monkeypatch)
    else:
        table = request.getfixturevalue(request.param)
    table.dora = dora_of(table)
    encounter = Encounter.objects.get(pk=table.encounter.pk)
    services.hand_over_seat(table.storyguide, encounter.pk, encounter.version, "dora", "Dora runs the chase")
    table.handed_at = Encounter.objects.get(pk=encounter.pk).last_seq
    if request.param == "ars":
        ars.preview_phase(table.dora, encounter.pk, table.v, "melee")
        ars.confirm_phase(table.dora, encounter.pk, table.v, "melee")
    marked(table)
    SagaRecord.objects.filter(saga=table.saga).delete()
    table.saga.npc_rolls = NpcRolls.RESULTS
    table.saga.save()
    return table


def entries(saga, user, name) -> list[dict]:
    """The encounter's entries in the user's history.json or archive.json."""
    (encounter,) = json.loads(exports(saga, user)[name])["encounters"]
    return encounter["events"]


def test_the_one_who_handed_the_seat_over_keeps_what_they_ran_and_reads_the_rest_as_a_player(handed):
    saga, at = handed.saga, handed.handed_at
    last = Encounter.objects.get(pk=handed.encounter.pk).last_seq
    assert last > at, "the log goes on after the hand-over"
    for name in ("history.json", "archive.json"):
        lead = entries(saga, saga.storyguide, name)
        numbered = [e["seq"] for e in lead if "seq" in e]
        assert numbered == list(range(1, at)), f"the lead's {name} numbers the steps they ran, and only those"
        before, after = json.dumps(lead[: at - 1]), json.dumps(lead[at - 1 :])
        assert any(str(number) in before for number in MARKED.values()), f"the lead's {name} before"
        assert not any(str(number) in after for number in MARKED.values()), f"the lead's {name} after"
        dora = entries(saga, handed.dora, name)
        assert [e["seq"] for e in dora] == list(range(1, last + 1)), "the holder reads every step whole"
        assert not any("seq" in e for e in entries(saga, handed.alice, name))
    audience, replayed = reader_events(Encounter.objects.get(pk=handed.encounter.pk), saga.storyguide)
    assert audience == "players" and [e.seq for e in replayed if e.whole] == list(range(1, at))
    client = Client()
    client.force_login(saga.storyguide)
    latest = client.get(reverse("encounter_replay_latest", args=[handed.encounter.pk])).content.decode()
    newest = Event.objects.filter(encounter=handed.encounter.pk, storyguide_only=False).latest("seq").seq
    held = Event.objects.filter(encounter=handed.encounter.pk, seq__lt=at).latest("seq").seq
    assert f'data-seq="{max(newest, held)}"' in latest, "the replay's newest step is the lead's newest"
    (encounter,) = archive_data(saga, handed.alice)["encounters"]
    (given,) = encounter["hand_overs"]
    lead = saga.storyguide.get_username()
    assert given == {**given, "by": lead, "was": lead, "to": "dora", "reason": "Dora runs the chase"}
    assert "seq" not in given, "a player reads no step's number"
    recap = exports(saga, handed.alice)["recap.md"]
    assert f"_Storyguide: {lead}, then dora (" in recap and ": Dora runs the chase)_" in recap


def test_a_troupe_saga_moves_with_its_seats(handed):
    """Dora holds every seat: her archive is the storyguide's, and an import elsewhere (people matched by
    username; the uploader takes the lead's place) keeps the troupe, the seat and the hand-over's steps."""
    data = archive_data(handed.saga, handed.dora)
    assert data["audience"] == "storyguide"
    other = get_user_model().objects.create_user("zed")
    saga = import_saga(data, storyguide=other)
    encounter = saga.encounters.get()
    assert encounter.seat_holder.get_username() == "dora"
    troupe = set(saga.memberships.filter(role="storyguide").values_list("user__username", flat=True))
    assert troupe == {"zed", "dora"} and saga.storyguide == other
    handed_over = encounter.events.get(kind="seat_handed_over")
    assert handed_over.payload["was"] == "zed" and handed_over.payload["to"] == "dora", "the lead's place"
    lead = [e for e in reader_events(encounter, other)[1] if e.whole]
    assert [e.seq for e in lead] == list(range(1, handed.handed_at)), "the steps the lead ran stay theirs"


def test_a_storyguide_made_a_player_after_the_end_hands_the_lead_its_seat_and_the_saga_still_moves(handed):
    """Dora ran the encounter to its end, then the lead makes her a player again: the ended encounter's seat
    passes to the lead too (a seat left with a player gave her its controls, and the holder's archive was
    no import's; the soak's seed 2911202719), she keeps the steps she ran, and the lead's archive imports."""
    encounter = Encounter.objects.get(pk=handed.encounter.pk)
    services.end_encounter(handed.dora, encounter.pk, encounter.version)
    campaign_services.remove_storyguide(handed.saga, handed.dora, by=handed.saga.storyguide)
    encounter.refresh_from_db()
    assert encounter.seat_holder == handed.saga.storyguide
    dora = [e.seq for e in reader_events(encounter, handed.dora)[1] if e.whole]
    assert dora and dora[0] == handed.handed_at, "the steps she ran are hers to read whole"
    data = archive_data(handed.saga, handed.saga.storyguide)
    assert data["audience"] == "storyguide"
    saga = import_saga(data, storyguide=get_user_model().objects.create_user("zed"))
    assert saga.encounters.get().seat_holder.get_username() == "zed"


def test_a_file_that_seats_someone_outside_the_troupe_is_refused(handed):
    data = archive_data(handed.saga, handed.dora)
    data["encounters"][0]["seat_holder"] = "alice"
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == "encounters[0].seat_holder"
    data["encounters"][0]["seat_holder"] = handed.saga.storyguide.get_username()
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == "encounters[0].seat_holder"
    assert "hands the seat to dora" in str(refusal.value)
    data["encounters"][0]["seat_holder"] = "dora"
    data["encounters"][0]["hand_overs"][0]["to"] = handed.saga.storyguide.get_username()
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == "encounters[0].hand_overs[0].to"
    data["encounters"][0]["hand_overs"] = []
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == "encounters[0].hand_overs"
    data["encounters"][0]["hand_overs"] = [{"round": 1}]
    data["saga"]["storyguides"] = [handed.saga.storyguide.get_username(), "alice"]
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == "saga.storyguides[1]"


def test_an_archive_from_before_troupe_play_seats_its_lead(handed):
    """A file with no troupe and no seats (format 2 as written before issue 38) imports as before: every
    encounter's seat its lead's, unless its log hands it on."""
    data = archive_data(handed.saga, handed.dora)
    del data["saga"]["storyguides"]
    for encounter in data["encounters"]:
        del encounter["seat_holder"], encounter["hand_overs"]
    saga = import_saga(data)
    assert saga.encounters.get().seat_holder.get_username() == "dora"  # its log hands it to her
    ars_events = [e for e in data["encounters"][0]["events"] if e["kind"] != "seat_handed_over"]
    data["encounters"][0]["events"] = [{**e, "seq": n} for n, e in enumerate(ars_events, start=1)]
    saga = import_saga(data)
    assert saga.encounters.get().seat_holder == saga.storyguide


def test_a_storyguide_without_the_seat_is_refused_its_commands_in_both_systems(handed):
    """The lead without the seat: every storyguide's command of the encounter is refused and writes nothing,
    through its page (the seat holder is named), the core's (end) and the system's. Its housekeeping (rename,
    archive, delete) is the holder's or the lead's: the lead renames it (tests/campaign/test_troupe.py)."""
    table = handed
    encounter = Encounter.objects.get(pk=table.encounter.pk)
    client = Client()
    client.force_login(table.storyguide)
    data = {"expected_version": encounter.version, "name": "Renamed"}
    urls = [reverse("end_encounter", args=[encounter.pk])]
    if table.saga.rule_system == "arsmagica":
        urls.append(reverse("arsmagica:preview_phase", args=[encounter.pk]))
    else:
        urls.append(reverse("d6:set_value", args=[encounter.pk]))
    for url in urls:
        refused = client.post(url, data, HTTP_HX_REQUEST="true")
        assert refused.status_code in (403, 422), url
        after = Encounter.objects.get(pk=encounter.pk)
        now = (after.version, after.last_seq, after.name)
        assert now == (encounter.version, encounter.last_seq, encounter.name), url
    refused = client.post(urls[-1], data, HTTP_HX_REQUEST="true")
    assert b"dora holds this encounter" in refused.content


def test_the_host_moves_a_troupe_saga_whose_seats_are_split(handed, tmp_path):
    """Two encounters, one whose seat is Dora's and one the lead's: no member holds every seat, so no member's
    archive can be imported; the host's `manage.py export_saga` writes the whole one, and `import_saga`
    rebuilds the saga with its troupe and both seats."""
    saga = handed.saga
    services.create_encounter(saga.storyguide, saga.pk, "The lead's own", saga.rule_system)
    for user in (saga.storyguide, handed.dora):
        assert archive_data(saga, user)["audience"] == "players"
    path = tmp_path / "saga.json"
    call_command("export_saga", str(saga.pk), str(path), stdout=io.StringIO())
    data = json.loads(path.read_text())
    assert data["audience"] == "storyguide" and data["saga"]["storyguides"][1:] == ["dora"]
    assert [e["seat_holder"] for e in data["encounters"]] == ["dora", saga.storyguide.get_username()]
    call_command("import_saga", str(path), stdout=io.StringIO())
    copy = Saga.objects.exclude(pk=saga.pk).get()
    holders = [e.seat_holder.get_username() for e in copy.encounters.order_by("pk")]
    assert holders == ["dora", saga.storyguide.get_username()]
    for asked in ("999999", "x"):
        with pytest.raises(CommandError) as refusal:
            call_command("export_saga", asked, stdout=io.StringIO())
        assert refusal.value.returncode == 2 and "no saga" in str(refusal.value)
