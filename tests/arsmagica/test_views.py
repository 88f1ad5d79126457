"""The combat pages and the storyguide's buttons, by persona: response and database."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Declaration, Weapon
from arsmagica.sheet import carried
from arsmagica.sheet import sheet_of as ars_sheet
from campaign.models import Character
from combat.models import Combatant, Encounter, Event
from tests.personas import login

from .conftest import P168_FACES

pytestmark = pytest.mark.django_db


def post(client, name, encounter, data=None, **kwargs):
    return client.post(
        reverse(name, args=[encounter.pk, *kwargs.values()]), data or {}, HTTP_HX_REQUEST="true"
    )


def test_the_control_panel_for_the_storyguide(client, table):
    response = login(client, table.storyguide).get(reverse("encounter_page", args=[table.encounter.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for marker in (
        'id="live"',
        'ws-connect="/ws/encounters/',
        'data-last-seq="6"',
        'id="sg-controls"',
        'data-testid="open-declarations"',
        'id="event-log"',
        f'id="combatant-{table.boris.pk}"',
        'data-testid="setup"',
        'data-testid="correction-form"',
        "hx-ws-2",
    ):
        assert marker in html, marker


def test_a_player_is_sent_to_the_player_page(client, table):
    login(client, table.alice)
    response = client.get(reverse("encounter_page", args=[table.encounter.pk]))
    assert response.status_code == 302 and response.url == reverse(
        "arsmagica:play", args=[table.encounter.pk]
    )
    page = client.get(response.url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="sg-controls"' not in html and 'id="my-declarations"' in html
    assert "Sheet</summary>" not in html  # no sheets for players on the live cards


def test_the_storyguide_on_the_player_page_is_sent_to_the_control_panel(client, table):
    response = login(client, table.storyguide).get(reverse("arsmagica:play", args=[table.encounter.pk]))
    assert response.status_code == 302


def test_outsiders_get_404_and_anonymous_people_log_in(client, table):
    url = reverse("encounter_page", args=[table.encounter.pk])
    assert client.get(url).status_code == 302
    login(client, table.outsider)
    assert client.get(url).status_code == 404
    assert client.get(reverse("arsmagica:play", args=[table.encounter.pk])).status_code == 404
    assert (
        client.post(
            reverse("arsmagica:open_declarations", args=[table.encounter.pk]), {"expected_version": table.v}
        ).status_code
        == 404
    )


def test_opening_declarations_from_the_control_panel(client, table):
    response = post(
        login(client, table.storyguide),
        "arsmagica:open_declarations",
        table.encounter,
        {"expected_version": table.v},
    )
    assert response.status_code == 200 and b"form-error" not in response.content
    assert table.refresh().phase == "declaring"


def test_a_stale_button_says_so_and_changes_nothing(client, table):
    response = post(
        login(client, table.storyguide),
        "arsmagica:open_declarations",
        table.encounter,
        {"expected_version": table.v - 1},
    )
    assert response.status_code == 409 and b"moved on" in response.content
    assert table.refresh().status == "preparing"


def test_players_cannot_press_the_storyguides_buttons(client, table):
    login(client, table.alice)
    version = table.v
    for name in (
        "arsmagica:open_declarations",
        "arsmagica:close_declarations",
        "arsmagica:preview_phase",
        "arsmagica:confirm_phase",
        "arsmagica:end_round",
        "arsmagica:correct",
        "end_encounter",
    ):
        assert post(client, name, table.encounter, {"expected_version": table.v}).status_code == 422, name
    assert table.refresh().version == version


def test_the_buttons_want_post(client, table):
    login(client, table.storyguide)
    assert client.get(reverse("arsmagica:open_declarations", args=[table.encounter.pk])).status_code == 405
    assert (
        client.get(reverse("arsmagica:declare", args=[table.encounter.pk, table.boris.pk])).status_code == 405
    )


def declaration(table, combatant, **fields):
    prefix = f"c{combatant.pk}-"
    data = {
        "action": "attack",
        "weapon": table.weapon(combatant),
        "engage": [str(table.bandits[0].pk)],
        "on_success": "hit",
        "missile_phase": "first_missile",
        **fields,
    }
    return {prefix + key: value for key, value in data.items()}


def test_a_player_declares_from_their_page(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.alice)
    forms = client.get(reverse("arsmagica:my_declarations", args=[table.encounter.pk])).content.decode()
    assert f'data-testid="declare-form-{table.boris.pk}"' in forms
    assert f'data-testid="declare-form-{table.anselm.pk}"' not in forms
    response = post(
        client,
        "arsmagica:declare",
        table.encounter,
        declaration(table, table.boris),
        combatant=table.boris.pk,
    )
    assert response.status_code == 200
    assert f'data-testid="declared-mark-{table.boris.pk}"'.encode() in response.content
    row = Declaration.objects.get()
    assert (row.combatant, row.engage, row.declared_by) == (table.boris, [table.bandits[0].pk], table.alice)


def test_a_declaration_error_shows_next_to_the_form(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.alice)
    data = declaration(table, table.boris, weapon="", engage=[])
    response = post(client, "arsmagica:declare", table.encounter, data, combatant=table.boris.pk)
    assert response.status_code == 422
    assert b"declares an attack without naming a weapon" in response.content
    assert not Declaration.objects.exists()


def test_an_engage_error_is_named_by_every_checkbox(client, table):
    """Screen readers: each Engage checkbox is marked invalid and names the error under the fieldset, as
    every other field of the form names its own (`<id>_error`)."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.alice)
    data = declaration(table, table.boris, engage=["999999"])
    html = post(client, "arsmagica:declare", table.encounter, data, combatant=table.boris.pk).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="c\d+-engage"[^>]*>', html)
    error_id = f"id_c{table.boris.pk}-engage_error"
    described = re.compile(rf'aria-invalid="true"\s+aria-describedby="{error_id}"')
    assert boxes and all(described.search(box) for box in boxes)
    assert re.search(rf'<div id="{error_id}"><small\s+class="field-error">[^<]+</small>', html)


