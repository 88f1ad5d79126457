"""The d6 table's wording for templates: each filter hands a payload to its presenter and prints."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from d6 import presenters

register = template.Library()

for _name in (
    "faces_html",
    "roll_line",
    "exchange_moves",
    "breather_line",
    "chase_ended_line",
    "chase_started_line",
    "faces_in_line",
    "fight_started_line",
    "pass_choice_line",
    "terrain_chosen_line",
    "terrain_offered_line",
    "turn_ended_line",
    "value_set_line",
    "terrains_text",
    "terrain_html",
    "terrain_choice",
    "names_list",
    "score_option",
    "scores_html",
    "sent_note",
    "initiative_workings",
    "score_label",
):
    register.filter(_name, getattr(presenters, _name))


@register.simple_tag
def swatch(tint: str) -> str:
    """A terrain's colour as a small square, drawn as SVG (no style attribute: the CSP allows none)."""
    return presenters.swatch(tint)


@register.filter
def exchange_roll(r: dict, p: dict) -> str:
    """One runner's roll in the exchange `p`."""
    return presenters.exchange_roll(r, p)


@register.filter
def prefill(value) -> str:
    """A number field's attribute: the value set, or the placeholder "none" when there is none."""
    return mark_safe('placeholder="none"') if value is None else format_html('value="{}"', value)
