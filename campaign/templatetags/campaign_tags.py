"""Template helpers of the saga pages: a character's current levels, in its rule system's words."""

from django import template

from combat import systems

register = template.Library()


@register.filter
def levels(character):
    """(heading, value) of the character's current levels ("Fatigue level", "Winded")."""
    return systems.of(character.saga).levels(character)
