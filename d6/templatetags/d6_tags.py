"""The d6 table's wording for templates: each filter hands a payload to its presenter and prints."""

from django import template

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
    "names_list",
):
    register.filter(_name, getattr(presenters, _name))


@register.simple_tag
def swatch(colour: str) -> str:
    """A terrain's colour as a small square, drawn as SVG (no style attribute: the CSP allows none)."""
    return presenters.swatch(colour)


@register.filter
def exchange_roll(r: dict, p: dict) -> str:
    """One runner's roll in the exchange `p`."""
    return presenters.exchange_roll(r, p)
