"""Template helpers of the Ars Magica pages: stress rolls as faces, phase names, the phase track."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from combat.audience import STORYGUIDE
from combat.templatetags.combat_tags import words

from .. import presenters

register = template.Library()


_PART_HTML = {
    "": "{}",
    "die": '<span class="die">{}</span>',
    "die-again": '<span class="die die-again">{}</span>',
    "die-botch": '<span class="die die-botch">{}</span>',
    "die-value": '<span class="die-value">{}</span>',
    "botch": '<strong class="botch" data-testid="botch">{}</strong>',
    "added": "{}",
}


def _parts_html(parts, testid: str) -> str:
    """A roll's parts in their mark-up; what is added to a die, or closes its brackets, is kept on the die's
    line on a phone ("5 +6", "0 4):")."""
    pieces: list[str] = []
    for text, kind in parts:
        if kind == "total":
            pieces.append(total(text, testid=testid))
        elif pieces and (kind == "added" or text.startswith(")")):
            pieces.append(format_html('<span class="joined">{}{}</span>', pieces.pop(), text.rstrip()))
            pieces += [" "] if text != text.rstrip() else []
        else:
            pieces.append(format_html(_PART_HTML[kind], text))
    return mark_safe("".join(pieces))


def _roll_html(stress, parts, testid="") -> str:
    """A roll's parts (`presenters.stress_parts`) in their mark-up, the total in bold."""
    if not parts:
        return ""
    html = _parts_html(parts, testid)
    if not (stress or {}).get("faces"):
        return html
    botched = " botched" if stress.get("botches") else ""
    return format_html('<span class="roll{}" data-testid="roll">{}</span>', botched, html)


@register.simple_tag
def roll(stress):
    """A stress die in words, its faces boxed: "stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18";
    after a first 0, its botch dice and what came of them (ArM3 p163); nothing for a roll not shown."""
    return _roll_html(stress, presenters.stress_parts(stress))


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
    """A stress die and its total: "stress die 7 +10 = <b>17</b>"; a botch's total after it; the total
    alone, or the screen's words (ArM3 p163, RULES.md Part 1)."""
    if not stress or value in ("", None):
        return total(value, testid=testid)
    return _roll_html(stress, presenters.rolled_parts(stress, value), testid)


@register.simple_tag
def rolled_added(stress, value):
    """A stress die and what is added to it, for a row that shows the total apart: "stress die 8 +12"."""
    return _roll_html(stress, presenters.rolled_parts(stress, value, with_total=False))


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
    "simple_die_note",
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
