"""Where an invite leads: the saga a `next` link names, and joining it on the way in (sign up or log in)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.urls import Resolver404, resolve, reverse

from . import services
from .models import Saga


def joined_message(saga: Saga) -> str:
    """What a player who has just joined does next: take up a character made for them, or make their own."""
    if services.waiting_characters(saga):
        return f"You joined “{saga.name}” as a player. Take up a character made for you, or make your own."
    return f"You joined “{saga.name}” as a player. Make your character next."


def invited_saga(url: str) -> Saga | None:
    """The saga whose invite link `url` is, or None (another page, or an invite that no longer works)."""
    try:
        match = resolve(urlsplit(url or "").path)
    except Resolver404:
        return None
    if match.url_name != "join":
        return None
    return Saga.objects.select_related("storyguide").filter(invite_token=match.kwargs["token"]).first()


def landing(request, url: str) -> str:
    """Where a person who has just logged in or signed up goes: the saga, joined, when `url` is its
    invite; `url` itself otherwise."""
    saga = invited_saga(url)
    if saga is None:
        return url
    _, joined = services.join_saga(request.user, saga)
    if joined:
        messages.success(request, joined_message(saga))
    return reverse("saga_detail", args=[saga.pk])
