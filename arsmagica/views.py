"""Ars Magica's pages and the commands that answer with fragments of their own: the storyguide's control
panel, the player page, declarations. Thin views over `arsmagica.services`; refusals go through
`combat.answers`. The round's other commands are declared in arsmagica/commands.py, views and all."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap
from typing_extensions import override

from campaign.access import is_a_storyguide
from campaign.secure_context import secure_context
from combat import answers, systems
from combat.access import encounter_for, holds_seat, require_seat
from combat.audience import PLAYERS, STORYGUIDE
from combat.errors import CombatError, NotAllowed
from combat.models import Encounter
from combat.views import command_encounter, drawn_page, posted_version, visible_log, wants_a_page

from . import KEY, panels, recovery_views, services
from .commands import errors_in_words
from .forms import DeclarationForm
from .models import Declaration
from .panels import declaration_entries, npcs_to_repeat, state_context, still_to_declare
from .panels import declaration_form as declaration_form_of
from .presenters import my_declarations_words
from .rules.table import can_change_combatants, can_declare
from .services.declarations import last_round_declaration
from .services.table import Seen, combatants_of, declarations_in, last_confirmed, table_of

# --- pages -------------------------------------------------------------------------------------


def control_panel(request, encounter: Encounter):
    """The storyguide's control panel."""
    context = state_context(encounter, STORYGUIDE)
    context.update(
        events=visible_log(encounter, STORYGUIDE),
        ws_url=f"/ws/encounters/{encounter.pk}/",
        last_seq=encounter.last_seq,
        plain_http=not secure_context(request),
    )
    return render(request, "arsmagica/control_panel.html", context)


@login_required
@require_GET
def encounter_play(request, encounter_id):
    """The player page: their characters' declarations, then the live round."""
    encounter = encounter_for(request.user, encounter_id)
    if encounter.saga.rule_system != KEY:  # another system's encounter: its own page
        return drawn_page(request, encounter, PLAYERS)
    if holds_seat(request.user, encounter):
        return redirect("encounter_page", encounter_id=encounter.pk)
    context = state_context(encounter, PLAYERS)
    context.update(
        events=visible_log(encounter, PLAYERS),
        ws_url=f"/ws/encounters/{encounter.pk}/",
        last_seq=encounter.last_seq,
    )
    return render(request, "arsmagica/play.html", context)


# --- declarations ------------------------------------------------------------------------------


@login_required
@require_GET
def my_declarations(request, encounter_id):
    """The declaration forms this person may fill in: a player's characters, the storyguide's NPCs."""
    return _my_declarations(request, encounter_for(request.user, encounter_id))


def _my_declarations(request, encounter: Encounter, error: CombatError | None = None, report: str = ""):
    """The declarations panel; `error`: why the storyguide's "every NPC" tap was refused, `report`: what it
    did (each beside its button)."""
    storyguide = holds_seat(request.user, encounter)
    combatants = combatants_of(encounter)
    declarations = declarations_in(encounter, encounter.round_number)
    refusal = can_declare(table_of(encounter))
    # Last round's declarations, for "same as last round": only while declarations are open.
    previous = {} if refusal else declarations_in(encounter, encounter.round_number - 1, weapons=True)
    entries = declaration_entries(
        encounter, combatants, declarations, storyguide=storyguide, user_id=request.user.pk, previous=previous
    )
    # A player's characters with a form still to send: the panel's heading names them (issue 32, item 4).
    waiting = () if refusal or storyguide else still_to_declare(combatants, declarations, request.user.pk)
    return render(
        request,
        "arsmagica/_my_declarations.html",
        {
            "encounter": encounter,
            "entries": entries,
            "is_storyguide": storyguide,
            "npcs_as_before": storyguide and npcs_to_repeat(encounter, combatants, declarations, previous),
            "refusal": refusal,
            "npcs_error": str(error) if error else "",
            "npcs_report": report,
            **my_declarations_words(encounter, storyguide, waiting),
        },
        status=answers.status_of(error, inline=True) if error else 200,
    )


