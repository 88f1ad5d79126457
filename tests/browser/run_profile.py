"""`make run`'s settings as they are (config.settings), with config.urls and one URL more that fails on
purpose (tests/browser/run_profile_urls.py): how tests/browser/test_run_profile.py sees the 500 page a group
would see, without a URL that fails in what Covenant ships. Its Daphne names this DJANGO_SETTINGS_MODULE."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.browser.run_profile_urls"
