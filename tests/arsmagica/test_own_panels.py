"""A player's own declarations panel is not in the shared frame: it fetches itself again when the status bar's
key changes (live.js: round, phase, status and `data-people`). A correction that changes who can act changes
`data-people`; one that changes only an advantage leaves it, so the phones do not fetch on every command."""

import re
from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from arsmagica import services
from combat.audience import PLAYERS, STORYGUIDE
from combat.live import FRAME_TYPE

pytestmark = pytest.mark.django_db

PEOPLE = re.compile(r'<section id="encounter-status"[^>]*data-people="([0-9a-f]+)"')


def _async(function):
    async def call(*args, **kwargs):
        return function(*args, **kwargs)

    return call


def players_people(table, correct) -> str:
    """The players' frame of the command `correct()` sends: its status bar's `data-people`."""
    sent = {}

    def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent[group] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=_async(group_send)):
        correct()
    return PEOPLE.search(sent[f"encounter-{table.encounter.pk}-{PLAYERS}"]).group(1)


def page_people(client) -> str:
    return PEOPLE.search(client.get(client.page).content.decode()).group(1)


@pytest.fixture
def players_page(table):
    client = Client()
    client.force_login(table.alice)
    client.page = reverse("arsmagica:play", args=[table.encounter.pk])
    return client


def test_the_status_changes_when_who_can_act_changes_and_only_then(
    table, players_page, django_capture_on_commit_callbacks
):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    values = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, values)
    before = page_people(players_page)

    def correct(changes, reason):
        def command():
            with django_capture_on_commit_callbacks(execute=True):
                services.correct(
                    table.storyguide, table.encounter.pk, table.v, table.boris.pk, changes, reason
                )

        return command

    assert players_people(table, correct({"advantage_attack": 3}, "Higher ground")) == before
    assert players_people(table, correct({"fatigue_level": "weary"}, "Winded")) == before  # he still acts
    unconscious = players_people(table, correct({"fatigue_level": "unconscious"}, "Clubbed"))
    assert unconscious != before
    assert page_people(players_page) == unconscious  # the page as a reload shows it
    assert players_people(table, correct({"advantage_defense": 2}, "Lying low")) == unconscious
    back = players_people(table, correct({"fatigue_level": "fresh"}, "Only stunned"))
    assert back == before


def test_a_players_panel_says_their_character_cannot_act_in_place_of_the_form(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.alice)
    panel = reverse("arsmagica:my_declarations", args=[table.encounter.pk])
    boris = table.boris.pk
    assert f'data-testid="declare-form-{boris}"' in client.get(panel).content.decode()

    hit = {"body_level": "incapacitated"}
    services.correct(table.storyguide, table.encounter.pk, table.v, boris, hit, "Hit")
    html = client.get(panel).content.decode()
    assert f'data-testid="declare-form-{boris}"' not in html
    assert re.search(rf'data-testid="cannot-act-{boris}">Sir Boris is incapacitated\s+and cannot act', html)

    services.correct(table.storyguide, table.encounter.pk, table.v, boris, {"body_level": "unhurt"}, "Healed")
    html = client.get(panel).content.decode()
    assert f'data-testid="declare-form-{boris}"' in html
    assert f'data-testid="cannot-act-{boris}"' not in html


def test_the_storyguides_panel_says_an_npc_cannot_act_in_place_of_its_form(table):
    """The storyguide declares for the NPCs: one that cannot act (ArM3 p177) has why, not a form the rules
    would refuse."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.storyguide)
    page = reverse("encounter_page", args=[table.encounter.pk])
    bandit = table.bandits[0].pk
    assert f'data-testid="declare-form-{bandit}"' in client.get(page).content.decode()

    hit = {"body_level": "incapacitated"}
    services.correct(table.storyguide, table.encounter.pk, table.v, bandit, hit, "Hit")
    html = client.get(page).content.decode()
    assert f'data-testid="declare-form-{bandit}"' not in html
    assert re.search(rf'data-testid="cannot-act-{bandit}">Bandit 1 is incapacitated\s+and cannot act', html)
    assert f'data-testid="declare-form-{table.bandits[1].pk}"' in html  # the others keep theirs


def storyguides_frame(table, command, capture) -> str:
    """The frame the storyguide's page gets for `command`, run as a request runs it (pushed at commit)."""
    sent = {}

    def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent[group] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=_async(group_send)):
        with capture(execute=True):
            command()
    return sent[f"encounter-{table.encounter.pk}-{STORYGUIDE}"]


