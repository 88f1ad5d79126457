"""Small template helpers for the combat pages: names from payloads, dice faces, signed numbers."""

from django import template

register = template.Library()


@register.filter
def lookup(mapping, key):
    """mapping[key] (str keys too), or "" when missing."""
    if not mapping:
        return ""
    if key in mapping:
        return mapping[key]
    return mapping.get(str(key), "")


@register.filter
def signed(value):
    """+3, -6, 0."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{number}" if number > 0 else str(number)


@register.inclusion_tag("combat/_roll.html")
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
def words(value):
    """light_wounds → light wounds; first_missile → first missile."""
    return str(value or "").replace("_", " ")
