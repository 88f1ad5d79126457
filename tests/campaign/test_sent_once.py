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
from d6.sheet import saga_attributes
from tests.concurrency import run_together

from .test_characters import arsmagica_data

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
def test_new_saga_twice_makes_one(alice, as_alice):
    key = keys_on(as_alice, reverse("saga_create"))[0]
    data = {"name": "Twice told", "rule_system": "arsmagica", "physical_dice": "False", "command_key": key}
    same_page(*twice(as_alice, reverse("saga_create"), data))
    assert Saga.objects.filter(name="Twice told").count() == 1
    repeat = as_alice.get(twice(as_alice, reverse("saga_create"), data)[1].url).content.decode()
    assert "nothing was done twice" in repeat


@pytest.mark.django_db
def test_a_refused_form_leaves_its_key_for_the_corrected_one(alice, as_alice):
    key = fresh_key()
    blank = {"name": "", "rule_system": "arsmagica", "command_key": key}
    refused = as_alice.post(reverse("saga_create"), blank)
    assert refused.status_code == 200 and not CommandKey.objects.filter(key=key).exists()
    fixed = as_alice.post(
        reverse("saga_create"),
        {"name": "Fixed", "rule_system": "arsmagica", "physical_dice": "False", "command_key": key},
    )
    assert fixed.status_code == 302 and Saga.objects.filter(name="Fixed").count() == 1


@pytest.mark.django_db
def test_new_character_and_new_npc_twice_make_one_each(saga, as_alice, as_bob):
    for client, url, name in (
        (as_bob, reverse("character_create", args=[saga.pk]), "Wulf"),
        (as_alice, reverse("npc_create", args=[saga.pk]), "Grog"),
    ):
        data = {**arsmagica_data(name=name), "command_key": keys_on(client, url)[0]}
        same_page(*twice(client, url, data))
        assert Character.objects.filter(saga=saga, name=name).count() == 1


@pytest.mark.django_db
def test_stamping_twice_stamps_once(saga, as_alice, bandit):
    key = keys_on(as_alice, reverse("character_detail", args=[bandit.pk]))[-1]
    same_page(*twice(as_alice, reverse("npc_stamp", args=[bandit.pk]), {"count": "3", "command_key": key}))
    assert Character.objects.filter(saga=saga, stamped_from=bandit).count() == 3


@pytest.mark.django_db
def test_a_resent_invite_regenerate_leaves_the_newer_link(saga, as_alice):
    url = reverse("invite_regenerate", args=[saga.pk])
    first_key, second_key = fresh_key(), fresh_key()
    as_alice.post(url, {"command_key": first_key})
    saga.refresh_from_db()
    once = saga.invite_token
    as_alice.post(url, {"command_key": first_key})
    saga.refresh_from_db()
    assert saga.invite_token == once
    as_alice.post(url, {"command_key": second_key})
    saga.refresh_from_db()
    assert saga.invite_token != once


@pytest.mark.django_db
def test_a_late_resend_of_the_npc_rolls_setting_does_not_undo_a_later_one(saga, as_alice):
    url = reverse("saga_npc_rolls", args=[saga.pk])
    old = {"npc_rolls": "totals", "command_key": fresh_key()}
    as_alice.post(url, old)
    as_alice.post(url, {"npc_rolls": "everything", "command_key": fresh_key()})
    as_alice.post(url, old)  # the first post's response was lost, and the browser sends it again
    saga.refresh_from_db()
    assert saga.npc_rolls == "everything"


@pytest.mark.django_db
def test_a_late_resend_of_the_d6_attributes_does_not_undo_a_later_one(d6_saga, as_alice):
    url = reverse("saga_d6_attributes", args=[d6_saga.pk])
    assert keys_on(as_alice, url)
    old = {"names": "Might\nWits", "command_key": fresh_key()}
    as_alice.post(url, old)
    as_alice.post(url, {"names": "Body\nMind\nSoul", "command_key": fresh_key()})
    same = as_alice.post(url, old)
    assert same.status_code == 302
    d6_saga.refresh_from_db()
    assert saga_attributes(d6_saga)[-3:] == ["body", "mind", "soul"]


