"""What a table notices at 390x844 and 1280x800: the storyguide's next step before "End encounter", log
entries that say where they happened instead of skipping sequence numbers for players, the acting
order's Initiative kept whole on its line, words out of the dice font, a readable phase track, and a
page that reconnects at once when the device comes back."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.template import Context, Template
from django.urls import reverse

from arsmagica import services
from arsmagica.events import Kind
from arsmagica.presenters import event_label
from arsmagica.templatetags.arsmagica_tags import phase_name, phase_steps
from campaign.models import NpcRolls
from combat.models import Event
from tests.personas import PASSWORD

from .test_services import through_movement

pytestmark = pytest.mark.django_db


def page(client, user, name, *args):
    assert client.login(username=user.username, password=PASSWORD)
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def control_panel(client, table):
    return page(client, table.storyguide, "encounter_page", table.encounter.pk)


def section(html, element_id):
    """The HTML of the <section id=...> up to its closing tag."""
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</section>", start)]


def log_labels(html):
    """Each log entry's seq (from its id) and the label it shows before the text."""
    return {
        int(seq): re.sub(r"<[^>]+>", "", label).strip()
        for seq, label in re.findall(r'<li id="event-(\d+)"[^>]*><span class="seq">(.*?)</span> ', html)
    }


# 1. "End encounter": at the bottom of the Control panel, small; the next step first and prominent.


def test_end_encounter_sits_below_the_next_step_in_a_danger_zone(client, table):
    controls = section(control_panel(client, table), "sg-controls")
    assert controls.index('data-testid="open-declarations"') < controls.index('class="danger-zone"')
    assert controls.index('class="danger-zone"') < controls.index('data-testid="end-encounter"')
    assert re.search(r'class="primary" data-testid="open-declarations"', controls)
    assert re.search(r'class="danger quiet-danger" data-testid="end-encounter"', controls)
    assert 'hx-confirm="End this encounter for everyone?"' in controls


def test_while_a_preview_waits_confirm_comes_before_end_encounter(client, table, scripted_dice):
    through_movement(table, scripted_dice)
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    html = control_panel(client, table)
    assert html.index('data-testid="confirm-phase"') < html.index('data-testid="end-encounter"')
    assert html.index('id="phase-preview"') < html.index('id="sg-controls"')
    controls = section(html, "sg-controls")
    assert 'data-testid="pending-hint"' in controls and "Melee is rolled" in controls
    assert 'class="primary"' not in controls  # the only primary button is the preview's Confirm
    preview = section(html, "phase-preview")
    assert re.search(r'class="secondary"[^>]*data-testid="recompute-phase"', preview)
    assert re.search(r'class="primary" data-testid="confirm-phase"', preview)
    assert table.refresh().pending["phase"] == "melee"


def test_the_ended_encounter_has_no_end_button(client, table):
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    controls = section(control_panel(client, table), "sg-controls")
    assert 'data-testid="end-encounter"' not in controls and "The encounter is over." in controls
    assert table.refresh().status == "ended"


# 2. Log numbering: players see round and phase, never the raw sequence number.


def declared_by_the_storyguide(table, scripted_dice):
    through_movement(table, scripted_dice)  # the bandits' declarations are storyguide-only events
    hidden = set(
        Event.objects.filter(encounter=table.encounter, storyguide_only=True).values_list("seq", flat=True)
    )
    assert hidden
    return hidden


def test_players_log_says_round_and_phase_without_sequence_numbers(client, table, scripted_dice):
    hidden = declared_by_the_storyguide(table, scripted_dice)
    html = page(client, table.alice, "arsmagica:play", table.encounter.pk)
    labels = log_labels(html)
    assert labels and not hidden & set(labels)
    assert not any("#" in label for label in labels.values())
    assert 'class="seq-no"' not in html
    movement = Event.objects.get(encounter=table.encounter, kind=Kind.MOVEMENT)
    assert labels[movement.seq] == "R1 · Movement"
    assert labels[1] == "Setting up"
    # the client and the browser tests still find every entry by its seq
    assert f'id="event-{movement.seq}"' in html and f'data-seq="{movement.seq}"' in html


def test_the_storyguide_still_sees_each_entrys_number(client, table, scripted_dice):
    hidden = declared_by_the_storyguide(table, scripted_dice)
    labels = log_labels(control_panel(client, table))
    seq = min(hidden)
    assert labels[seq] == f"R1 · Declarations #{seq}"
    assert set(labels) == set(Event.objects.filter(encounter=table.encounter).values_list("seq", flat=True))


def test_players_history_numbers_nothing_and_the_export_leaves_seq_out(client, table, scripted_dice):
    hidden = declared_by_the_storyguide(table, scripted_dice)
    html = page(client, table.alice, "saga_history", table.saga.pk)
    labels = log_labels(html)
    assert labels and not hidden & set(labels)
    assert not any("#" in label or "R1" in label for label in labels.values())  # the heading says Round 1
    assert "Movement" in labels.values() and "<h3>Round 1</h3>" in html
    data = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    events = data["encounters"][0]["events"]
    assert events and all("seq" not in event for event in events)
    assert {"kind", "round", "phase"} <= set(events[0]) and data["audience"] == "players"


