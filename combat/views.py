"""Combat pages: thin views over the combat services.

The storyguide's buttons post here and get back an empty error slot (or the error); the
change itself reaches every screen, the storyguide's too, through the websocket push.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import get_membership, is_storyguide

from . import services
from .audience import PLAYERS, STORYGUIDE
from .errors import CombatError, InvalidCommand
from .forms import CorrectionForm, DeclarationForm, EncounterForm
from .models import Declaration, Encounter
from .panels import combatants_of, state_context


def _encounter_for(user, encounter_id) -> Encounter:
    """The encounter, for members of its saga; 404 for anyone else."""
    encounter = get_object_or_404(Encounter.objects.select_related("saga"), pk=encounter_id)
    get_membership(user, encounter.saga_id)
    return encounter


def error_slot(request, message: str = "", status: int = 200) -> HttpResponse:
    """The form's error slot: empty after a command that worked, else the message (d6table's too)."""
    return render(request, "combat/_error.html", {"message": message}, status=status)


def storyguide_command(view):
    """POST only, storyguide only; CombatError becomes the message in the form's error slot."""

    @functools.wraps(view)
    @login_required
    @require_POST
    def wrapper(request, encounter_id, *args, **kwargs):
        encounter = _encounter_for(request.user, encounter_id)
        if not is_storyguide(request.user, encounter.saga):
            raise PermissionDenied("Only the storyguide can do that.")
        try:
            response = view(request, encounter, *args, **kwargs)
        except CombatError as error:
            return error_slot(request, str(error), error.status)
        return response or error_slot(request)

    return wrapper


def posted_version(request) -> int:
    """The encounter version the page was drawn at, posted with every command (d6table's too)."""
    try:
        return int(request.POST.get("expected_version", ""))
    except ValueError:
        raise InvalidCommand("The page sent no version; reload it.") from None


# --- pages -------------------------------------------------------------------------------------


@login_required
@require_GET
def encounter_page(request, encounter_id):
    """The storyguide's control panel; a player is sent to the player page."""
    encounter = _encounter_for(request.user, encounter_id)
    if encounter.saga.is_d6:
        return redirect("d6_table", encounter_id=encounter.pk)
    if not is_storyguide(request.user, encounter.saga):
        return redirect("encounter_play", encounter_id=encounter.pk)
    context = state_context(encounter, STORYGUIDE)
    context.update(_page_context(encounter, STORYGUIDE))
    return render(request, "combat/control_panel.html", context)


@login_required
@require_GET
def encounter_play(request, encounter_id):
    """The player page: their characters' declarations, then the live round."""
    encounter = _encounter_for(request.user, encounter_id)
    if encounter.saga.is_d6:
        return redirect("d6_table", encounter_id=encounter.pk)
    if is_storyguide(request.user, encounter.saga):
        return redirect("encounter_page", encounter_id=encounter.pk)
    context = state_context(encounter, PLAYERS)
    context.update(_page_context(encounter, PLAYERS))
    return render(request, "combat/play.html", context)


def _page_context(encounter: Encounter, audience: str) -> dict:
    return {
        "events": _visible_log(encounter, audience),
        "ws_url": f"/ws/encounters/{encounter.pk}/",
    }


def _visible_log(encounter, audience):
    events = encounter.events.order_by("seq")
    if audience != STORYGUIDE:
        events = events.filter(storyguide_only=False)
    return list(events)


# --- declarations ------------------------------------------------------------------------------


def _declaration_forms(request, encounter: Encounter, storyguide: bool, bound: dict | None = None):
    combatants = combatants_of(encounter)
    declarations = {
        d.combatant_id: d
        for d in Declaration.objects.filter(encounter=encounter, round_number=encounter.round_number)
    }
    mine = [
        c
        for c in combatants
        if (c.character.is_npc if storyguide else c.character.owner_id == request.user.pk)
    ]
    others = [c for c in combatants if c not in mine] if storyguide else []
    forms = []
    for combatant in mine + others:
        form = (bound or {}).get(combatant.pk) or DeclarationForm(
            combatant=combatant,
            others=combatants,
            physical=encounter.saga.physical_dice,
            storyguide=storyguide,
            declaration=declarations.get(combatant.pk),
        )
        forms.append(
            {
                "form": form,
                "combatant": combatant,
                "declaration": declarations.get(combatant.pk),
                "own": combatant in mine,
            }
        )
    return forms


@login_required
@require_GET
def my_declarations(request, encounter_id):
    """The declaration forms this person may fill in: a player's characters, the storyguide's NPCs."""
    encounter = _encounter_for(request.user, encounter_id)
    storyguide = is_storyguide(request.user, encounter.saga)
    return render(
        request,
        "combat/_my_declarations.html",
        {
            "encounter": encounter,
            "entries": _declaration_forms(request, encounter, storyguide),
            "is_storyguide": storyguide,
        },
    )


