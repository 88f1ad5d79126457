"""The one error map: a refused command (`CombatError`, which carries its status) becomes the
answer the person sees where they are. The websocket's error frames are here too; the command
line's one line and exit 2 are `combat.rules.__main__`'s."""

from __future__ import annotations

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render

from .errors import CombatError


def status_of(error: CombatError, *, form: bool = False) -> int:
    """The HTTP status of a refusal; bad input shown again beside its form is 422."""
    return 422 if form and error.status == 400 else error.status


def error_fragment(request, error: CombatError | None = None) -> HttpResponse:
    """htmx: the form's error slot, empty after a command that worked, else the message and its status."""
    if error is None:
        return render(request, "combat/_error.html", {"message": ""})
    return render(request, "combat/_error.html", {"message": str(error)}, status=error.status)


def refused_on_page(request, error: CombatError, url: str) -> HttpResponse:
    """A full-page form: the message on the page it came from; not allowed at all is a 403 page."""
    if error.status == 403:
        raise PermissionDenied(str(error))
    messages.error(request, str(error))
    return redirect(url)


def error_frame(message: str) -> str:
    """The websocket: an error frame the client shows; the connection stays open."""
    return json.dumps({"error": message})
