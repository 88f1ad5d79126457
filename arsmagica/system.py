"""Ars Magica 3rd edition combat, as the table core sees it: the six-phase round, fatigue and body
levels, stress dice and botches (ArM3 p163-p177). Imports nothing of Django's at module level."""

from __future__ import annotations

from combat.systems import RuleSystem

from . import KEY


class ArsMagica(RuleSystem):
    key = KEY
    label = "Ars Magica 3rd edition"
    short_name = "Ars Magica"
    urls = "arsmagica.urls"
    level_headings = ("Fatigue level", "Body level")
    combatant_keys = frozenset({"attacker", "defender", "caster"})
    sheet_template = "arsmagica/_sheet.html"
    sheet_form_template = "arsmagica/_sheet_form.html"
    frame_template = "arsmagica/_frame_panels.html"

    @property
    def event_kinds(self):
        from .events import EVENT_KINDS

        return EVENT_KINDS

    def sheet_forms(self, saga, character, data=None):
        from .sheet_forms import sheet_forms

        return sheet_forms(saga, character, data)

    def sheet_context(self, character) -> dict:
        from .presenters import level_labels
        from .sheet import SCORES, sheet_of

        sheet = sheet_of(character)
        return {
            "scores": [(score.label, getattr(sheet, score.name)) for score in SCORES],
            "levels": level_labels(character),
            "weapons": list(character.weapons.all()),
        }

    def copy_rows(self, original, copies):
        from .models import Weapon

        fields = [f.name for f in Weapon._meta.concrete_fields if f.name not in ("id", "character")]
        weapons = list(original.weapons.all())
        Weapon.objects.bulk_create(
            Weapon(character=copy, **{name: getattr(weapon, name) for name in fields})
            for copy in copies
            for weapon in weapons
        )

    def levels(self, character) -> list[tuple[str, str]]:
        from .presenters import level_labels

        return level_labels(character)

    def encounter_page(self, request, encounter, audience):
        from django.shortcuts import redirect

        from combat.audience import STORYGUIDE

        from .views import control_panel

        if audience != STORYGUIDE:
            return redirect("encounter_play", encounter_id=encounter.pk)
        return control_panel(request, encounter)

    def table_facts(self, encounter, read=None):
        from .panels import table_facts

        return table_facts(encounter, read)

    def state_context(self, encounter, audience, facts=None):
        from .panels import state_context

        return state_context(encounter, audience, facts)

    def frame_context(self, events, *, replay, context):
        from .panels import frame_context

        return frame_context(events, replay=replay, context=context)

    def setup_refusal(self, encounter):
        from .rules.table import can_change_combatants
        from .services.table import table_of

        return can_change_combatants(table_of(encounter))

    def rounds_played(self, encounter):
        from .services.round import rounds_played

        return rounds_played(encounter)

    def combatants_changed(self, encounter):
        from .services.round import combatants_changed

        return combatants_changed(encounter)

    def saga_panels(self, saga, user):
        from django.urls import reverse

        return [reverse("saga_time", args=[saga.pk])] if saga.storyguide_id == user.pk else []

    def event_label(self, event, *, in_round=False):
        from .presenters import event_label

        return event_label(event, in_round=in_round)

    def players_payload(self, event, own, players, npc_rolls):
        from .presenters import players_payload

        return players_payload(event, own, players, npc_rolls)

    def players_record(self, record, characters, npc_rolls):
        from .presenters import players_record

        return players_record(record, characters, npc_rolls)

    def archive_rows(self, saga):
        from .archive import archive_rows

        return archive_rows(saga)

    def renumbered(self, where, value, ids):
        from .archive import renumbered

        return renumbered(where, value, ids)

    replay_template = "arsmagica/_replay.html"

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

    undo_kinds = ("phase_undone",)  # arsmagica.events.Kind.PHASE_UNDONE

    def takes_back(self, undo, standing):
        from .replay import takes_back

        return takes_back(undo, standing)

    @property
    def chart_kinds(self):
        from .replay import CHART_KINDS

        return CHART_KINDS

    @property
    def chart_unread(self):
        from .replay import CHART_UNREAD

        return CHART_UNREAD

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

        call_command("load_demo", stdout=stdout)
