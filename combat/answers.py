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

# django-htmx's `{% htmx_script %}`, under DEBUG, replaces the whole document with the answer to an
# htmx request that comes back 400, 403, 404 or 500. A refusal shown beside its control must never be
# one of those, whatever DEBUG says: it is 409 when the page is out of step with the encounter (stale,
# wrong phase) and 422 for anything else (bad input, not yours to do), the two statuses htmx swaps
# into the slot (combat_tags.HTMX_CONFIG, which base.html uses too).
INLINE_STATUSES = (409, 422)


def status_of(error: CombatError, *, inline: bool = False) -> int:
    """The HTTP status of a refusal; one shown beside its control (htmx, a form drawn again) is 409 or 422."""
    if not inline:
        return error.status
    return error.status if error.status in INLINE_STATUSES else 422


def error_fragment(request, error: CombatError | None = None) -> HttpResponse:
    """The control's error slot, empty after a command that worked, else the message: 409 or 422 for htmx."""
    if error is None:  # the template draws nothing without a message
        return HttpResponse()
    status = status_of(error, inline=bool(getattr(request, "htmx", False)))
    return render(request, "combat/_error.html", {"message": str(error)}, status=status)


def refused_on_page(request, error: CombatError, url: str) -> HttpResponse:
    """A full-page form: the message on the page it came from; not allowed at all is a 403 page."""
    if error.status == 403:
        raise PermissionDenied(str(error))
    messages.error(request, str(error))
    return redirect(url)


def error_frame(message: str, *, last: bool = False) -> str:
    """The websocket: an error frame the client shows; the connection stays open, unless `last` says the
    server closes it next (4403), so the page keeps this message as why it stopped."""
    return json.dumps({"error": message, "last": True} if last else {"error": message})


def busy_message(seconds: int) -> str:
    """What a command refused under overload says beside its button (config.admission's 503)."""
    return f"The table is busy: not sent. Try again in {seconds} s."
