"""Accounts and sagas in a real browser: sign up, log out, log in, start a saga, invite a player."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import Membership, Saga

from .encounter_page import load_demo_table
from .people import PHONE, Person, outside_the_event_loop

pytestmark = pytest.mark.browser

PASSWORD = "tallow-and-vellum-42"


def sign_up(page: Page, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()


def a_new_storyguide(table) -> tuple[Person, Page]:
    """Someone new on a laptop signs up from the front page as "tiberius"; they and their page, welcomed."""
    guide = table.person("storyguide")
    page = guide.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    sign_up(page, "tiberius")
    expect(page.get_by_text("Welcome, tiberius.")).to_be_visible()
    return guide, page


def start_saga(page: Page, name: str) -> None:
    """On "Start a saga": name an Ars Magica saga and create it; its page opens, headed by its name."""
    page.get_by_label("Saga name").fill(name)
    page.get_by_label("Rule system").select_option("arsmagica")
    page.get_by_role("button", name="Create the saga").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()


def test_a_storyguide_signs_up_logs_out_logs_in_and_finds_the_saga_they_started(table):
    _, page = a_new_storyguide(table)

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)

    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("tiberius")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()

    page.get_by_role("navigation").get_by_role("link", name="My sagas").click()
    page.get_by_role("link", name="Start a saga").click()
    start_saga(page, "The Tribunal of the Rhine")
    expect(page.locator("#invite-url")).to_have_value(re.compile(r"/join/[^/]+/$"))

    page.get_by_role("navigation").get_by_role("link", name="My sagas").click()
    expect(page.get_by_role("link", name="The Tribunal of the Rhine")).to_be_visible()

    saga = Saga.objects.get(name="The Tribunal of the Rhine")
    assert saga.storyguide.username == "tiberius"
    assert saga.rule_system == "arsmagica"
    assert saga.memberships.get().role == Membership.Role.STORYGUIDE


def test_a_guest_opens_the_invite_on_a_phone_signs_up_and_lands_on_the_saga_to_make_a_character(table):
    tiberius = get_user_model().objects.create_user("tiberius", password=PASSWORD)
    saga = services.create_saga(tiberius, name="The Tribunal of the Rhine", rule_system="arsmagica")
    guide = table.person("storyguide")
    guide.enter_as(tiberius)
    invite_url = guide.goto(f"/sagas/{saga.pk}/").locator("#invite-url").input_value()

    player = table.person("player", viewport=PHONE)
    page = player.page
    page.goto(invite_url)
    invite = page.get_by_test_id("invite")
    expect(invite.get_by_role("heading", name="The Tribunal of the Rhine")).to_be_visible()
    expect(invite.get_by_test_id("invite-storyguide")).to_have_text("tiberius")
    expect(invite.get_by_role("link", name="I have an account")).to_be_visible()
    invite.get_by_role("link", name="Join as a new player").click()
    expect(page.get_by_test_id("invited-to")).to_contain_text("The Tribunal of the Rhine")
    sign_up(page, "marcus")

    expect(page).to_have_url(re.compile(rf"/sagas/{saga.pk}/$"))
    expect(page.get_by_text("you are a player")).to_be_visible()
    first_step = page.get_by_test_id("first-step")
    expect(first_step.get_by_role("heading", name="First step: make your character")).to_be_visible()
    first_step.get_by_role("link", name="Make your character").click()
    expect(page).to_have_url(re.compile(rf"/sagas/{saga.pk}/characters/new/$"))

    expect(guide.page.locator("#members").get_by_text("marcus")).to_be_visible()  # pushed to the saga page
    membership = Membership.objects.get(saga=saga, user__username="marcus")
    assert membership.role == Membership.Role.PLAYER
    assert saga.memberships.count() == 2


def test_a_command_after_the_session_ended_goes_to_the_login_page_and_back(table):
    saga, encounter, _ = outside_the_event_loop(load_demo_table)

    def with_password():
        guide = Saga.objects.get(pk=saga.pk).storyguide
        guide.set_password(PASSWORD)
        guide.save()
        return guide

    storyguide = outside_the_event_loop(with_password)
    guide = table.person("storyguide")
    guide.enter_as(storyguide)
    page = guide.goto(f"/encounters/{encounter.pk}/")
    guide.wait_until_live()
    guide.context.clear_cookies()  # the session has ended (logged out elsewhere, expired)

    page.get_by_test_id("open-declarations").click()
    expect(page).to_have_url(re.compile(rf"/accounts/login/\?next=/encounters/{encounter.pk}/$"))
    page.get_by_label("Username").fill(storyguide.username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(rf"/encounters/{encounter.pk}/$"))
    expect(page.get_by_test_id("open-declarations")).to_be_visible()
