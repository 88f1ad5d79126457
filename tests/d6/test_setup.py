"""A d6 encounter is set up by the core's views (a new encounter, combatants in and out), which land on
the d6 table through the registry; the d6 URLs they had before still work for a page opened earlier."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.personas import login

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def lands_on_the_table(client, response, encounter) -> None:
    """The command's answer sends htmx to the encounter's page, which is the d6 table."""
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("encounter_page", args=[encounter.pk])
    table_url = reverse("d6:table", args=[encounter.pk])
    assert client.get(response["HX-Redirect"], follow=True).redirect_chain == [(table_url, 302)]


def test_a_d6_encounter_is_created_at_the_cores_url_and_opens_on_its_table(client, table):
    login(client, table.storyguide)
    saga_page = client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    create_url = reverse("encounter_create", args=[table.saga.pk])
    assert f'action="{create_url}"' in saga_page and "new-d6" not in saga_page
    response = client.post(create_url, {"name": "Night market"}, follow=True)
    encounter = table.saga.encounters.get(name="Night market")
    page_url, table_url = (reverse(name, args=[encounter.pk]) for name in ("encounter_page", "d6:table"))
    assert response.redirect_chain == [(page_url, 302), (table_url, 302)]
    assert "Night market" in response.content.decode()
    response = login(client, table.alice).post(create_url, {"name": "Mine"})
    assert response.status_code == 403
    assert not table.saga.encounters.filter(name="Mine").exists()


def watchman(table):
    """A character of the saga not yet in the encounter."""
    from campaign.models import Character

    return Character.objects.create(saga=table.saga, name="Watchman", is_npc=True, sheet={"attributes": {}})


def test_the_d6_set_up_panel_posts_to_the_cores_urls(client, table):
    watchman(table)
    login(client, table.storyguide)
    page = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    assert f'hx-post="{reverse("add_combatants", args=[table.encounter.pk])}"' in page
    assert reverse("remove_combatant", args=[table.encounter.pk, table.marta.pk]) in page
    assert "/d6/combatants/" not in page


def test_the_storyguide_adds_and_removes_d6_combatants_at_the_cores_urls(client, table):
    extra = watchman(table)
    login(client, table.storyguide)
    added = client.post(
        reverse("add_combatants", args=[table.encounter.pk]),
        {"expected_version": table.v, "characters": [extra.pk], "side": "Watch"},
        **HTMX,
    )
    lands_on_the_table(client, added, table.encounter)
    combatant = table.encounter.combatants.get(character=extra, side="Watch")
    remove_url = reverse("remove_combatant", args=[table.encounter.pk, combatant.pk])
    removed = client.post(remove_url, {"expected_version": table.v}, **HTMX)
    lands_on_the_table(client, removed, table.encounter)
    assert not table.encounter.combatants.filter(pk=combatant.pk).exists()


def test_a_get_to_an_old_d6_set_up_url_moves_for_good_to_the_cores(client, table):
    login(client, table.storyguide)
    encounter, combatant = table.encounter.pk, table.marta.pk
    for old, new in (
        (f"/sagas/{table.saga.pk}/encounters/new-d6/", reverse("encounter_create", args=[table.saga.pk])),
        (f"/encounters/{encounter}/d6/combatants/", reverse("add_combatants", args=[encounter])),
        (
            f"/encounters/{encounter}/d6/combatants/{combatant}/remove/",
            reverse("remove_combatant", args=[encounter, combatant]),
        ),
    ):
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new)


def test_a_page_opened_before_the_move_still_creates_an_encounter_at_the_old_url(table):
    client = login(Client(enforce_csrf_checks=True), table.storyguide)
    saga_page = client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', saga_page).group(1)
    old_url = f"/sagas/{table.saga.pk}/encounters/new-d6/"
    response = client.post(old_url, {"name": "Night market", "csrfmiddlewaretoken": token}, follow=True)
    encounter = table.saga.encounters.get(name="Night market")
    assert response.redirect_chain[-1] == (reverse("d6:table", args=[encounter.pk]), 302)


def test_a_page_opened_before_the_move_still_adds_and_removes_at_the_old_urls(client, table):
    login(client, table.storyguide)
    added = client.post(
        f"/encounters/{table.encounter.pk}/d6/combatants/",
        {"expected_version": table.v, "characters": [table.bandit_characters[0].pk], "side": "Bandits"},
        **HTMX,
    )
    # the core's refusal, beside the button
    assert added.status_code == 422 and b"Already in the fight: Bandit 1." in added.content
    removed = client.post(
        f"/encounters/{table.encounter.pk}/d6/combatants/{table.bandits[0].pk}/remove/",
        {"expected_version": table.v},
        **HTMX,
    )
    lands_on_the_table(client, removed, table.encounter)
    assert not table.encounter.combatants.filter(pk=table.bandits[0].pk).exists()
    added = client.post(
        f"/encounters/{table.encounter.pk}/d6/combatants/",
        {"expected_version": table.v, "characters": [table.bandit_characters[0].pk], "side": "Bandits"},
        **HTMX,
    )
    lands_on_the_table(client, added, table.encounter)
    assert table.encounter.combatants.filter(character=table.bandit_characters[0]).exists()