def test_the_storyguides_history_keeps_the_numbers(client, table, scripted_dice):
    hidden = declared_by_the_storyguide(table, scripted_dice)
    html = page(client, table.storyguide, "saga_history", table.saga.pk)
    assert f'<span class="seq-no">#{min(hidden)}</span>' in html
    events = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()["encounters"][0]["events"]
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))


class Row:
    def __init__(self, round_number, phase):
        self.round_number, self.phase = round_number, phase


@pytest.mark.parametrize(
    "round_number, phase, in_round, label",
    [
        (0, "", False, "Setting up"),
        (0, "", True, ""),
        (1, "declaring", False, "R1 · Declarations"),
        (2, "first_missile", False, "R2 · First Missile"),
        (2, "second_missile", True, "Second Missile"),
        (3, "", False, "R3"),
        (1, "some_d6_step", False, "R1 · Some d6 step"),
    ],
)
def test_event_labels(round_number, phase, in_round, label):
    assert event_label(Row(round_number, phase), in_round=in_round) == label


# 3. Small points: Initiative on its line, dice font for faces only, a readable phase track.


def test_the_acting_order_keeps_initiative_whole_on_the_right(client, table, scripted_dice):
    table.saga.npc_rolls = NpcRolls.EVERYTHING  # the bandits' totals shown to players too
    table.saga.save()
    through_movement(table, scripted_dice)
    order = section(page(client, table.alice, "arsmagica:play", table.encounter.pk), "acting-order")
    rows = re.findall(
        r'<span class="initiative">= Initiative <b class="total" data-testid="initiative-total">(\d+)</b>',
        order,
    )
    assert rows == ["23", "20", "15", "11"]  # p168: the lucky bandit first, Sir Boris 20
    css = open(finders.find("css/combat.css")).read()
    assert re.search(r"\.order-row \.initiative \{[^}]*white-space: nowrap", css)
    assert re.search(r"\.order-row \.initiative \{[^}]*margin-left: auto", css)


def test_only_faces_and_values_are_in_the_dice_font():
    html = Template("{% load arsmagica_tags %}{% roll r %}").render(
        Context({"r": {"faces": [0], "botch_faces": [0, 3], "value": 0, "botches": 1}})
    )
    # a face and the bracket it closes stay on one line on a phone
    three = '<span class="joined"><span class="die">3</span>):</span>'
    assert f'2 botch dice (<span class="die die-botch">0</span> {three} one 0' in html
    css = open(finders.find("css/combat.css")).read()
    assert not re.search(r"^\.roll \{", css, re.M)  # the words are in the text font, and wrap on a phone
    assert re.search(r"^\.roll \.die, \.roll \.die-value \{[^}]*font-family: ui-monospace", css, re.M)


def test_the_phase_track_marks_done_now_and_next(client, table, scripted_dice):
    assert phase_name("first_missile") == "First Missile" and phase_name("") == ""
    track = [("declaring", "Declarations"), ("melee", "Melee"), ("fatigue", "Fatigue")]
    assert [state for _, _, state in phase_steps(track, "melee")] == ["done", "now", "next"]
    assert [state for _, _, state in phase_steps(track, "")] == ["next", "next", "next"]
    assert 'class="phase-track"' not in section(control_panel(client, table), "encounter-status")  # not yet
    through_movement(table, scripted_dice)
    status = section(control_panel(client, table), "encounter-status")
    steps = re.findall(r'<span class="step (\w+)">([^<]+)</span>', status)
    # nobody shoots: First Missile passed by itself
    assert steps[:4] == [
        ("done", "Declarations"),
        ("done", "First Missile"),
        ("now", "Melee"),
        ("next", "Second Missile"),
    ]
    css = open(finders.find("css/combat.css")).read()
    now_rule = re.search(r"\.phase-track \.step\.now \{([^}]*)\}", css).group(1)
    assert "background: var(--accent)" in now_rule and "color: var(--on-accent)" in now_rule
    assert "font-size: .8rem" not in re.search(
        r"\.phase-track \{([^}]*)\}", css.split("@media (min-width: 700px)")[1]
    ).group(1)


# 4. Back from sleep: the live client reconnects at once.


def test_the_live_client_reconnects_when_the_device_comes_back(client, table):
    html = page(client, table.alice, "arsmagica:play", table.encounter.pk)
    assert re.search(r'<script src="/static/js/live\.js" defer>', html)
    script = open(finders.find("js/live.js")).read()
    assert 'window.addEventListener("online", online)' in script
    assert 'document.addEventListener("visibilitychange"' in script
    assert 'document.visibilityState === "visible" && !isOpen(live)' in script
    assert "wrapper.reconnect()" in script and 'type: "resume", last_seq: seen()' in script
    # a socket discarded by reconnect() is not a drop: no second reconnect, no "Reconnecting…" loop
    assert "socket.covenantRetired" in script and "socket === live && connecting" in script
