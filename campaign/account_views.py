"""Accounts: the log-in page (which knows where an invite leads), a storyguide's one-time password link
for a player, the page that link opens, and Django's email reset where the host has mail."""

import functools

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from . import resets
from .access import require_a_storyguide
from .invites import invited_saga, landing
from .models import Membership
from .sent_once import sent_once

SHOWN = "reset_link_shown"


class LogIn(auth_views.LoginView):
    """Django's log-in page, naming the saga an invite leads to and joining it on the way in."""

    redirect_authenticated_user = True

    def get_success_url(self):
        """Where the person goes: the invited saga, joined, when `next` is its invite."""
        url = super().get_success_url()
        return landing(self.request, url) if self.request.method == "POST" else url

    def get_context_data(self, **kwargs):
        """The invited saga, if any, and whether "Forgot your password?" may send an email."""
        context = super().get_context_data(**kwargs)
        context.update(
            invited=invited_saga(self.get_redirect_url()), email_reset=settings.PASSWORD_RESET_BY_EMAIL
        )
        return context


def _member_of(saga, user_id) -> Membership:
    """A player's membership in the saga (not the storyguide's); 404 otherwise."""
    return get_object_or_404(
        Membership.objects.select_related("user"), saga=saga, user_id=user_id, role=Membership.Role.PLAYER
    )


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def reset_link(request, saga_id, user_id):
    """One of the saga's storyguides makes a one-time password link for a player of the saga; it is shown
    once, here."""
    saga = require_a_storyguide(request.user, saga_id)
    player = _member_of(saga, user_id).user
    refusal = resets.refusal(saga, player)
    if request.method == "POST" and refusal is None:
        _, token = resets.make(saga, request.user, player)
        url = request.build_absolute_uri(reverse("reset_password", args=[token]))
        request.session[SHOWN] = {"user": player.pk, "url": url}
        return redirect("reset_link", saga_id=saga.pk, user_id=player.pk)
    shown = request.session.pop(SHOWN, None)
    context = {
        "saga": saga,
        "player": player,
        "refusal": refusal,
        "hours": settings.RESET_LINK_HOURS,
        "shown": shown["url"] if shown and shown["user"] == player.pk else None,
    }
    return render(
        request, "registration/reset_link.html", context, status=422 if request.method == "POST" else 200
    )


@never_cache
@require_http_methods(["GET", "POST"])
def reset_password(request, token):
    """A player opens their link and sets a new password; then they are logged in, on their saga's page."""
    try:
        link = resets.opened(token)
        form = SetPasswordForm(link.user, request.POST or None)
        if request.method == "POST" and form.is_valid():
            link = resets.use(token, form)
            login(request, form.user, backend="campaign.backends.PreparedModelBackend")
            messages.success(request, f"Your new password is set. Welcome back, {link.user.get_username()}.")
            if Membership.objects.filter(saga_id=link.saga_id, user_id=link.user_id).exists():
                return redirect("saga_detail", saga_id=link.saga_id)
            return redirect("saga_list")
    except resets.Closed as closed:
        context = {"message": closed.message}
        return render(request, "registration/reset_closed.html", context, status=closed.status)
    return render(request, "registration/reset_password.html", {"form": form, "link": link})


def needs_email(view):
    """A view of Django's email reset, answered 404 where the host has not configured email."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.PASSWORD_RESET_BY_EMAIL:
            raise Http404("This Covenant sends no email: ask your storyguide for a password link.")
        return view(request, *args, **kwargs)

    return wrapper
