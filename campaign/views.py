"""Campaign pages: thin views over the campaign services."""

from django.shortcuts import render


def home(request):
    """The front page: what Covenant is, and where to go next."""
    return render(request, "campaign/home.html")