def _declarable(request, encounter_id, combatant_id):
    """The encounter, whether this is its storyguide, its combatants and the one to declare for; a
    refusal when the combatant has gone or is not this person's to declare for. The command is handed the
    combatants read here (`Seen`), and reads them again only if the table has changed since."""
    encounter = command_encounter(request, encounter_id, KEY)
    storyguide = holds_seat(request.user, encounter)
    combatants = combatants_of(encounter, weapons=False)  # one form: its combatant's weapons alone
    combatant = next((c for c in combatants if c.pk == combatant_id), None)
    if combatant is None:
        raise NotAllowed("This combatant is no longer in the fight.")
    if not storyguide and (combatant.character.is_npc or combatant.character.owner_id != request.user.pk):
        raise NotAllowed("You can only declare for your own characters.")
    return encounter, storyguide, combatants, combatant


@login_required
@require_GET
def declaration_form(request, encounter_id, combatant_id):
    """One combatant's declaration form, fetched when its closed entry is opened (a refusal in its place
    when the combatant has gone or is not this person's to declare for)."""
    try:
        encounter, storyguide, combatants, combatant = _declarable(request, encounter_id, combatant_id)
    except CombatError as error:
        return answers.error_fragment(request, error)
    declaration = Declaration.objects.filter(
        encounter=encounter, combatant=combatant, round_number=encounter.round_number
    ).first()
    form = declaration_form_of(encounter, combatant, combatants, storyguide, declaration)
    entry = {"form": form, "combatant": combatant, "declaration": declaration, "own": True, "open": True}
    context = {"encounter": encounter, "entry": entry, "form": form, "combatant": combatant}
    return render(request, "arsmagica/_declaration_fields.html", context)


@login_required
@require_POST
def declare(request, encounter_id, combatant_id):
    """Declare for one combatant; the form comes back, with its errors beside it if any (a refusal
    with no form to show, the combatant gone or not theirs, takes the form's place)."""
    try:
        encounter, storyguide, combatants, combatant = _declarable(request, encounter_id, combatant_id)
    except CombatError as error:
        return _refused(request, encounter_id, error)
    form = DeclarationForm(
        request.POST,
        combatant=combatant,
        others=combatants,
        physical=encounter.saga.physical_dice,
        storyguide=storyguide,
    )
    status = 200
    saved = None
    if form.is_valid():
        try:
            seen = Seen(encounter.version, combatants, weapons=False)
            saved = services.declare(request.user, encounter.pk, combatant.pk, form.values(), seen=seen)
        except CombatError as error:
            form.add_error(None, str(error))
            status = answers.status_of(error, inline=True)
    else:
        status = 422
    if wants_a_page(request):
        return _on_the_page(request, encounter.pk, "" if saved else errors_in_words(form))
    if saved is not None and storyguide:
        return _done_by_the_frame()
    encounter.refresh_from_db()
    entry = {
        "form": form,
        "combatant": combatant,
        "declaration": saved,
        "previous": last_round_declaration(encounter, combatant.pk),
        "own": True,
        "open": True,
    }
    return _declared(request, encounter, entry, combatants, saved, status)


def _on_the_page(request, encounter_id, refusal: str = ""):
    """A declaration the browser posted itself (clicked before the page's scripts had loaded): the encounter's
    page, with what refused it, if anything, at its top."""
    if refusal:
        messages.error(request, refusal)
    return redirect("encounter_page", encounter_id=encounter_id)


def _refused(request, encounter_id, error: CombatError):
    """A declaration refused before its form was read: the words in the entry's place, or atop the page."""
    if wants_a_page(request):
        return _on_the_page(request, encounter_id, str(error))
    return answers.error_fragment(request, error)


def _done_by_the_frame() -> HttpResponse:
    """The storyguide's saved declaration: the answer swaps nothing (`HX-Reswap: none`); the storyguide's
    frame carries the entry, declared, to each of their screens, this one too (docs/architecture.md)."""
    return reswap(HttpResponse(), "none")


def _declared(request, encounter, entry: dict, combatants, saved, status: int) -> HttpResponse:
    """A player's answer: their entry, declared, or its form with the refusal beside the control; once
    saved, their panel's heading too, naming the characters still to declare for (one fewer now), which
    the players' frame, the same for every player, cannot carry. Nothing is fetched again."""
    context = {"encounter": encounter, "entry": entry, "saved": saved is not None}
    if saved is not None:
        declarations = declarations_in(encounter, encounter.round_number)
        waiting = still_to_declare(combatants, declarations, request.user.pk)
        context["heading"] = my_declarations_words(encounter, False, waiting)["heading"]
    return render(request, "arsmagica/_declaration_answer.html", context, status=status)