@pytest.mark.django_db
def test_an_archive_uploaded_twice_imports_once(saga, alice, as_alice):
    raw = b"".join(as_alice.get(reverse("saga_archive_json", args=[saga.pk])).streaming_content)
    key = keys_on(as_alice, reverse("saga_list"))[0]

    def upload():
        return as_alice.post(
            reverse("saga_import"),
            {"archive": SimpleUploadedFile("archive.json", raw, "application/json"), "command_key": key},
        )

    same_page(upload(), upload())
    assert Saga.objects.filter(name__startswith=saga.name).count() == 2  # the original and one import


@pytest.mark.django_db
def test_rename_and_delete_forms_are_sent_once(saga, alice, as_alice):
    encounter = combat_services.create_encounter(alice, saga.pk, "The ford", "arsmagica")
    keys = keys_on(as_alice, reverse("encounter_manage", args=[encounter.pk]))
    rename_key, delete_key = keys[0], keys[-1]
    rename = reverse("encounter_rename", args=[encounter.pk])
    as_alice.post(rename, {"name": "Old", "command_key": rename_key})
    as_alice.post(rename, {"name": "New", "command_key": fresh_key()})
    as_alice.post(rename, {"name": "Old", "command_key": rename_key})
    encounter.refresh_from_db()
    assert encounter.name == "New"
    url = reverse("encounter_delete", args=[encounter.pk])
    first, again = twice(as_alice, url, {"confirm": "on", "command_key": delete_key})
    same_page(first, again)  # the second finds the first's page, not a 404
    assert not Encounter.objects.filter(pk=encounter.pk).exists()
    saga_key = keys_on(as_alice, reverse("saga_manage", args=[saga.pk]))[-1]
    delete_saga = {"confirm": "on", "command_key": saga_key}
    same_page(*twice(as_alice, reverse("saga_delete", args=[saga.pk]), delete_saga))
    assert not Saga.objects.filter(pk=saga.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("rule_system", ["arsmagica", "d6fatigue"])
def test_a_new_encounter_sent_twice_makes_one(alice, as_alice, rule_system):
    saga = services.create_saga(alice, name="Encounters", rule_system=rule_system)
    url = reverse("encounter_create", args=[saga.pk])
    data = {"name": "The ford", "command_key": keys_on(as_alice, reverse("saga_detail", args=[saga.pk]))[-1]}
    first, second = twice(as_alice, url, data)
    same_page(first, second)
    assert Encounter.objects.filter(saga=saga, name="The ford").count() == 1
    from_htmx = as_alice.post(url, data, HTTP_HX_REQUEST="true")  # htmx is told where to go, not redirected
    assert from_htmx.status_code == 200 and from_htmx["HX-Redirect"] == first.url


@pytest.mark.django_db
def test_another_users_key_is_not_theirs_to_repeat(saga, as_alice, as_bob):
    key = fresh_key()
    as_alice.post(reverse("invite_regenerate", args=[saga.pk]), {"command_key": key})
    response = as_bob.post(reverse("character_create", args=[saga.pk]), {"name": "Sneak", "command_key": key})
    assert response.status_code == 302 and response.url == reverse("saga_list")
    assert not Character.objects.filter(name="Sneak").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("form", ["new saga", "stamp"])
def test_twenty_identical_posts_at_once_apply_once(form):
    from .conftest import make_user

    alice = make_user("alice")
    saga = services.create_saga(alice, name="Concurrent", rule_system="arsmagica")
    bandit = Character.objects.create(saga=saga, name="Bandit", is_npc=True)
    key = fresh_key()
    if form == "new saga":
        url = reverse("saga_create")
        data = {"name": "Once only", "rule_system": "arsmagica", "physical_dice": "False", "command_key": key}
    else:
        url = reverse("npc_stamp", args=[bandit.pk])
        data = {"count": "4", "command_key": key}

    def click(_):
        client = Client()
        client.force_login(alice)
        response = client.post(url, data)
        return response.status_code, response.get("Location")

    answers = run_together(click, 20)
    assert len(set(answers)) == 1 and answers[0][0] == 302, answers
    if form == "new saga":
        assert Saga.objects.filter(name="Once only").count() == 1
    else:
        assert Character.objects.filter(stamped_from=bandit).count() == 4
    assert CommandKey.objects.filter(key=key).count() == 1
