"""Template helpers of the saga pages: a character's current levels, in its rule system's words."""

from django import template

from campaign import systems

register = template.Library()


@register.filter
def levels(character):
    """(heading, value) of the character's current levels ("Fatigue level", "Winded")."""
    return systems.of(character.saga).sheet.levels(character)


@register.simple_tag
def command_key():
    """The hidden one-time key of a plain form: sent twice, it applies once (campaign.sent_once)."""
    from django.utils.html import format_html

    from campaign.sent_once import FIELD, fresh_key

    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, fresh_key())


@register.inclusion_tag("combat/_seat.html", takes_context=True)
def seat_panel(context, encounter):
    """Who runs the encounter (its seat's holder) and, for the holder and the saga's lead while it is not
    over, the form handing the seat to another of the saga's storyguides with a reason."""
    from campaign.access import is_lead
    from campaign.models import Membership

    user = context.get("user")
    saga = encounter.saga
    # The holder: `combat.access.holds_seat`'s question, asked here by the row (campaign is below combat).
    holds = user is not None and user.is_authenticated and encounter.seat_holder_id == user.pk
    may_hand = holds or (user is not None and is_lead(user, saga))
    others = []
    if may_hand and encounter.status != "ended":
        rows = saga.memberships.filter(role=Membership.Role.STORYGUIDE)
        rows = rows.exclude(user_id=encounter.seat_holder_id).order_by("user__username")
        others = list(rows.values_list("user__username", flat=True))
    return {
        "encounter": encounter,
        "holder": encounter.seat_holder.get_username(),
        "mine": user is not None and encounter.seat_holder_id == user.pk,
        "others": others,
        "csrf_token": context.get("csrf_token"),
    }
