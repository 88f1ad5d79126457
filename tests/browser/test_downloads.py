"""Issue 10, item 10: the history's exports come as downloads with a sensible name, not a page in the tab."""

import pytest
from django.utils import timezone

from .encounter_page import load_demo_table

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("testid", "what"),
    [("history-json", "history.json"), ("archive-json", "archive.json"), ("recap-md", "recap.md")],
)
def test_each_export_is_saved_as_a_file_named_for_the_saga_and_the_day(table, settings, testid, what):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # load_demo's logins
    saga, encounter, combatants = load_demo_table()
    guide = table.person("storyguide")
    guide.enter_as(saga.storyguide)
    page = guide.goto(f"/sagas/{saga.pk}/history/")
    with page.expect_download() as download:
        page.get_by_test_id(testid).click()
    assert download.value.suggested_filename == f"sir-boris-and-the-bandits-{timezone.localdate()}-{what}"
    assert page.url.endswith(f"/sagas/{saga.pk}/history/")  # the page stays
