"""The d6 table's pages and commands by persona: the storyguide, the players, an outsider."""

import pytest
from django.urls import reverse

from d6 import services
from d6.models import Chase, Fight
from tests.personas import login

from .test_fight import INITIATIVE, start

pytestmark = pytest.mark.django_db


def url(name, table, *args):
    return reverse(name, args=[table.encounter.pk, *args])


def chase_form(table, **extra):
    return {
        "expected_version": table.v,
        "target": table.marta.pk,
        f"distance-{table.bandits[0].pk}": "2",
        "terrain_name-0": "Market streets",
        "terrain_rolled-0": "Running",
        "terrain_name-1": "The river",
        "terrain_rolled-1": "Swimming",
        **extra,
    }


def test_the_storyguide_sees_the_control_panel(client, table):
    response = login(client, table.storyguide).get(url("d6:table", table))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="d6-controls"' in html
    assert 'data-testid="start-fight"' in html
    assert f'data-testid="fatigue-{table.marta.pk}"' in html
    assert "die results below 3 fail outright" in html  # Marta: fatigue 3 (Stamina 1)


def test_a_player_sees_the_table_without_controls(client, table):
    response = login(client, table.alice).get(url("d6:table", table))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="d6-controls"' not in html
    assert 'data-testid="d6-fighters"' in html
    assert 'data-testid="event-log"' in html


def test_an_outsider_gets_404(client, table):
    assert login(client, table.outsider).get(url("d6:table", table)).status_code == 404
    response = client.post(url("d6:start_fight", table), {"expected_version": table.v})
    assert response.status_code == 404
    assert not Fight.objects.exists()


def test_anonymous_is_sent_to_log_in(client, table):
    response = client.get(url("d6:table", table))
    assert response.status_code == 302
    assert "/login" in response["Location"] or "login" in response["Location"]


def test_the_combat_pages_send_a_d6_encounter_to_its_table(client, table):
    login(client, table.storyguide)
    assert client.get(reverse("encounter_page", args=[table.encounter.pk]))["Location"] == url(
        "d6:table", table
    )
    login(client, table.alice)
    assert client.get(reverse("arsmagica:play", args=[table.encounter.pk]))["Location"] == url(
        "d6:table", table
    )


def test_a_player_cannot_run_the_fight(client, table):
    response = login(client, table.alice).post(url("d6:start_fight", table), {"expected_version": table.v})
    assert response.status_code == 403
    assert not Fight.objects.exists()


def test_commands_are_post_only(client, table):
    login(client, table.storyguide)
    assert client.get(url("d6:start_fight", table)).status_code == 405
    assert client.get(url("d6:exchange", table)).status_code == 405


def test_the_storyguide_starts_the_fight_and_rolls(client, table, dice):
    login(client, table.storyguide)
    dice(*INITIATIVE)
    response = client.post(url("d6:start_fight", table), {"expected_version": table.v})
    assert response.status_code == 200
    assert Fight.objects.filter(encounter=table.encounter).exists()
    dice(2, 7, 3)
    response = client.post(
        url("d6:roll", table),
        {
            "expected_version": table.v,
            "combatant": table.marta.pk,
            "score": "attribute:dexterity",
            "value": "6",
            "target": table.bandits[1].pk,
            "physical": "",
        },
    )
    assert response.status_code == 200
    assert table.fatigue(table.marta) == 4
    page = client.get(url("d6:table", table)).content.decode()
    assert 'data-testid="defence-form"' in page
    assert 'data-testid="awaiting-defence"' in page


def test_a_stale_command_says_so_in_the_error_slot(client, table):
    login(client, table.storyguide)
    response = client.post(url("d6:start_fight", table), {"expected_version": table.v - 1})
    assert response.status_code == 409
    assert "moved on" in response.content.decode()
    assert not Fight.objects.exists()


def test_bad_input_comes_back_as_a_message(client, table, dice):
    login(client, table.storyguide)
    response = client.post(
        url("d6:start_chase", table), chase_form(table, **{f"distance-{table.bandits[0].pk}": "x"})
    )
    assert response.status_code == 400
    assert "whole number" in response.content.decode()
    assert not Chase.objects.exists()


