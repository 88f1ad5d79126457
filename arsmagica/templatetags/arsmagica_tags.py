"""Template helpers of the Ars Magica pages: stress rolls as faces, phase names, the phase track."""

from django import template
from django.utils.safestring import mark_safe

from .. import presenters

register = template.Library()


@register.inclusion_tag("arsmagica/_roll.html")
def roll(stress, label=""):
    """A stress roll as its faces: `1 → 1 → 3 = 12`, botch dice shown, botches marked."""
    stress = stress or {}
    return {
        "faces": stress.get("faces", []),
        "botch_faces": stress.get("botch_faces", []),
        "value": stress.get("value"),
        "botches": stress.get("botches", 0),
        "label": label,
    }


@register.filter
def phase_name(value):
    """melee → Melee; first_missile → First Missile; "" → ""."""
    return presenters.phase_name(value)


@register.filter
def phase_steps(track, current):
    """The status bar's phase track as (key, label, state): state is "done", "now" or "next"."""
    keys = [key for key, _ in track]
    position = keys.index(current) if current in keys else -1
    return [
        (key, label, "now" if index == position else "done" if index < position else "next")
        for index, (key, label) in enumerate(track)
    ]


@register.simple_tag
def close_declarations_label(declared, total):
    """The closing button's words: "Close declarations, roll Initiative (2/3 declared)"."""
    return presenters.close_declarations_label(declared, total)


@register.simple_tag
def end_round_label(round_number):
    """The round's last button: "End round 1, open round 2"."""
    return presenters.end_round_label(round_number)


@register.filter
def disabled_by(refusal):
    """` disabled` on a button whose command the rules refuse now (the reason shows beside it)."""
    return mark_safe(" disabled") if refusal else ""
