"""Small things a table notices: the storyguide's setup panel follows the fight live, the log keeps
the newest entries first, a player's own cards are marked, a favicon, the demo's full addresses."""

from io import StringIO

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

from arsmagica import services
from arsmagica.events import Kind
from combat.events import CoreKind
from combat.live import render_frame
from tests.personas import PASSWORD

from .test_services import through_movement

pytestmark = pytest.mark.django_db


def frame(table, audience, kinds):
    encounter = table.refresh()
    events = list(encounter.events.filter(kind__in=kinds).order_by("seq"))
    return render_frame(encounter, events, audience, events[0].seq, events[-1].seq)


def test_the_add_to_the_fight_panel_is_pushed_when_the_fight_changes(table, scripted_dice):
    services.remove_combatant(table.storyguide, table.encounter.pk, table.v, table.anselm.pk)
    html = frame(table, "storyguide", [CoreKind.COMBATANT_REMOVED])
    assert 'id="setup-panel" hx-swap-oob="true"' in html
    assert "Brother Anselm" in html.split('id="setup-panel"')[1]  # back in the list to add
    through_movement(table, scripted_dice)
    html = frame(table, "storyguide", [Kind.MOVEMENT])
    assert 'id="setup-panel" hx-swap-oob="true"' in html and 'data-testid="remove-' not in html


def test_a_declaration_does_not_reset_the_storyguides_half_filled_setup_forms(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    services.declare(table.alice, table.encounter.pk, table.boris.pk, {"action": "other"})
    html = frame(table, "storyguide", [Kind.DECLARED])
    assert 'id="setup-panel"' not in html and 'id="time-panel"' not in html
    assert 'id="setup-panel"' not in frame(table, "players", [Kind.DECLARED])


def test_the_player_page_puts_declarations_and_the_log_before_the_cards(client, table):
    assert client.login(username="alice", password=PASSWORD)
    page = client.get(reverse("arsmagica:play", args=[table.encounter.pk])).content.decode()
    assert page.index('id="my-declarations"') < page.index('id="event-log"') < page.index('id="combatants"')
    assert f'data-me="{table.alice.pk}"' in page and f'data-owner="{table.alice.pk}"' in page
    assert 'id="me-strip"' in page and 'data-testid="log-more"' in page


def test_every_page_names_its_favicon(client, table):
    page = client.get(reverse("login")).content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in page
    found = finders.find("favicon.svg")
    assert found and open(found).read().startswith("<svg")


def test_the_demo_prints_full_addresses():
    out = StringIO()
    call_command("load_demo", stdout=out)
    text = out.getvalue()
    assert "Encounter: http://127.0.0.1:8000/encounters/" in text
    assert (
        "(players: http://127.0.0.1:8000/encounters/" in text
        and "http://127.0.0.1:8000/accounts/login/" in text
    )
    out = StringIO()
    call_command("load_demo", "--base-url", "http://192.168.1.20:8000/", stdout=out)
    assert "Encounter: http://192.168.1.20:8000/encounters/" in out.getvalue()
