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
