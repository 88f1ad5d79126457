"""The core's wording, made in Python: an encounter's state, an event's line, the htmx configuration."""

import json
from types import SimpleNamespace

from django.template import Context, Template

from combat.templatetags.combat_tags import encounter_state, event_item, htmx_config


class Row(SimpleNamespace):
    def get_status_display(self):
        return self.status.title()


def test_a_running_encounter_says_its_round_and_that_it_is_live():
    assert encounter_state(Row(status="running", round_number=3)) == "round 3, live"
    assert encounter_state(Row(status="preparing", round_number=0)) == "preparing"
    assert encounter_state(Row(status="ended", round_number=5)) == "ended"


def test_an_event_line_opens_with_its_seq_kind_and_privacy():
    event = SimpleNamespace(seq=7, kind="attack", storyguide_only=True)
    assert event_item(event) == (
        '<li id="event-7" class="event event-attack sg-only" data-seq="7" data-kind="attack"'
        ' data-testid="event-7">'
    )
    assert "sg-only" not in event_item(SimpleNamespace(seq=8, kind="declared", storyguide_only=False))


def test_where_an_event_happened_comes_from_its_system_and_the_storyguide_sees_its_number():
    class Log:
        def event_label(self, event, *, in_round=False):
            return "Melee" if in_round else "R1 · Melee"

    class System:
        log = Log()

    template = Template("{% load combat_tags %}{% event_where event in_round %}")
    event = SimpleNamespace(seq=12)
    storyguide = template.render(Context({"system": System(), "event": event, "is_storyguide": True}))
    player = template.render(Context({"system": System(), "event": event, "in_round": True}))
    assert storyguide == '<span class="seq">R1 · Melee <span class="seq-no">#12</span></span>'
    assert player == '<span class="seq">Melee</span>'


def test_htmx_swaps_refusals_into_their_slot_and_no_server_error():
    rules = json.loads(htmx_config())["responseHandling"]
    assert {"code": "4..", "swap": True, "error": False} in rules
    assert rules[-1] == {"code": "...", "swap": False, "error": True}
