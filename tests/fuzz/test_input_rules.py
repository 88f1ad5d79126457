"""Regression tests for the hostile inputs issue 9 found: each refused with a message where the
person is, nothing written, never a 5xx."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.test import Client

from campaign.models import Character
from combat.models import Encounter
from d6.models import Fight, Runner

from .endpoints import read_forms
from .world import World, fingerprint

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return World()


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def version(encounter) -> int:
    encounter.refresh_from_db()
    return encounter.version


def post(client, url, fields):
    return client.post(url, urlencode(fields), content_type="application/x-www-form-urlencoded")


def test_an_arabic_indic_three_is_not_read_as_a_3(world):
    fight = Fight.objects.get(encounter=world.d6_fight)
    url = f"/encounters/{world.d6_fight.pk}/d6/value/"
    response = post(
        client_for(world.storyguide), url, {"expected_version": version(world.d6_fight), "value": "٣"}
    )
    fight.refresh_from_db()
    assert response.status_code == 400
    assert "whole number (digits 0 to 9)" in response.content.decode()
    assert fight.value is None


def test_a_d6_value_of_ten_to_the_twentieth_is_refused_not_a_500(world):
    url = f"/encounters/{world.d6_fight.pk}/d6/value/"
    before = version(world.d6_fight)
    response = post(client_for(world.storyguide), url, {"expected_version": before, "value": str(10**20)})
    assert response.status_code == 400
    assert "goes from -1000 to 1000, not 100000000000…" in response.content.decode()
    assert version(world.d6_fight) == before


def test_a_superscript_two_in_typed_faces_is_not_a_die_face(world):
    url = f"/encounters/{world.d6_chase.pk}/d6/chase/exchange/"
    marta = world.d6_chase.combatants.get(character__name="Marta")
    fields = {"expected_version": version(world.d6_chase), f"faces-{marta.pk}": "²"}
    response = post(client_for(world.storyguide), url, fields)
    assert response.status_code == 400
    assert "is not a die face" in response.content.decode()


def test_typed_faces_without_their_purpose_are_refused(world):
    url = f"/encounters/{world.ars_round.pk}/arsmagica/preview-phase/"
    combatant = world.ars_round.combatants.first()
    fields = {
        "expected_version": version(world.ars_round),
        "phase": "initiative",
        f"faces-{combatant.pk}": "3",
    }
    response = post(client_for(world.storyguide), url, fields)
    assert response.status_code == 400
    assert "which: reload the page" in response.content.decode()


def test_a_nul_in_a_name_is_refused_beside_its_field(world):
    character = Character.objects.get(name="Marta")
    url = f"/characters/{character.pk}/edit/"
    client = client_for(world.player)
    fields = dict(read_forms(client.get(url).content.decode()).forms[-1][1])
    fields["name"] = "Mar\x00ta"
    response = post(client, url, fields)
    character.refresh_from_db()
    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert character.name == "Marta"


def test_a_control_character_in_an_encounter_name_is_refused(world):
    url = f"/sagas/{world.d6_saga.pk}/encounters/new/"
    before = Encounter.objects.count()
    response = client_for(world.storyguide).post(url, {"name": "Ambush\x1b[31m"}, follow=True)
    assert "cannot hold control characters" in response.content.decode()
    assert Encounter.objects.count() == before


def test_an_id_past_64_bits_in_a_url_answers_404(world):
    client = client_for(world.storyguide)
    for url in (f"/sagas/{2**64}/", f"/encounters/{10**30}/", f"/characters/{2**63}/edit/"):
        assert client.get(url).status_code == 404


def test_resaving_a_d6_sheet_with_its_blank_ability_row_saves(world):
    character = Character.objects.get(name="Marta")
    url = f"/characters/{character.pk}/edit/"
    client = client_for(world.player)
    fields = read_forms(client.get(url).content.decode()).forms[-1][1]
    assert any(name.endswith("-name") and value == "" for name, value in fields)  # the blank row
    response = post(client, url, fields)
    assert response.status_code == 302
    character.refresh_from_db()
    assert [ability["name"] for ability in character.sheet["abilities"]] == ["Running"]


def test_the_runner_breather_error_names_the_runner_not_an_id(world):
    url = f"/encounters/{world.d6_chase.pk}/d6/chase/breather/"
    marta = world.d6_chase.combatants.get(character__name="Marta")
    fields = {"expected_version": version(world.d6_chase), "combatant": marta.pk}
    message = post(client_for(world.storyguide), url, fields).content.decode()
    assert "Marta is still running" in message
    assert str(marta.pk) not in message.split("Marta", 1)[1]


def test_a_superscript_two_as_the_history_filter_is_no_encounter(world):
    url = f"/sagas/{world.ars_saga.pk}/history/"
    response = client_for(world.storyguide).get(url, {"encounter": "²", "kind": "a\x00b"})
    assert response.status_code == 200


def test_an_invite_token_with_a_nul_answers_404(world):
    assert client_for(world.stranger).get("/join/abc%00def/").status_code == 404


def test_the_fingerprint_sees_a_change_to_any_row_of_a_saga_and_only_that_saga(world):
    """The fuzz's "nothing written" check: a change in one saga's deepest row shows in that saga's entry."""
    sagas = [saga.pk for saga in world.sagas]
    before = fingerprint(sagas)
    assert all(before[saga] for saga in sagas)
    assert fingerprint(sagas) == before
    Runner.objects.filter(chase__encounter__saga=world.d6_saga).update(moves_ahead=True)
    after = fingerprint(sagas)
    assert after[world.d6_saga.pk] != before[world.d6_saga.pk]
    assert {pk: rows for pk, rows in after.items() if pk != world.d6_saga.pk} == {
        pk: rows for pk, rows in before.items() if pk != world.d6_saga.pk
    }
