"""Template helpers of the Ars Magica pages: stress rolls as faces, phase names, the phase track."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from combat.audience import STORYGUIDE
from combat.templatetags.combat_tags import words

from .. import presenters

register = template.Library()


@register.simple_tag
def roll(stress, label=""):
    """A stress roll as its faces: `1 → 1 → 3 = 12`, botch dice shown, botches marked (ArM3 p163); nothing
    for a roll players do not see."""
    if not stress:
        return ""
    faces = stress.get("faces", [])
    botches = stress.get("botches", 0)
    dice = format_html_join(
        mark_safe('<span class="arrow"> → </span>'),
        '<span class="{}">{}</span>',
        (
            ("die die-again" if face == 1 and n < len(faces) - 1 else "die", face)
            for n, face in enumerate(faces)
        ),
    )
    botch_faces = stress.get("botch_faces", [])
    botch_dice = (
        format_html(
            ' <span class="botch-dice">botch dice {}</span>',
            format_html_join(
                "",
                '<span class="{}">{}</span>',
                (("die die-botch" if face == 0 else "die", face) for face in botch_faces),
            ),
        )
        if botch_faces
        else ""
    )
    botch = format_html(
        ' <strong class="botch" data-testid="botch">{}</strong>', presenters.botch_label(botches)
    )
    return format_html(
        '<span class="roll{}" data-testid="roll"{}>{}{} = <b class="die-value">{}</b>{}</span>',
        " botched" if botches else "",
        format_html(' title="{}"', label) if label else "",
        dice,
        botch_dice,
        stress.get("value"),
        botch if botches else "",
    )


@register.simple_tag
def total(value, css="", testid=""):
    """A total in bold, or the words for one behind the storyguide's screen."""
    if value in ("", None):
        return format_html('<span class="screened muted">{}</span>', presenters.SCREENED_WORDS)
    attributes = format_html(' class="{}"', css) if css else ""
    if testid:
        attributes = format_html('{} data-testid="{}"', attributes, testid)
    return format_html("<b{}>{}</b>", attributes, value)


@register.simple_tag
def rolled(stress, value, testid=""):
    """A roll's faces, then its total: `1 → 3 = 3 → 15`; the total alone, or the screen's words."""
    if not stress or value in ("", None):
        return total(value, testid=testid)
    return format_html("{} → {}", roll(stress), total(value, testid=testid))


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
def close_declarations_label(declared, able, unable):
    """The closing button's words: "Close declarations, roll Initiative (2/3 declared; 1 cannot act)"."""
    return presenters.close_declarations_label(declared, able, unable)


@register.simple_tag
def end_round_label(round_number):
    """The round's last button: "End round 1, open round 2"."""
    return presenters.end_round_label(round_number)


@register.filter
def disabled_by(refusal):
    """` disabled` on a button whose command the rules refuse now (the reason shows beside it)."""
    return mark_safe(" disabled") if refusal else ""


# --- the words of log lines and previews, from `presenters` ------------------------------------

for _name in (
    "lost",
    "levels",
    "fatigue_lost",
    "weapon_at",
    "damage_vs_soak",
    "advantage_side",
    "advantage_carried",
    "level_change",
    "correction_field",
    "after_meal",
    "resting_how",
    "still",
    "stamina_outcome",
    "time_applies_to",
    "stamina_default",
    "missile_words",
    "hit_outcome",
    "hit_words",
    "damage_words",
    "advantage_won",
    "versus",
    "fatigue_loses",
    "nothing_happens",
    "options_summary",
):
    register.filter(_name, getattr(presenters, _name))


@register.simple_tag
def chosen(options, names):
    """The storyguide's options that changed a roll, after its line: "(set by the storyguide: Sir Boris
    +3)"; nothing when none did."""
    if not options:
        return ""
    return format_html(
        ' <span class="chosen muted" data-testid="storyguide-options">(set by the storyguide: {})</span>',
        presenters.chosen_words(options, names),
    )


@register.simple_tag
def level_changes(changes, names):
    """Every level a phase changed, after its name."""
    return presenters.level_changes(changes, names)


@register.simple_tag(takes_context=True)
def declared_what(context, summary):
    """What was declared, for the storyguide (": Fight hand to hand with Sword"); players read only who."""
    storyguide = context.get("is_storyguide") or context.get("audience") == STORYGUIDE
    return f": {presenters.declaration_summary(summary, context.get('names') or {})}" if storyguide else ""


@register.simple_tag
def engagement_line(pair, names):
    """Who engaged whom, at what range."""
    return presenters.engagement_line(pair, names)


@register.simple_tag
def correction_changes(changes):
    """A correction's changes: "fatigue fresh → <b>winded</b>, body level ..." (new values in bold)."""
    return format_html_join(
        ", ",
        "{} {} → <b>{}</b>",
        ((presenters.correction_field(key), words(old), words(new)) for key, (old, new) in changes.items()),
    )


@register.filter
def spell_name(name):
    """A spell's name in italics, or "a spell" when the caster gave none."""
    return format_html("<i>{}</i>", name) if name else "a spell"


@register.simple_tag
def undo_words(phase, passed):
    """What an undo takes back, in words: "Melee (and Magic, which passed empty)"."""
    return presenters.undo_words(phase, passed)
