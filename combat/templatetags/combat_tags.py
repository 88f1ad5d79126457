"""Small template helpers for every table: names from payloads, signed numbers, where an event happened."""

import json

from django import template
from django.urls import reverse
from django.utils.html import format_html

from combat import sentences, systems
from combat.audience import STORYGUIDE
from combat.undo import reason

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


# htmx swaps a refusal's 4xx answer (409 or 422: combat.answers) into its error slot; a 5xx swaps nothing.
# Under the Content-Security-Policy htmx may not inject its indicator <style>, evaluate code (hx-on, js:)
# or run <script> tags in swapped HTML. Every page (base.html) uses this configuration.
HTMX_CSP_SAFE = {"includeIndicatorStyles": False, "allowEval": False, "allowScriptTags": False}
HTMX_CONFIG = {
    **HTMX_CSP_SAFE,
    "responseHandling": [
        {"code": "204", "swap": False},
        {"code": "[23]..", "swap": True},
        {"code": "4..", "swap": True, "error": False},
        {"code": "...", "swap": False, "error": True},
    ]
}


@register.simple_tag
def htmx_config():
    """The pages' htmx configuration, as the `htmx-config` meta tag's JSON."""
    return json.dumps(HTMX_CONFIG)


@register.filter
def encounter_state(encounter):
    """"round 3, live" for a running encounter; "preparing", "ended" otherwise."""
    if encounter.status == "running":
        return f"round {encounter.round_number}, live"
    return encounter.get_status_display().lower()


@register.simple_tag
def event_item(event, announce=""):
    """The opening `<li>` of an event's line: its id, its kind as a class, storyguide-only marked, and the
    event as a sentence to show in a pop-up and read out (`combat.sentences`), when given."""
    marks = " sg-only" if event.storyguide_only else ""
    marks += " undone" if getattr(event, "undone_by", None) else ""
    said = format_html(' data-announce="{}"', announce) if announce else ""
    return format_html(
        '<li id="event-{}" class="event event-{}{}" data-seq="{}" data-kind="{}"{} data-testid="event-{}">',
        event.seq, event.kind, marks, event.seq, event.kind, said, event.seq,
    )


@register.tag
def event_line(parser, token):
    """`{% event_line event %}…{% endevent_line %}`: the line in its `<li>` (`event_item`), which carries the
    event said as a sentence (`combat.sentences`)."""
    _, event = token.split_contents()
    nodelist = parser.parse(("endevent_line",))
    parser.delete_first_token()
    return EventLineNode(parser.compile_filter(event), nodelist)


class EventLineNode(template.Node):
    """Renders an event's line in its `<li>`, with the event's sentence from its fields."""

    def __init__(self, event, nodelist):
        self.event, self.nodelist = event, nodelist

    def render(self, context):
        """The `<li>`, the line, and its end."""
        event = self.event.resolve(context)
        said = spoken(context, event)
        return format_html("{}{}</li>", event_item(event, said), self.nodelist.render(context))


def read_whole(context, event, *, by_audience: bool = False) -> bool:
    """Whether the page's reader reads the event in the storyguide's version: as the archive marked it
    (`whole`: a step of an encounter whose seat they held then or hold now), else as the page says
    (`is_storyguide`, or with `by_audience` its audience)."""
    whole = getattr(event, "whole", None)
    if whole is not None:
        return whole
    return bool(context.get("is_storyguide")) or by_audience and context.get("audience") == STORYGUIDE


def spoken(context, event) -> str:
    """The event as one sentence from its fields, as the page's audience sees them (`combat.sentences`)."""
    system = context.get("system") or systems.of(event.encounter.saga)
    storyguide = read_whole(context, event, by_audience=True)
    payload = context.get("p")
    payload = (event.payload if payload is None else payload) or {}
    return sentences.sentence(system, event.kind, payload, context.get("names") or {}, storyguide=storyguide)


@register.simple_tag(takes_context=True)
def undone_note(context, event):
    """Beside a line an undo took back (`combat.undo`): "undone: the reason" (the storyguide also reads
    the undo's number); nothing beside any other line."""
    undo = getattr(event, "undone_by", None)
    if undo is None:
        return ""
    number = format_html(' <span class="seq-no">#{}</span>', undo.seq) if read_whole(context, event) else ""
    said = reason(undo)
    note = ' <span class="undone-note" data-testid="undone-note">undone{}{}</span>'
    return format_html(note, number, f": {said}" if said else "")


@register.simple_tag(takes_context=True)
def event_where(context, event, in_round=False):
    """Where an event happened, in its rule system's words (`Log.event_label`); the storyguide
    also sees its sequence number; a line an undo took back says so beside it (`undone_note`)."""
    system = context.get("system") or systems.of(event.encounter.saga)
    label = system.log.event_label(event, in_round=bool(in_round))
    note = undone_note(context, event)
    if read_whole(context, event):
        where = '<span class="seq">{} <span class="seq-no">#{}</span></span>{}'
        return format_html(where, label, event.seq, note)
    return format_html('<span class="seq">{}</span>{}', label, note)


@register.filter
def event_template(event):
    """The template of an event's line in the log, as its kind declares it."""
    kind = systems.event_kind(event.kind)
    return kind.template if kind else "combat/events/unknown.html"


@register.inclusion_tag("combat/_side_choice.html")
def side_choice():
    """The set-up panel's choice of side: the players', the opponents', or a named third side."""
    from combat import sides

    return {"choices": sides.CHOICES, "third": sides.THIRD, "max_length": sides.MAX_SIDE}



@register.simple_tag(takes_context=True)
def posts_to(context, name, *args):
    """A command form's attributes and CSRF field's value: htmx posts it, and a click before htmx has loaded
    (the page still loading) posts it plainly rather than losing it as a GET; `combat.views.sent_plainly`
    answers that with the page. `{% posts_to "view" id as post %}<form {{ post.attrs }}>{{ post.token }}`"""
    url = reverse(name, args=args)
    token = context.get("csrf_token")  # none in a live frame, drawn with no request: htmx sends the header
    field = format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token) if token else ""
    return {"attrs": format_html('method="post" action="{}" hx-post="{}"', url, url), "token": field}
