"""The invite takes a prepared character, on a phone (issue 35, item 4): the storyguide makes Ada for a player
who will join; a guest opens the invite on a 390 px phone, sees Ada waiting, signs up and takes her up from
the saga page; the storyguide's saga page hears who plays her. A second guest, already signed in, picks Ada on
the invite page after she was taken, and is told so beside the choice."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import Character

from .people import PHONE, outside_the_event_loop
from .test_accounts import PASSWORD, sign_up

pytestmark = pytest.mark.browser


def fits(page: Page) -> None:
    """Nothing on the page is wider than the phone."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def a_saga():
    """Tiberius's saga."""
    tiberius = get_user_model().objects.create_user("tiberius", password=PASSWORD)
    return tiberius, services.create_saga(tiberius, name="The Tribunal of the Rhine", rule_system="arsmagica")


def player_of(name: str) -> str:
    """Who plays the character now, by username ("" for nobody)."""
    owner = Character.objects.get(name=name).owner
    return owner.username if owner else ""


def test_a_guest_takes_up_the_character_made_for_them_from_the_invite_on_a_phone(table):
    tiberius, saga = outside_the_event_loop(a_saga)
    guide = table.person("storyguide")
    guide.enter_as(tiberius)
    page = guide.goto(f"/sagas/{saga.pk}/characters/new/")
    played_by = page.get_by_test_id("played-by")
    expect(played_by.get_by_label("Played by")).to_have_value("waiting")  # a player who will join
    page.locator("#id_name").fill("Ada")
    page.get_by_role("button", name="Save sheet").click()
    expect(page.get_by_text("waiting for a player who will join")).to_be_visible()
    saga_page = guide.goto(f"/sagas/{saga.pk}/")
    invite_url = saga_page.locator("#invite-url").input_value()
    expect(saga_page.locator("#characters td[data-label=Player]")).to_have_text("waiting for a player")

    player = table.person("player", viewport=PHONE)
    phone = player.page
    phone.goto(invite_url)
    invite = phone.get_by_test_id("invite")
    expect(invite).to_contain_text("characters for players who join: Ada")
    fits(phone)
    invite.get_by_role("link", name="Join as a new player").click()
    sign_up(phone, "marcus")

    expect(phone).to_have_url(re.compile(rf"/sagas/{saga.pk}/$"))
    expect(phone.get_by_text("Take up a character made for you, or make your own.")).to_be_visible()
    take = phone.get_by_test_id("take-form")
    take.get_by_label("Ada").check()
    fits(phone)
    button = take.get_by_role("button", name="Play this character")
    expect(button).to_be_in_viewport()
    button.click()
    expect(phone.get_by_text("You play Ada now.")).to_be_visible()
    expect(phone.get_by_text("played by marcus")).to_be_visible()
    fits(phone)

    members = saga_page.locator("#members")
    expect(members.get_by_test_id("member-marcus")).to_contain_text("plays Ada")  # pushed to the saga page
    expect(saga_page.locator("#characters td[data-label=Player]")).to_have_text("marcus")
    assert outside_the_event_loop(player_of, "Ada") == "marcus"


def test_a_signed_in_guest_who_picks_a_character_just_taken_is_told_beside_the_choice(table):
    def prepared():
        _, saga = a_saga()
        Character.objects.create(saga=saga, name="Ada")
        Character.objects.create(saga=saga, name="Cado")
        users = get_user_model().objects
        quick, late = (users.create_user(name, password=PASSWORD) for name in ("quick", "late"))
        return saga, quick, late

    def quicker():
        services.join_saga(quick, saga)
        services.claim_character(quick, Character.objects.get(name="Ada").pk)

    saga, quick, late = outside_the_event_loop(prepared)
    player = table.person("player", viewport=PHONE)
    player.enter_as(late)
    phone = player.goto(f"/join/{saga.invite_token}/")
    phone.get_by_label("Ada").check()

    outside_the_event_loop(quicker)  # on another phone

    phone.get_by_role("button", name="Join as player").click()
    error = phone.locator("#id_character_error")
    expect(error).to_have_text("quick has just taken Ada: choose another, or make your own.")
    fits(phone)
    phone.get_by_label("Cado").check()
    phone.get_by_role("button", name="Join as player").click()
    expect(phone.get_by_text("you play Cado")).to_be_visible()
    assert outside_the_event_loop(player_of, "Cado") == "late"
