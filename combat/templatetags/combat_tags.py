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


@register.filter
def duration(minutes):
    """90 → "1 hour 30 minutes"; 480 → "8 hours"; 5 → "5 minutes"."""
    try:
        minutes = int(minutes)
    except (TypeError, ValueError):
        return minutes
    hours, rest = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if rest or not hours:
        parts.append(f"{rest} minute{'s' if rest != 1 else ''}")
    return " ".join(parts)


@register.filter
def column(rows, key):
    """[row[key] for row in rows]."""
    return [row[key] for row in rows or ()]


# The steps of an Ars Magica round by their stored value; other values (movement, a d6 table's) read as words.
PHASE_NAMES = {
    "declaring": "Declarations",
    "movement": "Movement",
    "first_missile": "First Missile",
    "melee": "Melee",
    "second_missile": "Second Missile",
    "magic": "Magic",
    "fatigue": "Fatigue",
    "round_over": "Round over",
}


@register.filter
def phase_name(value):
    """melee → Melee; first_missile → First Missile; "" → ""."""
    value = str(value or "")
    return PHASE_NAMES.get(value) or value.replace("_", " ").capitalize()


@register.simple_tag
def event_label(event, in_round=False):
    """Where an event happened, for everyone: "R1 · Melee", "Setting up"; just "Melee" inside a round's
    heading. No sequence number: players do not see the storyguide's entries, so theirs would skip."""
    phase = phase_name(event.phase) if event.round_number else ""
    if in_round:
        return phase
    where = f"R{event.round_number}" if event.round_number else "Setting up"
    return f"{where} · {phase}" if phase else where


@register.filter
def phase_steps(track, current):
    """The status bar's phase track as (key, label, state): state is "done", "now" or "next"."""
    keys = [key for key, _ in track]
    position = keys.index(current) if current in keys else -1
    return [
        (key, label, "now" if index == position else "done" if index < position else "next")
        for index, (key, label) in enumerate(track)
    ]