def test_the_storyguides_frame_after_the_correction_says_so_too(table, django_capture_on_commit_callbacks):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    bandit = table.bandits[0].pk
    hit = {"body_level": "incapacitated"}

    def command():
        services.correct(table.storyguide, table.encounter.pk, table.v, bandit, hit, "Hit")

    frame = storyguides_frame(table, command, django_capture_on_commit_callbacks)
    assert f'data-testid="declare-form-{bandit}"' not in frame
    assert f'data-testid="cannot-act-{bandit}"' in frame


def test_the_storyguides_frame_after_exertion_says_so(table, django_capture_on_commit_callbacks):
    """Time passing, sleep and exertion change who can act for anyone in the scene, declared or not: the
    storyguide's "Declare for NPCs" panel comes whole with the frame."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    bandit = table.bandits[0]

    def command():
        services.record_exertion(
            table.storyguide,
            bandit.character_id,
            5,
            "a forced march",
            encounter_id=table.encounter.pk,
            expected_version=table.v,
        )

    frame = storyguides_frame(table, command, django_capture_on_commit_callbacks)
    assert f'data-testid="declare-form-{bandit.pk}"' not in frame
    assert f'data-testid="cannot-act-{bandit.pk}"' in frame


def test_a_players_declaration_is_answered_once_with_their_entry_and_heading_and_nothing_fetched(table):
    """The answer says it was done (the entry declared, and the heading, which names the characters still
    to declare for, issue 32 item 4, one fewer) or why not (the form, its error beside the control); no
    `HX-Trigger` makes the panel fetch itself again (issue 36, item 6)."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    client = Client()
    client.force_login(table.alice)
    panel = client.get(reverse("arsmagica:my_declarations", args=[table.encounter.pk])).content.decode()
    assert '<h2 id="my-declarations-heading">Declare for Sir Boris</h2>' in panel
    assert 'hx-trigger="covenant:phase from:body"' in panel
    url, data = table.boris_attack_form()
    prefix = f"c{table.boris.pk}-"
    with patch.object(get_channel_layer(), "group_send", side_effect=_async(lambda group, message: None)):
        answer = client.post(url, data, HTTP_HX_REQUEST="true")
        refused = client.post(url, {prefix + "action": "attack"}, HTTP_HX_REQUEST="true")
    done = answer.content.decode()
    assert answer.status_code == 200 and "HX-Trigger" not in answer
    assert f'data-testid="declared-mark-{table.boris.pk}"' in done
    assert '<h2 id="my-declarations-heading" hx-swap-oob="true">Your declarations</h2>' in done
    assert refused.status_code == 422 and "HX-Trigger" not in refused
    assert "my-declarations-heading" not in refused.content.decode()
    assert 'aria-invalid="true"' in refused.content.decode()  # the error beside its control


def test_the_storyguides_declaration_is_answered_by_their_frame_alone(
    table, django_capture_on_commit_callbacks
):
    """The storyguide's frame carries the NPC's entry, declared, to each of their screens; the answer swaps
    nothing (`HX-Reswap: none`), so the entry does not come twice."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    bandit = table.bandits[0]
    client = Client()
    client.force_login(table.storyguide)
    prefix = f"c{bandit.pk}-"
    data = {
        prefix + "action": "attack",
        prefix + "weapon": table.weapon(bandit),
        prefix + "engage": [str(table.boris.pk)],
        prefix + "on_success": "hit",
        prefix + "missile_phase": "first_missile",
    }
    url = reverse("arsmagica:declare", args=[table.encounter.pk, bandit.pk])
    sent = {}
    send = _async(lambda group, message: sent.setdefault(group, message))
    with patch.object(get_channel_layer(), "group_send", side_effect=send):
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(url, data, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and answer["HX-Reswap"] == "none" and answer.content == b""
    frame = sent[table.encounter.group_name(table.encounter.pk, STORYGUIDE)]["html"]
    assert f'id="declare-{bandit.pk}"' in frame and f'data-testid="declared-mark-{bandit.pk}"' in frame