@login_required
@require_POST
def declare(request, encounter_id, combatant_id):
    """Declare for one combatant; the form comes back, with its errors beside it if any."""
    encounter = _encounter_for(request.user, encounter_id)
    storyguide = is_storyguide(request.user, encounter.saga)
    combatants = combatants_of(encounter)
    combatant = next((c for c in combatants if c.pk == combatant_id), None)
    if combatant is None:
        raise Http404("No such combatant.")
    if not storyguide and (combatant.character.is_npc or combatant.character.owner_id != request.user.pk):
        raise PermissionDenied("You can only declare for your own characters.")
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
            saved = services.declare(request.user, encounter.pk, combatant.pk, form.values())
        except CombatError as error:
            form.add_error(None, str(error))
            status = error.status if error.status != 400 else 422
    else:
        status = 422
    encounter.refresh_from_db()
    return render(
        request,
        "combat/_declaration_form.html",
        {
            "encounter": encounter,
            "entry": {"form": form, "combatant": combatant, "declaration": saved, "own": True},
            "saved": saved is not None,
        },
        status=status,
    )


# --- the storyguide's commands -----------------------------------------------------------------


@login_required
@require_POST
def encounter_create(request, saga_id):
    """A new encounter from the saga page; its control panel opens next."""
    get_membership(request.user, saga_id)
    form = EncounterForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the encounter a name.")
        return redirect("saga_detail", saga_id=saga_id)
    try:
        encounter = services.create_encounter(request.user, saga_id, form.cleaned_data["name"])
    except CombatError as error:
        if error.status == 403:
            raise PermissionDenied(str(error)) from None
        messages.error(request, str(error))
        return redirect("saga_detail", saga_id=saga_id)
    url = reverse("encounter_page", args=[encounter.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@storyguide_command
def add_combatants(request, encounter):
    services.add_combatants(
        request.user,
        encounter.pk,
        posted_version(request),
        request.POST.getlist("characters"),
        request.POST.get("side", ""),
    )
    return HttpResponseClientRedirect(reverse("encounter_page", args=[encounter.pk]))


@storyguide_command
def remove_combatant(request, encounter, combatant_id):
    services.remove_combatant(request.user, encounter.pk, posted_version(request), combatant_id)
    return HttpResponseClientRedirect(reverse("encounter_page", args=[encounter.pk]))


@storyguide_command
def open_declarations(request, encounter):
    services.open_declarations(request.user, encounter.pk, posted_version(request))


@storyguide_command
def close_declarations(request, encounter):
    services.close_declarations(request.user, encounter.pk, posted_version(request))


def _options(post) -> dict:
    """Preview form fields `botch_dice-<id>`, `modifiers-<id>`, `ease_factors-<id>`,
    `on_success-<attacker>:<defender>` as the services' options."""
    options: dict = {"botch_dice": {}, "modifiers": {}, "ease_factors": {}, "on_success": {}}
    for key, value in post.items():
        name, _, who = key.partition("-")
        if name in options and who:
            options[name][who] = value
    options["extra_fatigue_rollers"] = post.getlist("extra_fatigue_rollers")
    return options


def _faces(post) -> dict:
    """Typed faces `faces-<id>-<purpose>` as {id: {purpose: [faces]}}; blank entries are left out."""
    from .services.dice import parse_faces

    faces: dict = {}
    for key, value in post.items():
        if key.startswith("faces-") and value.strip():
            _, who, purpose = key.split("-", 2)
            faces.setdefault(who, {})[purpose] = parse_faces(value, f"{purpose} faces")
    return faces


@storyguide_command
def preview_phase(request, encounter):
    phase = request.POST.get("phase", "")
    services.preview_phase(
        request.user,
        encounter.pk,
        posted_version(request),
        phase,
        _options(request.POST),
        _faces(request.POST),
    )


@storyguide_command
def confirm_phase(request, encounter):
    phase = request.POST.get("phase", "")
    services.confirm_phase(request.user, encounter.pk, posted_version(request), phase, _options(request.POST))


@storyguide_command
def end_round(request, encounter):
    services.end_round(request.user, encounter.pk, posted_version(request))


@storyguide_command
def correct(request, encounter):
    form = CorrectionForm(request.POST, combatants=combatants_of(encounter))
    if not form.is_valid():
        errors = "; ".join(
            f"{form.fields[f].label or f}: {' '.join(e)}" if f != "__all__" else " ".join(e)
            for f, e in form.errors.items()
        )
        raise InvalidCommand(errors)
    data = form.cleaned_data
    services.correct(
        request.user,
        encounter.pk,
        posted_version(request),
        data["combatant"],
        {
            key: data.get(key)
            for key in ("fatigue_level", "body_level", "advantage_attack", "advantage_defense")
        },
        data["reason"],
    )


@storyguide_command
def end_encounter(request, encounter):
    services.end_encounter(request.user, encounter.pk, posted_version(request))