def test_the_chase_from_the_storyguides_form_to_the_players_choice(client, table, dice):
    login(client, table.storyguide)
    assert client.post(url("d6:start_chase", table), chase_form(table)).status_code == 200
    chase = Chase.objects.get()
    assert chase.route == [
        {"name": "Market streets", "rolled": "Running"},
        {"name": "The river", "rolled": "Swimming"},
    ]
    page = client.get(url("d6:table", table)).content.decode()
    assert 'data-testid="chase-grid"' in page
    assert f'data-testid="grid-runner-{table.bandits[0].pk}" data-distance="2"' in page
    dice(4, 6, 5, 0)
    assert client.post(url("d6:exchange", table), {"expected_version": table.v}).status_code == 200
    response = client.post(
        url("d6:offer_terrain", table), {"expected_version": table.v, "offer": ["The river"]}
    )
    assert response.status_code == 200
    chase.refresh_from_db()
    assert chase.offered == [{"name": "The river", "rolled": "Swimming"}]

    # Bob may not choose for Marta; the storyguide may not either; Alice does.
    login(client, table.bob)
    page = client.get(url("d6:table", table)).content.decode()
    assert f'data-for-user="{table.alice.pk}"' in page
    response = client.post(
        url("d6:choose_terrain", table), {"expected_version": table.v, "terrain": "The river"}
    )
    assert response.status_code == 403
    login(client, table.storyguide)
    response = client.post(
        url("d6:choose_terrain", table), {"expected_version": table.v, "terrain": "The river"}
    )
    assert response.status_code == 403
    login(client, table.alice)
    response = client.post(
        url("d6:choose_terrain", table), {"expected_version": table.v, "terrain": "The river"}
    )
    assert response.status_code == 200
    chase.refresh_from_db()
    assert chase.stretches[-1]["name"] == "The river"


def test_history_shows_d6_events(client, table, dice):
    login(client, table.storyguide)
    client.post(url("d6:start_chase", table), chase_form(table))
    dice(4, 6, 5, 0)
    client.post(url("d6:exchange", table), {"expected_version": table.v})
    login(client, table.alice)
    html = client.get(reverse("saga_history", args=[table.saga.pk])).content.decode()
    assert "A chase!" in html
    assert "Exchange 1" in html


def test_a_refused_breather_is_a_disabled_button_that_says_why(client, table, dice):
    """The panel asks the check the command obeys: once Marta acted, her breather is refused."""
    start(table, dice)
    page = login(client, table.storyguide).get(url("d6:table", table)).content.decode()
    assert 'data-testid="breather-why"' not in page
    dice(4, 4, 4)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    page = client.get(url("d6:table", table)).content.decode()
    button = page[
        page.index('data-testid="breather"') : page.index("</button>", page.index('data-testid="breather"'))
    ]
    assert "disabled" in button
    assert (
        '<p id="breather-why" class="why muted small" data-testid="breather-why">'
        "Marta already acted this turn: a breather is the whole action</p>"
    ) in page


def test_the_fight_panel_asks_can_roll_and_can_set_value_and_says_why_while_a_chase_runs(table, dice):
    """The panel asks the checks the commands obey: a chase started mid-fight pauses rolling and values."""
    from combat.audience import STORYGUIDE
    from d6.panels import state_context

    start(table, dice)
    assert state_context(table.refresh(), STORYGUIDE)["refusals"]["roll"] is None
    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        [(table.bandits[0].pk, 2)],
        [("Market streets", "Running")],
    )
    found = state_context(table.refresh(), STORYGUIDE)["refusals"]
    assert found["roll"] == found["set_value"] == "A chase is running: the fight waits until it ends."
    assert found["offer_terrain"] is None
    assert found["choose_terrain"] == "Only Marta's player chooses the terrain."


def test_a_players_dice_form_asks_can_enter_faces(client, table):
    """Typed dice are for a physical-dice saga: elsewhere the check says the server rolls them."""
    from combat.audience import PLAYERS
    from d6.panels import state_context

    services.start_chase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        [(table.bandits[0].pk, 1)],
        [("Market streets", "Running")],
    )
    (own,) = state_context(table.refresh(), PLAYERS)["chase"]["yours"]
    assert (
        own.faces_refusal == "This saga's dice are rolled by the server: the storyguide rolls the exchange."
    )
    assert own.at_target_refusal == "Only a chaser can move ahead of the target."
    page = login(client, table.alice).get(url("d6:table", table)).content.decode()
    assert "The server rolls your dice when the storyguide rolls exchange 1" in page