def test_a_player_cannot_post_a_declaration_for_someone_else(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.alice)
    for combatant in (table.anselm, table.bandits[0]):
        response = post(
            client,
            "arsmagica:declare",
            table.encounter,
            declaration(table, combatant),
            combatant=combatant.pk,
        )
        assert response.status_code == 422
    assert not Declaration.objects.exists()


def test_a_closed_entry_fetches_its_form_when_opened(client, table):
    """The storyguide's entry for a player's character is closed and carries no form; opening it fetches
    the form, filled in with the declaration made meanwhile. Only those who may declare for it get it."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    values = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, values)
    url = reverse("arsmagica:declaration_form", args=[table.encounter.pk, table.boris.pk])
    login(client, table.storyguide)
    panel = client.get(reverse("arsmagica:my_declarations", args=[table.encounter.pk])).content.decode()
    assert f'data-testid="declare-loading-{table.boris.pk}"' in panel
    assert f'data-testid="declare-form-{table.boris.pk}"' not in panel
    assert f'data-testid="declare-form-{table.bandits[0].pk}"' in panel  # three NPCs: open, with forms
    form = client.get(url, HTTP_HX_REQUEST="true")
    assert form.status_code == 200
    html = form.content.decode()
    assert f'data-testid="declare-form-{table.boris.pk}"' in html and "Change declaration" in html
    client.logout()
    login(client, table.bob)
    refused = client.get(url, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and b"only declare for your own characters" in refused.content
    assert client.post(url, HTTP_HX_REQUEST="true").status_code == 405


def test_typed_dice_that_are_not_dice_are_refused_at_the_field(client, physical_table):
    table = physical_table
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.alice)
    data = declaration(table, table.boris, dice_initiative="7 x")
    response = post(client, "arsmagica:declare", table.encounter, data, combatant=table.boris.pk)
    assert response.status_code == 422 and b"is not a d10 face" in response.content
    data = declaration(table, table.boris, dice_initiative="1 1 3")
    assert (
        post(client, "arsmagica:declare", table.encounter, data, combatant=table.boris.pk).status_code == 200
    )
    assert Declaration.objects.get().dice == {"initiative": [1, 1, 3]}


def test_a_round_driven_from_the_control_panel(client, table, scripted_dice):
    scripted_dice(table, P168_FACES)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    login(client, table.storyguide)
    assert (
        post(
            client, "arsmagica:close_declarations", table.encounter, {"expected_version": table.v}
        ).status_code
        == 200
    )
    for phase in ("melee", "fatigue"):  # nobody shoots or casts: the other phases pass by themselves
        assert table.refresh().phase == phase
        response = post(
            client, "arsmagica:preview_phase", table.encounter, {"expected_version": table.v, "phase": phase}
        )
        assert response.status_code == 200, response.content
        page = client.get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()
        assert 'data-testid="confirm-phase"' in page
        data = {"expected_version": table.v, "phase": phase}
        if phase == "melee":
            data[f"on_success-{table.boris.pk}:{table.bandits[0].pk}"] = "advantage_defense"
            assert 'data-testid="preview-attack"' in page
        response = post(client, "arsmagica:confirm_phase", table.encounter, data)
        assert response.status_code == 200, response.content
    attack = Event.objects.get(
        kind="attack", payload__attacker=str(table.boris.pk), payload__defender=str(table.bandits[0].pk)
    )
    assert attack.payload["applied_as"] == "advantage_defense"
    assert (
        post(client, "arsmagica:end_round", table.encounter, {"expected_version": table.v}).status_code == 200
    )
    table.boris.refresh_from_db()
    assert carried(table.boris).advantage_defense == 2 and table.refresh().round_number == 2


def test_a_correction_from_the_control_panel(client, table):
    login(client, table.storyguide)
    data = {
        "expected_version": table.v,
        "combatant": table.boris.pk,
        "body_level": "heavy_wounds",
        "reason": "Old scar",
    }
    assert post(client, "arsmagica:correct", table.encounter, data).status_code == 200
    table.boris_character.refresh_from_db()
    assert ars_sheet(table.boris_character).body_level == "heavy_wounds"
    data["reason"] = ""
    data["expected_version"] = table.v
    response = post(client, "arsmagica:correct", table.encounter, data)
    assert response.status_code == 422 and b"form-error" in response.content


def test_setting_up_from_the_control_panel(client, table):
    extra = Character.objects.create(saga=table.saga, name="Wolf", is_npc=True)
    login(client, table.storyguide)
    response = post(
        client,
        "add_combatants",
        table.encounter,
        {"expected_version": table.v, "characters": [extra.pk], "side": "Beasts"},
    )
    assert response.status_code == 200 and response["HX-Redirect"]
    assert table.refresh().combatants.filter(character=extra, side="Beasts").exists()
    response = post(
        client,
        "add_combatants",
        table.encounter,
        {"expected_version": table.v, "characters": [], "side": "X"},
    )
    assert response.status_code == 422 and b"Pick at least one" in response.content


def test_a_new_encounter_from_the_saga_page(client, table):
    login(client, table.storyguide)
    saga_page = client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    assert 'data-testid="new-encounter-form"' in saga_page and "Forest road" in saga_page
    response = client.post(reverse("encounter_create", args=[table.saga.pk]), {"name": "Bridge"})
    encounter = Encounter.objects.get(name="Bridge")
    assert response.status_code == 302 and response.url == reverse("encounter_page", args=[encounter.pk])
    login(client, table.alice)
    assert (
        'data-testid="new-encounter-form"'
        not in client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    )
    assert client.post(reverse("encounter_create", args=[table.saga.pk]), {"name": "Mine"}).status_code == 403
    assert not Encounter.objects.filter(name="Mine").exists()


def panel_queries(client, table):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("encounter_page", args=[table.encounter.pk])).status_code == 200
    return len(queries)


def test_the_control_panel_does_not_query_in_a_loop(client, table, scripted_dice):
    """Mid-round (rows added directly: the rules allow joining only while declaring)."""
    scripted_dice(table, P168_FACES)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.storyguide)
    few = panel_queries(client, table)
    for n in range(6):
        character = Character.objects.create(saga=table.saga, name=f"Extra {n}", is_npc=True)
        Weapon.objects.create(character=character, name="Club")
        Combatant.objects.create(encounter=table.encounter, character=character, side="Bandits", order=10 + n)
    assert panel_queries(client, table) == few
    assert few <= 25


def test_the_storyguide_types_the_tables_dice_on_the_control_panel(client, physical_table):
    table = physical_table
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168({name: {"initiative": faces["initiative"]} for name, faces in P168_FACES.items()})
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)  # First Missile passes
    login(client, table.storyguide)
    page = client.get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()
    assert f'data-testid="faces-{table.boris.pk}-combat"' in page
    ids = table.ids()
    data = {"expected_version": table.v, "phase": "melee"}
    data.update(
        {
            f"faces-{ids[name]}-combat": " ".join(map(str, P168_FACES[name]["combat"]))
            for name in ids
            if name != "anselm"
        }
    )
    data[f"faces-{ids['boris']}-combat"] = "7"
    response = post(client, "arsmagica:preview_phase", table.encounter, data)
    assert response.status_code == 200 and b"form-error" not in response.content
    assert table.refresh().pending["dice"][ids["boris"]]["combat"] == [7]
    data[f"faces-{ids['boris']}-combat"] = "seven"
    data["expected_version"] = table.v
    response = post(client, "arsmagica:preview_phase", table.encounter, data)
    assert response.status_code == 422 and b"is not a d10 face" in response.content


def test_the_engage_boxes_are_written_as_django_writes_them_and_keep_what_was_chosen(client, table):
    """The Engage / target checkboxes are written by the template (issue 11: a widget render per box):
    the same names, ids and labels as Django's widget, checked as the saved declaration, and checked as
    posted when a refused form comes back."""
    from arsmagica.forms import DeclarationForm
    from arsmagica.services.table import combatants_of

    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    target = table.bandits[0]
    values = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [target.pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, values)
    login(client, table.alice)
    url = reverse("arsmagica:declaration_form", args=[table.encounter.pk, table.boris.pk])
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    others = [c for c in combatants_of(table.encounter) if c.pk != table.boris.pk]
    django_wrote = str(
        DeclarationForm(combatant=table.boris, others=others, physical=False, storyguide=False)["engage"]
    )
    name = f"c{table.boris.pk}-engage"
    for index, other in enumerate(others):
        box = re.search(rf'<input type="checkbox" name="{name}" value="{other.pk}"[^>]*>', html)
        assert box, other.character.name
        assert f'id="id_c{table.boris.pk}-engage_{index}"' in box.group(0)
        assert ("checked" in box.group(0)) == (other == target)
        assert f'<label for="id_c{table.boris.pk}-engage_{index}">' in html
        assert f'for="id_c{table.boris.pk}-engage_{index}"' in django_wrote
        assert f"{other.character.name} ({other.side})" in html
    refused = post(
        client,
        "arsmagica:declare",
        table.encounter,
        declaration(table, table.boris, weapon="", engage=[str(table.bandits[1].pk)], distance="x"),
        combatant=table.boris.pk,
    ).content.decode()
    chosen = table.bandits[1].pk
    assert re.search(rf'value="{chosen}" id="id_{name}_\d+"\s+checked', refused)
    assert not re.search(rf'value="{target.pk}" id="id_{name}_\d+"\s+checked', refused)


def described_and_named(html: str) -> tuple[set, set]:
    """The ids aria-describedby points at in the markup, and the ids its elements have."""
    described = {name for value in re.findall(r'aria-describedby="([^"]*)"', html) for name in value.split()}
    return described, set(re.findall(r'\sid="([^"]*)"', html))


def test_every_aria_describedby_on_the_storyguides_page_names_an_element_of_it(client, physical_table):
    """Django 5.2's widgets point aria-describedby at <id>_helptext and <id>_error: the typed dice's help
    text and a refused field's errors carry those ids, on the storyguide's page with declarations open and
    in an NPC's refused declaration as it comes back into that page."""
    table = physical_table
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    login(client, table.storyguide)
    page = client.get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()
    bandit = table.bandits[0]
    posted = declaration(table, bandit, distance="-3", modifier="99", dice_initiative="1 x")
    refused = post(client, "arsmagica:declare", table.encounter, posted, combatant=bandit.pk)
    assert refused.status_code == 422
    entry = refused.content.decode()
    assert f'aria-describedby="id_c{bandit.pk}-distance_error"' in entry
    dice = f"id_c{bandit.pk}-dice_initiative"
    assert f'aria-describedby="{dice}_helptext {dice}_error"' in entry
    start = page.index(f'<details id="declare-{bandit.pk}"')
    swapped = page[:start] + entry + page[page.index('<details id="declare-', start + 1) :]
    for html in (page, entry, swapped):
        described, named = described_and_named(html)
        assert described and described <= named, described - named


def test_a_page_draws_its_log_up_to_the_seq_its_socket_resumes_from(table):
    """An event committed while a page is being drawn is not on the page; its socket's resume brings it,
    once (before, the page read its events and then the log's newest seq: an event between was in neither)."""
    from combat.audience import STORYGUIDE
    from combat.live import replay_frame
    from combat.views import visible_log

    drawn = Encounter.objects.get(pk=table.encounter.pk)  # the page's read of the encounter
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)  # meanwhile, a command
    newest = Encounter.objects.get(pk=table.encounter.pk).last_seq
    assert newest > drawn.last_seq
    seqs = [event.seq for event in visible_log(drawn, STORYGUIDE)]
    assert seqs == list(range(1, drawn.last_seq + 1))
    html, last = replay_frame(table.encounter.pk, STORYGUIDE, drawn.last_seq)
    assert last == newest
    assert all(f'id="event-{seq}"' in html for seq in range(drawn.last_seq + 1, newest + 1))
    assert f'id="event-{drawn.last_seq}"' not in html
