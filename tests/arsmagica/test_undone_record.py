"""An undone step counts nowhere and is shown as undone wherever it is listed (issue 29, bug 2): Melee
confirmed, undone and confirmed again counts once in the saga's numbers and the encounter's timeline,
and its first confirmation's lines stay in the log, marked undone with the undo's reason."""

import re

import pytest
from django.urls import reverse

from arsmagica import services
from combat import systems
from combat.archive.charts import tell
from combat.models import Event
from combat.undo import taken_back

from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db

REASON = "Wrong botch dice for Bandit 1"


def melee_twice(table, scripted_dice) -> list[Event]:
    """Melee confirmed, undone with a reason, and confirmed again on the same dice; the log after it."""
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, REASON)
    services.confirm_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    return list(Event.objects.filter(encounter=table.encounter).order_by("seq"))


def numbers_of(html: str, name: str) -> list[str]:
    row = re.search(rf'<th scope="row">{name}</th>(.*?)</tr>', html, re.S).group(1)
    return re.findall(r"<td\s*>(\d+)</td>", row)


def test_a_phase_undone_and_confirmed_again_counts_once_in_the_saga_numbers(client, table, scripted_dice):
    events = melee_twice(table, scripted_dice)
    boris = str(table.boris.pk)
    made = [e for e in events if e.kind == "attack" and e.payload["attacker"] == boris]
    assert len(made) == 6  # the log keeps both confirmations' blows: three hits, three wounds each
    client.force_login(table.alice)
    html = client.get(reverse("saga_charts", args=[table.saga.pk])).content.decode()
    attacks, landed, dealt = numbers_of(html, "Sir Boris")[:3]
    assert (attacks, landed, dealt) == ("3", "3", "3")  # not 6, 6 and 6


def test_a_phase_undone_and_confirmed_again_marks_its_timeline_once(client, table, scripted_dice):
    events = melee_twice(table, scripted_dice)
    undo = next(e for e in events if e.kind == "phase_undone")
    story = tell(systems.of(table.saga), events)
    hits = [e.seq for e in events if e.kind == "attack" and e.payload["result"] == "hit"]
    assert len(hits) == 10
    assert [m["seq"] for m in story.marks if m["mark"] == "hit"] == [seq for seq in hits if seq > undo.seq]
    assert len([m for m in story.marks if m["mark"] == "wound"]) == 3
    client.force_login(table.storyguide)
    html = client.get(reverse("encounter_charts", args=[table.encounter.pk])).content.decode()
    assert html.count('class="mark mark-hit"') == 5 and html.count('class="mark mark-wound"') == 3


def test_an_undo_takes_back_the_phase_and_the_empty_ones_after_it_and_no_more(table, scripted_dice):
    events = melee_twice(table, scripted_dice)
    undo = next(e for e in events if e.kind == "phase_undone")
    undone = taken_back(systems.of(table.saga), events)
    back = [e for e in events if e.seq in undone]
    assert {undone[e.seq].seq for e in back} == {undo.seq}
    assert [(e.kind, e.phase) for e in back] == [
        *[("attack", "melee")] * 5,
        ("skipped", "melee"),
        ("phase_resolved", "melee"),
        ("phase_resolved", "second_missile"),
        ("phase_resolved", "magic"),
    ]
    assert all(e.seq < undo.seq for e in back)  # the second confirmation stands


def test_a_step_confirmed_again_and_undone_again_is_taken_back_each_time(table, scripted_dice):
    melee_twice(table, scripted_dice)
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Still wrong")
    events = list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    first, second = [e for e in events if e.kind == "phase_undone"]
    undone = taken_back(systems.of(table.saga), events)
    attacks = [e for e in events if e.kind == "attack"]
    assert [undone[e.seq].seq for e in attacks] == [first.seq] * 5 + [second.seq] * 5
    assert first.seq not in undone and second.seq not in undone  # an undo is no result: it stands


