"""One look: the d6 chase grid follows the dark theme like the rest of the page, and the theme toggle names
the theme it switches to (issue 32, item 5)."""

import re

import pytest
from playwright.sync_api import Page, expect

from .people import PHONE
from .test_awake import the_running_chase

pytestmark = pytest.mark.browser

# Every painted shape of the grid, and its terrain swatches, as "what: its computed fill".
GRID_FILLS = """() => {
  const fills = {};
  const grid = document.getElementById('chase-grid');
  fills['grid background'] = getComputedStyle(grid).backgroundColor;
  grid.querySelectorAll('rect').forEach((rect, index) => {
    fills[`rect ${index} ${rect.getAttribute('class')}`] = getComputedStyle(rect).fill; });
  document.querySelectorAll('[data-testid=d6-chase] svg.swatch rect').forEach((rect, index) => {
    fills[`swatch ${index}`] = getComputedStyle(rect).fill; });
  return fills;
}"""


def luminance(colour: str) -> float:
    """The relative luminance (WCAG) of a computed "rgb(r, g, b)"."""
    assert colour.startswith("rgb"), f"not a colour: {colour!r}"
    channels = [int(value) / 255 for value in re.findall(r"\d+", colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def grid_fills(page: Page) -> dict[str, float]:
    """How light each shape of the chase grid is drawn (GRID_FILLS)."""
    return {what: luminance(colour) for what, colour in page.evaluate(GRID_FILLS).items()}


def strip_text(page: Page) -> float:
    """How light the terrain's name on the grid's strip is drawn."""
    text = page.locator(".chase-grid .strip-text").first
    return luminance(text.evaluate("(element) => getComputedStyle(element).fill"))


def test_the_chase_grid_is_dark_in_the_dark_theme_and_the_toggle_names_the_other_theme(table, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo_d6's logins
    _saga, encounter, wren = the_running_chase()
    player = table.person(wren.username, viewport=PHONE)
    player.enter_as(wren)
    page = player.page
    page.emulate_media(color_scheme="dark")  # a phone in dark mode
    player.goto(f"/encounters/{encounter.pk}/d6/")
    player.wait_until_live()  # the frame answering the resume may swap the chase in again: measure after it
    expect(page.get_by_test_id("chase-grid")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"

    fills = grid_fills(page)
    assert len([what for what in fills if " square" in what]) >= 8 and any("swatch" in what for what in fills)
    light = {what: round(value, 2) for what, value in fills.items() if value > 0.1}
    assert not light, f"light leftovers on the dark chase grid: {light}"
    assert strip_text(page) > 0.5  # the terrain's name, light on its dark tint

    toggle = page.get_by_role("button", name="Light theme")  # dark is on: it offers light
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    expect(toggle).to_have_count(0)
    expect(page.get_by_role("button", name="Dark theme")).to_be_visible()  # light is on: it offers dark
    assert min(grid_fills(page).values()) > 0.5  # the same grid in the light theme's colours
    assert strip_text(page) < 0.05

    page.reload()  # remembered
    expect(page.get_by_role("button", name="Dark theme")).to_be_visible()
