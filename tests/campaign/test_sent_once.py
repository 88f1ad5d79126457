"""Issue 9, item 4, for the campaign pages' plain forms: a form drawn once applies once. The page draws a
one-time key into each form; a resent identical post (a double submit, a resend after a lost response)
is answered with the first post's page and changes nothing, and so are twenty sent at once."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaign import services
from campaign.models import Character, CommandKey, Saga
from campaign.sent_once import fresh_key
from combat import services as combat_services
from combat.models import Encounter
from tests.coinduel import KEY as COIN_DUEL
from tests.concurrency import run_together

from .conftest import character_form

KEY = re.compile(r'name="command_key" value="(\w+)"')


def keys_on(client, url) -> list[str]:
    """The one-time keys of the forms the page draws, in order."""
    return KEY.findall(client.get(url).content.decode())


def twice(client, url, data):
    """The same post sent twice; both responses."""
    return client.post(url, data), client.post(url, data)


def same_page(first, second):
    assert first.status_code == second.status_code == 302
    assert first.url == second.url


@pytest.mark.django_db
def test_new_saga_twice_makes_one(storyguide, as_storyguide):
    key = keys_on(as_storyguide, reverse("saga_create"))[0]
    data = {"name": "Twice told", "rule_system": COIN_DUEL, "physical_dice": "False", "command_key": key}
    same_page(*twice(as_storyguide, reverse("saga_create"), data))
    assert Saga.objects.filter(name="Twice told").count() == 1
    repeat = as_storyguide.get(twice(as_storyguide, reverse("saga_create"), data)[1].url).content.decode()
    assert "nothing was done twice" in repeat


@pytest.mark.django_db
def test_a_refused_form_leaves_its_key_for_the_corrected_one(storyguide, as_storyguide):
    key = fresh_key()
    blank = {"name": "", "rule_system": COIN_DUEL, "command_key": key}
    refused = as_storyguide.post(reverse("saga_create"), blank)
    assert refused.status_code == 200 and not CommandKey.objects.filter(key=key).exists()
    fixed = as_storyguide.post(
        reverse("saga_create"),
        {"name": "Fixed", "rule_system": COIN_DUEL, "physical_dice": "False", "command_key": key},
    )
    assert fixed.status_code == 302 and Saga.objects.filter(name="Fixed").count() == 1


@pytest.mark.django_db
def test_new_character_and_new_npc_twice_make_one_each(saga, as_storyguide, as_player):
    for client, url, name in (
        (as_player, reverse("character_create", args=[saga.pk]), "Wulf"),
        (as_storyguide, reverse("npc_create", args=[saga.pk]), "Grog"),
    ):
        data = {**character_form(name=name), "command_key": keys_on(client, url)[0]}
        same_page(*twice(client, url, data))
        assert Character.objects.filter(saga=saga, name=name).count() == 1


@pytest.mark.django_db
def test_stamping_twice_stamps_once(saga, as_storyguide, bandit):
    key = keys_on(as_storyguide, reverse("character_detail", args=[bandit.pk]))[-1]
    same_page(
        *twice(as_storyguide, reverse("npc_stamp", args=[bandit.pk]), {"count": "3", "command_key": key})
    )
    assert Character.objects.filter(saga=saga, stamped_from=bandit).count() == 3


@pytest.mark.django_db
def test_a_resent_invite_regenerate_leaves_the_newer_link(saga, as_storyguide):
    url = reverse("invite_regenerate", args=[saga.pk])
    first_key, second_key = fresh_key(), fresh_key()
    as_storyguide.post(url, {"command_key": first_key})
    saga.refresh_from_db()
    once = saga.invite_token
    as_storyguide.post(url, {"command_key": first_key})
    saga.refresh_from_db()
    assert saga.invite_token == once
    as_storyguide.post(url, {"command_key": second_key})
    saga.refresh_from_db()
    assert saga.invite_token != once


@pytest.mark.django_db
def test_a_late_resend_of_the_npc_rolls_setting_does_not_undo_a_later_one(saga, as_storyguide):
    url = reverse("saga_npc_rolls", args=[saga.pk])
    old = {"npc_rolls": "totals", "command_key": fresh_key()}
    as_storyguide.post(url, old)
    as_storyguide.post(url, {"npc_rolls": "everything", "command_key": fresh_key()})
    as_storyguide.post(url, old)  # the first post's response was lost, and the browser sends it again
    saga.refresh_from_db()
    assert saga.npc_rolls == "everything"


@pytest.mark.django_db
def test_an_archive_uploaded_twice_imports_once(saga, storyguide, as_storyguide):
    raw = b"".join(as_storyguide.get(reverse("saga_archive_json", args=[saga.pk])).streaming_content)
    key = keys_on(as_storyguide, reverse("saga_list"))[0]

    def upload():
        return as_storyguide.post(
            reverse("saga_import"),
            {"archive": SimpleUploadedFile("archive.json", raw, "application/json"), "command_key": key},
        )

    same_page(upload(), upload())
    assert Saga.objects.filter(name__startswith=saga.name).count() == 2  # the original and one import


@pytest.mark.django_db
def test_rename_and_delete_forms_are_sent_once(saga, storyguide, as_storyguide):
    encounter = combat_services.create_encounter(storyguide, saga.pk, "The ford", COIN_DUEL)
    keys = keys_on(as_storyguide, reverse("encounter_manage", args=[encounter.pk]))
    rename_key, delete_key = keys[0], keys[-1]
    rename = reverse("encounter_rename", args=[encounter.pk])
    as_storyguide.post(rename, {"name": "Old", "command_key": rename_key})
    as_storyguide.post(rename, {"name": "New", "command_key": fresh_key()})
    as_storyguide.post(rename, {"name": "Old", "command_key": rename_key})
    encounter.refresh_from_db()
    assert encounter.name == "New"
    url = reverse("encounter_delete", args=[encounter.pk])
    first, again = twice(as_storyguide, url, {"confirm": "on", "command_key": delete_key})
    same_page(first, again)  # the second finds the first's page, not a 404
    assert not Encounter.objects.filter(pk=encounter.pk).exists()
    saga_key = keys_on(as_storyguide, reverse("saga_manage", args=[saga.pk]))[-1]
    delete_saga = {"confirm": "on", "command_key": saga_key}
    same_page(*twice(as_storyguide, reverse("saga_delete", args=[saga.pk]), delete_saga))
    assert not Saga.objects.filter(pk=saga.pk).exists()


@pytest.mark.django_db
def test_another_users_key_is_not_theirs_to_repeat(saga, as_storyguide, as_player):
    key = fresh_key()
    as_storyguide.post(reverse("invite_regenerate", args=[saga.pk]), {"command_key": key})
    response = as_player.post(
        reverse("character_create", args=[saga.pk]), {"name": "Sneak", "command_key": key}
    )
    assert response.status_code == 302 and response.url == reverse("saga_list")
    assert not Character.objects.filter(name="Sneak").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("form", ["new saga", "stamp"])
def test_twenty_identical_posts_at_once_apply_once(form):
    from tests.personas import make_user

    storyguide = make_user("sg")
    saga = services.create_saga(storyguide, name="Concurrent", rule_system=COIN_DUEL)
    bandit = Character.objects.create(saga=saga, name="Bandit", is_npc=True)
    key = fresh_key()
    if form == "new saga":
        url = reverse("saga_create")
        data = {"name": "Once only", "rule_system": COIN_DUEL, "physical_dice": "False", "command_key": key}
    else:
        url = reverse("npc_stamp", args=[bandit.pk])
        data = {"count": "4", "command_key": key}

    def click(_):
        client = Client()
        client.force_login(storyguide)
        response = client.post(url, data)
        return response.status_code, response.get("Location")

    answers = run_together(click, 20)
    assert len(set(answers)) == 1 and answers[0][0] == 302, answers
    if form == "new saga":
        assert Saga.objects.filter(name="Once only").count() == 1
    else:
        assert Character.objects.filter(stamped_from=bandit).count() == 4
    assert CommandKey.objects.filter(key=key).count() == 1
