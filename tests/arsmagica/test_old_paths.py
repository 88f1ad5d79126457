"""Ars Magica's URLs moved under its namespace on 2026-11-29 (`encounters/<id>/arsmagica/...`,
`arsmagica:<name>`); a page opened before still works: a GET to an old path is sent on for good (301), a
post to one does the command as before (`combat.commands.moved`)."""

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Declaration
from combat.models import Encounter
from tests.personas import login

pytestmark = pytest.mark.django_db

OLD_PAGES = [
    ("encounters/{e}/play/", "arsmagica:play"),
    ("encounters/{e}/declarations/", "arsmagica:my_declarations"),
    ("sagas/{s}/time/", "arsmagica:saga_time"),
]
OLD_COMMANDS = ["open", "close", "preview", "confirm", "end-round", "undo", "correct", "time/pass"]


@pytest.mark.parametrize(("old", "name"), OLD_PAGES)
def test_a_get_to_an_old_path_is_sent_to_the_new_one_for_good(client, table, old, name):
    login(client, table.alice)
    response = client.get("/" + old.format(e=table.encounter.pk, s=table.saga.pk))
    args = [table.saga.pk] if name.endswith("saga_time") else [table.encounter.pk]
    assert response.status_code == 301 and response["Location"] == reverse(name, args=args)


def test_every_old_command_path_sends_a_get_on_to_its_new_path(client, table):
    login(client, table.storyguide)
    for old in OLD_COMMANDS:
        response = client.get(f"/encounters/{table.encounter.pk}/{old}/")
        assert response.status_code == 301 and "/arsmagica/" in response["Location"], old
        assert client.post(response["Location"]).status_code != 404, old  # the new path is there


def test_a_post_to_an_old_command_path_does_the_command(client, table):
    login(client, table.storyguide)
    version = table.v
    response = client.post(
        f"/encounters/{table.encounter.pk}/open/", {"expected_version": version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and response.content == b""
    encounter = Encounter.objects.get(pk=table.encounter.pk)
    assert encounter.version == version + 1 and encounter.events.filter(kind="declarations_opened").exists()
    again = client.post(
        f"/encounters/{table.encounter.pk}/open/", {"expected_version": version}, HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 409  # the click applies once, at the old path as at the new


def test_a_declaration_posted_to_its_old_path_is_saved(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    url, data = table.boris_attack_form()
    old = url.replace("/arsmagica/", "/")
    response = login(client, table.alice).post(old, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content
    assert Declaration.objects.filter(combatant=table.boris).exists()
