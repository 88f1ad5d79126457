"""The coin duel as the table core sees it: registered only in the test settings."""

from __future__ import annotations

from combat.systems import RuleSystem

from . import KEY


def panels(encounter, audience: str) -> dict:
    """The duel's panel: who has how many hits, whether the storyguide may flip (never once it is over)."""
    from combat.audience import STORYGUIDE
    from combat.models import Encounter

    from . import rules, services

    duel, names = services.duel_of(encounter)
    return {
        "encounter": encounter,
        "audience": audience,
        "is_storyguide": audience == STORYGUIDE,
        "flips_offered": audience == STORYGUIDE and encounter.status != Encounter.Status.ENDED,
        "duellists": [(names[who], duel.hits.get(who, 0)) for who in duel.duellists],
        "cannot_flip": rules.can_flip(duel),
        "last_seq": encounter.last_seq,
    }


class CoinDuel(RuleSystem):
    key = KEY
    label = "Coin duel"
    urls = "tests.coinduel.urls"
    sheet_template = "coinduel/_sheet.html"
    sheet_form_template = "coinduel/_sheet_form.html"
    frame_template = "coinduel/_panels.html"

    @property
    def event_kinds(self):
        from .events import EVENT_KINDS

        return EVENT_KINDS

    def sheet_forms(self, saga, character, data=None):
        from .sheet import sheet_forms

        return sheet_forms(character, data)

    def encounter_page(self, request, encounter, audience):
        from .views import table

        return table(request, encounter, audience)

    def state_context(self, encounter, audience, facts=None):
        return panels(encounter, audience)

    def event_label(self, event, *, in_round=False):
        if in_round or not event.round_number:
            return "" if in_round else "Before the first flip"
        return f"Turn {event.round_number}"

    def round_heading(self, number: int) -> str:
        return f"Turn {number}" if number else "Before the first flip"

    def renumbered(self, where, value, ids):
        return ids.walk(
            value,
            combatant=frozenset({"combatant", "winner"}),
            by_combatant=frozenset({"faces", "hits", "names"}),
        )

    def resolve_file(self, data):
        from .rules import resolve

        return resolve(data)

    def load_demo(self, stdout):
        from campaign.demo import demo_saga

        saga, created, _, _ = demo_saga("A coin duel", KEY, [])
        stdout.write(f'Demo saga "{saga.name}" is {"made" if created else "already there"}.\n')
