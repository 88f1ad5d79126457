"""A storyguide's one-time password link for a player of their saga: made, opened, used once.

The link carries the link row's id and a random nonce, signed by Django (`signing`, salted so that no
other signature of the site opens it); the database keeps only the nonce's digest. A link works once
(`used_at`, set under the row's lock, so it closes even when the new password equals the old), until
`expires_at` (RESET_LINK_HOURS from when it was made), for its own user alone; a newer link for the same
person replaces it. The saga's history records that a link was made and for whom, never the link.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from axes.utils import reset as forget_failed_logins
from django.conf import settings
from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from . import signals
from .access import is_a_storyguide
from .models import Membership, ResetLink, Saga

SALT = "campaign.resets"
BAD = "This is not a working password link. Check it was copied whole, or ask your storyguide for a new one."
USED = "This password link was used already: each link works once. Ask your storyguide for a new one."
REPLACED = "A newer password link was made for you, so this one no longer works. Use the newest one."
EXPIRED = "This password link has expired: a link works for {hours} hours. Ask your storyguide for a new one."


class Closed(Exception):
    """A link that opens nothing: why, in words for whoever holds it, and the page's status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _digest(nonce: str) -> str:
    """What the database keeps of a link's nonce."""
    return hashlib.sha256(nonce.encode()).hexdigest()


def refusal(saga: Saga, player) -> str | None:
    """Why the saga's storyguides may not make a link for this person, or None when they may: never for a
    storyguide of any saga (a link would hand one storyguide another's place, here or in their own saga)."""
    name = player.get_username()
    if is_a_storyguide(player, saga):
        return "A storyguide's password is reset by whoever hosts this Covenant, on the server."
    if player.is_staff or player.is_superuser:
        return f"{name} looks after this Covenant: their password is reset on the server."
    if Saga.objects.filter(storyguide=player).exists():
        return (
            f"{name} runs a saga of their own, so only whoever hosts this Covenant can reset their password."
        )
    if Membership.objects.filter(user=player, role=Membership.Role.STORYGUIDE).exists():
        return (
            f"{name} is a storyguide of another saga, so only whoever hosts this Covenant can reset their"
            " password."
        )
    return None


def make(saga: Saga, storyguide, player) -> tuple[ResetLink, str]:
    """A new link for the player (an older one replaced), recorded in the saga's history without the token."""
    nonce, now = secrets.token_urlsafe(24), timezone.now()
    with transaction.atomic():
        ResetLink.objects.filter(user=player, used_at__isnull=True, replaced=False).update(replaced=True)
        link = ResetLink.objects.create(
            user=player,
            saga=saga,
            made_by=storyguide,
            nonce_digest=_digest(nonce),
            created_at=now,
            expires_at=now + timedelta(hours=settings.RESET_LINK_HOURS),
        )
        signals.reset_link_made.send(ResetLink, saga=saga, storyguide=storyguide, player=player)
    return link, signing.dumps([link.pk, nonce], salt=SALT)


def opened(token: str, *, lock: bool = False) -> ResetLink:
    """The link the token names, while it still works; Closed (with the reason) when it does not."""
    try:
        link_id, nonce = signing.loads(token, salt=SALT)
        rows = ResetLink.objects.select_related("user", "saga")
        link = (rows.select_for_update() if lock else rows).filter(pk=int(link_id)).first()
    except (signing.BadSignature, ValueError, TypeError):
        raise Closed(BAD, 404) from None
    if link is None or not constant_time_compare(link.nonce_digest, _digest(str(nonce))):
        raise Closed(BAD, 404)
    if link.used_at is not None:
        raise Closed(USED, 410)
    if link.replaced:
        raise Closed(REPLACED, 410)
    if link.expires_at <= timezone.now():
        hours = round((link.expires_at - link.created_at).total_seconds() / 3600)
        raise Closed(EXPIRED.format(hours=hours), 410)
    return link


def use(token: str, form) -> ResetLink:
    """Save the new password (a valid SetPasswordForm for the link's user) through the link, once: under
    the link's lock, so a second use, or a twin post, finds it used and changes nothing."""
    with transaction.atomic():
        link = opened(token, lock=True)
        if form.user.pk != link.user_id:
            raise Closed(BAD, 404)
        form.save()
        link.used_at = timezone.now()
        link.save(update_fields=["used_at"])
    forget_failed_logins(username=link.user.get_username())
    return link