@login_required
@require_POST
def declare_as_before(request, encounter_id, combatant_id):
    """Declare for one combatant what it declared last round, in one tap; the form comes back."""
    try:
        encounter, storyguide, combatants, combatant = _declarable(request, encounter_id, combatant_id)
    except CombatError as error:
        return _refused(request, encounter_id, error)
    status, saved, error = 200, None, None
    try:
        seen = Seen(encounter.version, combatants, weapons=False)
        version = posted_version(request)
        saved = services.declare_as_before(request.user, encounter.pk, combatant.pk, version, seen=seen)
    except CombatError as refused:
        error, status = refused, answers.status_of(refused, inline=True)
    if wants_a_page(request):
        return _on_the_page(request, encounter.pk, str(error) if error else "")
    if saved is not None and storyguide:
        return _done_by_the_frame()
    encounter.refresh_from_db()
    declaration = (
        saved
        or Declaration.objects.filter(
            encounter=encounter, combatant=combatant, round_number=encounter.round_number
        ).first()
    )
    form = declaration_form_of(encounter, combatant, combatants, storyguide, declaration)
    if error is not None:
        form.refuse(str(error))
    entry = {"form": form, "combatant": combatant, "declaration": declaration, "own": True, "open": True}
    entry["previous"] = last_round_declaration(encounter, combatant.pk)
    return _declared(request, encounter, entry, combatants, saved, status)


@login_required
@require_POST
def declare_npcs_as_before(request, encounter_id):
    """The storyguide's one tap for every NPC not yet declared; the declarations panel comes back,
    with the reason beside the button when it is refused."""
    try:
        encounter = command_encounter(request, encounter_id, KEY)
        require_seat(request.user, encounter)
    except CombatError as error:
        return _refused(request, encounter_id, error)
    try:
        done = services.declare_npcs_as_before(request.user, encounter.pk, posted_version(request))
    except CombatError as error:
        if wants_a_page(request):
            return _on_the_page(request, encounter.pk, str(error))
        encounter.refresh_from_db()
        return _my_declarations(request, encounter, error)
    if wants_a_page(request):
        messages.info(request, done.words)
        return redirect("encounter_page", encounter_id=encounter.pk)
    encounter.refresh_from_db()
    return _my_declarations(request, encounter, report=done.words)


class Page(systems.Page):
    """An Ars Magica encounter at the table: the six-phase round's page, panels and set-up."""

    FRAME_TEMPLATE = panels.FRAME_TEMPLATE
    CORE_KIND_PANELS = panels.CORE_KIND_PANELS

    @override
    def encounter_page(self, request, encounter: Encounter, audience: str):
        """The encounter's page (the page role's): the storyguide's control panel, or the player page."""
        if audience != STORYGUIDE:
            return redirect("arsmagica:play", encounter_id=encounter.pk)
        return control_panel(request, encounter)

    @override
    def state_context(self, encounter, audience, facts=None):
        return state_context(encounter, audience, facts)

    @override
    def table_facts(self, encounter, read=None):
        return panels.table_facts(encounter, read)

    @override
    def frame_context(self, events, *, replay, context):
        return panels.frame_context(events, replay=replay, context=context)

    @override
    def setup_refusal(self, encounter: Encounter) -> str | None:
        """Why combatants cannot join or leave now (in the middle of a round), or None."""
        return can_change_combatants(table_of(encounter))

    @override
    def combatants_changed(self, encounter):
        return services.combatants_changed(encounter)

    @override
    def rounds_played(self, encounter: Encounter) -> int:
        """The rounds the encounter played: its round number, less the current round while no phase of it
        has been confirmed (declarations opened, or closed, and nothing rolled after them) [ours]."""
        if encounter.round_number and not last_confirmed(encounter.round_log or {})[0]:
            return encounter.round_number - 1
        return encounter.round_number

    @override
    def saga_panels(self, request, saga) -> list[str]:
        """The saga page's time panel, for each of its storyguides."""
        return [recovery_views.saga_time_panel(request, saga)] if is_a_storyguide(request.user, saga) else []
