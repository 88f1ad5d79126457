"""A plain form sent twice applies once: the page draws a one-time key into the form, the first post
that carries it claims it with the page it led to, and a repeat (a double submit, a resend after a lost
response, twenty at once) is answered with that same page and changes nothing.

The key is the user's (campaign.models.CommandKey with no saga), so it outlives what the form changed:
a repeated "delete the saga" still finds where the first one led. A post without a well-formed key
(a script, not a page) applies as sent, as an API's optional idempotency key does.
"""

from __future__ import annotations

import functools
import uuid

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseRedirectBase
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from .models import CommandKey

FIELD = "command_key"
REPEATED = "That was sent already: here is what it did, and nothing was done twice."


def well_formed(key) -> bool:
    return isinstance(key, str) and 16 <= len(key) <= 40 and key.isascii() and key.isalnum()


def fresh_key() -> str:
    """A key for a form drawn now (or a page's command that carries no version)."""
    return uuid.uuid4().hex


def sent_once(view):
    """A view's POST runs in one transaction with its form's key claimed, and its redirect is remembered;
    a repeat is answered with that redirect before the view runs (the thing it deleted may be gone).

    A response that is not a redirect (the form came back with its errors) or an exception (404, 403)
    rolls the key back with everything else, so the corrected form can be sent with it."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        key = request.POST.get(FIELD, "") if request.method == "POST" else ""
        if not well_formed(key) or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        with transaction.atomic():
            first = _repeat_of(request, key)
            if first is not None:
                return first
            try:
                with transaction.atomic():
                    claim = CommandKey.objects.create(user=request.user, key=key)
            except IntegrityError:  # a twin post claimed it first and has committed: answer as it did
                first = _repeat_of(request, key)
                if first is not None:
                    return first
                raise
            response = view(request, *args, **kwargs)
            if not isinstance(response, HttpResponseRedirectBase):
                transaction.set_rollback(True)
                return response
            claim.result = response.url[:200]
            claim.save(update_fields=["result"])
        return response

    return wrapper


def _repeat_of(request, key: str) -> HttpResponse | None:
    """The first post's page, when this key was claimed already; None when it is new."""
    claimed = CommandKey.objects.filter(key=key).values("user_id", "result").first()
    if claimed is None:
        return None
    if claimed["user_id"] != request.user.pk or not claimed["result"]:
        messages.error(request, "That form was sent already. Reload the page to send it again.")
        return HttpResponseRedirect(reverse("saga_list"))
    messages.info(request, REPEATED)
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(claimed["result"])
    return HttpResponseRedirect(claimed["result"])
