"""The d6 table's pages: the table itself, the defence's number to meet, the saga's attribute names. Its
commands are declared in d6/commands.py, from which their URLs and views follow."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_safe
from typing_extensions import override

from campaign.access import require_a_storyguide
from campaign.secure_context import secure_context
from campaign.sent_once import sent_once
from combat import systems
from combat.access import encounter_for, holds_seat
from combat.audience import PLAYERS, STORYGUIDE
from combat.views import visible_log

from . import KEY, panels, services
from .kinds import BREATHER, ROLL
from .panels import state_context
from .panels import to_meet as defence_to_meet
from .rules.table import can_change_combatants
from .sheet import saga_attributes as attribute_names_of
from .sheet_forms import D6AttributesForm
from .state import table_state

# --- pages -------------------------------------------------------------------------------------


@login_required
@require_GET
def table(request, encounter_id):
    """The d6 table: the storyguide's controls, or a player's view of the same fight and chase."""
    encounter = encounter_for(request.user, encounter_id, KEY)
    audience = STORYGUIDE if holds_seat(request.user, encounter) else PLAYERS
    context = state_context(encounter, audience)
    context.update(
        events=visible_log(encounter, audience),
        ws_url=f"/ws/encounters/{encounter.pk}/",
        last_seq=encounter.last_seq,
        plain_http=audience == STORYGUIDE and not secure_context(request),
    )
    return render(request, "d6/table.html", context)


@login_required
@require_safe
def to_meet(request, encounter_id):
    """The line of the awaited defence with the number it must meet, for the player of the defending
    character (and the storyguide); any other member gets the line without it (issue 35, item 10). The
    players' panels, the same for every player, leave it out; the defender's page asks for it here."""
    encounter = encounter_for(request.user, encounter_id, KEY)
    meet = defence_to_meet(encounter, request.user)
    return render(request, "d6/_to_meet.html", {"meet": meet})


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def saga_attributes(request, saga_id):
    """Any of the saga's storyguides names the attributes of the saga's sheets."""
    saga = require_a_storyguide(request.user, saga_id)
    if saga.rule_system != KEY:
        raise Http404("Only d6 sagas have named attributes.")
    form = D6AttributesForm(request.POST or None, initial={"names": "\n".join(attribute_names_of(saga))})
    if request.method == "POST" and form.is_valid():
        services.set_attributes(saga, form.cleaned_data["names"])
        messages.success(request, "Attributes saved.")
        return redirect("saga_detail", saga_id=saga.pk)
    return render(request, "d6/attributes_form.html", {"saga": saga, "form": form})


class Page(systems.Page):
    """A d6 encounter at the table: its fight and chase page, panels and set-up."""

    FRAME_TEMPLATE = panels.FRAME_TEMPLATE
    CORE_KIND_PANELS = panels.CORE_KIND_PANELS

    @override
    def encounter_page(self, request, encounter, audience: str):
        """The encounter's page (the page role's): the d6 table, for either audience."""
        return redirect("d6:table", encounter_id=encounter.pk)

    @override
    def state_context(self, encounter, audience, facts=None):
        return state_context(encounter, audience, facts)

    @override
    def table_facts(self, encounter, read=None):
        return panels.table_facts(encounter, read)

    @override
    def setup_refusal(self, encounter) -> str | None:
        """Why combatants cannot join or leave now (in a fight or a chase), or None."""
        return can_change_combatants(table_state(encounter))

    @override
    def rounds_played(self, encounter) -> int:
        """The rounds the fight played: its round number, less the current round while nobody has rolled a
        challenge or taken a breather in it (initiative rolled, or a new round begun, and no more) [ours]."""
        acted = encounter.events.filter(kind__in=(ROLL, BREATHER), round_number=encounter.round_number)
        if encounter.round_number and not acted.exists():
            return encounter.round_number - 1
        return encounter.round_number
