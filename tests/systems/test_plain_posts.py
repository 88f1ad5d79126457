"""A command form clicked before htmx has loaded (the page still loading after the last Add) is posted
plainly, not lost as a GET: each command form has a method, an action and its CSRF field, and the view
answers a post without htmx with the encounter's page, a refusal as a message at its top."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Declaration
from campaign.models import Character
from combat.live import replay_frame
from combat.models import Combatant, Encounter
from tests.arsmagica.conftest import Table
from tests.arsmagica.test_views import declaration
from tests.d6.conftest import D6Table

pytestmark = pytest.mark.django_db

BROWSERS_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"  # Chromium's, for a form
BOTH = pytest.mark.parametrize("make_table", [Table, D6Table], ids=["arsmagica", "d6"])


def storyguides_page(table, person=None) -> tuple[Client, str]:
    """The storyguide's (or the person's) client, which asks for pages and is checked for CSRF as a browser
    is, and their encounter page."""
    client = Client(enforce_csrf_checks=True, headers={"Accept": BROWSERS_ACCEPT})
    client.force_login(person or table.storyguide)
    page = client.get(reverse("encounter_page", args=[table.encounter.pk]), follow=True)
    return client, page.content.decode()


def plain_form(page: str, name: str, encounter, *more) -> tuple[str, dict]:
    """The command form's action and its hidden fields, as the page draws them."""
    action = reverse(name, args=[encounter.pk, *more])
    match = re.search(rf'<form method="post" action="{action}"[^>]*>(.*?)</form>', page, re.S)
    assert match, f"no plain form for {name}"
    return action, dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', match.group(1)))


@BOTH
def test_add_to_the_fight_posted_without_htmx_adds_and_opens_the_page_again(make_table):
    table = make_table()
    wolf = Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    client, page = storyguides_page(table)
    action, hidden = plain_form(page, "add_combatants", table.encounter)
    assert "csrfmiddlewaretoken" in hidden
    answer = client.post(action, {**hidden, "characters": [wolf.pk], "side": "Opponents"})
    assert answer.status_code == 302 and answer.url == reverse("encounter_page", args=[table.encounter.pk])
    assert Combatant.objects.get(character=wolf).side == "Opponents"


@BOTH
def test_a_plain_post_refused_says_why_on_the_page(make_table):
    table = make_table()
    Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    client, page = storyguides_page(table)
    action, hidden = plain_form(page, "add_combatants", table.encounter)
    before = Encounter.objects.get(pk=table.encounter.pk).version
    answer = client.post(action, {**hidden, "side": "Opponents"}, follow=True)
    assert answer.status_code == 200
    assert re.search(r'<ul class="messages"><li class="error">Pick at least one', answer.content.decode())
    assert Encounter.objects.get(pk=table.encounter.pk).version == before  # nothing written


def test_a_storyguides_control_posted_without_htmx_is_applied():
    table = Table()
    client, page = storyguides_page(table)
    action, hidden = plain_form(page, "arsmagica:open_declarations", table.encounter)
    answer = client.post(action, hidden)
    assert answer.status_code == 302
    assert Encounter.objects.get(pk=table.encounter.pk).phase == "declaring"


def test_with_htmx_the_answer_stays_the_slot():
    table = Table()
    wolf = Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    client = Client()
    client.force_login(table.storyguide)
    url = reverse("add_combatants", args=[table.encounter.pk])
    answer = client.post(
        url,
        {"expected_version": table.v, "characters": [wolf.pk], "side": "Opponents"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200 and answer["HX-Redirect"] == reverse(
        "encounter_page", args=[table.encounter.pk]
    )


@BOTH
def test_a_live_frames_forms_carry_no_token(make_table):
    """A frame is drawn once for everyone, with no request: its forms are htmx's, which sends the header."""
    table = make_table()
    Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    html, _ = replay_frame(table.encounter.pk, "storyguide", 0)
    assert 'action="' in html and "csrfmiddlewaretoken" not in html


@pytest.mark.parametrize(
    ("fields", "message"), [({}, ""), ({"c0-action": "fly"}, "Action: Select a valid choice.")]
)
def test_the_storyguides_declaration_posted_without_htmx_is_saved_or_says_why_on_the_page(fields, message):
    """The storyguide's page draws "Declare for NPCs" with the page (a player's panel comes by htmx)."""
    table = Table()
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    bandit = table.bandits[0]
    client, page = storyguides_page(table)
    action, hidden = plain_form(page, "arsmagica:declare", table.encounter, bandit.pk)
    data = declaration(table, bandit, engage=[str(table.boris.pk)])
    data.update({key.replace("c0-", f"c{bandit.pk}-"): value for key, value in fields.items()})
    answer = client.post(action, {**hidden, **data}, follow=True)
    assert answer.redirect_chain[0] == (reverse("encounter_page", args=[table.encounter.pk]), 302)
    assert Declaration.objects.filter(combatant=bandit).exists() == (not message)
    assert message in answer.content.decode()
    assert ('<li class="error">' in answer.content.decode()) == bool(message)


@pytest.mark.parametrize("name", ["arsmagica:declare_npcs_as_before", "arsmagica:declare_as_before"])
def test_same_as_last_round_posted_without_htmx_and_refused_says_why_on_the_page(name):
    """Round 1 has no last round to repeat: the refusal at the top of the page, nothing declared."""
    table = Table()
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    client = Client(headers={"Accept": BROWSERS_ACCEPT})
    client.force_login(table.storyguide)
    args = [table.encounter.pk] + ([table.bandits[0].pk] if name == "arsmagica:declare_as_before" else [])
    answer = client.post(reverse(name, args=args), {"expected_version": table.v}, follow=True)
    assert answer.redirect_chain[0] == (reverse("encounter_page", args=[table.encounter.pk]), 302)
    assert '<ul class="messages"><li class="error">' in answer.content.decode()
    assert not Declaration.objects.exists()
