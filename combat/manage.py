"""An encounter's housekeeping, by whoever holds its seat or the saga's lead: rename it, delete it (with a
confirmation; one with history is archived) or restore it, on campaign's housekeeping page
(campaign/manage.py). Each form is sent once (campaign.sent_once); players and the saga's other storyguides
get 403 (the latter told who holds the seat), outsiders 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import get_membership, is_a_storyguide
from campaign.forms import DeleteForm, RenameForm
from campaign.manage import Thing, manage_page
from campaign.sent_once import sent_once

from . import services
from .access import require_seat_or_lead
from .errors import CombatError, NotAllowed
from .models import Encounter
from .services.setup import encounter_has_history


def _encounter_thing(encounter: Encounter) -> Thing:
    return Thing(
        "encounter",
        encounter.name,
        120,
        encounter_has_history(encounter),
        encounter.archived_at is not None,
        reverse("saga_detail", args=[encounter.saga_id]),
        reverse("encounter_rename", args=[encounter.pk]),
        reverse("encounter_delete", args=[encounter.pk]),
        reverse("encounter_restore", args=[encounter.pk]),
    )


def _storyguides_encounter(user, encounter_id) -> Encounter:
    """The encounter, for its seat's holder or its saga's lead (`require_seat_or_lead`); 403 for its saga's
    other members, 404 for outsiders."""
    encounter = get_object_or_404(Encounter.objects.select_related("saga", "seat_holder"), pk=encounter_id)
    get_membership(user, encounter.saga_id)
    try:
        require_seat_or_lead(user, encounter)
    except NotAllowed as refused:
        raise PermissionDenied(str(refused)) from None
    return encounter


@login_required
@require_http_methods(["GET"])
def encounter_manage(request, encounter_id):
    """The encounter's housekeeping page; one of the saga's storyguides without its seat (the saga page's
    link is in the frame every storyguide shares) is told who holds it instead, with no forms."""
    encounter = get_object_or_404(Encounter.objects.select_related("saga", "seat_holder"), pk=encounter_id)
    get_membership(request.user, encounter.saga_id)
    try:
        require_seat_or_lead(request.user, encounter)
    except NotAllowed as refused:
        if not is_a_storyguide(request.user, encounter.saga):
            raise PermissionDenied(str(refused)) from None
        return manage_page(request, encounter.saga, _encounter_thing(encounter), refused=str(refused))
    return manage_page(request, encounter.saga, _encounter_thing(encounter))


@login_required
@require_POST
@sent_once
def encounter_rename(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    form = RenameForm(request.POST, max_length=120)
    if form.is_valid():
        try:
            services.rename_encounter(request.user, encounter.pk, form.cleaned_data["name"])
        except CombatError as error:
            raise PermissionDenied(str(error)) from None
        messages.success(request, f"The encounter is now “{form.cleaned_data['name']}”.")
        return redirect("saga_detail", saga_id=encounter.saga_id)
    return manage_page(request, encounter.saga, _encounter_thing(encounter), rename_form=form, status=400)


@login_required
@require_POST
@sent_once
def encounter_delete(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    thing = _encounter_thing(encounter)
    form = DeleteForm(request.POST, name=encounter.name, history=thing.history)
    if not form.is_valid():
        return manage_page(request, encounter.saga, thing, delete_form=form, status=400)
    typed = form.cleaned_data.get("typed_name", "")
    if services.delete_encounter(request.user, encounter.pk, typed):
        messages.success(request, f"“{thing.name}” is deleted, with its log.")
    else:
        messages.success(request, f"“{thing.name}” has history, so it is archived: listed apart below.")
    return redirect("saga_detail", saga_id=encounter.saga_id)


@login_required
@require_POST
@sent_once
def encounter_restore(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    services.set_encounter_archived(request.user, encounter.pk, False)
    messages.success(request, f"“{encounter.name}” is restored.")
    return redirect("saga_detail", saga_id=encounter.saga_id)
