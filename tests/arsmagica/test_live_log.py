"""The live encounter page's log reads the record's rules (issue 29, bugs 2 and 6 on the live page): its
lines, on the page, in a pushed frame and in a reconnect's replay, name each combatant as the log named
them (combat.names), a removed one too; an undo's frame carries again the lines it took back, marked
undone with its reason, so a page already open strikes them through (live.js), and so does a replay."""

import re
from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arsmagica import services
from combat import systems
from combat.audience import AUDIENCES, STORYGUIDE
from combat.live import FRAME_TYPE, broadcast, replay_frame, undo_log
from combat.models import Encounter, Event
from combat.names import NAMING
from combat.undo import taken_back

from .test_record_names import attack_by, bandit_left, named_attacks  # noqa: F401 (the fixture)
from .test_replay import seeded  # noqa: F401 (the fixture)
from .test_services import resolve, through_movement
from .test_undone_record import REASON

pytestmark = pytest.mark.django_db


def frames_of(table, command, capture) -> dict[str, str]:
    """Each audience's frame of one command, as its push (run at commit) handed it to the channel layer."""
    sent = {}

    async def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent[group.rsplit("-", 1)[1]] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=group_send):
        with capture(execute=True):
            command()
    return sent


def line(html: str, seq: int) -> str:
    """The log line of event `seq` in a page or a frame ("" when it is not there)."""
    found = re.search(rf'<li id="event-{seq}"[^>]*>.*?</li>', html, re.S)
    return found.group(0) if found else ""


def melee_undone(table, scripted_dice, capture) -> tuple[list[Event], dict[str, str]]:
    """Melee confirmed, then undone with a reason; the lines the undo took back (Melee's, and the empty
    phases after it) and each audience's frame of the undo."""
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    undo = lambda: services.undo_phase(table.storyguide, table.encounter.pk, table.v, REASON)  # noqa: E731
    frames = frames_of(table, undo, capture)
    log = list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    back = taken_back(systems.of(table.saga), log)
    return [event for event in log if event.seq in back], frames


@pytest.mark.parametrize("persona", ["storyguide", "alice"])
def test_the_live_page_names_a_removed_combatant_in_his_earlier_lines(client, bandit_left, persona):  # noqa: F811
    table = bandit_left
    client.force_login(getattr(table, persona))
    page = client.get(reverse("encounter_page", args=[table.encounter.pk]), follow=True).content.decode()
    attack = attack_by(table, table.left)
    assert named_attacks(line(page, attack.seq), "Sir Boris") == ["Bandit 2"]
    assert "" not in named_attacks(page, "Sir Boris")


@pytest.mark.parametrize("audience", AUDIENCES)
def test_a_reconnects_replay_names_a_removed_combatant_in_his_earlier_lines(bandit_left, audience):  # noqa: F811
    table = bandit_left
    attack = attack_by(table, table.left)
    html, _ = replay_frame(table.encounter.pk, audience, attack.seq - 1)
    assert named_attacks(line(html, attack.seq), "Sir Boris") == ["Bandit 2"]
    assert "" not in named_attacks(html, "Sir Boris")


def test_an_undos_frame_carries_the_lines_it_took_back_marked_undone(
    table, scripted_dice, django_capture_on_commit_callbacks
):
    melee, frames = melee_undone(table, scripted_dice, django_capture_on_commit_callbacks)
    undo = Event.objects.get(encounter=table.encounter, kind="phase_undone")
    attacks = [event for event in melee if event.kind == "attack"]
    assert len(attacks) == 5
    for audience in AUDIENCES:
        html = frames[audience]
        assert f'data-first-seq="{undo.seq}"' in html and line(html, undo.seq)
        for event in melee:
            if event.storyguide_only and audience != STORYGUIDE:
                assert not line(html, event.seq)  # what players never saw does not come now
                continue
            shown = line(html, event.seq)
            assert f'class="event event-{event.kind}' in shown and " undone" in shown, (audience, event.kind)
            assert (f'<span class="seq-no">#{undo.seq}</span>' in shown) == (audience == STORYGUIDE)
            assert REASON in shown and 'data-testid="undone-note"' in shown
        assert " undone" not in line(html, undo.seq)  # an undo is no result: it stands
        for blow in attacks:  # named as the log named them
            assert "<b></b>" not in line(html, blow.seq)


