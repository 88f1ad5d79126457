"""The d6 fatigue-track system, as the table core sees it: turn-based fights and chases on a grid,
fatigue rising on physical rolls (d6 seed). Imports nothing of Django's at module level."""

from __future__ import annotations

from combat.systems import RuleSystem

from . import KEY


class D6Fatigue(RuleSystem):
    key = KEY
    label = "d6 fatigue track"
    short_name = "d6 fatigue-track"
    urls = "d6.urls"
    level_headings = ("Fatigue",)
    combatant_keys = frozenset({"target", "mover", "chaser", "runner"})
    sheet_template = "d6table/_sheet.html"
    sheet_form_template = "d6table/_sheet_form.html"
    frame_template = "d6table/_frame_panels.html"
    log_stylesheets = ("css/d6table.css",)  # the dice faces (.d6-faces), a roll's success and fatigue

    @property
    def event_kinds(self):
        from .events import EVENT_KINDS

        return EVENT_KINDS

    def sheet_forms(self, saga, character, data=None):
        from .sheet_forms import sheet_forms

        return sheet_forms(saga, character, data)

    def sheet_context(self, character) -> dict:
        from .services.sheet import attribute_rows, stamina_base
        from .sheet import sheet_of

        sheet = sheet_of(character)
        return {
            "attribute_rows": attribute_rows(character),
            "base_fatigue": stamina_base(character),
            "fatigue": sheet.fatigue,
            "abilities": sheet.abilities,
        }

    def levels(self, character) -> list[tuple[str, str]]:
        from .sheet import sheet_of

        return [("Fatigue", str(sheet_of(character).fatigue))]

    def saga_links(self, saga) -> list[tuple[str, str, str]]:
        from django.urls import reverse

        from .sheet import saga_attributes

        names = ", ".join(saga_attributes(saga))
        return [(reverse("saga_d6_attributes", args=[saga.pk]), "Attributes on the d6 sheets", names)]

    def encounter_page(self, request, encounter, audience):
        from django.shortcuts import redirect

        return redirect("d6_table", encounter_id=encounter.pk)

    def table_facts(self, encounter, read=None):  # the d6 services hand over none
        from .panels import table_facts

        return table_facts(encounter)

    def state_context(self, encounter, audience, facts=None):
        from .panels import state_context

        return state_context(encounter, audience, facts)

    def rounds_played(self, encounter):
        from .services.fight import rounds_played

        return rounds_played(encounter)

    def setup_refusal(self, encounter):
        from .rules.table import can_change_combatants
        from .state import table_state

        return can_change_combatants(table_state(encounter))

    def event_label(self, event, *, in_round=False):
        from .presenters import event_label

        return event_label(event, in_round=in_round)

    def players_payload(self, event, own, players, npc_rolls):
        from .presenters import players_payload

        return players_payload(event, own, players, npc_rolls)

    def round_heading(self, number: int) -> str:
        return f"Round {number}" if number else "Outside a fight"

    def archive_rows(self, saga):
        from .archive import archive_rows

        return archive_rows(saga)

    def renumbered(self, where, value, ids):
        from .archive import renumbered

        return renumbered(where, value, ids)

    replay_template = "d6table/_replay.html"

    def joining_levels(self, combatant):
        from .replay import joining_levels

        return joining_levels(combatant)

    def replay_start(self):
        from .replay import Table

        return Table()

    def replay_apply(self, table, event):
        from .replay import apply

        return apply(table, event)

    def replay_context(self, table):
        from .replay import replay_context

        return replay_context(table)

    @property
    def chart_kinds(self):
        from .replay import CHART_KINDS

        return CHART_KINDS

    @property
    def chart_tracks(self):
        from .replay import chart_tracks

        return chart_tracks()

    def chart_levels(self, table):
        from .replay import chart_levels

        return chart_levels(table)

    def chart_marks(self, event):
        from .replay import chart_marks

        return chart_marks(event)

    def chart_tally(self, event):
        from .replay import chart_tally

        return chart_tally(event)

    def recap_rolls(self, event):
        from .replay import recap_rolls

        return recap_rolls(event)

    def survived(self, table, combatant_id):
        from .replay import survived

        return survived(table, combatant_id)

    def resolve_file(self, data):
        from .rules.encounter_file import resolve

        return resolve(data)

    def load_demo(self, stdout):
        from django.core.management import call_command

        call_command("load_demo_d6", stdout=stdout)
