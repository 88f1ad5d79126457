"""Privacy follows a hand-over (issue 35, item 4): what a player's version of an entry shows is fixed by who
played its character when it was written (combat/played.py, docs/replay.md "Who played whom"). Alice
declares for Sir Boris; the storyguide gives him to Bob mid-round; Bob declares for him again; declarations
close. Alice keeps her declaration and does not get Bob's; Bob gets his and not hers: in history.json,
archive.json, the replay and every reading of the archive (the history page, the recap, the print view and
the charts all read `Reader.shown`). A log written before the log named its players reads the same."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services as ars
from campaign import services as campaign
from campaign.models import Character
from combat.archive.reading import reader_for
from combat.archive.replay import reader_events
from combat.audience import PLAYERS
from combat.models import Event
from tests.arsmagica.conftest import Table
from tests.audience_places import line_of, pushed

pytestmark = pytest.mark.django_db

SWORD_AT_REACH = {"action": "attack", "range": "reach"}


def declare_boris(table: Table, user, action: str) -> None:
    values = {"action": action, "engage": []}
    if action == "attack":
        values = {**SWORD_AT_REACH, "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    ars.declare(user, table.encounter.pk, table.boris.pk, values)


@pytest.fixture
def handed(monkeypatch):
    """Alice declares for Sir Boris (an attack), he is handed to Bob, Bob declares for him (something else),
    everyone else declares and declarations close."""
    table = Table()
    ars.open_declarations(table.storyguide, table.encounter.pk, table.v)
    declare_boris(table, table.alice, "attack")
    campaign.hand_over(table.boris_character, table.bob, by=table.storyguide)
    declare_boris(table, table.bob, "other")
    ars.declare(table.bob, table.encounter.pk, table.anselm.pk, {"action": "other", "engage": []})
    for bandit in table.bandits:
        ars.declare(table.storyguide, table.encounter.pk, bandit.pk, {"action": "other", "engage": []})
    ars.close_declarations(table.storyguide, table.encounter.pk, table.v)
    return table


def boris_entries(table: Table, events) -> dict[str, object]:
    """Sir Boris's two declarations and his row of the Movement event, as a reader's events show them."""
    boris = str(table.boris.pk)
    rows = {}
    for event in events:
        row = event if isinstance(event, dict) else {"kind": event.kind, "payload": event.payload}
        kind, payload = row["kind"], row["payload"]
        if kind == "declared" and payload["combatant"] == boris:
            rows.setdefault("declared", []).append(payload.get("summary"))
        if kind == "movement":
            rows["movement"] = next(
                (row.get("action") for row in payload["declarations"] if row["combatant"] == boris), None
            )
    return rows


def expect(person: str, rows: dict) -> None:
    """Alice reads her declaration and not Bob's; Bob his and not hers, and the Movement row he played."""
    first, second = rows["declared"]
    mine, theirs = (first, second) if person == "alice" else (second, first)
    assert mine is not None and theirs is None, (person, rows)
    assert rows["movement"] == (None if person == "alice" else "other"), (person, rows)


def exported(user, table: Table, name: str) -> list[dict]:
    client = Client()
    client.force_login(user)
    response = client.get(reverse(name, args=[table.saga.pk]))
    body = b"".join(response.streaming_content) if response.streaming else response.content
    encounter = next(e for e in json.loads(body)["encounters"] if e["id"] == table.encounter.pk)
    return encounter["events"]


@pytest.mark.parametrize("export", ["saga_history_json", "saga_archive_json"])
def test_each_player_downloads_the_declarations_made_while_they_played(handed, export):
    table = handed
    for person in ("alice", "bob"):
        expect(person, boris_entries(table, exported(getattr(table, person), table, export)))
    storyguide = boris_entries(table, exported(table.storyguide, table, export))
    assert storyguide["declared"][0] and storyguide["declared"][1] and storyguide["movement"] == "other"


def test_the_replay_and_every_reading_of_the_archive_follow_who_played(handed):
    table = handed
    for person in ("alice", "bob"):
        user = getattr(table, person)
        audience, replayed = reader_events(table.encounter, user)
        assert audience == PLAYERS
        expect(person, boris_entries(table, replayed))
        reader = reader_for(user, table.saga.pk)
        expect(person, boris_entries(table, [reader.shown(e) for e in reader.events()]))


def test_the_players_frame_is_everyones_and_no_ones_own(handed):
    table = handed
    frame = pushed(table.encounter, PLAYERS)
    assert "Sir Boris</b> is now played by <b>bob</b> (was alice’s)." in frame
    declared = Event.objects.filter(encounter=table.encounter, kind="declared", payload__name="Sir Boris")
    for event in declared:
        assert "Sir Boris</b> has declared." in line_of(frame, event.seq)  # who, never what


def test_a_log_that_does_not_name_its_players_reads_as_played_by_whoever_did_before_the_hand_over(handed):
    """Written before the log named players: the first hand-over's `was` (in the log, else in the saga's
    records) says who played him until then."""
    table = handed
    for event in Event.objects.filter(encounter=table.encounter, kind="combatant_added"):
        event.payload.pop("player", None)
        event.save(update_fields=["payload"])
    for person in ("alice", "bob"):
        expect(person, boris_entries(table, exported(getattr(table, person), table, "saga_history_json")))


def test_a_hand_over_after_the_end_changes_no_ones_record(handed):
    """The fight ends; Sir Boris goes back to Alice: the ended encounter's record is as it was for both."""
    table = handed
    ars.end_encounter(table.storyguide, table.encounter.pk, table.v)
    before = {p: exported(getattr(table, p), table, "saga_history_json") for p in ("alice", "bob")}
    campaign.hand_over(Character.objects.get(pk=table.boris_character.pk), table.alice, by=table.storyguide)
    assert not Event.objects.filter(encounter=table.encounter, kind="handed_over", payload__player="alice")
    for person in ("alice", "bob"):
        assert exported(getattr(table, person), table, "saga_history_json") == before[person]
        expect(person, boris_entries(table, before[person]))