def test_a_frame_without_an_undo_carries_only_its_own_lines(
    table, scripted_dice, django_capture_on_commit_callbacks
):
    melee_undone(table, scripted_dice, django_capture_on_commit_callbacks)
    before = table.refresh().last_seq
    again = lambda: services.confirm_phase(table.storyguide, table.encounter.pk, table.v, "melee")  # noqa: E731
    frames = frames_of(table, again, django_capture_on_commit_callbacks)
    for audience in AUDIENCES:
        seqs = [int(seq) for seq in re.findall(r'<li id="event-(\d+)"', frames[audience])]
        assert seqs and min(seqs) > before
        assert " undone" not in "".join(line(frames[audience], seq) for seq in seqs)


@pytest.mark.parametrize("audience", AUDIENCES)
def test_a_replay_marks_the_lines_an_undo_took_back(
    table, scripted_dice, django_capture_on_commit_callbacks, audience
):
    """A page that lost its socket before the undo gets, with the undo's line, Melee's lines again, marked;
    a page loaded from scratch gets them marked in the replay of the whole log."""
    melee, _ = melee_undone(table, scripted_dice, django_capture_on_commit_callbacks)
    undo = Event.objects.get(encounter=table.encounter, kind="phase_undone")
    shown = [event for event in melee if audience == STORYGUIDE or not event.storyguide_only]
    for after in (undo.seq - 1, 0):
        html, newest = replay_frame(table.encounter.pk, audience, after)
        assert newest == Encounter.objects.get(pk=table.encounter.pk).last_seq
        for event in shown:
            assert " undone" in line(html, event.seq) and REASON in line(html, event.seq), (after, event.kind)
    html, _ = replay_frame(table.encounter.pk, audience, undo.seq)  # after the undo: nothing again
    assert not any(line(html, event.seq) for event in melee)



async def quiet(group, message) -> None:
    """A channel layer's `group_send` that sends nothing."""


def event_reads(do) -> list[str]:
    """The queries of the event log that `do()` makes."""
    with CaptureQueriesContext(connection) as captured:
        do()
    return [q["sql"] for q in captured.captured_queries if 'FROM "combat_event"' in q["sql"]]


def test_the_page_and_an_undos_push_read_the_log_once(client, table, scripted_dice):
    """No query per line, nor for the undo's fold: the page names and marks every line from the one list
    of its log, and an undo's push reads the log once for both audiences (besides the events it sends)."""
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, REASON)
    undo = Event.objects.get(encounter=table.encounter, kind="phase_undone")
    whole = f'"combat_event"."seq" <= {table.refresh().last_seq}) ORDER BY'  # the log, from its start
    for user in (table.storyguide, table.alice):
        client.force_login(user)
        page = lambda: client.get(reverse("encounter_page", args=[table.encounter.pk]), follow=True)  # noqa: E731
        reads = [sql for sql in event_reads(page) if "'movement'" not in sql]  # the acting order's
        assert len(reads) == 1 and whole in reads[0]  # before: once more for the undo's fold, twice with one
    last = table.refresh().last_seq
    with patch.object(get_channel_layer(), "group_send", side_effect=quiet):
        reads = event_reads(lambda: broadcast(table.encounter.pk, undo.seq, last, saga=False))
    log_reads = [sql for sql in reads if '"seq" >=' not in sql and "'movement'" not in sql]
    assert len(log_reads) == 1  # the log, once for both audiences


def test_an_undos_push_reads_its_round_and_the_names_not_the_whole_log(table, scripted_dice):
    """A phase's undo takes back results of its own round (`Replay.UNDO_IN_ROUND`): its frame reads the
    lines that name combatants and that round's events, so an undo at round 20 reads what one at round 1
    does (issue 37, item 4)."""
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, REASON)
    encounter = table.refresh()
    undo = Event.objects.get(encounter=encounter, kind="phase_undone")
    system = systems.of(table.saga)
    read = undo_log(system, encounter, [undo], encounter.last_seq)
    log = list(Event.objects.filter(encounter=encounter).order_by("seq"))
    wanted = [e for e in log if e.kind in NAMING or e.round_number == undo.round_number]
    assert [e.seq for e in read] == [e.seq for e in wanted] and len(read) < len(log)
    assert taken_back(system, read) == taken_back(system, log)
