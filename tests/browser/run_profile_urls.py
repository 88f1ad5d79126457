"""config.urls and one URL more, which fails on purpose (tests/browser/run_profile.py says why)."""

from django.urls import include, path

FAILURE = "a failure on purpose (tests/browser/test_run_profile.py)"


def fails(request):
    """A view that raises, as a bug would."""
    raise RuntimeError(FAILURE)


urlpatterns = [path("test-only/fails/", fails), path("", include("config.urls"))]
