"""Issue 31, item 2: locked out, back in without email. The storyguide makes a one-time password link for a
player from the saga page; the player opens it on their phone, sets a new password and lands on the saga,
logged in. A second use and an expired link are refused in words; the saga's history says a link was made
and never shows it."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from playwright.sync_api import Page, expect

from campaign import services
from campaign.models import Membership, ResetLink

from .people import PHONE, Person, outside_the_event_loop

pytestmark = pytest.mark.browser

OLD, NEW = "tallow-and-vellum-42", "a-fresh-candle-at-vespers"
SAGA = "The Tribunal of the Rhine"
GONE = re.compile(r"^Failed to load resource: the server responded with a status of 410 ")


def a_link_for(guide: Person, saga_url: str, player: str) -> str:
    """From the saga page's members: the player's "Password link", "Make a password link", the link shown."""
    page = guide.goto(saga_url)
    page.get_by_test_id(f"reset-link-{player}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"A new password for {player}")
    page.get_by_role("button", name=re.compile(r"^Make (a password|another) link$")).click()
    url = page.get_by_test_id("reset-url").input_value()
    assert re.search(r"/accounts/reset/[^/]+/$", url), url
    return url


def refused(page: Page, url: str, words: str) -> None:
    """The link opens a page that says why it does not open, and offers the log-in page instead."""
    response = page.goto(url)
    assert response is not None and response.status == 410, response and response.status
    closed = page.get_by_test_id("reset-closed")
    expect(closed.get_by_role("heading", level=1)).to_have_text("This link does not open")
    expect(closed.get_by_role("alert")).to_contain_text(words)
    expect(closed.get_by_role("link", name="Log in")).to_be_visible()
    expect(page.get_by_test_id("reset-password")).to_have_count(0)


def a_saga_with_a_player():
    """Tiberius's saga, with marcus as its player."""
    users = get_user_model().objects
    tiberius = users.create_user("tiberius", password=OLD)
    marcus = users.create_user("marcus", password=OLD)
    saga = services.create_saga(tiberius, name=SAGA, rule_system="arsmagica")
    Membership.objects.create(saga=saga, user=marcus, role=Membership.Role.PLAYER)
    return saga, tiberius, marcus


def test_a_locked_out_player_gets_back_in_from_their_phone_once(table):
    saga, tiberius, marcus = outside_the_event_loop(a_saga_with_a_player)
    saga_url = f"/sagas/{saga.pk}/"
    table.allow(GONE)  # Chromium's console line for a refused link's page, which the test opens on purpose
    guide = table.person("storyguide")
    guide.enter_as(tiberius)
    expect(guide.goto(saga_url).get_by_test_id("reset-link-tiberius")).to_have_count(0)  # not their own

    # The storyguide makes the link; it is shown once, and gone when the page is opened again.
    url = a_link_for(guide, saga_url, "marcus")
    expect(guide.page.get_by_test_id("reset-link")).to_contain_text("It works once, for 24 hours")
    guide.page.reload()
    expect(guide.page.get_by_test_id("reset-url")).to_have_count(0)

    # Marcus, logged out on his phone, opens it, chooses a new password and is on the saga's page.
    player = table.person("marcus", viewport=PHONE)
    page = player.goto(url)
    form = page.get_by_test_id("reset-password")
    expect(form).to_contain_text(f"For marcus, in {SAGA}. This link works once.")
    page.get_by_label(re.compile(r"^New password:?$")).fill(NEW)
    page.get_by_label(re.compile(r"^New password confirmation:?$")).fill(NEW)
    page.get_by_role("button", name="Set my new password").click()
    expect(page).to_have_url(re.compile(rf"{saga_url}$"))
    expect(page.get_by_text("Your new password is set. Welcome back, marcus.")).to_be_visible()
    expect(page.get_by_role("heading", name=SAGA, level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    wide = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    assert not wide, "the saga page scrolls sideways on a phone"

    # The same link a second time: refused, whoever opens it.
    refused(page, url, "This password link was used already: each link works once.")
    refused(table.person("stranger").page, url, "This password link was used already")

    # A new link left a day and a second: expired.
    late = a_link_for(guide, saga_url, "marcus")
    day = timedelta(hours=24, seconds=1)
    ResetLink.objects.filter(used_at__isnull=True).update(
        created_at=F("created_at") - day, expires_at=F("expires_at") - day
    )
    refused(page, late, "This password link has expired: a link works for 24 hours.")
    marcus.refresh_from_db()
    assert marcus.check_password(NEW)

    # The saga's history: two links made for marcus, and neither link in the page.
    history = guide.goto(f"/sagas/{saga.pk}/history/")
    made = history.get_by_text("The storyguide made a one-time password link for marcus")
    expect(made).to_have_count(2)
    text = history.content()
    for link in (url, late):
        token = link.rstrip("/").rsplit("/", 1)[1]
        assert token not in text
