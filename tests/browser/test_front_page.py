"""The harness itself: Daphne serves the pages and the stylesheet to a real Chromium."""

import pytest
from playwright.sync_api import expect

from .people import PHONE

pytestmark = pytest.mark.browser


def test_front_page_is_served_with_its_stylesheet_at_phone_width(table):
    visitor = table.person("visitor", viewport=PHONE)
    visitor.goto("/")
    expect(visitor.page.get_by_role("heading", name="Covenant")).to_be_visible()
    stylesheet = visitor.page.request.get("/static/css/covenant.css")
    assert stylesheet.ok and "text/css" in stylesheet.headers["content-type"]
    page_width = visitor.page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= PHONE["width"], f"the front page scrolls sideways at phone width ({page_width}px)"