def test_undone_lines_are_marked_in_the_history_the_print_view_and_the_encounter_log(
    client, table, scripted_dice
):
    events = melee_twice(table, scripted_dice)
    boris = str(table.boris.pk)
    first_blow, *_, second_blow = [e for e in events if e.kind == "attack" and e.payload["attacker"] == boris]
    pages = {
        "history": reverse("saga_history", args=[table.saga.pk]),
        "print": reverse("encounter_record", args=[table.encounter.pk]),
        "encounter": reverse("encounter_page", args=[table.encounter.pk]),
        "replay": reverse("encounter_replay", args=[table.encounter.pk]) + f"?seq={first_blow.seq}",
    }
    for user in (table.storyguide, table.alice):
        client.force_login(user)
        for where, url in pages.items():
            html = client.get(url, follow=True).content.decode()
            found = re.search(rf'<li id="event-{first_blow.seq}"[^>]*>.*?</li>', html, re.S)
            assert found, (where, user.username)
            line = found.group(0)
            assert 'class="event event-attack undone"' in line, where
            assert REASON in line and 'data-testid="undone-note"' in line, where
            if where == "replay":  # one step at a time: the later blow is a link, not marked
                assert f'class="replay-after"><a href="?seq={second_blow.seq}"' in html
                continue
            again = re.search(rf'<li id="event-{second_blow.seq}"[^>]*>.*?</li>', html, re.S).group(0)
            assert "undone" not in again, where


def test_the_replay_marks_the_steps_an_undo_took_back(client, table, scripted_dice):
    events = melee_twice(table, scripted_dice)
    undo = next(e for e in events if e.kind == "phase_undone")
    client.force_login(table.alice)
    url = reverse("encounter_replay", args=[table.encounter.pk])
    html = client.get(url, {"seq": undo.seq}).content.decode()
    for event in events:
        if event.kind == "attack":
            marked = f'class="replay-{"before" if event.seq < undo.seq else "after"} undone"'
            assert (marked in html.split(f'href="?seq={event.seq}"')[0][-60:]) == (event.seq < undo.seq)


def test_undone_lines_are_marked_in_the_recap_and_the_history_export(client, table, scripted_dice):
    melee_twice(table, scripted_dice)
    for user in (table.storyguide, table.alice):
        client.force_login(user)
        recap = b"".join(client.get(reverse("saga_recap", args=[table.saga.pk])).streaming_content).decode()
        blows = [line for line in recap.splitlines() if "**Sir Boris** → **Bandit 1**" in line]
        assert len(blows) == 2
        assert "Melee: ~~" in blows[0] and f"_(undone: {REASON})_" in blows[0]
        assert "undone" not in blows[1]
        exported = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
        attacks = [e for e in exported["encounters"][0]["events"] if e["kind"] == "attack"]
        assert attacks[0]["undone"]["reason"] == REASON and "undone" not in attacks[-1]


def test_the_timeline_marks_each_undo_with_its_reason_as_it_marks_a_correction(client, table, scripted_dice):
    """Issue 35, item 9: the encounter's timeline has an undo's mark, for the storyguide and a player, at the
    undo's step, saying what it undid and why; an undo confirmed again and undone again is two marks."""
    melee_twice(table, scripted_dice)
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Still wrong")
    events = list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    undos = [e for e in events if e.kind == "phase_undone"]
    story = tell(systems.of(table.saga), events)
    marked = [m for m in story.marks if m["mark"] == "undo"]
    assert [m["seq"] for m in marked] == [u.seq for u in undos]
    assert [m["step"] for m in marked] == [events.index(u) + 1 for u in undos]
    assert [m["words"] for m in marked] == [f"undid R1 · Melee: {REASON}", "undid R1 · Melee: Still wrong"]
    for user in (table.storyguide, table.alice):
        client.force_login(user)
        html = client.get(reverse("encounter_charts", args=[table.encounter.pk])).content.decode()
        assert html.count('class="mark mark-undo"') == 2, user.username
        assert ">Undos</text>" in html and "Timeline of hits, wounds, botches, corrections and undos" in html
        row = r"<tr><td><a [^>]*>\d+</a></td>\s*<td>1</td><td>Undos</td><td>([^<]*)</td><td>([^<]*)</td>"
        assert re.findall(row, html) == [
            ("The storyguide", f"undid R1 · Melee: {REASON}"),
            ("The storyguide", "undid R1 · Melee: Still wrong"),
        ]
